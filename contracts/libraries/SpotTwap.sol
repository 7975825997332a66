// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title SpotTwap
/// @notice A time-weighted average price from fills: a cumulative Σ price·seconds accumulator (Uniswap v2 style)
///         and a bounded ring buffer of (timestamp, cumulative) observations written at most once per
///         observation interval (Uniswap v3 style). O(1) per fill; the read is a binary search over ≤ CAPACITY.
/// @dev Each recorded price counts from the block it was recorded in until the next recorded price. The
///      accumulator and the current price share one storage word, so a fill writes one slot (plus one more
///      when an observation is due). The cumulative wraps modulo 2^120 like Uniswap v2's: a difference of two
///      cumulatives is exact as long as price × elapsed < 2^120 (e.g. 1e6 USDC/CH for 1,000 years).
library SpotTwap {
    /// @notice Ring capacity. With a 10-minute interval the ring spans 24 hours.
    uint256 internal constant CAPACITY = 144;
    /// @notice Largest price the TWAP records (≈ 7.9e10 USDC per CH); fills above are clamped for the TWAP only.
    uint256 internal constant MAX_PRICE_WAD = type(uint96).max;

    struct Observation {
        uint40 timestamp;
        uint120 priceCumulative;
    }

    struct State {
        // word 1, written by every recorded fill
        uint40 lastTimestamp;
        uint96 lastPriceWad;
        uint120 priceCumulative;
        // word 2, written when an observation is added (and by governance for the interval)
        uint40 lastObservationTimestamp;
        uint16 index;
        uint16 count;
        uint32 intervalSec;
        mapping(uint256 index => Observation) observations;
    }

    /// @notice Records a fill at `priceWad` (≤ MAX_PRICE_WAD): accrues the previous price up to now, writes an
    ///         observation when `intervalSec` has passed since the last one, then makes `priceWad` current.
    /// @dev The interval shares word 2 with the ring cursor, so a fill reads it without another slot.
    /// @return cumulative Σ price·seconds up to now (mod 2^120).
    /// @return index Ring index of the newest observation.
    /// @return count Observations held.
    function record(
        State storage s,
        uint256 priceWad
    ) internal returns (uint256 cumulative, uint256 index, uint256 count) {
        uint256 nowSec = block.timestamp;
        // @dev one read of each word (the packed fields of `State`, in declaration order from the low bits): word 1
        //      is lastTimestamp (bits 0–39), lastPriceWad (40–135), priceCumulative (136–255); word 2 is
        //      lastObservationTimestamp (0–39), index (40–55), count (56–71), intervalSec (72–103).
        uint256 acc;
        uint256 cursor;
        assembly ("memory-safe") {
            acc := sload(s.slot)
            cursor := sload(add(s.slot, 1))
        }
        count = (cursor >> 56) & type(uint16).max;
        if (count == 0) {
            s.observations[0] = Observation(uint40(nowSec), 0);
            (s.lastTimestamp, s.lastPriceWad, s.priceCumulative) = (uint40(nowSec), uint96(priceWad), 0);
            (s.lastObservationTimestamp, s.count) = (uint40(nowSec), 1);
            return (0, 0, 1);
        }
        // @dev wraps modulo 2^120 on purpose (see the library note); differences stay exact. nowSec < 2^40 and
        //      priceWad ≤ MAX_PRICE_WAD < 2^96 (the caller clamps; truncated like the uint96 cast before).
        unchecked {
            cumulative = uint120((acc >> 136) + ((acc >> 40) & type(uint96).max) * (nowSec - (acc & type(uint40).max)));
        }
        acc = uint40(nowSec) | ((priceWad & type(uint96).max) << 40) | (cumulative << 136);
        assembly ("memory-safe") {
            sstore(s.slot, acc)
        }
        index = (cursor >> 40) & type(uint16).max;
        if (nowSec >= (cursor & type(uint40).max) + ((cursor >> 72) & type(uint32).max)) {
            index = index + 1 == CAPACITY ? 0 : index + 1;
            s.observations[index] = Observation(uint40(nowSec), uint120(cumulative));
            if (count < CAPACITY) count += 1;
            cursor = (cursor & ~uint256(type(uint72).max)) | uint40(nowSec) | (index << 40) | (count << 56);
            assembly ("memory-safe") {
                sstore(add(s.slot, 1), cursor)
            }
        }
    }

    /// @notice Σ price·seconds up to now (mod 2^120).
    function cumulativeNow(State storage s) internal view returns (uint256) {
        return _cumulativeAt(s, block.timestamp);
    }

    function _cumulativeAt(State storage s, uint256 nowSec) private view returns (uint120 c) {
        // @dev wraps modulo 2^120 on purpose (see the library note); differences stay exact
        unchecked {
            c = uint120(uint256(s.priceCumulative) + uint256(s.lastPriceWad) * (nowSec - s.lastTimestamp));
        }
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
        uint120 delta;
        // @dev modular difference of two wrapped cumulatives (exact, see the library note)
        unchecked {
            delta = _cumulativeAt(s, block.timestamp) - start.priceCumulative;
        }
        priceWad = uint256(delta) / (block.timestamp - start.timestamp);
    }
}
