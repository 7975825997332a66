// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {FuturesMath} from "../../contracts/libraries/FuturesMath.sol";
import {FixedPointMath} from "../../contracts/libraries/math/FixedPointMath.sol";

/// @notice Worked numbers and fuzzed properties of the futures maths: the UTC expiry grid, the premium's bound and
///         convergence (MKT-04), and pro-rata assignment rounding (MKT-05).
contract FuturesMathTest is Test {
    function test_nextExpiry_workedDates() public pure {
        // Monday 18 March 2030 12:00 UTC
        uint256 t = 1_900_065_600;
        assertEq(FuturesMath.nextExpiry(0, t), 1_900_108_800); // Tue 19 March 2030 00:00
        assertEq(FuturesMath.nextExpiry(1, t), 1_900_368_000); // Fri 22 March 2030 00:00
        assertEq(FuturesMath.nextExpiry(2, t), 1_901_232_000); // 1 April 2030
        assertEq(FuturesMath.nextExpiry(3, t), 1_901_232_000); // 1 April 2030 (Q2)
        // 31 December 2030 23:00 → 1 January 2031 for every tenor but weekly
        uint256 nye = 1_924_988_400;
        assertEq(FuturesMath.nextExpiry(2, nye), 1_924_992_000);
        assertEq(FuturesMath.nextExpiry(3, nye), 1_924_992_000);
    }

    function testFuzz_civilRoundTrip(uint256 day) public pure {
        day = bound(day, 0, 3_000_000);
        (uint256 y, uint256 m, uint256 d) = FuturesMath.civilFromDays(day);
        assertTrue(m >= 1 && m <= 12 && d >= 1 && d <= 31);
        assertEq(FuturesMath.daysFromCivil(y, m, d), day);
    }

    function testFuzz_nextExpiry_onTheGrid(uint256 from, uint8 tenor) public pure {
        from = bound(from, 0, 60_000_000_000);
        tenor = uint8(bound(tenor, 0, 3));
        uint256 e = FuturesMath.nextExpiry(tenor, from);
        assertGt(e, from);
        assertEq(e % 1 days, 0);
        uint256 day = e / 1 days;
        (, uint256 m, uint256 d) = FuturesMath.civilFromDays(day);
        if (tenor == 0) assertLe(e - from, 1 days);
        if (tenor == 1) {
            assertEq((day + 3) % 7, 4); // a Friday
            assertLe(e - from, 7 days);
        }
        if (tenor >= 2) assertEq(d, 1);
        if (tenor == 2) assertLe(e - from, 31 days);
        if (tenor == 3) {
            assertEq((m - 1) % 3, 0);
            assertLe(e - from, 92 days);
        }
    }

    /// @notice MKT-04: the premium is bounded by the cap and is zero at expiry.
    function testFuzz_premium_boundedAndConverges(int256 skewSum, uint256 ttx) public pure {
        skewSum = bound(skewSum, -1e30, 1e30);
        ttx = bound(ttx, 0, 400 days);
        int256 p = FuturesMath.premiumWad(skewSum, 100_000e18, 1_000, ttx, 30 days);
        assertLe(p, 0.1e18);
        assertGe(p, -0.1e18);
        assertEq(FuturesMath.premiumWad(skewSum, 100_000e18, 1_000, 0, 30 days), 0);
        if (skewSum != 0 && ttx != 0) assertEq(p == 0 || (p > 0) == (skewSum > 0), true);
    }

    /// @notice MKT-05: assignments round up, so the shorts' total covers what the longs elected (by < 1 wei each).
    function testFuzz_assignment_coversDeliverable(uint128 a, uint128 b, uint128 c, uint128 elected) public pure {
        uint256 total = uint256(a) + b + c;
        vm.assume(total > 0);
        uint256 deliverable = bound(elected, 0, total);
        uint256 sum =
            FuturesMath.assignment(a, deliverable, total) +
                FuturesMath.assignment(b, deliverable, total) +
                FuturesMath.assignment(c, deliverable, total);
        assertGe(sum, deliverable);
        assertLe(sum, deliverable + 3);
    }

    function test_seriesPrice_roundsAgainstTheTrader() public pure {
        // (7 + 1e-18) × (1 + 1/3 %) is not exact: a buy pays the wei up, a sell receives it down
        int256 prem = int256(uint256(1e18) / 300);
        uint256 up = FuturesMath.seriesPrice(7e18 + 1, prem, true);
        uint256 down = FuturesMath.seriesPrice(7e18 + 1, prem, false);
        assertEq(up, down + 1);
        assertEq(FuturesMath.entryAfter(100, 10e18, 100, 12e18), 11e18);
        assertEq(FuturesMath.entryAfter(100, 10e18, -50, 12e18), 10e18);
        assertEq(FuturesMath.entryAfter(100, 10e18, -150, 12e18), 12e18);
        assertEq(FuturesMath.entryAfter(100, 10e18, -100, 12e18), 0);
    }
    // ───────────────────────────── against references ─────────────────────────────

    /// @dev Reference: clamp((skewSum/2)/scale, ±cap) × min(ttx, horizon) / horizon, each step truncated toward 0.
    function testFuzz_premium_matchesReference(
        int256 skewSum,
        uint256 scale,
        uint256 capBps,
        uint256 ttx,
        uint256 horizon
    ) public pure {
        skewSum = bound(skewSum, -1e27, 1e27);
        scale = bound(scale, 1e18, 1e28);
        capBps = bound(capBps, 0, 9_999);
        horizon = bound(horizon, 1, 365 days);
        ttx = bound(ttx, 0, 400 days);
        int256 p = (skewSum * 1e18) / (2 * int256(scale));
        int256 cap = int256(capBps) * 1e14;
        if (p > cap) p = cap;
        if (p < -cap) p = -cap;
        p = (p * int256(ttx < horizon ? ttx : horizon)) / int256(horizon);
        assertEq(FuturesMath.premiumWad(skewSum, scale, capBps, ttx, horizon), p);
    }

    function testFuzz_seriesPrice_matchesReference(uint256 index, int256 premium, bool isBuy) public pure {
        index = bound(index, 0, 1e30);
        premium = bound(premium, -1e18 + 1, 1e18);
        uint256 raw = index * uint256(1e18 + premium);
        assertEq(FuturesMath.seriesPrice(index, premium, isBuy), isBuy ? (raw + 1e18 - 1) / 1e18 : raw / 1e18);
    }

    function testFuzz_values_matchReference(int256 size, uint256 price) public pure {
        size = bound(size, -1e30, 1e30);
        price = bound(price, 0, 1e30);
        int256 exact = size * int256(price);
        int256 q = exact / 1e30;
        int256 floorQ = q * 1e30 > exact ? q - 1 : q;
        int256 ceilQ = q * 1e30 < exact ? q + 1 : q;
        assertEq(FuturesMath.valueDown(size, price), floorQ);
        assertEq(FuturesMath.valueUp(size, price), ceilQ);
        uint256 a = FixedPointMath.abs(size);
        assertEq(FuturesMath.usdcDown(a, price), (a * price) / 1e30);
        assertEq(FuturesMath.usdcUp(a, price), (a * price + 1e30 - 1) / 1e30);
    }

    /// @dev Reference for the average entry: growing averages by size (down), reducing keeps, flipping restarts, flat 0.
    function testFuzz_entryAfter_matchesReference(int256 size, uint256 entry, int256 delta, uint256 price) public pure {
        size = bound(size, -1e27, 1e27);
        delta = bound(delta, -1e27, 1e27);
        entry = bound(entry, 0, 1e24);
        price = bound(price, 0, 1e24);
        int256 n = size + delta;
        uint256 ref;
        if (n == 0) ref = 0;
        else if (size == 0 || (size > 0) == (delta > 0)) {
            uint256 a = FixedPointMath.abs(size);
            uint256 d = FixedPointMath.abs(delta);
            ref = (a * entry + d * price) / (a + d);
        } else if ((n > 0) == (size > 0)) ref = entry;
        else ref = price;
        assertEq(FuturesMath.entryAfter(size, entry, delta, price), ref);
    }
}
