// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IDelayedOrders, IDelayedOrderErrors} from "../interfaces/markets/IDelayedOrders.sol";

/// @title DelayedOrders
/// @notice The book of two-step orders (IDelayedOrders): one pending order per key, enumerable for keepers, with the
///         timing rules. Works on a storage pointer, so any market embeds a `Book` in its ERC-7201 struct. A key is
///         an account, or an account and a 96-bit tag (a futures series) packed by `key`.
/// @dev Timing: an order committed at c fills at the oracle round in force at T = c + minDelay; it is executable from
///      T + 1 (so no round published later in the same second can also be "in force at T") until c + maxDelay; after
///      that anyone may cancel it.
library DelayedOrders {
    /// @dev Two words.
    struct Order {
        int128 sizeDeltaCh;
        uint128 acceptablePriceWad;
        uint40 commitTime;
        uint64 feeUsdc;
        uint64 marginUsdc;
        uint32 slot;
        bool closeAll;
    }

    /// @dev `feesUsdc`: Σ execution fees the pending orders hold (not LP capital); kept by the market's logic.
    struct Book {
        mapping(bytes32 key => Order) orders;
        bytes32[] keys;
        uint256 feesUsdc;
    }

    /// @notice The key of `account`'s order (tag 0) or of its order on `tag` (e.g. a futures series).
    function key(address account, uint96 tag) internal pure returns (bytes32) {
        return bytes32((uint256(tag) << 160) | uint256(uint160(account)));
    }

    /// @notice The account a key belongs to.
    function accountOf(bytes32 k) internal pure returns (address) {
        return address(uint160(uint256(k)));
    }

    /// @notice Records `o` (committed now) under `k`; reverts when `k` already has a pending order.
    /// @return pending Pending orders after.
    function commit(Book storage b, bytes32 k, Order memory o) internal returns (uint256 pending) {
        Order storage cur = b.orders[k];
        if (cur.commitTime != 0) revert IDelayedOrderErrors.DelayedOrderPending(accountOf(k), cur.commitTime);
        b.keys.push(k);
        pending = b.keys.length;
        o.commitTime = uint40(block.timestamp);
        o.slot = uint32(pending);
        b.orders[k] = o;
    }

    /// @notice Removes and returns the pending order of `k`; reverts DelayedOrderAlreadyDone when there is none.
    /// @return o The order.
    /// @return pending Pending orders after.
    function take(Book storage b, bytes32 k) internal returns (Order memory o, uint256 pending) {
        o = b.orders[k];
        if (o.commitTime == 0) revert IDelayedOrderErrors.DelayedOrderAlreadyDone(accountOf(k));
        bytes32[] storage keys = b.keys;
        uint256 last = keys.length - 1;
        if (o.slot - 1 != last) {
            bytes32 moved = keys[last];
            keys[o.slot - 1] = moved;
            b.orders[moved].slot = o.slot;
        }
        keys.pop();
        delete b.orders[k];
        pending = last;
    }

    /// @notice The time whose oracle round prices `o`.
    function priceTime(Order memory o, uint256 minDelaySec) internal pure returns (uint256) {
        return uint256(o.commitTime) + minDelaySec;
    }

    /// @notice Reverts unless `o` of `account` is executable now; returns its price time.
    function requireExecutable(
        Order memory o,
        address account,
        uint256 minDelaySec,
        uint256 maxDelaySec
    ) internal view returns (uint256 t) {
        t = priceTime(o, minDelaySec);
        if (block.timestamp <= t) revert IDelayedOrderErrors.DelayedOrderNotReady(account, t + 1);
        uint256 expiresAt = uint256(o.commitTime) + maxDelaySec;
        if (block.timestamp > expiresAt) revert IDelayedOrderErrors.DelayedOrderExpired(account, expiresAt);
    }

    /// @notice Reverts unless `o` of `account` has expired.
    function requireExpired(Order memory o, address account, uint256 maxDelaySec) internal view {
        uint256 expiresAt = uint256(o.commitTime) + maxDelaySec;
        if (block.timestamp <= expiresAt) revert IDelayedOrderErrors.DelayedOrderNotExpired(account, expiresAt);
    }

    /// @notice The first pending order among the first `scan` that can be executed (ready) or cancelled (expired)
    ///         now; `found` false when none.
    function firstDue(
        Book storage b,
        uint256 minDelaySec,
        uint256 maxDelaySec,
        uint256 scan
    ) internal view returns (bool found, bytes32 k, bool expired, uint256 t) {
        bytes32[] storage keys = b.keys;
        uint256 n = keys.length < scan ? keys.length : scan;
        for (uint256 i; i < n; ++i) {
            k = keys[i];
            Order storage o = b.orders[k];
            uint256 c = o.commitTime;
            if (block.timestamp > c + maxDelaySec) return (true, k, true, 0);
            t = c + minDelaySec;
            if (block.timestamp > t) return (true, k, false, t);
        }
        return (false, bytes32(0), false, 0);
    }

    /// @notice The view of `k`'s pending order (all zero when none).
    function orderView(
        Book storage b,
        bytes32 k,
        uint256 minDelaySec,
        uint256 maxDelaySec
    ) internal view returns (IDelayedOrders.OrderView memory v) {
        Order memory o = b.orders[k];
        if (o.commitTime == 0) return v;
        v = IDelayedOrders.OrderView(
            o.sizeDeltaCh,
            o.acceptablePriceWad,
            o.commitTime,
            o.feeUsdc,
            o.marginUsdc,
            o.closeAll,
            uint256(o.commitTime) + minDelaySec,
            uint256(o.commitTime) + maxDelaySec
        );
    }
}
