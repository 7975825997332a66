// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IFuturesTypes} from "./IFuturesTypes.sol";

/// @title IFuturesEvents
/// @notice Events of the FuturesMarket (the events part of IFuturesMarket; the order-book events are declared in
///         IFuturesTypes with the types).
interface IFuturesEvents {
    /// @notice Emitted when a series is listed.
    /// @param seriesId The new series id (sequential from 1).
    /// @param expiry Expiry.
    /// @param electionCutoff Delivery elections close at this time.
    /// @param tenor Standard tenor, or Custom for governance listings.
    /// @param oiCapCh Cap per side, CH WAD.
    /// @param lister Caller.
    /// @param liveSeries Live (not price-fixed) series after.
    event SeriesListed(
        uint256 indexed seriesId,
        uint64 expiry,
        uint64 electionCutoff,
        IFuturesTypes.Tenor tenor,
        uint256 oiCapCh,
        address indexed lister,
        uint256 liveSeries
    );
    /// @notice Emitted on every trade (including option exercises, with zero fee).
    /// @param seriesId The series.
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size traded.
    /// @param priceWad Series trade price.
    /// @param indexPriceWad Index at the trade (the ClearingHouse position moves at this price).
    /// @param feeUsdc Fee charged.
    /// @param sizeCh Position size after.
    /// @param entryPriceWad Average entry price after.
    /// @param longOiCh Series trader long open interest after.
    /// @param shortOiCh Series trader short open interest after.
    event FuturesTraded(
        uint256 indexed seriesId,
        address indexed account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        uint256 indexPriceWad,
        uint256 feeUsdc,
        int256 sizeCh,
        uint256 entryPriceWad,
        uint256 longOiCh,
        uint256 shortOiCh
    );
    /// @notice Emitted when a position is reduced outside a trade: liquidation mapped onto the series, a guarantor's
    ///         close of an unproven short, or a spread flattened at settlement. The vault takes over the size.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param sizeDeltaCh Signed size change.
    /// @param priceWad Index price used.
    /// @param sizeCh Size after.
    /// @param electedCh Elected delivery after.
    /// @param longOiCh Long open interest after.
    /// @param shortOiCh Short open interest after.
    /// @param reason Why.
    event PositionReduced(
        uint256 indexed seriesId,
        address indexed account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 sizeCh,
        uint256 electedCh,
        uint256 longOiCh,
        uint256 shortOiCh,
        IFuturesTypes.ReduceReason reason
    );
    /// @notice Emitted when a long elects (or changes) delivery.
    /// @param seriesId The series.
    /// @param account The long.
    /// @param electedCh Its election after.
    /// @param seriesElectedCh Σ elections of the series after.
    event DeliveryElected(
        uint256 indexed seriesId,
        address indexed account,
        uint256 electedCh,
        uint256 seriesElectedCh
    );
    /// @notice Emitted when a short escrows CH for delivery or takes escrow back.
    /// @param seriesId The series.
    /// @param account The short.
    /// @param deltaCh Signed change.
    /// @param escrowCh Escrow after.
    event DeliveryEscrowChanged(uint256 indexed seriesId, address indexed account, int256 deltaCh, uint256 escrowCh);
    /// @notice Emitted when a guarantor demands that its short prove it can deliver.
    /// @param seriesId The series.
    /// @param account The short.
    /// @param guarantor The guarantor.
    /// @param requiredCh CH to escrow (|short size|).
    /// @param deadline Deadline.
    event DeliveryProofDemanded(
        uint256 indexed seriesId,
        address indexed account,
        address indexed guarantor,
        uint256 requiredCh,
        uint64 deadline
    );
    /// @notice Emitted with SettlementPriceProposed: the index TWAP the price was fixed from, over the window
    ///         [windowStart, windowEnd) anchored at expiry, from the consecutive feed rounds firstRoundId …
    ///         firstRoundId + rounds − 1, each weighted by the seconds it was in force inside the window.
    /// @param seriesId The series.
    /// @param windowStart Window start (expiry − TWAP_WINDOW_SEC).
    /// @param windowEnd Window end (the expiry).
    /// @param firstRoundId The round in force at the window start.
    /// @param rounds Rounds read.
    /// @param twapWad The time-weighted index, WAD (rounded down).
    event SettlementTwap(
        uint256 indexed seriesId,
        uint64 windowStart,
        uint64 windowEnd,
        uint80 firstRoundId,
        uint256 rounds,
        uint256 twapWad
    );

