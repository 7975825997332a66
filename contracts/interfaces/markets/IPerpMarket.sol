// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ILiquidatableMarket} from "../callback/ILiquidatableMarket.sol";
import {IVaultMarket} from "../callback/IVaultMarket.sol";
import {IKeeperCompatible} from "../keepers/IKeeperCompatible.sol";
import {IMarketAccountRisk} from "../callback/IMarketAccountRisk.sol";
import {IDelayedOrders} from "./IDelayedOrders.sol";
import {IPerpMarketErrors} from "./IPerpMarketErrors.sol";
import {IPerpMarketEvents} from "./IPerpMarketEvents.sol";

/// @title IPerpMarket
/// @notice The CH perpetual (SPEC section 6): traders' positions live in the ClearingHouse (cross margin, cost
///         basis, PnL realised against this market's PnL pool); the LiquidityVault's capital in that pool is the
///         counterparty. Trades fill at the index plus a skew-based price impact; funding follows the skew with a
///         velocity model and is kept as a cumulative index per unit size, so nothing ever loops over positions
///         (MKT-03); open interest is capped per side; fees are split between LPs, the insurance fund and the DPS
///         burn reserve.
/// @dev Units: sizes in CH WAD (signed, + long); prices in USDC per CH, WAD; funding rates in WAD per day
///      (1e16 = 1 % of notional per day); the funding index in USDC per CH, WAD (signed, + = longs have paid);
///      USDC amounts 6 decimals.
///      Fill price: p_fill = index × (1 + (skew_before + skew_after) / (2 · skewScale)), i.e. the average premium
///      over the trade, so the total impact of a trade depends only on the skew before and after it (splitting a
///      trade never costs less). Buys round up, sells round down.
///      Funding: with s = clamp(skew / skewScale, −1, 1) the rate moves at dr/dt = s × maxFundingVelocity (per
///      day), bounded by ±maxFundingRate; when the rate's sign differs from the skew's (or the skew is 0) it restarts
///      from 0 (the majority side always pays, MKT-02). The index grows by ∫r dt × index price over each interval.
///      An account owes size × (index − snapshot); it is settled through ClearingHouse.settle on every trade of the
///      account, by the permissionless `settleFunding`, and carried as pending funding across a liquidation (the
///      hook may not call the ClearingHouse). Funding owed by traders rounds up, funding owed to them rounds down.
///      Until settled, an account's funding is in its margin through IMarketAccountRisk.accountRisk (the
///      ClearingHouse adds it to the account's equity in every margin computation, issue 17 item 11).
///      Orders are two-step (IDelayedOrders, issue 17 item 15): `commitOrder` / `closePosition` commit, anyone
///      `executeOrder`s after minOrderDelaySec at the index of the oracle round in force at commit + minOrderDelaySec;
///      liquidations stay atomic at the current index (ILiquidatableMarket).
interface IPerpMarket is
    IPerpMarketErrors,
    IPerpMarketEvents,
    ILiquidatableMarket,
    IVaultMarket,
    IKeeperCompatible,
    IMarketAccountRisk,
    IDelayedOrders
{
    /// @notice Market parameters (governance). Packed into three storage slots.
    /// @param skewScaleCh Skew at which the price premium is 100 % and the funding velocity is at its maximum.
    /// @param maxFundingVelocityWad Funding-rate change per day at |skew| = skewScale, WAD per day per day.
    /// @param maxFundingRateWad Hard bound on |funding rate|, WAD per day.
    /// @param makerFeeBps Fee on the part of a trade that reduces |skew|, bps of notional at the fill price.
    /// @param takerFeeBps Fee on the part of a trade that increases |skew|, bps.
    /// @param maxOpenInterestCh Cap on each side's open interest, CH WAD.
    /// @param maxPositionCh Cap on one account's |size|, CH WAD.
    /// @param insuranceShareBps Share of fees accrued for the insurance fund (ClearingHouse fee), bps.
    /// @param burnShareBps Share of fees put into the DPS burn reserve, bps (the rest goes to LPs).
    /// @param lpReserveBps Part of the gross open notional the PnL pool keeps back from the vault, bps.
    /// @param minOrderDelaySec An order fills at the oracle round in force this long after it was committed (≥ 1;
    ///        longer than an oracle update can be seen before it lands: two block times at least).
    /// @param minTradeCh Smallest |size change| of a trade (a full close of a smaller position is always allowed).
    /// @param pokeBountyUsdc Bounty credited to whoever pokes a stale funding index, USDC.
    /// @param pokeIntervalSec Funding counts as stale (poke pays, keepers are asked) after this many seconds.
    /// @param maxOrderDelaySec After this long a pending order can no longer be executed, only cancelled (> min).
    /// @param executionFeeUsdc Fee an order holds for whoever executes or cancels it, USDC (≤ MAX_EXECUTION_FEE_USDC).
    struct PerpParams {
        uint96 skewScaleCh;
        uint64 maxFundingVelocityWad;
        uint64 maxFundingRateWad;
        uint16 makerFeeBps;
        uint16 takerFeeBps;
        uint96 maxOpenInterestCh;
        uint96 maxPositionCh;
        uint16 insuranceShareBps;
        uint16 burnShareBps;
        uint16 lpReserveBps;
        uint16 minOrderDelaySec;
        uint96 minTradeCh;
        uint64 pokeBountyUsdc;
        uint32 pokeIntervalSec;
        uint32 maxOrderDelaySec;
        uint32 executionFeeUsdc;
    }

    /// @notice The market's aggregate state.
    /// @param fundingIndexWad Cumulative funding per CH at `lastFundingTime`, USDC WAD (signed).
    /// @param fundingRateWad Funding rate at `lastFundingTime`, WAD per day (+ longs pay).
    /// @param lastFundingTime Unix seconds of the last accrual.
    /// @param longOiCh Σ long sizes, CH WAD.
    /// @param shortOiCh Σ |short sizes|, CH WAD.
    /// @param sumOpenNotionalUsdc Σ traders' cost basis (signed), USDC: mirrors the ClearingHouse positions.
    /// @param fundingOffsetWad Σ size × snapshot − Σ pending funding, USDC WAD: the traders' funding debt is
    ///        netSize × index − fundingOffset, with no loop.
    /// @param burnReserveUsdc Fees held in the PnL pool for the DPS burn, not LP capital.
    /// @param keeperOwedUsdc Poke bounties and execution fees credited and not yet claimed, not LP capital.
    /// @param orderFeesUsdc Execution fees held by pending orders, not LP capital.
    /// @param pendingOrders Pending orders.
    struct MarketState {
        int256 fundingIndexWad;
        int256 fundingRateWad;
        uint256 lastFundingTime;
        uint256 longOiCh;
        uint256 shortOiCh;
        int256 sumOpenNotionalUsdc;
        int256 fundingOffsetWad;
        uint256 burnReserveUsdc;
        uint256 keeperOwedUsdc;
        uint256 orderFeesUsdc;
        uint256 pendingOrders;
    }

    /// @notice One account's perp bookkeeping (its position itself is in the ClearingHouse).
    /// @param sizeCh Size, CH WAD (mirrors ClearingHouse.positionOf).
    /// @param fundingSnapshotWad Funding index at the account's last settlement, USDC WAD.
    /// @param pendingFundingUsdc Funding carried over a liquidation and not yet settled (+ = owed by the account).
    struct AccountState {
        int256 sizeCh;
        int256 fundingSnapshotWad;
        int256 pendingFundingUsdc;
    }

    /// @notice The fee of one trade and its three-way split (lp + insurance + burn = total, exactly).
    /// @param totalUsdc Total fee, rounded up.
    /// @param lpUsdc To LPs (the market's PnL pool), the remainder.
    /// @param insuranceUsdc To the insurance fund (ClearingHouse fee), rounded down.
    /// @param burnUsdc To the DPS burn reserve, rounded down.
    struct FeeSplit {
        uint256 totalUsdc;
        uint256 lpUsdc;
        uint256 insuranceUsdc;
        uint256 burnUsdc;
    }

    /// @notice Emitted when parameters change.
    /// @param params The new parameters.
    event PerpParamsSet(PerpParams params);

    /// @notice Commits an order of `sizeDeltaCh` for the caller (open, increase, reduce or flip), executed by anyone
    ///         after minOrderDelaySec at the oracle round in force at commit + minOrderDelaySec (IDelayedOrders). One
    ///         pending order per account; the caller's collateral pays executionFeeUsdc into the order now. A
    ///         risk-increasing order is checked now (not paused "perp.trade", the position cap, `riskPrice()`'s gates,
    ///         equity − fee ≥ initial margin with the order's) and holds the order's initial margin until it is executed
    ///         or cancelled (IMarketAccountRisk.accountRisk). Reductions are never paused (SEC-05).
    /// @param sizeDeltaCh Signed size change, CH WAD.
    /// @param acceptablePriceWad Worst fill price accepted (buy: fill ≤ it; sell: fill ≥ it); 0 = no limit.
    /// @return priceTime The order fills at the round in force at this time; executable from priceTime + 1.
    function commitOrder(int256 sizeDeltaCh, uint256 acceptablePriceWad) external returns (uint256 priceTime);

    /// @notice Commits an order that closes the caller's whole position as it is at execution (always accepted while
    ///         the account has a position, SEC-05; its fee is capped at the account's collateral).
    /// @param acceptablePriceWad Worst fill price accepted; 0 = no limit.
    /// @return priceTime As `commitOrder`.
    function closePosition(uint256 acceptablePriceWad) external returns (uint256 priceTime);

    /// @notice Executes `account`'s pending order at `roundId`, which must be the oracle round in force at the order's
    ///         price time (IComputePriceOracle.priceAtRound; `checker()` and the oracle's `roundAt` find it).
    ///         Permissionless; credits the executor the order's fee (a keeper credit: `keeperBountyOf`, claimed with
    ///         `claimKeeperBounty`). A user-caused failure of the fill (price limit,
    ///         margin, pause, caps, the oracle's new-risk gates, no position to close) cancels the order with
    ///         OrderCancelled instead of reverting. Reverts DelayedOrderAlreadyDone when there is no pending order
    ///         (another executor won), DelayedOrderNotReady / DelayedOrderExpired outside its window, the oracle's
    ///         error for a wrong or invalid round, DelayedOrderGasTooLow when sent with less than MIN_EXECUTION_GAS.
    /// @param account The trader.
    /// @param roundId The oracle round.
    function executeOrder(address account, uint80 roundId) external;

    /// @notice Cancels `account`'s pending order after its expiry and credits the caller its fee (as `executeOrder`).
    ///         Permissionless; before
    ///         the expiry nobody can cancel it, the trader included (DelayedOrderNotExpired).
    /// @param account The trader.
    function cancelOrder(address account) external;

    /// @notice The fill step of `executeOrder`, run by the market in its own call frame so that a user-caused failure
    ///         rolls back the fill alone. Only the market itself (PerpOnlySelf).
    /// @param account The trader.
    /// @param sizeDeltaCh Signed size change (0: close the whole position).
    /// @param acceptablePriceWad The order's limit.
    /// @param priceWad The index of the round in force at `priceTime`.
    /// @param priceTime The order's price time.
    /// @return fillPriceWad The fill price.
    function fillOrder(
        address account,
        int256 sizeDeltaCh,
        uint256 acceptablePriceWad,
        uint256 priceWad,
        uint256 priceTime
    ) external returns (uint256 fillPriceWad);

    /// @notice Settles `account`'s funding (and any pending funding) through ClearingHouse.settle. Permissionless:
    ///         keepers settle accounts near maintenance so the ClearingHouse's margin state includes their funding.
    /// @param account The account.
    /// @return fundingUsdc Amount credited (+) or debited (−).
    function settleFunding(address account) external returns (int256 fundingUsdc);

    /// @notice Accrues funding to now. Permissionless; reverts with PerpAlreadyDone unless the index is at least
    ///         `pokeIntervalSec` old; credits the caller `pokeBountyUsdc` (claimed later with `claimKeeperBounty`,
    ///         paid from the PnL pool) while the market has open interest, nothing otherwise (the checker reports
    ///         no work for an empty market). Costs the same with 1 or 10,000 positions (MKT-03).
    /// @return bountyUsdc The bounty credited.
    function pokeFunding() external returns (uint256 bountyUsdc);

    /// @notice Pays the caller its credited poke bounties and execution fees from the PnL pool.
    /// @return amountUsdc USDC paid.
    function claimKeeperBounty() external returns (uint256 amountUsdc);

    /// @notice Sends the DPS burn reserve to the burn sink (permissionless).
    /// @return amountUsdc USDC sent.
    function flushBurnReserve() external returns (uint256 amountUsdc);

    /// @notice Sets the parameters (ADMIN).
    /// @param params The parameters.
    function setParams(PerpParams calldata params) external;

    /// @notice Sets the burn sink (ADMIN).
    /// @param burnSink The recipient of the burn reserve.
    function setBurnSink(address burnSink) external;

    /// @notice The fill price and fee of a trade of `sizeDeltaCh` now (at the current index).
    /// @param sizeDeltaCh Signed size change.
    /// @return fillPriceWad Fill price.
    /// @return fee The fee and its split.
    /// @return indexPriceWad The index used.
    function quote(
        int256 sizeDeltaCh
    ) external view returns (uint256 fillPriceWad, FeeSplit memory fee, uint256 indexPriceWad);

    /// @notice The funding index and rate as they would be accrued now (at the current index).
    /// @return fundingIndexWad Index, USDC WAD per CH.
    /// @return fundingRateWad Rate, WAD per day.
    function currentFunding() external view returns (int256 fundingIndexWad, int256 fundingRateWad);

    /// @notice Funding `account` owes now (+) or is owed (−), including pending funding, USDC (owed rounds up).
    /// @param account The account.
    /// @return owedUsdc USDC.
    function fundingOwedUsdc(address account) external view returns (int256 owedUsdc);

    /// @notice The aggregate state as stored (funding not accrued to now).
    /// @return state The state.
    function marketState() external view returns (MarketState memory state);

    /// @notice `account`'s pending order (all zero when none).
    /// @param account The trader.
    /// @return order The order.
    function pendingOrder(address account) external view returns (OrderView memory order);

    /// @notice The account of the `i`-th pending order (0 ≤ i < marketState().pendingOrders).
    /// @param i Index.
    /// @return account The trader.
    function pendingOrderAt(uint256 i) external view returns (address account);

    /// @notice One account's perp bookkeeping.
    /// @param account The account.
    /// @return state The state.
    function accountState(address account) external view returns (AccountState memory state);

    /// @notice Poke bounties and execution fees credited to `keeper` and not yet claimed, USDC.
    /// @param keeper The keeper.
    /// @return USDC.
    function keeperBountyOf(address keeper) external view returns (uint256);

    /// @notice The parameters.
    /// @return The parameters.
    function params() external view returns (PerpParams memory);

    /// @notice Connected contracts.
    /// @return clearingHouse The ClearingHouse.
    /// @return oracle The index oracle.
    /// @return vault The LiquidityVault.
    /// @return usdc USDC.
    /// @return burnSink The burn reserve's recipient.
    function modules()
        external
        view
        returns (address clearingHouse, address oracle, address vault, address usdc, address burnSink);
}
