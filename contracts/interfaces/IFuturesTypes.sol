// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IDelayedOrderErrors} from "./IDelayedOrders.sol";

/// @title IFuturesTypes
/// @notice Enums, structs, errors and events of the FuturesMarket (see IFuturesMarket for the functions). A separate
///         interface so the FuturesMarket and its delegate-called FuturesDelivery module share one declaration.
interface IFuturesTypes is IDelayedOrderErrors {
    /// @notice How a series was listed: a standard expiry of the permissionless listing rule, or governance's.
    enum Tenor {
        Daily,
        Weekly,
        Monthly,
        Quarterly,
        Custom
    }

    /// @notice Why a position was reduced outside a trade (see `PositionReduced`).
    enum ReduceReason {
        Liquidation,
        UnprovenShort,
        Flatten
    }

    /// @notice Market parameters (governance, `setParams`).
    /// @param feeBps Trading fee, bps of notional at the trade price (rounded up; to the insurance fund).
    /// @param penaltyBps Failed-delivery penalty, bps of settlement value (the short pays 1 + penalty).
    /// @param maxPremiumBps Cap on |premium| at full horizon, bps.
    /// @param maxCorrectionBps Largest change a dispute may make to the proposed settlement price, bps.
    /// @param vaultReserveBps Part of the vault's net notional kept in the pool (not returnable to the vault), bps.
    /// @param maxLiveSeries Most series listed and not yet price-fixed at once (bounds keeper scans).
    /// @param electionCutoffSec Delivery elections close this long before expiry.
    /// @param disputeWindowSec How long a proposed settlement price may be corrected.
    /// @param deliveryWindowSec How long after finalisation assigned shorts have to deliver.
    /// @param proofWindowSec How long a short has to escrow CH after its guarantor demands proof.
    /// @param minListingLeadSec A new series' expiry must be at least this far in the future.
    /// @param keeperBountyUsdc Bounty for a keeper action (fix, finalise, third-party settlement), USDC.
    /// @param skewScaleCh Trader skew that moves the premium by 100 % at full horizon, CH WAD.
    /// @param premiumHorizonSec Time to expiry at which the premium reaches its full skew value.
    /// @param defaultOiCapCh Open-interest cap per side of a newly listed series, CH WAD.
    /// @param minOrderDelaySec A trade order fills at the oracle round in force this long after it was committed
    ///        (≥ 1; IDelayedOrders).
    /// @param maxOrderDelaySec After this long a pending order can only be cancelled (> minOrderDelaySec).
    /// @param executionFeeUsdc Fee an order holds for whoever executes or cancels it, USDC (≤ 50 USDC).
    struct Params {
        uint16 feeBps;
        uint16 penaltyBps;
        uint16 maxPremiumBps;
        uint16 maxCorrectionBps;
        uint16 vaultReserveBps;
        uint8 maxLiveSeries;
        uint32 electionCutoffSec;
        uint32 disputeWindowSec;
        uint32 deliveryWindowSec;
        uint32 proofWindowSec;
        uint32 minListingLeadSec;
        uint64 keeperBountyUsdc;
        uint128 skewScaleCh;
        uint64 premiumHorizonSec;
        uint128 defaultOiCapCh;
        uint32 minOrderDelaySec;
        uint32 maxOrderDelaySec;
        uint64 executionFeeUsdc;
    }

    /// @notice One series' state.
    /// @param expiry Expiry (unix seconds); trading stops at expiry.
    /// @param finalAt When the proposed settlement price becomes final (0 until fixed).
    /// @param deliveryDeadline Assigned shorts must deliver before it (0 until finalised).
    /// @param openPositions Positions not yet settled (MKT-04: 0 after settlement).
    /// @param shortPositions Trader short positions not yet settled (longs' delivery waits for 0).
    /// @param longOiCh Σ trader long sizes, CH WAD.
    /// @param shortOiCh Σ |trader short sizes|, CH WAD (the vault holds longOi − shortOi).
    /// @param oiCapCh Cap per side, CH WAD.
    /// @param electedCh Σ elected long delivery, CH WAD.
    /// @param settlementPriceWad Proposed / final settlement price (0 until fixed).
    /// @param assignableShortCh Σ trader short size at expiry (fixed with the price), CH WAD.
    /// @param deliveredCh Σ CH delivered by assigned shorts, CH WAD.
    /// @param receivedCh Σ CH paid out to electing longs, CH WAD (MKT-05: = deliveredCh once all settled).
    /// @param slashedUsdc Σ slashes of failing shorts, USDC.
    /// @param compensatedUsdc Σ compensation paid to electing longs, USDC.
    /// @param claimedElectedCh Σ elected size of longs already settled, CH WAD.
    /// @param postExpiryShortCh Short size liquidated after expiry (still bound to deliver), CH WAD.
    /// @param tenor How it was listed.
    struct Series {
        uint64 expiry;
        uint64 finalAt;
        uint64 deliveryDeadline;
        uint32 openPositions;
        uint32 shortPositions;
        uint128 longOiCh;
        uint128 shortOiCh;
        uint128 oiCapCh;
        uint128 electedCh;
        uint128 settlementPriceWad;
        uint128 assignableShortCh;
        uint128 deliveredCh;
        uint128 receivedCh;
        uint128 slashedUsdc;
        uint128 compensatedUsdc;
        uint128 claimedElectedCh;
        uint128 postExpiryShortCh;
        Tenor tenor;
    }

