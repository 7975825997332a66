// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IFuturesErrors} from "../interfaces/IFuturesErrors.sol";

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
