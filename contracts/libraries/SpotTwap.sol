// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title SpotTwap
/// @notice A time-weighted average price from fills: a cumulative Σ price·seconds accumulator (Uniswap v2 style)
///         and a bounded ring buffer of (timestamp, cumulative) observations written at most once per
///         observation interval (Uniswap v3 style). O(1) per fill; the read is a binary search over ≤ CAPACITY.
/// @dev Each recorded price counts from the block it was recorded in until the next recorded price. The
///      cumulative fits easily: price < 2^128 times seconds < 2^40 per step, 2^216 in total.
library SpotTwap {
    /// @notice Ring capacity. With a 10-minute interval the ring spans 24 hours.
    uint256 internal constant CAPACITY = 144;

    struct Observation {
        uint40 timestamp;
        uint216 priceCumulative;
    }

    struct State {
        // head: the accumulator, brought up to date at every recorded fill
        uint40 lastTimestamp;
        uint216 priceCumulative;
        // the price counting since lastTimestamp and the ring cursor
        uint128 lastPriceWad;
        uint40 lastObservationTimestamp;
        uint16 index;
        uint16 count;
        mapping(uint256 index => Observation) observations;
    }

    /// @notice Records a fill at `priceWad`: accrues the previous price up to now, writes an observation when the
    ///         interval since the last one has passed, then makes `priceWad` the current price.
    /// @return cumulative Σ price·seconds up to now.
    function record(
        State storage s,
        uint256 priceWad,
        uint256 intervalSec
    ) internal returns (uint256 cumulative, uint256 index, uint256 count) {
        uint40 nowSec = uint40(block.timestamp);
        count = s.count;
        if (count == 0) {
            s.observations[0] = Observation(nowSec, 0);
            s.lastTimestamp = nowSec;
            s.lastPriceWad = uint128(priceWad);
            s.lastObservationTimestamp = nowSec;
            s.count = 1;
            return (0, 0, 1);
        }
        // @dev no overflow: lastPriceWad < 2^128, elapsed < 2^40, cumulative < 2^216 for any realistic lifetime.
        cumulative = s.priceCumulative + uint256(s.lastPriceWad) * (nowSec - s.lastTimestamp);
        s.lastTimestamp = nowSec;
        s.priceCumulative = uint216(cumulative);
        index = s.index;
        if (nowSec >= uint256(s.lastObservationTimestamp) + intervalSec) {
            index = index + 1 == CAPACITY ? 0 : index + 1;
            s.observations[index] = Observation(nowSec, uint216(cumulative));
            if (count < CAPACITY) count += 1;
            s.lastPriceWad = uint128(priceWad);
            s.lastObservationTimestamp = nowSec;
            s.index = uint16(index);
            s.count = uint16(count);
        } else {
            s.lastPriceWad = uint128(priceWad);
        }
    }

    /// @notice Σ price·seconds up to now.
    function cumulativeNow(State storage s) internal view returns (uint256) {
        return s.priceCumulative + uint256(s.lastPriceWad) * (block.timestamp - s.lastTimestamp);
    }

    /// @notice The TWAP since the newest observation at or before `now − windowSec` (or since the oldest one when
    ///         the ring does not reach back that far), and the oldest observation's timestamp.
    /// @dev The effective window is [windowSec, windowSec + interval): exact over observed time, never
    ///      interpolated. Rounded down (a reference price, not a payment).
    function twap(State storage s, uint256 windowSec) internal view returns (uint256 priceWad, uint256 oldestSec) {
        uint256 count = s.count;
        if (count == 0) return (0, block.timestamp);
        uint256 oldestIndex = count < CAPACITY ? 0 : (uint256(s.index) + 1) % CAPACITY;
        Observation memory oldest = s.observations[oldestIndex];
        oldestSec = oldest.timestamp;
        uint256 target = block.timestamp > windowSec ? block.timestamp - windowSec : 0;
        Observation memory start = oldest;
        if (oldest.timestamp < target) {
            // binary search over logical positions 0 (oldest) .. count−1 (newest) for the last timestamp ≤ target
            uint256 lo = 0;
            uint256 hi = count - 1;
            while (lo < hi) {
                uint256 mid = (lo + hi + 1) / 2;
                Observation memory o = s.observations[(oldestIndex + mid) % CAPACITY];
                if (o.timestamp <= target) {
                    lo = mid;
                    start = o;
                } else {
                    hi = mid - 1;
                }
            }
        }
        if (block.timestamp == start.timestamp) return (s.lastPriceWad, oldestSec);
        priceWad = (cumulativeNow(s) - start.priceCumulative) / (block.timestamp - start.timestamp);
    }
}