    /// @notice One account's position in one series.
    /// @param sizeCh Signed size, CH WAD.
    /// @param entryPriceWad Average series price of the open size, WAD.
    /// @param electedCh Delivery elected (longs), CH WAD.
    /// @param escrowCh CH escrowed for delivery (shorts), CH WAD.
    /// @param deliveryBaseCh |short size| at expiry when a post-expiry liquidation reduced it (else 0).
    /// @param proofDeadline Deadline of the guarantor's pending delivery-proof demand (0 = none).
    /// @param baseTaken Whether `deliveryBaseCh` was recorded.
    /// @param listed Whether the account is in the series' account list (never removed).
    /// @param open Whether the position counts in `openPositions` (until settled or closed before expiry).
    struct Position {
        int128 sizeCh;
        uint128 entryPriceWad;
        uint128 electedCh;
        uint128 escrowCh;
        uint128 deliveryBaseCh;
        uint64 proofDeadline;
        bool baseTaken;
        bool listed;
        bool open;
    }

    // ───────────────────────────── errors ─────────────────────────────

    /// @notice Thrown when a series id does not exist.
    /// @param seriesId The id.
    error FuturesSeriesUnknown(uint256 seriesId);
    /// @notice Thrown when trading, electing or demanding proof on a series that no longer trades.
    /// @param seriesId The series.
    /// @param expiry Its expiry.
    error FuturesSeriesNotTrading(uint256 seriesId, uint64 expiry);
    /// @notice Thrown when fixing the settlement price before expiry.
    /// @param seriesId The series.
    /// @param expiry Its expiry.
    error FuturesSeriesNotExpired(uint256 seriesId, uint64 expiry);
    /// @notice Thrown by keeper functions when the work was already done (OPS-01: racing keepers treat it as done).
    /// @param seriesId The series.
    /// @param account The account (zero for series-level work).
    error FuturesAlreadyDone(uint256 seriesId, address account);
    /// @notice Thrown when listing an expiry that already has a series.
    /// @param expiry The expiry.
    /// @param seriesId The existing series.
    error FuturesSeriesExists(uint64 expiry, uint256 seriesId);
    /// @notice Thrown when a new series' expiry is too soon.
    /// @param expiry The expiry asked.
    /// @param earliest The earliest allowed.
    error FuturesInvalidExpiry(uint64 expiry, uint64 earliest);
    /// @notice Thrown when listing would exceed the live-series bound.
    /// @param max Params.maxLiveSeries.
    error FuturesTooManyLiveSeries(uint256 max);
    /// @notice Thrown when an account would hold positions in more series than allowed.
    /// @param account The account.
    /// @param max MAX_SERIES_PER_ACCOUNT.
    error FuturesTooManySeries(address account, uint256 max);
    /// @notice Thrown when a trade would push a side's open interest above the series cap.
    /// @param seriesId The series.
    /// @param oiCh The side's open interest after the trade.
    /// @param capCh The cap.
    error FuturesOiCapExceeded(uint256 seriesId, uint256 oiCh, uint256 capCh);
    /// @notice Thrown when the trade price is worse than the caller's limit.
    /// @param priceWad Trade price.
    /// @param limitPriceWad Limit (max for a buy, min for a sell).
    error FuturesSlippage(uint256 priceWad, uint256 limitPriceWad);
    /// @notice Thrown when a size or amount is zero.
    error FuturesZeroAmount();
    /// @notice Thrown when electing after the cut-off.
    /// @param seriesId The series.
    /// @param cutoff The cut-off time.
    error FuturesElectionClosed(uint256 seriesId, uint64 cutoff);
    /// @notice Thrown when electing more than the long position.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param electedCh Amount asked.
    /// @param longSizeCh The long size.
    error FuturesElectionTooLarge(uint256 seriesId, address account, uint256 electedCh, uint256 longSizeCh);
    /// @notice Thrown when, after the cut-off, a long would reduce below its elected delivery.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param electedCh The locked election.
    /// @param newSizeCh The size the trade would leave.
    error FuturesElectionLocked(uint256 seriesId, address account, uint256 electedCh, int256 newSizeCh);
    /// @notice Thrown when an account's free margin cannot cover the payment for its elected delivery.
    /// @param account The account.
    /// @param requiredUsdc Its initial margin.
    /// @param equityUsdc Its equity net of the delivery payments it holds (elected × price, IMarketAccountRisk).
    error FuturesElectionUnfunded(address account, uint256 requiredUsdc, int256 equityUsdc);
    /// @notice Thrown when a short-only action is called for an account that is not short the series.
    /// @param seriesId The series.
    /// @param account The account.
    error FuturesNotShort(uint256 seriesId, address account);
    /// @notice Thrown when escrowing more CH than the short size, or withdrawing more than allowed.
    /// @param seriesId The series.
    /// @param account The account.
    /// @param escrowCh Escrow the call would leave (or ask).
    /// @param limitCh The bound.
    error FuturesEscrowOutOfRange(uint256 seriesId, address account, uint256 escrowCh, uint256 limitCh);
    /// @notice Thrown when taking back escrowed CH would leave an assignable short's margin below its initial margin
    ///         (the escrow backed its delivery bond).
    /// @param seriesId The series.
    /// @param account The short.
    /// @param requiredUsdc Its initial margin with the bond the withdrawal leaves.
    /// @param equityUsdc Its equity.
    error FuturesEscrowNeeded(uint256 seriesId, address account, uint256 requiredUsdc, int256 equityUsdc);
    /// @notice Thrown when withdrawing escrow after expiry (it is returned at settlement).
    /// @param seriesId The series.
    /// @param account The account.
    error FuturesEscrowLocked(uint256 seriesId, address account);
    /// @notice Thrown when the settlement price has not been fixed yet.
    /// @param seriesId The series.
    error FuturesPriceNotFixed(uint256 seriesId);
    /// @notice Thrown when finalising or settling inside the dispute window.
    /// @param seriesId The series.
    /// @param finalAt When the price becomes final.
    error FuturesDisputeWindowOpen(uint256 seriesId, uint64 finalAt);
    /// @notice Thrown when disputing after the dispute window.
    /// @param seriesId The series.
    /// @param finalAt When the price became final.
    error FuturesDisputeWindowClosed(uint256 seriesId, uint64 finalAt);
    /// @notice Thrown when a correction moves the price by more than maxCorrectionBps.
    /// @param seriesId The series.
    /// @param proposedWad The proposed price.
    /// @param correctedWad The corrected price asked.
    /// @param maxBps The bound.
    error FuturesCorrectionTooLarge(uint256 seriesId, uint256 proposedWad, uint256 correctedWad, uint256 maxBps);
    /// @notice Thrown when settling a series that is not finalised.
    /// @param seriesId The series.
    error FuturesNotFinal(uint256 seriesId);
    /// @notice Thrown when settling an assigned short that may still deliver (before the deadline).
    /// @param seriesId The series.
    /// @param account The short.
    /// @param assignedCh Its assignment.
    /// @param escrowCh Its escrow.
    /// @param deadline The delivery deadline.
    error FuturesDeliveryPending(
        uint256 seriesId,
        address account,
        uint256 assignedCh,
        uint256 escrowCh,
        uint64 deadline
    );
    /// @notice Thrown when settling an electing long while assigned shorts are not all settled.
    /// @param seriesId The series.
    /// @param shortPositions Short positions still to settle.
    error FuturesShortsPending(uint256 seriesId, uint256 shortPositions);
    /// @notice Thrown when the caller is not the account's guarantor.
    /// @param account The short.
    /// @param caller The caller.
    /// @param guarantor The account's guarantor.
    error FuturesNotGuarantor(address account, address caller, address guarantor);
    /// @notice Thrown when closing an unproven short without a due demand.
    /// @param seriesId The series.
    /// @param account The short.
    /// @param deadline The demand's deadline (0 = no demand).
    error FuturesDemandNotDue(uint256 seriesId, address account, uint64 deadline);
    /// @notice Thrown by parameter setters on invalid values.
    error FuturesInvalidParams();
    /// @notice Thrown when a keeper has no bounty to claim.
    /// @param keeper The keeper.
    error FuturesNothingToClaim(address keeper);
    /// @notice Thrown when the vault asks back more than `withdrawableToVaultUsdc()`.
    /// @param amountUsdc Asked.
    /// @param withdrawableUsdc Allowed.
    error FuturesVaultWithdrawTooLarge(uint256 amountUsdc, uint256 withdrawableUsdc);
    /// @notice Thrown by `performUpkeep` on data that is not one of the keeper calls.
    error FuturesInvalidPerformData();
    /// @notice Thrown when the liquidation hook is called by anyone but the ClearingHouse.
    /// @param caller The caller.
    error FuturesOnlyClearingHouse(address caller);
    /// @notice Thrown when `fillOrder` is called by anyone but the market itself (from `executeOrder`).
    /// @param caller The caller.
    error FuturesOnlySelf(address caller);
    /// @notice Thrown when a risk-increasing order's margin (on top of the account's initial margin) and its
    ///         execution fee are not covered by the account's equity at commit.
    /// @param account The account.
    /// @param requiredUsdc Initial margin with the order's.
    /// @param availableUsdc Equity less the execution fee.
    error FuturesInsufficientMargin(address account, uint256 requiredUsdc, int256 availableUsdc);
    /// @notice Thrown when a risk-increasing order's execution fee exceeds the account's collateral.
    /// @param account The account.
    /// @param feeUsdc The fee.
    /// @param collateralUsdc Its collateral.
    error FuturesInsufficientCollateral(address account, uint256 feeUsdc, int256 collateralUsdc);
    /// @notice Thrown when committing an order that could not be executed before the series expires (its price
    ///         time + 1 is at or after expiry).
    /// @param seriesId The series.
    /// @param executableAt First second the order could be executed.
    /// @param expiry The series' expiry.
    error FuturesOrderPastExpiry(uint256 seriesId, uint256 executableAt, uint64 expiry);

