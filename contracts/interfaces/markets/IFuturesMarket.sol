// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IFuturesTypes} from "./IFuturesTypes.sol";
import {IFuturesErrors} from "./IFuturesErrors.sol";
import {IFuturesEvents} from "./IFuturesEvents.sol";
import {IDelayedOrders} from "./IDelayedOrders.sol";
import {IFuturesExercise} from "./IFuturesExercise.sol";
import {IVaultMarket} from "../callback/IVaultMarket.sol";
import {ILiquidatableMarket} from "../callback/ILiquidatableMarket.sol";
import {IKeeperCompatible} from "../keepers/IKeeperCompatible.sol";

/// @title IFuturesMarket
/// @notice Dated CH futures with physical delivery (SPEC section 6, seed 000 section 8.2 and Fig. 6). One contract,
///         many series (one per expiry). Traders trade against the LP vault (the counterparty, as for perps) at the
///         series price `index × (1 + premium)`, where the premium comes from the series' trader skew and shrinks
///         linearly to zero at expiry (convergence, MKT-04). At expiry anyone fixes the settlement price from the
///         oracle; after a dispute window it is final. Longs that elected delivery before the cut-off pay the
///         settlement price and receive CH; trader shorts are assigned delivery pro rata (O(1), lazily) and escrow
///         CH before the delivery deadline, receiving the settlement price; a short that fails is slashed
///         `price × undelivered × (1 + penalty)` and the electing longs receive that amount (MKT-05). Everything
///         else, including the vault's net position, settles in cash at the settlement price.
/// @dev Clearing: the ClearingHouse holds one position per (account, market), so this market reports an account's
///      NET size across series, always at the current INDEX price, and settles the difference between the series
///      trade price and the index in cash at trade time (`ClearingHouse.settle`). Margin is therefore computed on
///      index exposure and calendar spreads net. Per-series size and entry price live here.
///      Units: sizes CH WAD (signed, + long); prices USDC per CH WAD; money USDC (6 decimals). Charges to an
///      account round up, credits round down (ACC-05).
interface IFuturesMarket is
    IFuturesTypes,
    IFuturesErrors,
    IFuturesEvents,
    IFuturesExercise,
    IVaultMarket,
    ILiquidatableMarket,
    IKeeperCompatible
{
    // ───────────────────────────── listing ─────────────────────────────

    /// @notice Lists a series with any expiry ≥ now + minListingLeadSec (ADMIN).
    /// @param expiry Expiry, unix seconds.
    /// @param oiCapCh Cap per side (0 = Params.defaultOiCapCh).
    /// @return seriesId The new series.
    function listSeries(uint64 expiry, uint256 oiCapCh) external returns (uint256 seriesId);

    /// @notice Permissionless listing rule: lists the next standard expiry of `tenor` (see `nextStandardExpiry`)
    ///         if not listed yet, within the live-series bound.
    /// @param tenor Daily, Weekly, Monthly or Quarterly.
    /// @return seriesId The new series.
    function listStandardSeries(Tenor tenor) external returns (uint256 seriesId);

    /// @notice The next standard expiry of `tenor` at least minListingLeadSec away, on a fixed UTC grid: daily
    ///         00:00 UTC; weekly Friday 00:00 UTC; monthly the 1st 00:00 UTC; quarterly 1 Jan/Apr/Jul/Oct 00:00 UTC.
    /// @param tenor A standard tenor (Custom reverts with FuturesInvalidParams).
    /// @return expiry Unix seconds.
    function nextStandardExpiry(Tenor tenor) external view returns (uint64 expiry);

    /// @notice Permissionless listing of any standard expiry of `tenor` up to the listing horizon: a Monthly or
    ///         Quarterly expiry on its grid at most STANDARD_HORIZON_SEC (366 days) from now, so a hedger finds the
    ///         next twelve months listed (the keeper lists them when due: `checker`); Daily and Weekly only at their
    ///         next expiry (as `listStandardSeries`). Pausable (`futures.list`); within the live-series bound. A
    ///         quarterly expiry is also a monthly one: the series listed first serves both (FuturesSeriesExists).
    /// @param tenor Daily, Weekly, Monthly or Quarterly.
    /// @param expiry The expiry, on the tenor's UTC grid and at least minListingLeadSec away.
    /// @return seriesId The new series.
    function listStandardSeriesAt(Tenor tenor, uint64 expiry) external returns (uint256 seriesId);

    /// @notice Sets how many monthly expiries ahead the keeper checker keeps listed (ADMIN): when nothing else is
    ///         due, `checker` returns `listStandardSeriesAt(Monthly, e)` for the nearest unlisted monthly expiry `e`
    ///         among the next `months`, while a live-series slot is free and `futures.list` is not paused. Live
    ///         series are a shared budget (`maxLiveSeries`), so this is governance's choice (0 = none).
    /// @param months Monthly expiries ahead, ≤ 12.
    function setKeeperListingMonths(uint256 months) external;

    /// @notice How many monthly expiries ahead the keeper checker keeps listed (`setKeeperListingMonths`).
    /// @return months Monthly expiries ahead.
    function keeperListingMonths() external view returns (uint256 months);

    // ───────────────────────────── trading ─────────────────────────────

    /// @notice Commits an order to trade `sizeDeltaCh` of `seriesId` against the vault (opens, increases, reduces or
    ///         flips; IDelayedOrders). It does not fill now: after minOrderDelaySec anyone `executeOrder`s it at the
    ///         index of the oracle round in force at commit + minOrderDelaySec, plus the series premium of the skew at
    ///         execution. One pending order per account and series; the caller's collateral pays executionFeeUsdc
    ///         into the order now. A risk-increasing order is pausable ("futures.trade"), reads the oracle's risk
    ///         price, and escrows its own initial margin (the RiskEngine's IM rate on the growth of the account's
    ///         max(Σ live longs, Σ live shorts), rounded up) from the collateral with the fee: the collateral must hold
    ///         both (FuturesInsufficientCollateral) and equity − fee must cover the initial margin plus the order's
    ///         (FuturesInsufficientMargin). The escrow goes back just before the fill (or at cancellation) and shows in
    ///         accountRisk meanwhile. Reductions are never paused nor refused for the fee (SEC-05: capped at the
    ///         collateral). Slippage, the OI cap, the series count, the account's margin and the pause are checked
    ///         again at execution: a failure there cancels the order (the fee goes to the executor).
    /// @param seriesId The series (trading, and the order executable before its expiry).
    /// @param sizeDeltaCh Signed size, CH WAD (+ buy).
    /// @param limitPriceWad Worst acceptable series price at execution (max for a buy, min for a sell; 0 = none).
    /// @return priceTime The order fills at the round in force at this time; executable from priceTime + 1.
    function commitOrder(
        uint256 seriesId,
        int256 sizeDeltaCh,
        uint256 limitPriceWad
    ) external returns (uint256 priceTime);

    /// @notice Commits an order closing the caller's whole position in `seriesId` (whatever it is at execution);
    ///         never paused. Executed like `commitOrder`'s.
    /// @param seriesId The series (before expiry; after it, use settlePosition).
    /// @param limitPriceWad Worst acceptable price (0 = none).
    /// @return priceTime The order's price time.
    function closePosition(uint256 seriesId, uint256 limitPriceWad) external returns (uint256 priceTime);

    /// @notice Rolls `sizeCh` of the caller's position from `fromSeriesId` into `toSeriesId` in one call: the
    ///         closing leg and the opening leg (same sign) are booked per series at their series prices (index ×
    ///         (1 + premium) of each series' skew, each charged `feeBps`), the basis of both is settled in cash, the
    ///         ClearingHouse net position does not move, and ONE margin check runs at the end: equity ≥ initial
    ///         margin at the risk price (`FuturesInsufficientMargin`), or the whole roll reverts. Atomic at the
    ///         oracle's risk price (ORC-01 gates): the net index exposure is unchanged, so the stale-price trade the
    ///         delayed orders prevent is not available to a roll (only the premium moves with the index). Opens risk
    ///         in the target: pausable (`futures.trade`); a paused market still closes through `closePosition`.
    /// @param fromSeriesId A trading series the caller holds a position in.
    /// @param toSeriesId Another trading series (any listed, not expired).
    /// @param sizeCh Size to move, CH WAD (> 0, ≤ |position| in `fromSeriesId`).
    function roll(uint256 fromSeriesId, uint256 toSeriesId, uint256 sizeCh) external;

    /// @notice Executes `account`'s pending order on `seriesId` (anyone; keepers): fills it at the index of oracle
    ///         round `roundId`, which must be the round in force at the order's price time (the oracle proves it,
    ///         OracleRoundNotInForce otherwise), from priceTime + 1 to its expiry. A user-caused failure of the fill
    ///         cancels the order instead of reverting; either way the caller is paid the order's execution fee.
    ///         Sent with less than 1,000,000 gas left before the fill (FuturesOrders.MIN_EXECUTION_GAS) it reverts (DelayedOrderGasTooLow).
    /// @param account The trader.
    /// @param seriesId The series.
    /// @param roundId The oracle round in force at the price time (`oracle.roundAt(priceTime)`).
    function executeOrder(address account, uint256 seriesId, uint80 roundId) external;

    /// @notice Cancels `account`'s pending order on `seriesId` after its expiry (anyone, the trader too; not before:
    ///         DelayedOrderNotExpired) and pays the caller its execution fee.
    /// @param account The trader.
    /// @param seriesId The series.
    function cancelOrder(address account, uint256 seriesId) external;

    /// @notice The fill of an order, called by the market on itself from `executeOrder` (FuturesOnlySelf otherwise).
    /// @param account The trader.
    /// @param seriesId The series.
    /// @param sizeDeltaCh Signed size (0: close the whole position).
    /// @param limitPriceWad Worst acceptable price (0 = none).
    /// @param indexPriceWad The index of the order's round.
    /// @param priceTime The order's price time (the oracle's new-risk gates are checked for it).
    /// @return priceWad The trade price.
    function fillDelayed(
        address account,
        uint256 seriesId,
        int256 sizeDeltaCh,
        uint256 limitPriceWad,
        uint256 indexPriceWad,
        uint256 priceTime
    ) external returns (uint256 priceWad);

    /// @notice `account`'s pending order on `seriesId` (all zero when none).
    /// @param seriesId The series.
    /// @param account The trader.
    /// @return order The order.
    function pendingOrder(uint256 seriesId, address account) external view returns (IDelayedOrders.OrderView memory);

    /// @notice Pending orders in the market and the execution fees they hold (pool money that is not LP capital).
    /// @return count Pending orders.
    /// @return feesUsdc Σ their execution fees.
    function pendingOrders() external view returns (uint256 count, uint256 feesUsdc);

    // ───────────────────────────── delivery ─────────────────────────────

    /// @notice A long sets the part of its position it will take delivery of (absolute; 0 revokes), before the
    ///         cut-off. Needs equity ≥ initial margin + elected × index (the payment at expiry).
    /// @param seriesId The series.
    /// @param electedCh Elected CH (≤ long size).
    function electDelivery(uint256 seriesId, uint256 electedCh) external;

    /// @notice A short escrows `chAmount` CH for delivery (up to its short size; pulled from the caller). Escrow is
    ///         the delivery: at settlement the assigned part goes to the electing longs and the rest is returned.
    ///         Allowed until the delivery deadline.
    /// @param seriesId The series.
    /// @param chAmount CH, WAD.
    function deliver(uint256 seriesId, uint256 chAmount) external;

    /// @notice A short takes escrow back before expiry (keeping ≥ its size while a proof demand is pending).
    /// @param seriesId The series.
    /// @param chAmount CH, WAD.
    function withdrawEscrow(uint256 seriesId, uint256 chAmount) external;

    /// @notice The short's guarantor demands proof of deliverable CH: the short must escrow its whole short size
    ///         within proofWindowSec, before expiry.
    /// @param seriesId The series (trading).
    /// @param account The short (the caller must be IGuarantorPool.guarantorOf(account)).
    function demandDeliveryProof(uint256 seriesId, address account) external;

    /// @notice After a due, unmet proof demand, anyone closes the unescrowed part of the short at the index (the
    ///         vault takes it over; never pausable; risk-reducing for the account's net position in the usual case).
    /// @param seriesId The series (trading).
    /// @param account The short.
    /// @return closedCh Size closed.
    function closeUnproven(uint256 seriesId, address account) external returns (uint256 closedCh);

    // ───────────────────────────── expiry and settlement ─────────────────────────────

    /// @notice After expiry, anyone fixes the proposed settlement price and starts the dispute window; pays the
    ///         keeper bounty (from the pool, claimable). The price is the index TWAP over the TWAP_WINDOW_SEC before
    ///         expiry (`fixSettlementPriceAt`), with the hints found on chain (`settlementTwapHints`): costlier, and
    ///         it reverts with FuturesTwapHintsUnavailable once the oracle's round look-back no longer reaches the
    ///         window (then pass the hints).
    /// @param seriesId The series.
    /// @return priceWad The proposed price.
    function fixSettlementPrice(uint256 seriesId) external returns (uint256 priceWad);

    /// @notice After expiry, anyone fixes the proposed settlement price from the index TWAP over the window
    ///         [expiry − TWAP_WINDOW_SEC, expiry) and starts the dispute window; pays the keeper bounty. The caller
    ///         names the feed rounds covering the window: `firstRoundId` (in force at the window start) and the
    ///         times the next rounds took over (`changeTimes[i]` = when round firstRoundId + i + 1 was published).
    ///         Each round is proven in force at both ends of its segment by the oracle (`priceAtRound`: not stale,
    ///         inside the bounds), so no round can be skipped, added or moved, and the price does not depend on when
    ///         the fixing runs. Emits SettlementTwap and SettlementPriceProposed.
    /// @param seriesId The series.
    /// @param firstRoundId The round in force at the window start.
    /// @param changeTimes Publication times of the following rounds inside the window, ascending
    ///        (≤ MAX_TWAP_ROUNDS − 1).
    /// @return priceWad The proposed price.
    function fixSettlementPriceAt(
        uint256 seriesId,
        uint80 firstRoundId,
        uint64[] calldata changeTimes
    ) external returns (uint256 priceWad);

    /// @notice The stale-window fallback (docs/futures.md "Stale window fallback"): when a round in force inside the
    ///         TWAP window was stale (older than the feed heartbeat), no TWAP can be fixed; from FALLBACK_DELAY_SEC
    ///         after expiry anyone fixes the price at the first round published at or after expiry, if it came within
    ///         FALLBACK_MAX_LAG_SEC of expiry. Deterministic: the proof of staleness makes the TWAP impossible, and
    ///         one round only is the first after expiry (its predecessor in force at expiry − 1). Disputable like a
    ///         TWAP fix; pays the keeper bounty. Emits SettlementFallback and SettlementPriceProposed.
    /// @param seriesId The series.
    /// @param staleRoundId A round in force at `staleAt` and stale there (`priceAtRound` reverts OracleStalePrice).
    /// @param staleAt A time inside [expiry − TWAP_WINDOW_SEC, expiry).
    /// @param roundId The first round published at or after expiry.
    /// @param roundTime A time `roundId` is in force and fresh at, ≤ expiry + FALLBACK_MAX_LAG_SEC (its
    ///        publication time works); the price does not depend on it.
    /// @return priceWad The proposed price.
    function fixSettlementPriceFallback(
        uint256 seriesId,
        uint80 staleRoundId,
        uint64 staleAt,
        uint80 roundId,
        uint64 roundTime
    ) external returns (uint256 priceWad);

    /// @notice The hints `fixSettlementPriceAt` needs for `seriesId`, found with the oracle's `roundAt` (empty, with
    ///         `firstRoundId` 0, when its look-back no longer reaches the window: read them from the feed).
    /// @param seriesId The series.
    /// @return firstRoundId The round in force at the window start.
    /// @return changeTimes The publication times of the later rounds in the window.
    function settlementTwapHints(
        uint256 seriesId
    ) external view returns (uint80 firstRoundId, uint64[] memory changeTimes);

    /// @notice The guardian corrects the proposed price inside the dispute window (by ≤ maxCorrectionBps).
    /// @param seriesId The series.
    /// @param priceWad The corrected price.
    function disputeSettlementPrice(uint256 seriesId, uint256 priceWad) external;

    /// @notice After the dispute window, anyone makes the price final and fixes delivery assignment; pays the bounty.
    /// @param seriesId The series.
    function finalizeSettlement(uint256 seriesId) external;

    /// @notice Settles `account`'s position of a finalised series at the settlement price (permissionless; a
    ///         third party earns the bounty, charged to the account). Shorts: delivered CH paid at the price,
    ///         undelivered assigned CH slashed (only after the deadline). Electing longs (once every short is
    ///         settled): pay the price for their deliverable share, receive their pro-rata CH and their share of the slashes.
    /// @param seriesId The series.
    /// @param account The account.
    function settlePosition(uint256 seriesId, address account) external;

    /// @notice Settles a caller-chosen page of accounts of a finalised series (≤ MAX_SETTLE_BATCH), skipping those
    ///         already settled or not settleable yet (a short still inside its delivery window, a long waiting for
    ///         the shorts); same rules and bounty as `settlePosition` for each one settled.
    /// @param seriesId The series.
    /// @param accounts The page (e.g. from `seriesAccounts`).
    /// @return settled How many were settled (reverts with FuturesAlreadyDone when none).
    function settlePositions(uint256 seriesId, address[] calldata accounts) external returns (uint256 settled);

    /// @notice Sends the caller's accrued keeper bounties to `to` from the market's pool.
    /// @param to Recipient.
    /// @return amountUsdc Paid.
    function claimBounties(address to) external returns (uint256 amountUsdc);

    // ───────────────────────────── governance ─────────────────────────────

    /// @notice Sets the parameters (ADMIN).
    /// @param params The parameters.
    function setParams(Params calldata params) external;

    /// @notice Sets the liquidity vault that backs this market (ADMIN).
    /// @param vault The vault.
    function setVault(address vault) external;

    /// @notice Sets the FuturesDelivery module the delivery, expiry and settlement functions are delegated to
    ///         (ADMIN; a module holds no state of its own: it runs on this contract's storage).
    /// @param module The module.
    function setDeliveryModule(address module) external;

    /// @notice Sets the DeliveryOrders contract that receives an electing long's delivered CH at settlement and
    ///         turns it into a delivery order for the long (ADMIN; 0: the CH goes to the long). Delegated to the
    ///         delivery module.
    /// @param deliveryOrders The DeliveryOrders contract.
    function setDeliveryOrders(address deliveryOrders) external;

    /// @notice The FuturesDelivery module.
    /// @return The module address.
    function deliveryModule() external view returns (address);

    /// @notice Sets a series' open-interest cap per side (ADMIN).
    /// @param seriesId The series.
    /// @param oiCapCh Cap, CH WAD.
    function setSeriesOiCap(uint256 seriesId, uint256 oiCapCh) external;

    // ───────────────────────────── views ─────────────────────────────

    /// @notice A series' state.
    /// @param seriesId The series.
    /// @return The series.
    function seriesInfo(uint256 seriesId) external view returns (Series memory);

    /// @notice An account's position in a series.
    /// @param seriesId The series.
    /// @param account The account.
    /// @return The position.
    function positionOf(uint256 seriesId, address account) external view returns (Position memory);

    /// @notice Series in which `account` has an unsettled position (≤ MAX_SERIES_PER_ACCOUNT).
    /// @param account The account.
    /// @return Series ids.
    function accountSeries(address account) external view returns (uint256[] memory);

    /// @notice A page of the accounts that ever held a position in a series (keepers enumerate settlements here).
    /// @param seriesId The series.
    /// @param offset First index.
    /// @param limit Most entries.
    /// @return accounts The page.
    /// @return total The list's length.
    function seriesAccounts(
        uint256 seriesId,
        uint256 offset,
        uint256 limit
    ) external view returns (address[] memory accounts, uint256 total);

    /// @notice The price a trade of `sizeDeltaCh` would get now, with the index and premium used.
    /// @param seriesId The series.
    /// @param sizeDeltaCh Signed size (0: the mid price).
    /// @return priceWad Trade price (rounded up for a buy, down for a sell).
    /// @return indexPriceWad The index.
    /// @return premiumWad Signed premium, WAD.
    function quote(
        uint256 seriesId,
        int256 sizeDeltaCh
    ) external view returns (uint256 priceWad, uint256 indexPriceWad, int256 premiumWad);

    /// @notice An account's delivery state in a finalised series.
    /// @param seriesId The series.
    /// @param account The account.
    /// @return assignedCh Assignment of a short (rounded up), or the deliverable part of a long's election.
    /// @return escrowCh CH escrowed.
    /// @return deadline Delivery deadline (0 until finalised).
    function deliveryObligation(
        uint256 seriesId,
        address account
    ) external view returns (uint256 assignedCh, uint256 escrowCh, uint64 deadline);

    /// @notice The parameters.
    /// @return The parameters.
    function params() external view returns (Params memory);

    /// @notice Series counters: ids issued and live (listed, not yet price-fixed) series.
    /// @return count Highest series id.
    /// @return live Live series.
    function seriesCount() external view returns (uint256 count, uint256 live);

    /// @notice A keeper's unclaimed bounties, and the market's total.
    /// @param keeper The keeper.
    /// @return owedUsdc The keeper's.
    /// @return totalOwedUsdc Everyone's.
    function bountiesOwed(address keeper) external view returns (uint256 owedUsdc, uint256 totalOwedUsdc);

    /// @notice Module addresses.
    /// @return clearingHouse The ClearingHouse.
    /// @return oracle The price oracle.
    /// @return ch The CH token.
    /// @return usdc USDC.
    /// @return vault The liquidity vault.
    function modules()
        external
        view
        returns (address clearingHouse, address oracle, address ch, address usdc, address vault);

    // ───────────────────────────── signed orders (issue 19: the listed curve) ─────────────────────────────

    /// @notice Fills `sizeCh` of a maker's signed order trader-against-trader at the order's price: the maker's
    ///         series position moves by +sizeCh (a buy order) or −sizeCh, the caller's (the taker's) by the opposite.
    ///         Both legs are booked like any fill (per-series size and entry, OI caps, elections, the ClearingHouse net
    ///         position at the risk price plus the basis cash, `feeBps` each) and each party whose series leg grows
    ///         must hold initial margin at the risk price. The price becomes the series' last traded price
    ///         (`curvePoint`). A risk-increasing leg is pausable (`futures.trade`); reductions are not.
    /// @param order The maker's order (EIP-712 type `FuturesOrder` in this market's domain, `eip712Domain()`).
    /// @param signature The maker's signature (65-byte ECDSA, low s) or ERC-1271 data for a contract maker.
    /// @param sizeCh CH to fill now, WAD (≤ what is left of the order).
    /// @return filledCh The order's filled size after.
    function fillOrder(
        Order calldata order,
        bytes calldata signature,
        uint256 sizeCh
    ) external returns (uint256 filledCh);

    /// @notice Matches two signed orders of one series against each other (the spot market's `matchOrders`): the
    ///         buy's maker goes long `sizeCh` at the buy's price, the sell's maker short at the sell's price (each
    ///         at its own limit, never worse), each through the same ledger path as `fillOrder` (fees, OI caps, the
    ///         ClearingHouse leg at the risk price, the margin check of a growing leg); the spread sizeCh × (buy −
    ///         sell) is credited to the caller (claimable with `claimBounties`); the midpoint becomes the curve
    ///         point. Partial fills, nonces, cancels and expiries as `fillOrder`; a restricted order (`taker` set)
    ///         only by that caller. A risk-increasing leg is pausable (`futures.trade`).
    /// @param buy The buy order.
    /// @param buySignature Its maker's signature.
    /// @param sell The sell order (same series, price ≤ the buy's, another maker).
    /// @param sellSignature Its maker's signature.
    /// @param sizeCh CH to match, WAD (≤ what is left of each).
    /// @return buyFilledCh The buy order's filled size after.
    /// @return sellFilledCh The sell order's filled size after.
    function matchOrders(
        Order calldata buy,
        bytes calldata buySignature,
        Order calldata sell,
        bytes calldata sellSignature,
        uint256 sizeCh
    ) external returns (uint256 buyFilledCh, uint256 sellFilledCh);

    /// @notice The maker cancels its signed order (its nonce stays claimed).
    /// @param order The order.
    function cancelSignedOrder(Order calldata order) external;

    /// @notice Raises the caller's minimum nonce: every signed order of it with a lower nonce is void.
    /// @param newMinNonce The new minimum (must be higher).
    function raiseMinNonce(uint256 newMinNonce) external;

    /// @notice The EIP-712 digest a maker signs for `order`.
    /// @param order The order.
    /// @return The digest (what the maker signs; its top 127 bits tag the order's fill state).
    function orderDigest(Order calldata order) external view returns (bytes32);

    /// @notice Fill state of the signed order `order`, kept in one word per (maker, nonce) that also claims the
    ///         nonce: (0, false) while its nonce is free or when another order of the maker holds that nonce.
    /// @param order The order.
    /// @return filledCh Filled so far, CH WAD.
    /// @return cancelled Cancelled by its maker.
    function signedOrderState(Order calldata order) external view returns (uint256 filledCh, bool cancelled);

    /// @notice A maker's minimum nonce.
    /// @param maker The maker.
    /// @return The minimum nonce.
    function minNonce(address maker) external view returns (uint256);

    /// @notice The series' last trader-against-trader trade: the listed curve's point of that month.
    /// @param seriesId The series.
    /// @return The point (price 0: never traded).
    function curvePoint(uint256 seriesId) external view returns (CurvePoint memory);

    /// @notice Hands a settled electing long's delivery claim to `to`: the CH it received at settlement, which the
    ///         market holds until the long's delivery order is opened (docs/futures.md "Lazy hand-over"). Only the
    ///         DeliveryOrders contract set (`setDeliveryOrders`) may call it — or, when none is set, the long itself.
    ///         Zeroes the claim: a second call returns 0.
    /// @param seriesId The series.
    /// @param account The settled long.
    /// @param to Recipient of the CH.
    /// @return chAmount CH handed over (0: no claim).
    /// @return priceWad The series' settlement price (0 when no claim).
    function takeDelivery(
        uint256 seriesId,
        address account,
        address to
    ) external returns (uint256 chAmount, uint256 priceWad);
}