    /// @notice Emitted when the settlement price is fixed by the stale-window fallback rule instead of the TWAP
    ///         (`fixSettlementPriceFallback`, docs/futures.md "Stale window fallback"): the window held a stale round,
    ///         so the price is the first round published at or after expiry.
    /// @param seriesId The series.
    /// @param staleRoundId The round proven stale inside the window.
    /// @param staleAt The time inside the window it was stale at.
    /// @param roundId The first round published at or after expiry (the price).
    /// @param priceWad The price fixed (that round's validated price).
    event SettlementFallback(
        uint256 indexed seriesId,
        uint80 staleRoundId,
        uint64 staleAt,
        uint80 roundId,
        uint256 priceWad
    );

    /// @notice Emitted when anyone fixes the settlement price from the oracle after expiry.
    /// @param seriesId The series.
    /// @param priceWad Proposed settlement price (the index).
    /// @param finalAt When it becomes final.
    /// @param assignableShortCh Trader short size at expiry (assignment base).
    /// @param keeper Caller.
    /// @param bountyUsdc Bounty credited.
    /// @param liveSeries Live series after.
    event SettlementPriceProposed(
        uint256 indexed seriesId,
        uint256 priceWad,
        uint64 finalAt,
        uint256 assignableShortCh,
        address indexed keeper,
        uint256 bountyUsdc,
        uint256 liveSeries
    );
    /// @notice Emitted when the guardian corrects a proposed settlement price inside the dispute window.
    /// @param seriesId The series.
    /// @param oldPriceWad Before.
    /// @param newPriceWad After.
    /// @param by Caller.
    event SettlementPriceDisputed(uint256 indexed seriesId, uint256 oldPriceWad, uint256 newPriceWad, address by);
    /// @notice Emitted when the settlement price becomes final and delivery is assigned.
    /// @param seriesId The series.
    /// @param priceWad Final settlement price.
    /// @param electedCh Σ elected long delivery.
    /// @param assignableShortCh Σ trader short size at expiry.
    /// @param deliverableCh min(elected, assignable short): CH the shorts must deliver in total.
    /// @param shortFractionWad Part of each short's size assigned (deliverable / assignable), WAD.
    /// @param deliveryDeadline Deadline for assigned shorts.
    /// @param keeper Caller.
    /// @param bountyUsdc Bounty credited.
    event SettlementPriceFinalised(
        uint256 indexed seriesId,
        uint256 priceWad,
        uint256 electedCh,
        uint256 assignableShortCh,
        uint256 deliverableCh,
        uint256 shortFractionWad,
        uint64 deliveryDeadline,
        address indexed keeper,
        uint256 bountyUsdc
    );
    /// @notice Emitted when an assigned short's delivery is settled (delivered part paid, failed part slashed).
    /// @param seriesId The series.
    /// @param account The short.
    /// @param assignedCh Its assignment (rounded up).
    /// @param deliveredCh CH delivered (moved from escrow to the longs' pot).
    /// @param paidUsdc USDC credited for the delivered CH (price × delivered, rounded down).
    /// @param slashedUsdc USDC debited for the undelivered CH (price × undelivered × (1 + penalty), rounded up).
    /// @param collateralUsdc The short's ClearingHouse collateral after (may be < 0: liquidatable, waterfall).
    event DeliverySettled(
        uint256 indexed seriesId,
        address indexed account,
        uint256 assignedCh,
        uint256 deliveredCh,
        uint256 paidUsdc,
        uint256 slashedUsdc,
        int256 collateralUsdc
    );
    /// @notice Emitted when an electing long's delivery is settled.
    /// @param seriesId The series.
    /// @param account The long.
    /// @param electedCh Its election.
    /// @param receivedCh CH received.
    /// @param paidUsdc USDC paid: price × its deliverable share of the elected CH (rounded up), delivered or not.
    /// @param compensationUsdc Its share of the failing shorts' slashes.
    /// @param cashSettledCh Elected CH not deliverable because trader shorts were fewer (cash, no penalty).
    event DeliveryReceived(
        uint256 indexed seriesId,
        address indexed account,
        uint256 electedCh,
        uint256 receivedCh,
        uint256 paidUsdc,
        uint256 compensationUsdc,
        uint256 cashSettledCh
    );
    /// @notice Emitted when an electing long's collateral could not cover its delivery payment at settlement: CH is
    ///         handed over only against payment collected (MKT-08); the CH not paid for goes to the vault, whose pool
    ///         paid the delivering shorts.
    /// @param seriesId The series.
    /// @param account The long.
    /// @param forfeitedCh CH not handed over.
    /// @param uncollectedUsdc Payment not collected.
    /// @param vault Where the CH went (kept by the market when no vault is set).
    event DeliveryForfeited(
        uint256 indexed seriesId,
        address indexed account,
        uint256 forfeitedCh,
        uint256 uncollectedUsdc,
        address vault
    );
    /// @notice Emitted when a position is settled at the final settlement price (MKT-04).
    /// @param seriesId The series.
    /// @param account The account.
    /// @param sizeCh Size closed (signed, as held).
    /// @param priceWad Settlement price.
    /// @param realisedPnlUsdc PnL realised in the ClearingHouse by the close.
    /// @param keeper Caller.
    /// @param bountyUsdc Bounty charged to the account (0 when it settles itself).
    /// @param openPositions Positions of the series still unsettled.
    event PositionSettled(
        uint256 indexed seriesId,
        address indexed account,
        int256 sizeCh,
        uint256 priceWad,
        int256 realisedPnlUsdc,
        address indexed keeper,
        uint256 bountyUsdc,
        uint256 openPositions
    );
    /// @notice Emitted when a keeper's bounty is credited.
    /// @param keeper The keeper.
    /// @param amountUsdc Credited.
    /// @param owedUsdc The keeper's unclaimed total after.
    event BountyCredited(address indexed keeper, uint256 amountUsdc, uint256 owedUsdc);
    /// @notice Emitted when a keeper claims its bounties (paid from the market's pool).
    /// @param keeper The keeper.
    /// @param to Recipient.
    /// @param amountUsdc Paid.
    event BountiesClaimed(address indexed keeper, address to, uint256 amountUsdc);
    /// @notice Emitted when USDC moves between the vault and this market's pool.
    /// @param vault The vault.
    /// @param amountUsdc Signed: + funded from the vault, − returned to it.
    event VaultFlow(address indexed vault, int256 amountUsdc);
    /// @notice Emitted when parameters change.
    /// @param params The new parameters.
    event ParamsSet(IFuturesTypes.Params params);
    /// @notice Emitted when the vault changes.
    /// @param vault The vault.
    event VaultSet(address indexed vault);
    /// @notice Emitted when the delivery module changes.
    /// @param module The module.
    event DeliveryModuleSet(address indexed module);
    /// @notice Emitted when a series' open-interest cap changes.
    /// @param seriesId The series.
    /// @param oiCapCh Cap per side.
    event SeriesOiCapSet(uint256 indexed seriesId, uint256 oiCapCh);
    /// @notice Emitted by `roll` after both legs (each also emitted its FuturesTraded): `sizeCh` of the account's
    ///         position moved from one series to another in one call, one margin check at the end.
    /// @param account The account.
    /// @param fromSeriesId The series closed.
    /// @param toSeriesId The series opened.
    /// @param sizeDeltaCh Signed size moved (+ a long rolled, − a short).
    /// @param fromPriceWad Price of the closing leg.
    /// @param toPriceWad Price of the opening leg.
    /// @param feeUsdc Both legs' fees.
    /// @param fromSizeCh Position in `fromSeriesId` after.
    /// @param toSizeCh Position in `toSeriesId` after.
    event PositionRolled(
        address indexed account,
        uint256 indexed fromSeriesId,
        uint256 indexed toSeriesId,
        int256 sizeDeltaCh,
        uint256 fromPriceWad,
        uint256 toPriceWad,
        uint256 feeUsdc,
        int256 fromSizeCh,
        int256 toSizeCh
    );
    /// @notice Emitted when governance sets how many monthly expiries ahead the keeper checker keeps listed.
    /// @param months Monthly expiries ahead (0 = the checker lists nothing).
    event KeeperListingMonthsSet(uint256 months);
    /// @notice Emitted when the delivery-orders contract changes (issue 19: settled electing longs receive a
    ///         delivery order there instead of bare CH; 0 hands CH to the long).
    /// @param deliveryOrders The DeliveryOrders contract.
    event DeliveryOrdersSet(address indexed deliveryOrders);

