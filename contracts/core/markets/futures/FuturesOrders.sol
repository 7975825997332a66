// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesBase} from "./FuturesBase.sol";
import {FuturesRisk} from "./FuturesRisk.sol";
import {IFuturesTypes} from "../../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesMarket} from "../../../interfaces/markets/IFuturesMarket.sol";
import {IClearingHouse} from "../../../interfaces/clearing/IClearingHouse.sol";
import {IRiskEngine} from "../../../interfaces/clearing/IRiskEngine.sol";
import {IDelayedOrders, IDelayedOrderErrors} from "../../../interfaces/markets/IDelayedOrders.sol";
import {DelayedOrders} from "../../../libraries/DelayedOrders.sol";
import {SeriesId, SeriesIdLib} from "../../../types/SeriesId.sol";
import {FuturesMath} from "../../../libraries/FuturesMath.sol";
import {FixedPointMath} from "../../../libraries/math/FixedPointMath.sol";
import {FuturesLedger} from "../../../libraries/futures/FuturesLedger.sol";
import {FuturesFixing} from "../../../libraries/futures/FuturesFixing.sol";
import {IComputePriceOracle} from "../../../interfaces/oracle/IComputePriceOracle.sol";

/// @title FuturesOrders
/// @notice FuturesMarket's two-step trade orders against the vault (IDelayedOrders, issue 17 item 15): intake, execution,
///         cancellation and keeper discovery, on the market's storage (an external library run by delegatecall in the
///         market's or its delivery module's context, linked at deploy; keeps both under EIP-170). One order per
///         account and series (key `SeriesId.orderKey(account)`, the DelayedOrders key layout); the fill itself is the market's
///         `fillDelayed`. Emits the market's events.
library FuturesOrders {
    using DelayedOrders for DelayedOrders.Book;
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @notice Gas an execution must have left before the fill.
    uint256 internal constant MIN_EXECUTION_GAS = 1_000_000;
    /// @notice Pending orders the keeper checker scans at most.
    uint256 internal constant ORDER_SCAN = 32;
    /// @dev The market's scan bounds (FuturesBase): accounts per series, accounts per payload (open series per check:
    ///      FuturesLedger.SERIES_SCAN, declared once).
    uint256 private constant ACCOUNT_SCAN = 64;
    uint256 private constant KEEPER_BATCH = 16;

    /// @notice Records an order (the market has checked the series is trading and its pause flag for new risk): takes
    ///         its execution fee from the account's collateral into the pool. A risk-increasing order must leave
    ///         equity − fee at or above the initial margin plus its own (the RiskEngine's IM rate, at the risk price
    ///         now, on the growth of the account's margined size max(Σ live longs, Σ live shorts), rounded up), which
    ///         it escrows from the collateral with the fee until it is executed (the margin goes back just before the
    ///         fill) or cancelled (back to the account). The ClearingHouse asks this market's accountRisk only for
    ///         accounts in its market set, which an account without a futures position is not: escrow binds every
    ///         account; accountRisk shows the escrow as equity and as initial margin. A reduction or close is never
    ///         refused for its fee (SEC-05): the fee is capped at the collateral.
    /// @param $ The market's storage.
    /// @param account The trader.
    /// @param seriesId The series.
    /// @param delta Signed size change (a close: minus the size now).
    /// @param limit Worst acceptable price (0 = none).
    /// @param closeAll Whether it closes the position at execution.
    /// @return priceTime The order's price time.
    function commit(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId,
        int256 delta,
        uint256 limit,
        bool closeAll
    ) external returns (uint256 priceTime) {
        priceTime = block.timestamp + $.params.minOrderDelaySec;
        uint64 expiry = $.series[seriesId].expiry;
        if (priceTime + 1 >= expiry) revert IFuturesErrors.FuturesOrderPastExpiry(seriesId, priceTime + 1, expiry);
        (uint256 fee, uint256 margin) = _feeAndMargin($, account, seriesId, delta);
        _record(
            $,
            account,
            seriesId,
            DelayedOrders.Order(delta.toInt128(), limit.toUint128(), 0, uint64(fee), margin.toUint64(), 0, closeAll),
            priceTime
        );
    }

    /// @dev The fee the order holds (capped at the collateral for a reduction) and, for new risk, its margin,
    ///      escrowed with the fee.
    function _feeAndMargin(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId,
        int256 delta
    ) private returns (uint256 fee, uint256 margin) {
        int256 oldSize = $.positions[seriesId][account].sizeCh;
        fee = $.params.executionFeeUsdc;
        int256 collateral = $.clearingHouse.collateralOf(account);
        if (_increasing(oldSize, oldSize + delta)) {
            margin = _orderMargin($, _growthCh($, account, seriesId, delta));
            if (collateral < int256(fee + margin)) {
                revert IFuturesErrors.FuturesInsufficientCollateral(account, fee + margin, collateral);
            }
            _checkMargin($.clearingHouse, account, margin, fee);
            if (margin != 0) {
                FuturesLedger.moveOrderMargin($, account, int256(margin));
                $.totalOrderMarginUsdc += margin;
            }
        } else if (collateral < int256(fee)) {
            fee = collateral > 0 ? uint256(collateral) : 0;
        }
    }

    /// @dev How much the trade grows the margined size max(Σ live longs, Σ live shorts) of the account (= |net| +
    ///      the matched calendar-spread legs, what the ClearingHouse and FuturesRisk margin), over its series.
    function _growthCh(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId,
        int256 delta
    ) private view returns (uint256) {
        return FuturesLedger.marginedGrowthCh($, account, seriesId, delta);
    }

    /// @dev Books `o`, holds its fee and margin (taken from the account's collateral into the pool) and emits
    ///      OrderCommitted.
    function _record(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId,
        DelayedOrders.Order memory o,
        uint256 priceTime
    ) private {
        uint256 pending = $.orders.commit(SeriesId.wrap(seriesId).orderKey(account), o);
        $.orders.feesUsdc += o.feeUsdc;
        emit IFuturesTypes.OrderCommitted(
            seriesId,
            account,
            o.sizeDeltaCh,
            o.acceptablePriceWad,
            o.closeAll,
            priceTime,
            block.timestamp + $.params.maxOrderDelaySec,
            o.feeUsdc,
            o.marginUsdc,
            pending
        );
        uint256 held = uint256(o.feeUsdc) + o.marginUsdc;
        if (held != 0) $.clearingHouse.settle(account, -int256(held));
    }

    /// @dev The order's initial margin: the RiskEngine's IM rate on `growCh` at the risk price now (which also applies
    ///      the oracle's new-risk gates at commit), rounded up.
    function _orderMargin(FuturesBase.FuturesMarketStorage storage $, uint256 growCh) private view returns (uint256) {
        uint256 price = $.oracle.riskPrice();
        (, , address risk, , , ) = $.clearingHouse.modules();
        (uint256 imRate, ) = IRiskEngine(risk).marginRates(address(this));
        return Math.mulDiv(FuturesMath.usdcUp(growCh, price), imRate, 1e18, Math.Rounding.Ceil);
    }

    /// @dev Reverts unless equity − fee covers the account's initial margin plus the order's.
    function _checkMargin(IClearingHouse ch, address account, uint256 margin, uint256 fee) private view {
        IClearingHouse.MarginState memory m = ch.marginState(account);
        uint256 required = m.initialMarginUsdc + margin;
        int256 available = m.equityUsdc - int256(fee);
        if (available < int256(required)) revert IFuturesErrors.FuturesInsufficientMargin(account, required, available);
    }

    function _increasing(int256 oldSize, int256 newSize) private pure returns (bool) {
        return
            FixedPointMath.abs(newSize) > FixedPointMath.abs(oldSize) ||
            (oldSize != 0 && newSize != 0 && (oldSize > 0) != (newSize > 0));
    }

    /// @notice Executes `account`'s order on `seriesId` at `roundId` (IFuturesMarket.executeOrder): takes it out of
    ///         the book first (so the fill's margin check does not count it twice), then runs the fill in the
    ///         market's own frame (`fillDelayed`): a revert with a reason is a user-caused failure and cancels the
    ///         order; an empty one (out of gas) reverts everything. The executor (the caller) is paid the fee.
    function execute(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId,
        uint80 roundId
    ) external {
        (DelayedOrders.Order memory o, uint256 t, uint256 pending) = _take($, account, seriesId, false);
        uint256 price = $.oracle.priceAtRound(roundId, t);
        // the escrowed margin goes back first: the fill's own margin check sees it
        if (o.marginUsdc != 0) $.clearingHouse.settle(account, int256(uint256(o.marginUsdc)));
        uint256 gasLeft = gasleft();
        if (gasLeft < MIN_EXECUTION_GAS) revert IDelayedOrderErrors.DelayedOrderGasTooLow(gasLeft, MIN_EXECUTION_GAS);
        int256 delta = o.closeAll ? int256(0) : int256(o.sizeDeltaCh);
        try IFuturesMarket(address(this)).fillDelayed(account, seriesId, delta, o.acceptablePriceWad, price, t) {
            emit IFuturesTypes.OrderExecuted(seriesId, account, msg.sender, roundId, price, o.feeUsdc, pending);
        } catch (bytes memory reason) {
            // @dev no reason: the fill ran out of gas (MIN_EXECUTION_GAS makes that the executor's doing)
            if (reason.length == 0) revert IDelayedOrderErrors.DelayedOrderGasTooLow(gasleft(), MIN_EXECUTION_GAS);
            emit IFuturesTypes.OrderCancelled(seriesId, account, msg.sender, o.feeUsdc, reason, pending);
        }
        if (o.feeUsdc != 0) $.clearingHouse.settle(msg.sender, int256(uint256(o.feeUsdc)));
    }

    /// @notice Cancels `account`'s expired order on `seriesId` and pays the caller its fee (IFuturesMarket.cancelOrder).
    function cancel(FuturesBase.FuturesMarketStorage storage $, address account, uint256 seriesId) external {
        (DelayedOrders.Order memory o, uint256 expiresAt, uint256 pending) = _take($, account, seriesId, true);
        bytes memory reason = abi.encodeWithSelector(
            IDelayedOrderErrors.DelayedOrderExpired.selector,
            account,
            expiresAt
        );
        emit IFuturesTypes.OrderCancelled(seriesId, account, msg.sender, o.feeUsdc, reason, pending);
        if (o.marginUsdc != 0) $.clearingHouse.settle(account, int256(uint256(o.marginUsdc)));
        if (o.feeUsdc != 0) $.clearingHouse.settle(msg.sender, int256(uint256(o.feeUsdc)));
    }

    /// @dev Checks the order is executable (or, `expired`, cancellable), removes it with its fee and margin, and
    ///      returns it with its price time (or expiry) and the pending count after.
    function _take(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 seriesId,
        bool expired
    ) private returns (DelayedOrders.Order memory o, uint256 time, uint256 pending) {
        bytes32 k = SeriesId.wrap(seriesId).orderKey(account);
        o = $.orders.orders[k];
        if (o.commitTime == 0) revert IDelayedOrderErrors.DelayedOrderAlreadyDone(account);
        IFuturesTypes.Params storage p = $.params;
        if (expired) {
            DelayedOrders.requireExpired(o, account, p.maxOrderDelaySec);
            time = uint256(o.commitTime) + p.maxOrderDelaySec;
        } else {
            time = DelayedOrders.requireExecutable(o, account, p.minOrderDelaySec, p.maxOrderDelaySec);
        }
        (, pending) = $.orders.take(k);
        $.orders.feesUsdc -= o.feeUsdc;
        if (o.marginUsdc != 0) {
            FuturesLedger.moveOrderMargin($, account, -int256(uint256(o.marginUsdc)));
            $.totalOrderMarginUsdc -= o.marginUsdc;
        }
    }

    /// @notice `account`'s pending order on `seriesId` (IFuturesMarket.pendingOrder).
    function orderOf(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address account
    ) external view returns (IDelayedOrders.OrderView memory) {
        IFuturesTypes.Params storage p = $.params;
        return $.orders.orderView(SeriesId.wrap(seriesId).orderKey(account), p.minOrderDelaySec, p.maxOrderDelaySec);
    }

    /// @notice The keeper payload for the first due order among the first ORDER_SCAN pending: `cancelOrder` for an
    ///         expired one, `executeOrder` at the round the oracle finds for a ready one; empty when none.
    /// @return payload Calldata for the market, or empty.
    function dueWork(FuturesBase.FuturesMarketStorage storage $) public view returns (bytes memory payload) {
        IFuturesTypes.Params storage p = $.params;
        (bool found, bytes32 k, bool expired, uint256 t) = $.orders.firstDue(
            p.minOrderDelaySec,
            p.maxOrderDelaySec,
            ORDER_SCAN
        );
        if (!found) return payload;
        address account = SeriesIdLib.accountOfOrderKey(k);
        uint256 seriesId = SeriesId.unwrap(SeriesIdLib.ofOrderKey(k));
        if (expired) return abi.encodeCall(IFuturesMarket.cancelOrder, (account, seriesId));
        uint80 roundId = $.oracle.roundAt(t);
        if (roundId != 0) payload = abi.encodeCall(IFuturesMarket.executeOrder, (account, seriesId, roundId));
    }

    /// @notice The market's keeper work (IKeeperChecker.checker): a due order first (`dueWork`), then the first
    ///         expiry step among the first SERIES_SCAN open series: fix the price of an expired series, finalise it
    ///         after the dispute window, or settle a batch of up to KEEPER_BATCH settleable accounts (scanning
    ///         ACCOUNT_SCAN from the series' cursor). Empty when there is nothing to do.
    /// @return payload Calldata for the market (`performUpkeep` runs it), or empty.
    function keeperWork(FuturesBase.FuturesMarketStorage storage $) external view returns (bytes memory payload) {
        payload = dueWork($);
        if (payload.length != 0) return payload;
        uint256 first = $.firstOpenSeries;
        uint256 last = $.seriesCount;
        if (last >= first + FuturesLedger.SERIES_SCAN) last = first + FuturesLedger.SERIES_SCAN - 1;
        for (uint256 id = first; id <= last; ++id) {
            IFuturesTypes.SeriesState storage s = $.series[id];
            if (s.finalAt == 0) {
                if (block.timestamp >= s.expiry) {
                    payload = _fixWork($.oracle, id, s.expiry);
                    if (payload.length != 0) return payload;
                }
                continue;
            }
            if (s.deliveryDeadline == 0) {
                if (block.timestamp >= s.finalAt) return abi.encodeCall(IFuturesMarket.finalizeSettlement, (id));
                continue;
            }
            if (s.openPositions == 0) continue;
            address[] memory batch = _settleBatch($, s, id);
            if (batch.length != 0) return abi.encodeCall(IFuturesMarket.settlePositions, (id, batch));
        }
    }

    /// @dev The fixing of expired series `id`: the TWAP with its hints, or — when a round of the window is stale — the
    ///      fallback once due and its round published (FuturesFixing). Hints out of the oracle's look-back: someone
    ///      passes them from the feed (docs/futures.md).
    function _fixWork(IComputePriceOracle oracle, uint256 id, uint64 expiry) private view returns (bytes memory) {
        (uint80 first, uint64[] memory changes) = FuturesFixing.twapHints(oracle, expiry);
        if (first == 0) return "";
        (uint80 stale, uint64 staleAt) = FuturesFixing.staleHint(oracle, expiry, first, changes);
        if (stale == 0) return abi.encodeCall(IFuturesMarket.fixSettlementPriceAt, (id, first, changes));
        if (block.timestamp < expiry + FuturesFixing.FALLBACK_DELAY_SEC) return "";
        (uint80 round, uint64 roundTime) = FuturesFixing.roundAfter(oracle, expiry);
        if (round == 0) return "";
        return abi.encodeCall(IFuturesMarket.fixSettlementPriceFallback, (id, stale, staleAt, round, roundTime));
    }

    /// @dev Up to KEEPER_BATCH settleable accounts of series `id` among ACCOUNT_SCAN from its cursor.
    function _settleBatch(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 id
    ) private view returns (address[] memory batch) {
        mapping(uint256 => address) storage accounts = $.seriesAccountAt[id];
        uint256 from = s.settleCursor;
        uint256 total = s.accounts;
        uint256 to = total < from + ACCOUNT_SCAN ? total : from + ACCOUNT_SCAN;
        batch = new address[](KEEPER_BATCH);
        uint256 n;
        for (uint256 i = from; i < to && n < KEEPER_BATCH; ++i) {
            if (FuturesRisk.settleable(s, $.positions[id][accounts[i]])) batch[n++] = accounts[i];
        }
        assembly ("memory-safe") {
            mstore(batch, n)
        }
    }

    /// @notice IFuturesMarket.quote: the series price of a trade of `sizeDeltaCh` now, at the current index.
    function quote(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        int256 sizeDeltaCh
    ) external view returns (uint256 priceWad, uint256 indexPriceWad, int256 premiumWad) {
        IFuturesTypes.SeriesState storage s = $.series[seriesId];
        if (s.expiry == 0) revert IFuturesErrors.FuturesSeriesUnknown(seriesId);
        indexPriceWad = $.oracle.indexPrice();
        int256 skew = int256(uint256(s.longOiCh)) - int256(uint256(s.shortOiCh));
        uint256 ttx = block.timestamp < s.expiry ? s.expiry - block.timestamp : 0;
        IFuturesTypes.Params storage pr = $.params;
        premiumWad = FuturesMath.premiumWad(
            2 * skew + sizeDeltaCh,
            pr.skewScaleCh,
            pr.maxPremiumBps,
            ttx,
            pr.premiumHorizonSec
        );
        priceWad = FuturesMath.seriesPrice(indexPriceWad, premiumWad, sizeDeltaCh > 0);
    }
}
