// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IFuturesErrors} from "../interfaces/markets/IFuturesErrors.sol";

/// @notice A FuturesMarket series id: sequential from 1 in listing order (0 = none); the ABI carries it as uint256.
///         A series' expiry and tenor live in its `Series` record (IFuturesTypes), not in the id.
type SeriesId is uint256;

using SeriesIdLib for SeriesId global;

/// @title SeriesIdLib
/// @notice Getters of a SeriesId and its packing into a delayed-order key (`tag << 160 | account`, the
///         DelayedOrders key layout), so no futures code shifts or masks ids inline.
library SeriesIdLib {
    uint256 private constant TAG_SHIFT = 160;

    /// @notice The id of the `count`-th listed series (count ≥ 1).
    function nth(uint256 count) internal pure returns (SeriesId) {
        return SeriesId.wrap(count);
    }

    /// @notice Whether `id` names no series (0).
    function isNone(SeriesId id) internal pure returns (bool) {
        return SeriesId.unwrap(id) == 0;
    }

    /// @notice The key of `account`'s order on series `id`: `id << 160 | account`.
    function orderKey(SeriesId id, address account) internal pure returns (bytes32) {
        uint256 raw = SeriesId.unwrap(id);
        // @dev ids are listing counts (uint64): a larger one names no series and must not alias one by truncation
        if (raw > type(uint96).max) revert IFuturesErrors.FuturesSeriesUnknown(raw);
        return bytes32((raw << TAG_SHIFT) | uint256(uint160(account)));
    }

    /// @notice The series of an order key (its upper 96 bits).
    function ofOrderKey(bytes32 key) internal pure returns (SeriesId) {
        return SeriesId.wrap(uint256(key) >> TAG_SHIFT);
    }

    /// @notice The account of an order key (its lower 160 bits).
    function accountOfOrderKey(bytes32 key) internal pure returns (address) {
        return address(uint160(uint256(key)));
    }
}

/// @notice The series an account holds unsettled positions in within one expiry bucket (FuturesLedger.BUCKET_SEC),
///         packed in one word: up to eight 32-bit series ids (lane 0 = bits 0..31), filled from lane 0 without gaps
///         (an id is ≥ 1, so the first zero lane ends the set). One storage slot per (account, bucket).
type SeriesSet is uint256;

using SeriesSetLib for SeriesSet global;

/// @title SeriesSetLib
/// @notice Getters and updates of a SeriesSet (returned as a new value; the caller stores it).
library SeriesSetLib {
    /// @notice Most ids a set holds (= FuturesMarket.MAX_SERIES_PER_ACCOUNT: per account and expiry bucket).
    uint256 internal constant CAPACITY = 8;
    uint256 private constant LANE_BITS = 32;
    uint256 private constant LANE_MASK = type(uint32).max;

    /// @notice How many ids the set holds.
    function length(SeriesSet set) internal pure returns (uint256 n) {
        uint256 raw = SeriesSet.unwrap(set);
        while (n < CAPACITY && (raw >> (n * LANE_BITS)) & LANE_MASK != 0) ++n;
    }

    /// @notice The id in lane `i` (0 when `i` is at or past the length).
    function at(SeriesSet set, uint256 i) internal pure returns (uint256) {
        return (SeriesSet.unwrap(set) >> (i * LANE_BITS)) & LANE_MASK;
    }

    /// @notice The set with `id` appended in lane `n` (the caller checks `n` = length < CAPACITY and 0 < id < 2^32).
    function pushAt(SeriesSet set, uint256 n, uint256 id) internal pure returns (SeriesSet) {
        return SeriesSet.wrap(SeriesSet.unwrap(set) | (id << (n * LANE_BITS)));
    }

    /// @notice The set without `id` (the last id moves into its lane), its length before, and whether it was there.
    function remove(SeriesSet set, uint256 id) internal pure returns (SeriesSet, uint256 n, bool found) {
        n = length(set);
        for (uint256 i; i < n; ++i) {
            if (at(set, i) != id) continue;
            uint256 raw = SeriesSet.unwrap(set);
            uint256 last = at(set, n - 1);
            raw &= ~(LANE_MASK << ((n - 1) * LANE_BITS)); // clear the last lane
            if (i != n - 1) raw = (raw & ~(LANE_MASK << (i * LANE_BITS))) | (last << (i * LANE_BITS));
            return (SeriesSet.wrap(raw), n, true);
        }
        return (set, n, false);
    }

    /// @notice The ids in lane order.
    function toArray(SeriesSet set) internal pure returns (uint256[] memory ids) {
        uint256 n = length(set);
        ids = new uint256[](n);
        for (uint256 i; i < n; ++i) ids[i] = at(set, i);
    }
}