    /// @notice Emitted when a failing short's penalty has been charged, in the order the long is made whole (issue
    ///         19): its slashed DPS stake first, then its margin, and what margin lacks is left to the liquidation
    ///         waterfall (the guarantor's capital, then insurance). fromSlash + fromMargin + uncovered = penalty.
    /// @param seriesId The series.
    /// @param account The short.
    /// @param penaltyUsdc The penalty owed for its undelivered CH (price × undelivered × penalty, rounded up).
    /// @param slashDps DPS slashed from its stake for the longs (net of the finder fee; 0 if not a provider).
    /// @param fromSlashUsdc The slashed DPS's value at the registry's DPS price (rounded down).
    /// @param fromMarginUsdc The part of the rest its collateral covered.
    /// @param uncoveredUsdc The part its collateral could not cover (its collateral is negative by at least this):
    ///        paid by the guarantor capital, then insurance, through liquidation.
    /// @param seriesSlashDps DPS held for the series' longs after (Σ slashDps − paid out).
    event DeliveryShortMadeWhole(
        uint256 indexed seriesId,
        address indexed account,
        uint256 penaltyUsdc,
        uint256 slashDps,
        uint256 fromSlashUsdc,
        uint256 fromMarginUsdc,
        uint256 uncoveredUsdc,
        uint256 seriesSlashDps
    );
    /// @notice Emitted when an electing long receives its pro-rata share of the DPS slashed from the series'
    ///         failing shorts (on top of its USDC compensation, which the slash's value reduced).
    /// @param seriesId The series.
    /// @param account The long.
    /// @param dps DPS paid to it.
    /// @param seriesSlashDps DPS still held for the series' other longs after.
    event DeliverySlashReceived(uint256 indexed seriesId, address indexed account, uint256 dps, uint256 seriesSlashDps);
    /// @notice Emitted for every fill of a signed order (trader against trader, at the order's price); the fill is
    ///         the series' last traded price (the curve, `curvePoint`). Each leg also emits FuturesTraded.
    /// @param digest The order's EIP-712 digest.
    /// @param seriesId The series.
    /// @param maker The maker.
    /// @param taker The taker (the caller).
    /// @param makerDeltaCh The maker's size change (the taker's is the opposite), CH WAD.
    /// @param priceWad The traded price, WAD.
    /// @param indexWad The risk price the legs were booked at in the ClearingHouse, WAD.
    /// @param filledCh The order's filled size after, CH WAD.
    /// @param remainingCh What is left of it, CH WAD.
    event FuturesOrderFilled(
        bytes32 indexed digest,
        uint256 indexed seriesId,
        address indexed maker,
        address taker,
        int256 makerDeltaCh,
        uint256 priceWad,
        uint256 indexWad,
        uint256 filledCh,
        uint256 remainingCh
    );
    /// @notice Emitted by `matchOrders` after both orders' FuturesOrderFilled (each with the other maker as taker):
    ///         each side traded at its own limit price, the matcher was credited the spread.
    /// @param buyDigest The buy order's digest.
    /// @param sellDigest The sell order's digest.
    /// @param seriesId The series.
    /// @param matcher The caller.
    /// @param sizeCh Size matched, CH WAD.
    /// @param spreadUsdc sizeCh × (buy price − sell price), rounded down, credited to the matcher (`claimBounties`).
    /// @param midPriceWad (buy price + sell price) / 2, rounded down: the series' curve point.
    event FuturesOrdersMatched(
        bytes32 indexed buyDigest,
        bytes32 indexed sellDigest,
        uint256 indexed seriesId,
        address matcher,
        uint256 sizeCh,
        uint256 spreadUsdc,
        uint256 midPriceWad
    );
    /// @notice Emitted when a maker cancels its signed order (its nonce stays claimed).
    /// @param digest The order's EIP-712 digest.
    /// @param maker The maker.
    /// @param nonce The order's nonce.
    /// @param filledCh What it had filled, CH WAD.
    event FuturesSignedOrderCancelled(bytes32 indexed digest, address indexed maker, uint256 nonce, uint256 filledCh);
    /// @notice Emitted when a maker raises its minimum nonce (all its signed orders below it are void).
    /// @param maker The maker.
    /// @param minNonce The new minimum.
    event FuturesMinNonceRaised(address indexed maker, uint256 minNonce);
    /// @notice Emitted when a settled electing long's delivery claim (the CH it received, held by the market since
    ///         its settlement) is handed over: to DeliveryOrders, which opens the long's delivery order with it, or to
    ///         the long when no DeliveryOrders contract is set. The claim left is zero.
    /// @param seriesId The series.
    /// @param account The long.
    /// @param to Where the CH went.
    /// @param chAmount CH handed over, CH WAD.
    event DeliveryClaimTaken(uint256 indexed seriesId, address indexed account, address indexed to, uint256 chAmount);
}
