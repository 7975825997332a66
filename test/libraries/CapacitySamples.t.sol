// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {CapacitySamples} from "../../contracts/libraries/CapacitySamples.sol";

/// @notice CapacitySamples against a reference: the packed ring reads back what was written, and the median equals
///         the median of a sorted copy of the sampled days (odd count: middle value; even: mean of the two middle
///         values rounded down; none: 0) — docs/emission.md.
contract CapacitySamplesTest is Test {
    uint256[4] internal ring;

    // ───────────────────────────── reference ─────────────────────────────

    /// @dev Median of `vals[d]` over the days in `mask`, by sorting a copy (bubble sort: obviously correct).
    function _refMedian(uint64[15] memory vals, uint256 mask) internal pure returns (uint256 med, uint256 n) {
        uint256[] memory xs = new uint256[](15);
        for (uint256 d; d < 15; ++d) if ((mask >> d) & 1 == 1) xs[n++] = vals[d];
        for (uint256 i; i < n; ++i) {
            for (uint256 j; j + 1 < n - i; ++j) {
                if (xs[j] > xs[j + 1]) (xs[j], xs[j + 1]) = (xs[j + 1], xs[j]);
            }
        }
        if (n == 0) return (0, 0);
        med = n % 2 == 1 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
    }

    function _fill(uint64[15] memory vals) internal {
        for (uint256 d; d < 15; ++d) CapacitySamples.set(ring, d, vals[d]);
    }

    // ───────────────────────────── fuzz ─────────────────────────────

    function testFuzz_median_matchesSortedReference(uint64[15] memory vals, uint256 mask) public {
        mask = bound(mask, 0, (1 << 15) - 1);
        _fill(vals);
        (uint256 med, uint256 n) = CapacitySamples.median(ring, mask);
        (uint256 refMed, uint256 refN) = _refMedian(vals, mask);
        assertEq(n, refN, "count");
        assertEq(med, refMed, "median");
    }

    /// @dev Values drawn from a small range, so ties (equal samples) are frequent.
    function testFuzz_median_withTies(uint8[15] memory small, uint256 mask) public {
        mask = bound(mask, 0, (1 << 15) - 1);
        uint64[15] memory vals;
        for (uint256 d; d < 15; ++d) vals[d] = uint64(small[d] % 4);
        _fill(vals);
        (uint256 med, ) = CapacitySamples.median(ring, mask);
        (uint256 refMed, ) = _refMedian(vals, mask);
        assertEq(med, refMed);
    }

    /// @dev Days outside the mask never influence the median, whatever was stored there.
    function testFuzz_median_ignoresUnmaskedDays(uint64[15] memory vals, uint64[15] memory junk, uint256 mask) public {
        mask = bound(mask, 0, (1 << 15) - 1);
        _fill(vals);
        (uint256 before, ) = CapacitySamples.median(ring, mask);
        for (uint256 d; d < 15; ++d) if ((mask >> d) & 1 == 0) CapacitySamples.set(ring, d, junk[d]);
        (uint256 afterJunk, ) = CapacitySamples.median(ring, mask);
        assertEq(afterJunk, before);
    }

    /// @dev The median lies between the smallest and largest sample.
    function testFuzz_median_withinRange(uint64[15] memory vals, uint256 mask) public {
        mask = bound(mask, 1, (1 << 15) - 1);
        _fill(vals);
        (uint256 med, ) = CapacitySamples.median(ring, mask);
        uint256 lo = type(uint256).max;
        uint256 hi;
        for (uint256 d; d < 15; ++d) {
            if ((mask >> d) & 1 == 0) continue;
            if (vals[d] < lo) lo = vals[d];
            if (vals[d] > hi) hi = vals[d];
        }
        assertGe(med, lo);
        assertLe(med, hi);
    }

    function testFuzz_setGet_roundTripLeavesNeighbours(uint64[15] memory vals, uint256 day, uint64 v) public {
        day = bound(day, 0, 14);
        _fill(vals);
        CapacitySamples.set(ring, day, v);
        for (uint256 d; d < 15; ++d) assertEq(CapacitySamples.get(ring, d), d == day ? v : vals[d]);
    }

    // ───────────────────────────── edge cases ─────────────────────────────

    function test_median_emptyMask_isZero() public {
        _fill([uint64(5), 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
        (uint256 med, uint256 n) = CapacitySamples.median(ring, 0);
        assertEq(med, 0);
        assertEq(n, 0);
    }

    function test_median_singleSample() public {
        CapacitySamples.set(ring, 14, 42);
        (uint256 med, uint256 n) = CapacitySamples.median(ring, 1 << 14);
        assertEq(med, 42);
        assertEq(n, 1);
    }

    function test_median_evenCount_roundsDown() public {
        CapacitySamples.set(ring, 0, 3);
        CapacitySamples.set(ring, 7, 6);
        (uint256 med, ) = CapacitySamples.median(ring, (1 << 0) | (1 << 7));
        assertEq(med, 4); // (3 + 6) / 2 = 4.5 → 4
    }

    function test_median_maxValues_noOverflow() public {
        uint64 m = type(uint64).max;
        CapacitySamples.set(ring, 3, m);
        CapacitySamples.set(ring, 4, m);
        (uint256 med, ) = CapacitySamples.median(ring, (1 << 3) | (1 << 4));
        assertEq(med, m);
    }

    function test_median_fullRing_worked() public {
        // 15 samples 1..15 written in reverse: median 8
        for (uint256 d; d < 15; ++d) CapacitySamples.set(ring, d, 15 - d);
        (uint256 med, uint256 n) = CapacitySamples.median(ring, (1 << 15) - 1);
        assertEq(n, 15);
        assertEq(med, 8);
    }

    function test_median_zeroSamplesCount() public {
        // a day whose sample is 0 still counts when its bit is set
        CapacitySamples.set(ring, 1, 0);
        CapacitySamples.set(ring, 2, 10);
        CapacitySamples.set(ring, 5, 20);
        (uint256 med, uint256 n) = CapacitySamples.median(ring, (1 << 1) | (1 << 2) | (1 << 5));
        assertEq(n, 3);
        assertEq(med, 10);
    }
}