    // ───────────────────────────── events ─────────────────────────────

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
        Tenor tenor,
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
        ReduceReason reason
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
    /// @notice Emitted when a trade order against the vault is committed (IDelayedOrders, per series).
    /// @param seriesId The series.
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size change (a close order: minus the size when committed).
    /// @param limitPriceWad Worst series price accepted; 0 = none.
    /// @param closeAll True for a close order (the position at execution is closed).
    /// @param priceTime It fills at the oracle round in force at this time; executable from priceTime + 1.
    /// @param expiresAt After this anyone may cancel it.
    /// @param feeUsdc Execution fee held.
    /// @param marginUsdc Initial margin held for it (in the account's `accountRisk`).
    /// @param pendingOrders Pending orders in the market after.
    event OrderCommitted(
        uint256 indexed seriesId,
        address indexed account,
        int256 sizeDeltaCh,
        uint256 limitPriceWad,
        bool closeAll,
        uint256 priceTime,
        uint256 expiresAt,
        uint256 feeUsdc,
        uint256 marginUsdc,
        uint256 pendingOrders
    );
    /// @notice Emitted when an order is filled (FuturesTraded carries the fill).
    /// @param seriesId The series.
    /// @param account The trader.
    /// @param executor Who executed it (paid the fee).
    /// @param roundId The oracle round used.
    /// @param indexPriceWad Its index price.
    /// @param feeUsdc Fee paid to the executor.
    /// @param pendingOrders Pending orders after.
    event OrderExecuted(
        uint256 indexed seriesId,
        address indexed account,
        address indexed executor,
        uint80 roundId,
        uint256 indexPriceWad,
        uint256 feeUsdc,
        uint256 pendingOrders
    );
    /// @notice Emitted when an order is cancelled: at execution for a user-caused failure (the reason is the fill's
    ///         revert data: price limit, margin, pause, caps, expiry of the series), or after its expiry
    ///         (DelayedOrderExpired).
    /// @param seriesId The series.
    /// @param account The trader.
    /// @param by Who executed or cancelled it (paid the fee).
    /// @param feeUsdc Fee paid to `by`.
    /// @param reason ABI-encoded error.
    /// @param pendingOrders Pending orders after.
    event OrderCancelled(
        uint256 indexed seriesId,
        address indexed account,
        address indexed by,
        uint256 feeUsdc,
        bytes reason,
        uint256 pendingOrders
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
    event ParamsSet(Params params);
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
}
