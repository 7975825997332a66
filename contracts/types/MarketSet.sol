// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice The set of markets one account holds positions in, packed in 144 bits of the account's slot: up to
///         MarketSetLib.MAX 16-bit market ids (id at place i in bits [16 i, 16 i + 16)), the count (bits 128-135) and
///         the held mask (bits 136-143; bit i: the market at place i holds the account at zero size until it
///         releases it). Opening or closing a position writes no slot of its own.
type MarketSet is uint144;

using MarketSetLib for MarketSet global;

/// @title MarketSetLib
/// @notice Getters and pure updates of a MarketSet (the caller stores the result).
library MarketSetLib {
    /// @notice Most markets one set holds: bounds every per-account loop.
    uint256 internal constant MAX = 8;
    /// @notice `placeOf` result for an id not in the set.
    uint256 internal constant NOT_IN_SET = type(uint256).max;

    uint256 private constant COUNT_SHIFT = 128;
    uint256 private constant HELD_SHIFT = 136;

    /// @notice Number of markets in the set.
    function count(MarketSet s) internal pure returns (uint256) {
        return uint8(MarketSet.unwrap(s) >> COUNT_SHIFT);
    }

    /// @notice The market id at `place` (< count).
    function idAt(MarketSet s, uint256 place) internal pure returns (uint256) {
        return uint16(MarketSet.unwrap(s) >> (16 * place));
    }

    /// @notice Whether the market at `place` holds the account (stays in the set at zero size).
    function heldAt(MarketSet s, uint256 place) internal pure returns (bool) {
        return (MarketSet.unwrap(s) >> (HELD_SHIFT + place)) & 1 != 0;
    }

    /// @notice The place of `id` in the set, or NOT_IN_SET.
    function placeOf(MarketSet s, uint256 id) internal pure returns (uint256) {
        uint256 n = count(s);
        for (uint256 i; i < n; ++i) if (idAt(s, i) == id) return i;
        return NOT_IN_SET;
    }

    /// @notice The set with `id` appended (the caller checks count < MAX), held when `held`.
    function add(MarketSet s, uint256 id, bool held) internal pure returns (MarketSet) {
        uint256 n = count(s);
        uint256 v = MarketSet.unwrap(s);
        v = (v & ~(uint256(0xff) << COUNT_SHIFT)) | (id << (16 * n)) | ((n + 1) << COUNT_SHIFT);
        if (held) v |= 1 << (HELD_SHIFT + n);
        return MarketSet.wrap(uint144(v));
    }

    /// @notice The set without the held bit at `place`.
    function unhold(MarketSet s, uint256 place) internal pure returns (MarketSet) {
        return MarketSet.wrap(MarketSet.unwrap(s) & ~uint144(1 << (HELD_SHIFT + place)));
    }

    /// @notice The set without its entry at `place`: the last entry (id and held bit) moves into it, so a loop from
    ///         last to first may remove the entry it visits.
    function removeAt(MarketSet s, uint256 place) internal pure returns (MarketSet) {
        uint256 last = count(s) - 1;
        uint256 v = MarketSet.unwrap(s);
        uint256 lastId = uint16(v >> (16 * last));
        bool lastHeld = (v >> (HELD_SHIFT + last)) & 1 != 0;
        v &= ~(uint256(0xffff) << (16 * place));
        v |= lastId << (16 * place);
        v &= ~(uint256(0xffff) << (16 * last));
        v &= ~(uint256(1) << (HELD_SHIFT + place));
        if (lastHeld) v |= 1 << (HELD_SHIFT + place);
        v &= ~(uint256(1) << (HELD_SHIFT + last));
        v = (v & ~(uint256(0xff) << COUNT_SHIFT)) | (last << COUNT_SHIFT);
        return MarketSet.wrap(uint144(v));
    }
}
