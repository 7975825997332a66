// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../interfaces/oracle/IComputePriceOracle.sol";
import {IPerpMarket, IPerpMarketErrors, IPerpMarketEvents} from "../interfaces/markets/IPerpMarket.sol";
import {IDelayedOrders, IDelayedOrderErrors} from "../interfaces/markets/IDelayedOrders.sol";
import {DelayedOrders} from "./DelayedOrders.sol";
import {ClearingMath} from "./ClearingMath.sol";
import {PerpMath} from "./PerpMath.sol";
import {FixedPointMath} from "./math/FixedPointMath.sol";

/// @title PerpTrading
/// @notice The perpetual's trading state and the two mechanisms that read all of it: filling an order (funding to
///         now, fill price, fee split, open interest, the ClearingHouse call, Σ cost basis) and valuing the LPs'
///         claim (vault equity, what may return to the vault). An external library run by delegatecall in
///         PerpMarket's context (linked at deploy, keeps the market under EIP-170) on a storage pointer to the
///         market's `Market`; it emits the market's events. IPerpMarket documents the model.
/// @dev Hot-path storage is four packed words (funding, open interest, aggregates, the account); nothing loops over
///      accounts (MKT-03).
library PerpTrading {
    using SafeCast for int256;
    using SafeCast for uint256;
    using DelayedOrders for DelayedOrders.Book;

    uint256 internal constant BPS = 10_000;
    /// @dev PerpMarket.BOUNTY_RUNWAY_SEC (docs/perps.md).
    uint256 internal constant BOUNTY_RUNWAY_SEC = 7 days;

    /// @dev One word: everything funding accrual reads and writes, plus unclaimed keeper bounties.
    struct Funding {
        int112 indexWad;
        int64 rateWad;
        uint40 lastTime;
        uint40 keeperOwedUsdc;
    }

    /// @dev One word: open interest per side and the burn reserve.
    struct OpenInterest {
        uint96 longCh;
        uint96 shortCh;
        uint64 burnReserveUsdc;
    }

    /// @dev One word: Σ cost basis and the funding offset (see IPerpMarket.MarketState).
    struct Aggregates {
        int128 sumOpenNotionalUsdc;
        int128 fundingOffsetWad;
    }

    /// @dev One word per account.
    struct Account {
        int128 sizeCh;
        int112 snapshotWad;
        bool hasPending;
    }

    /// @dev The trading state, embedded in PerpMarket's ERC-7201 struct (five slots, in this order).
    struct Market {
        Funding funding;
        OpenInterest oi;
        Aggregates agg;
        mapping(address account => Account) accounts;
        mapping(address account => int256 usdc) pendingFunding;
    }

    /// @dev One fill.
    struct FillArgs {
        IClearingHouse clearingHouse;
        IComputePriceOracle oracle;
        address account;
        int256 sizeDeltaCh;
        uint256 acceptablePriceWad;
        uint256 priceWad;
        uint256 priceTime;
    }

    /// @dev Everything one fill computes, kept in memory (stack depth).
    struct TradeVars {
        int256 delta;
        int256 oldSize;
        int256 newSize;
        int256 snapshot;
        bool hasPending;
        int256 skew;
        uint256 indexPrice;
        uint256 fillPrice;
        int256 fundingIndex;
        int256 fundingRate;
        int256 fundingUsdc;
        int256 offsetDelta;
        uint256 longOi;
        uint256 shortOi;
        uint256 burnReserve;
        uint256 keeperOwed;
        IPerpMarket.FeeSplit fee;
    }

    /// @notice Gas an execution must have left before the fill (PerpMarket.MIN_EXECUTION_GAS).
    uint256 internal constant MIN_EXECUTION_GAS = 1_000_000;

    // ───────────────────────────── execution and fill ─────────────────────────────

    /// @notice Executes `account`'s order at `roundId` (IPerpMarket.executeOrder; here, not in PerpOrders, so the
    ///         fill's delegatecall into this library is warm): takes it out of the book first (so the fill's margin
    ///         check does not count it twice), then runs the fill in the market's own frame (`fillOrder`): a revert
    ///         with a reason is a user-caused failure and cancels the order; an empty one (out of gas) reverts
    ///         everything. The executor (the caller) earns the fee either way: it leaves the book's Σ fees and the
    ///         market credits it (PerpMarket, a keeper credit claimed like the poke bounty).
    /// @return feeUsdc The fee the executor earned.
    function execute(
        DelayedOrders.Book storage book,
        IComputePriceOracle oracle,
        IPerpMarket.PerpParams storage p,
        address account,
        uint80 roundId
    ) external returns (uint256 feeUsdc) {
        bytes32 k = DelayedOrders.key(account, 0);
        DelayedOrders.Order memory o = book.orders[k];
        if (o.commitTime == 0) revert IDelayedOrderErrors.DelayedOrderAlreadyDone(account);
        uint256 t = DelayedOrders.requireExecutable(o, account, p.minOrderDelaySec, p.maxOrderDelaySec);
        uint256 price = oracle.priceAtRound(roundId, t);
        (, uint256 pending) = book.take(k);
        book.feesUsdc -= o.feeUsdc;
        uint256 gasLeft = gasleft();
        if (gasLeft < MIN_EXECUTION_GAS) revert IDelayedOrderErrors.DelayedOrderGasTooLow(gasLeft, MIN_EXECUTION_GAS);
        int256 delta = o.closeAll ? int256(0) : int256(o.sizeDeltaCh);
        try IPerpMarket(address(this)).fillOrder(account, delta, o.acceptablePriceWad, price, t) {
            emit IDelayedOrders.OrderExecuted(account, msg.sender, roundId, price, o.feeUsdc, pending);
        } catch (bytes memory reason) {
            // @dev no reason: the fill ran out of gas (MIN_EXECUTION_GAS makes that the executor's doing)
            if (reason.length == 0) revert IDelayedOrderErrors.DelayedOrderGasTooLow(gasleft(), MIN_EXECUTION_GAS);
            emit IDelayedOrders.OrderCancelled(account, msg.sender, o.feeUsdc, reason, pending);
        }
        return o.feeUsdc;
    }

    /// @notice Fills `a.sizeDeltaCh` for `a.account` at the index `a.priceWad` plus the skew impact: settles the
    ///         account's funding, charges the fee and calls the ClearingHouse once (which checks initial margin and
    ///         the guarantor's gate on new risk). New risk must pass the position cap and the oracle's new-risk gates
    ///         for the order's price time (the market checks its pause flag). Emits PerpTraded.
    /// @return fillPriceWad The fill price.
    function fill(
        Market storage m,
        IPerpMarket.PerpParams storage params,
        FillArgs memory a
    ) external returns (uint256 fillPriceWad) {
        IPerpMarket.PerpParams memory p = params;
        TradeVars memory v;
        v.delta = a.sizeDeltaCh;
        v.indexPrice = a.priceWad;
        _loadAccount(m, a, p, v);
        _priceTrade(m, p, v, a.acceptablePriceWad);
        _accountFunding(m, a.account, v);

        // effects
        storeFunding(m, v.fundingIndex, v.fundingRate, v.keeperOwed);
        m.oi = OpenInterest(uint96(v.longOi), uint96(v.shortOi), uint64(v.burnReserve));
        // a closed account keeps no snapshot (size 0 owes nothing at any index): its word is cleared (gas refund)
        if (v.newSize == 0) delete m.accounts[a.account];
        else m.accounts[a.account] = Account(v.newSize.toInt128(), int112(v.fundingIndex), false);

        // interactions, one ClearingHouse call: funding and the LP + burn fee shares move between the account and
        // the pool first (settle), so its margin check sees them; the insurance share is its trade fee.
        (int256 pnl, IClearingHouse.Position memory pos) = a.clearingHouse.modifyPositionAndSettle(
            a.account,
            v.delta,
            v.fillPrice,
            v.fee.insuranceUsdc,
            v.fundingUsdc - int256(v.fee.lpUsdc + v.fee.burnUsdc)
        );

        Aggregates memory g = m.agg;
        m.agg = Aggregates(
            (g.sumOpenNotionalUsdc + openNotionalDelta(v.oldSize, v.delta, v.fillPrice, pnl)).toInt128(),
            (g.fundingOffsetWad + v.offsetDelta).toInt128()
        );
        _emitTraded(a.account, v, pos.openNotionalUsdc);
        return v.fillPrice;
    }

    /// @notice Whether moving from `oldSize` to `newSize` adds risk (|size| grows, or the side flips).
    function increasing(int256 oldSize, int256 newSize) internal pure returns (bool) {
        return
            FixedPointMath.abs(newSize) > FixedPointMath.abs(oldSize) ||
            (oldSize != 0 && newSize != 0 && (oldSize > 0) != (newSize > 0));
    }

    /// @dev Reads the account and checks the size rules; new risk also passes the cap and the oracle's new-risk gates
    ///      for the order's price (ORC-01).
    function _loadAccount(
        Market storage m,
        FillArgs memory a,
        IPerpMarket.PerpParams memory p,
        TradeVars memory v
    ) private view {
        Account memory acc = m.accounts[a.account];
        v.oldSize = acc.sizeCh;
        v.snapshot = acc.snapshotWad;
        v.hasPending = acc.hasPending;
        v.newSize = v.oldSize + v.delta;
        uint256 absNew = FixedPointMath.abs(v.newSize);
        uint256 absDelta = FixedPointMath.abs(v.delta);
        // a full close of a position below the minimum stays possible
        if (absDelta < p.minTradeCh && v.newSize != 0)
            revert IPerpMarketErrors.PerpTradeTooSmall(absDelta, p.minTradeCh);
        if (increasing(v.oldSize, v.newSize)) {
            if (absNew > p.maxPositionCh) revert IPerpMarketErrors.PerpPositionTooLarge(absNew, p.maxPositionCh);
            a.oracle.checkRiskAt(v.indexPrice, a.priceTime);
        }
    }

    /// @dev Funding to now at the skew before the trade, the fill price and its limit, the fee split and the open
    ///      interest after (caps bind only on a side that grows).
    function _priceTrade(
        Market storage m,
        IPerpMarket.PerpParams memory p,
        TradeVars memory v,
        uint256 limit
    ) private view {
        OpenInterest memory oi = m.oi;
        v.skew = int256(uint256(oi.longCh)) - int256(uint256(oi.shortCh));
        v.keeperOwed = m.funding.keeperOwedUsdc;
        (v.fundingIndex, v.fundingRate) = _accrue(
            m,
            p.skewScaleCh,
            p.maxFundingVelocityWad,
            p.maxFundingRateWad,
            v.indexPrice
        );
        int256 delta = v.delta;
        int256 premium;
        (v.fillPrice, premium) = PerpMath.fillPrice(v.indexPrice, v.skew, delta, p.skewScaleCh);
        if (v.fillPrice == 0) revert IPerpMarketErrors.PerpInvalidFillPrice(premium);
        if (limit != 0 && (delta > 0 ? v.fillPrice > limit : v.fillPrice < limit)) {
            revert IPerpMarketErrors.PerpPriceLimitExceeded(v.fillPrice, limit);
        }
        v.fee = split(PerpMath.feeUsdc(v.skew, delta, v.fillPrice, p.makerFeeBps, p.takerFeeBps), p);
        v.burnReserve = uint256(oi.burnReserveUsdc) + v.fee.burnUsdc;
        if (v.burnReserve > type(uint64).max) {
            // @dev never block a trade on the packed reserve's range: an unflushed overflow goes to LPs instead
            v.fee.lpUsdc += v.fee.burnUsdc;
            v.fee.burnUsdc = 0;
            v.burnReserve = oi.burnReserveUsdc;
        }
        v.longOi = oi.longCh;
        v.shortOi = oi.shortCh;
        if (v.oldSize > 0) v.longOi -= uint256(v.oldSize);
        else v.shortOi -= uint256(-v.oldSize);
        if (v.newSize > 0) {
            v.longOi += uint256(v.newSize);
            if (v.longOi > oi.longCh && v.longOi > p.maxOpenInterestCh) {
                revert IPerpMarketErrors.PerpOpenInterestCapExceeded(true, v.longOi, p.maxOpenInterestCh);
            }
        } else {
            v.shortOi += uint256(-v.newSize);
            if (v.shortOi > oi.shortCh && v.shortOi > p.maxOpenInterestCh) {
                revert IPerpMarketErrors.PerpOpenInterestCapExceeded(false, v.shortOi, p.maxOpenInterestCh);
            }
        }
    }

    /// @dev The account's funding since its snapshot plus any carried over a liquidation, and the change of the
    ///      funding offset when its snapshot moves to the new index.
    function _accountFunding(Market storage m, address account, TradeVars memory v) private {
        int256 owed = PerpMath.fundingOwedUsdc(v.oldSize, v.snapshot, v.fundingIndex);
        v.offsetDelta = (v.newSize * v.fundingIndex) / PerpMath.WAD - (v.oldSize * v.snapshot) / PerpMath.WAD;
        if (v.hasPending) {
            int256 pending = m.pendingFunding[account];
            owed += pending;
            v.offsetDelta += pending * 1e12;
            delete m.pendingFunding[account];
        }
        v.fundingUsdc = -owed;
    }

    function _emitTraded(address account, TradeVars memory v, int256 openNotional) private {
        emit IPerpMarketEvents.PerpTraded(
            account,
            v.delta,
            v.fillPrice,
            v.indexPrice,
            v.newSize,
            openNotional,
            v.fundingUsdc,
            v.fee.lpUsdc,
            v.fee.insuranceUsdc,
            v.fee.burnUsdc,
            v.fundingIndex,
            v.fundingRate,
            v.longOi,
            v.shortOi
        );
    }

    /// @notice The change of the ClearingHouse cost basis, rebuilt from the realised PnL it returned (ClearingMath
    ///         .applyTrade): an increase adds valueUp(delta); a reduction removes closedBasis = valueDown(closed) −
    ///         pnl; a flip then adds valueUp(newSize). Exact, so Σ cost basis mirrors the ClearingHouse without a read.
    function openNotionalDelta(int256 oldSize, int256 delta, uint256 price, int256 pnl) internal pure returns (int256) {
        if (oldSize == 0 || (oldSize > 0) == (delta > 0)) return ClearingMath.valueUsdcUp(delta, price);
        uint256 absOld = FixedPointMath.abs(oldSize);
        uint256 absDelta = FixedPointMath.abs(delta);
        uint256 closeAbs = absDelta < absOld ? absDelta : absOld;
        int256 closed = oldSize > 0 ? int256(closeAbs) : -int256(closeAbs);
        int256 change = pnl - ClearingMath.valueUsdcDown(closed, price);
        if (absDelta > absOld) change += ClearingMath.valueUsdcUp(oldSize + delta, price);
        return change;
    }

    /// @notice A fee split three ways: the two named shares round down, LPs take the remainder (the parts always sum
    ///         to the total).
    function split(
        uint256 total,
        IPerpMarket.PerpParams memory p
    ) internal pure returns (IPerpMarket.FeeSplit memory s) {
        s.totalUsdc = total;
        if (total == 0) return s;
        s.insuranceUsdc = (total * p.insuranceShareBps) / BPS;
        s.burnUsdc = (total * p.burnShareBps) / BPS;
        s.lpUsdc = total - s.insuranceUsdc - s.burnUsdc;
    }

    /// @notice The funding index and rate accrued to now at `price` (the stored state is not written).
    function accrue(
        Market storage m,
        IPerpMarket.PerpParams storage p,
        uint256 price
    ) internal view returns (int256 indexWad, int256 rateWad) {
        return _accrue(m, p.skewScaleCh, p.maxFundingVelocityWad, p.maxFundingRateWad, price);
    }

    function _accrue(
        Market storage m,
        uint256 skewScaleCh,
        uint256 maxVelocityWad,
        uint256 maxRateWad,
        uint256 price
    ) private view returns (int256 indexWad, int256 rateWad) {
        Funding memory f = m.funding;
        OpenInterest memory oi = m.oi;
        return
            PerpMath.accrue(
                f.indexWad,
                f.rateWad,
                block.timestamp - f.lastTime,
                int256(uint256(oi.longCh)) - int256(uint256(oi.shortCh)),
                skewScaleCh,
                maxVelocityWad,
                maxRateWad,
                price
            );
    }

    /// @notice Writes the funding word. The index cannot leave int112 (5e15 USDC per CH) nor the rate int64
    ///         (maxFundingRateWad ≤ 1e18) in practice; the checked casts keep a corrupted value from being stored.
    function storeFunding(Market storage m, int256 indexWad, int256 rateWad, uint256 keeperOwedUsdc) internal {
        m.funding = Funding(indexWad.toInt112(), rateWad.toInt64(), uint40(block.timestamp), uint40(keeperOwedUsdc));
    }

    /// @notice −(funding `account` owes accrued to now at `priceWad` + its pending funding): owing rounds up, what
    ///         it is owed rounds down (IMarketAccountRisk.accountRisk's equity adjustment). Here, not in PerpFunding: the
    ///         ClearingHouse asks for it inside every risk-increasing fill, where this library is already warm.
    function fundingAdjustment(
        Market storage m,
        IPerpMarket.PerpParams storage p,
        address account,
        uint256 priceWad
    ) external view returns (int256) {
        Account memory a = m.accounts[account];
        int256 pending = a.hasPending ? m.pendingFunding[account] : int256(0);
        if (a.sizeCh == 0) return -pending;
        (int256 index, ) = accrue(m, p, priceWad);
        return -(PerpMath.fundingOwedUsdc(a.sizeCh, a.snapshotWad, index) + pending);
    }

    /// @notice The fill price and fee of `sizeDeltaCh` now at `indexPriceWad` (IPerpMarket.quote).
    function quote(
        Market storage m,
        IPerpMarket.PerpParams storage params,
        int256 sizeDeltaCh,
        uint256 indexPriceWad
    ) external view returns (uint256 fillPriceWad, IPerpMarket.FeeSplit memory fee) {
        IPerpMarket.PerpParams memory p = params;
        OpenInterest memory oi = m.oi;
        int256 skew = int256(uint256(oi.longCh)) - int256(uint256(oi.shortCh));
        (fillPriceWad, ) = PerpMath.fillPrice(indexPriceWad, skew, sizeDeltaCh, p.skewScaleCh);
        fee = split(PerpMath.feeUsdc(skew, sizeDeltaCh, fillPriceWad, p.makerFeeBps, p.takerFeeBps), p);
    }
}
