// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";
import {IComputePriceOracle} from "../interfaces/oracle/IComputePriceOracle.sol";
import {IRiskEngine} from "../interfaces/clearing/IRiskEngine.sol";
import {IDelayedOrders, IDelayedOrderErrors} from "../interfaces/markets/IDelayedOrders.sol";
import {IPerpMarket, IPerpMarketErrors} from "../interfaces/markets/IPerpMarket.sol";
import {ClearingMath} from "./ClearingMath.sol";
import {DelayedOrders} from "./DelayedOrders.sol";
import {FixedPointMath} from "./math/FixedPointMath.sol";

/// @title PerpOrders
/// @notice PerpMarket's order intake, expiry cancellation and keeper discovery (IDelayedOrders; the execution is in
///         PerpTrading, warm for the fill it runs), as an external library run by delegatecall in the market's
///         context (linked at deploy; keeps the market under EIP-170). Works on the market's order book (a storage
///         pointer); emits the market's events.
library PerpOrders {
    using DelayedOrders for DelayedOrders.Book;
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @dev What `commit` needs from the market.
    struct CommitArgs {
        IClearingHouse clearingHouse;
        IComputePriceOracle oracle;
        address account;
        int256 oldSizeCh;
        int256 sizeDeltaCh;
        uint256 acceptablePriceWad;
        bool closeAll;
        bool increasing;
    }

    /// @notice Checks an order (the market has checked its pause flag for new risk), takes its execution fee from the
    ///         account's collateral into the pool and records it. A risk-increasing order must leave equity − fee at
    ///         or above the initial margin plus its own (the IM rate of the RiskEngine on the growth of |size|, at the
    ///         risk price now, rounded up), which it then holds until executed or cancelled. A reduction or close is
    ///         never refused for its fee (SEC-05): the fee is capped at the collateral.
    /// @return feeUsdc The fee held.
    /// @return priceTime The order's price time.
    function commit(
        DelayedOrders.Book storage book,
        IPerpMarket.PerpParams storage p,
        CommitArgs memory a
    ) external returns (uint256 feeUsdc, uint256 priceTime) {
        int256 newSize = a.oldSizeCh + a.sizeDeltaCh;
        uint256 absDelta = FixedPointMath.abs(a.sizeDeltaCh);
        if (absDelta < p.minTradeCh && newSize != 0) revert IPerpMarketErrors.PerpTradeTooSmall(absDelta, p.minTradeCh);
        feeUsdc = p.executionFeeUsdc;
        int256 collateral = a.clearingHouse.collateralOf(a.account);
        uint256 margin;
        if (a.increasing) {
            uint256 absNew = FixedPointMath.abs(newSize);
            if (absNew > p.maxPositionCh) revert IPerpMarketErrors.PerpPositionTooLarge(absNew, p.maxPositionCh);
            if (collateral < int256(feeUsdc)) {
                revert IPerpMarketErrors.PerpInsufficientCollateral(a.account, feeUsdc, collateral);
            }
            margin = _checkMargin(a, absNew, feeUsdc);
        } else if (collateral < int256(feeUsdc)) {
            feeUsdc = collateral > 0 ? uint256(collateral) : 0;
        }
        uint256 pending = book.commit(
            DelayedOrders.key(a.account, 0),
            DelayedOrders.Order(
                a.sizeDeltaCh.toInt128(),
                a.acceptablePriceWad.toUint128(),
                0,
                uint64(feeUsdc),
                margin.toUint64(),
                0,
                a.closeAll
            )
        );
        book.feesUsdc += feeUsdc;
        priceTime = block.timestamp + p.minOrderDelaySec;
        emit IDelayedOrders.OrderCommitted(
            a.account,
            a.sizeDeltaCh,
            a.acceptablePriceWad,
            a.closeAll,
            priceTime,
            block.timestamp + p.maxOrderDelaySec,
            feeUsdc,
            margin,
            pending
        );
        if (feeUsdc != 0) a.clearingHouse.settle(a.account, -int256(feeUsdc));
    }

    /// @dev The order's initial margin (on the growth of |size|); reverts unless equity − fee covers the account's
    ///      initial margin plus it.
    function _checkMargin(CommitArgs memory a, uint256 absNew, uint256 feeUsdc) private view returns (uint256 margin) {
        uint256 absOld = FixedPointMath.abs(a.oldSizeCh);
        margin = _orderMargin(a.clearingHouse, a.oracle, absNew > absOld ? absNew - absOld : 0);
        IClearingHouse.MarginState memory m = a.clearingHouse.marginState(a.account);
        uint256 required = m.initialMarginUsdc + margin;
        int256 available = m.equityUsdc - int256(feeUsdc);
        if (available < int256(required))
            revert IPerpMarketErrors.PerpInsufficientMargin(a.account, required, available);
    }

    /// @dev The initial margin of `growCh` more CH at the risk price now (which also applies the oracle's new-risk
    ///      gates at commit), rounded up.
    function _orderMargin(
        IClearingHouse ch,
        IComputePriceOracle oracle,
        uint256 growCh
    ) private view returns (uint256) {
        uint256 price = oracle.riskPrice();
        (, , address risk, , , ) = ch.modules();
        (uint256 imRate, ) = IRiskEngine(risk).marginRates(address(this));
        return Math.mulDiv(ClearingMath.notionalUsdcUp(growCh, price), imRate, 1e18, Math.Rounding.Ceil);
    }

    /// @notice Cancels `account`'s expired order (IPerpMarket.cancelOrder); its fee leaves the book's Σ fees for the
    ///         caller (the market credits it).
    /// @return feeUsdc The fee the caller earned.
    function cancel(
        DelayedOrders.Book storage book,
        uint256 maxDelaySec,
        address account
    ) external returns (uint256 feeUsdc) {
        bytes32 k = DelayedOrders.key(account, 0);
        DelayedOrders.Order memory o = book.orders[k];
        if (o.commitTime == 0) revert IDelayedOrderErrors.DelayedOrderAlreadyDone(account);
        DelayedOrders.requireExpired(o, account, maxDelaySec);
        (, uint256 pending) = book.take(k);
        book.feesUsdc -= o.feeUsdc;
        bytes memory reason = abi.encodeWithSelector(
            IDelayedOrderErrors.DelayedOrderExpired.selector,
            account,
            uint256(o.commitTime) + maxDelaySec
        );
        emit IDelayedOrders.OrderCancelled(account, msg.sender, o.feeUsdc, reason, pending);
        return o.feeUsdc;
    }

    /// @notice `account`'s pending order (IPerpMarket.pendingOrder).
    function orderOf(
        DelayedOrders.Book storage book,
        IPerpMarket.PerpParams storage p,
        address account
    ) external view returns (IDelayedOrders.OrderView memory) {
        return book.orderView(DelayedOrders.key(account, 0), p.minOrderDelaySec, p.maxOrderDelaySec);
    }

    /// @notice The keeper payload for the first due order among the first `scan` pending: `cancelOrder` for an
    ///         expired one, `executeOrder` at the round the oracle finds for a ready one; empty when none.
    /// @return payload Calldata for the market, or empty.
    function dueWork(
        DelayedOrders.Book storage book,
        IComputePriceOracle oracle,
        uint256 minDelaySec,
        uint256 maxDelaySec,
        uint256 scan
    ) external view returns (bytes memory payload) {
        (bool found, bytes32 k, bool expired, uint256 t) = book.firstDue(minDelaySec, maxDelaySec, scan);
        if (!found) return payload;
        address account = DelayedOrders.accountOf(k);
        if (expired) return abi.encodeCall(IPerpMarket.cancelOrder, (account));
        uint80 roundId = oracle.roundAt(t);
        if (roundId != 0) payload = abi.encodeCall(IPerpMarket.executeOrder, (account, roundId));
    }
}
