// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {PerpMath} from "../../contracts/libraries/PerpMath.sol";
import {FixedPointMath} from "../../contracts/libraries/math/FixedPointMath.sol";

/// @notice Fuzz properties of the perpetual's pure math (PerpMath): path-independent impact, bounded funding rate,
///         funding direction (MKT-02) and rounding direction (ACC-05).
contract PerpMathTest is Test {
    uint256 internal constant SCALE = 1_000_000e18;
    uint256 internal constant MAX_VEL = 3e18;
    uint256 internal constant MAX_RATE = 0.1e18;

    /// @dev What the ClearingHouse books for two same-direction pieces vs one trade, in USDC wei: the exact costs
    ///      telescope to the same total, each piece rounds against the trader, so a split is never cheaper by more
    ///      than the one-trade rounding (1 USDC wei) — and its fees (rounded up per piece) only add to it.
    function testFuzz_splittingNeverCheaper(int256 skew, uint256 a, uint256 b, uint256 price, bool buy) public pure {
        skew = bound(skew, -50_000e18, 50_000e18);
        a = bound(a, 0.01e18, 20_000e18);
        b = bound(b, 0.01e18, 20_000e18);
        price = bound(price, 0.01e18, 1_000e18);
        int256 s = buy ? int256(1) : int256(-1);
        (uint256 f1, ) = PerpMath.fillPrice(price, skew, s * int256(a), SCALE);
        (uint256 f2, ) = PerpMath.fillPrice(price, skew + s * int256(a), s * int256(b), SCALE);
        (uint256 f, ) = PerpMath.fillPrice(price, skew, s * int256(a + b), SCALE);
        if (buy) {
            uint256 split = _up(a * f1) + _up(b * f2);
            assertGe(split + 1, _up((a + b) * f));
        } else {
            uint256 split = (a * f1) / 1e30 + (b * f2) / 1e30;
            assertLe(split, ((a + b) * f) / 1e30 + 1);
        }
    }

    function _up(uint256 x) internal pure returns (uint256) {
        return (x + 1e30 - 1) / 1e30;
    }

    function testFuzz_rateBoundedAndDirection(
        int256 index,
        int256 rate,
        uint256 dt,
        int256 skew,
        uint256 price
    ) public pure {
        index = bound(index, -1e24, 1e24);
        rate = bound(rate, -int256(MAX_RATE), int256(MAX_RATE));
        dt = bound(dt, 0, 60 days);
        skew = bound(skew, -2_000_000e18, 2_000_000e18);
        price = bound(price, 0.01e18, 1_000e18);
        (int256 i2, int256 r2) = PerpMath.accrue(index, rate, dt, skew, SCALE, MAX_VEL, MAX_RATE, price);
        assertLe(FixedPointMath.abs(r2), MAX_RATE);
        // MKT-02: longs pay (index rises) when they outweigh shorts, shorts pay otherwise, nothing when balanced
        if (skew > 0) {
            assertGe(i2, index);
            assertGe(r2, 0);
        } else if (skew < 0) {
            assertLe(i2, index);
            assertLe(r2, 0);
        } else {
            assertEq(i2, index);
            assertEq(r2, 0);
        }
    }

    /// ACC-05: funding owed by a trader rounds up, funding owed to a trader rounds down.
    function testFuzz_fundingRoundsAgainstTrader(int256 size, int256 from, int256 to) public pure {
        size = bound(size, -1e30, 1e30);
        from = bound(from, -1e24, 1e24);
        to = bound(to, -1e24, 1e24);
        int256 owed = PerpMath.fundingOwedUsdc(size, from, to);
        int256 exactTimes = size * (to - from); // owed × 1e30 ≥ exact
        assertGe(owed * 1e30, exactTimes);
        assertLt(owed * 1e30 - exactTimes, 1e30);
    }

    function test_fillPriceWorkedNumbers() public pure {
        (uint256 f, int256 prem) = PerpMath.fillPrice(10e18, 0, 1_000e18, SCALE);
        assertEq(prem, 0.0005e18);
        assertEq(f, 10.005e18);
        (f, ) = PerpMath.fillPrice(10e18, 1_000e18, -1_000e18, SCALE);
        assertEq(f, 10.005e18); // skew 1000 → 0: premium (1000 + 0)/2e6 = 0.0005
        // maker 2 bps on 1000 reducing + taker 5 bps on 500 flipping, at 10 USDC: 2 + 2.5 = 4.5 USDC
        assertEq(PerpMath.feeUsdc(1_000e18, -1_500e18, 10e18, 2, 5), 4.5e6);
    }
    // ───────────────────────────── against references ─────────────────────────────

    function _floorDiv(int256 a, int256 b) internal pure returns (int256 q) {
        q = a / b;
        if (q * b > a) q -= 1;
    }

    function _ceilDiv(int256 a, int256 b) internal pure returns (int256 q) {
        q = a / b;
        if (q * b < a) q += 1;
    }

    /// @dev Reference: premium (2·skew + Δ) / (2·scale) and price index × (1 + premium), both rounded against the
    ///      trader (a buy up, a sell down).
    function testFuzz_fillPrice_matchesReference(int256 skew, int256 delta, uint256 index, uint256 scale) public pure {
        skew = bound(skew, -1e27, 1e27);
        delta = bound(delta, -1e27, 1e27);
        index = bound(index, 1, 1e24);
        scale = bound(scale, 1e18, 1e28);
        (uint256 f, int256 prem) = PerpMath.fillPrice(index, skew, delta, scale);
        int256 num = (2 * skew + delta) * 1e18;
        int256 refPrem = delta > 0 ? _ceilDiv(num, 2 * int256(scale)) : _floorDiv(num, 2 * int256(scale));
        assertEq(prem, refPrem, "premium");
        if (refPrem <= -1e18) {
            assertEq(f, 0);
            return;
        }
        int256 raw = int256(index) * (1e18 + refPrem);
        assertEq(int256(f), delta > 0 ? _ceilDiv(raw, 1e18) : _floorDiv(raw, 1e18), "price");
    }

    /// @dev Reference: maker bps on the part that reduces |skew|, taker bps on the rest, notional rounded up.
    function testFuzz_feeUsdc_matchesReference(
        int256 skew,
        int256 delta,
        uint256 price,
        uint256 mk,
        uint256 tk
    ) public pure {
        skew = bound(skew, -1e27, 1e27);
        delta = bound(delta, -1e27, 1e27);
        price = bound(price, 0, 1e24);
        mk = bound(mk, 0, 1_000);
        tk = bound(tk, 0, 1_000);
        uint256 absDelta = FixedPointMath.abs(delta);
        uint256 maker;
        if (skew != 0 && (skew > 0) != (delta > 0))
            maker = absDelta < FixedPointMath.abs(skew) ? absDelta : FixedPointMath.abs(skew);
        uint256 num = (maker * mk + (absDelta - maker) * tk) * price;
        assertEq(PerpMath.feeUsdc(skew, delta, price, mk, tk), (num + 1e34 - 1) / 1e34);
    }

    function testFuzz_fundingOwed_matchesReference(int256 size, int256 from, int256 to) public pure {
        size = bound(size, -1e30, 1e30);
        from = bound(from, -1e24, 1e24);
        to = bound(to, -1e24, 1e24);
        int256 ref = size == 0 || from == to ? int256(0) : _ceilDiv(size * (to - from), 1e30);
        assertEq(PerpMath.fundingOwedUsdc(size, from, to), ref);
    }

    /// @dev Within the rate bound the model is linear: r(t) = r0 + v·t / 1 day and Δindex = (r0 + r(t))·t / 2 / 1 day ×
    ///      price (truncated toward zero once).
    function test_accrue_workedLinear() public pure {
        // skew = scale/2 → v = 0.5 × 3 = 1.5 /day; r0 = 0.01; after 1 hour r = 0.01 + 1.5/24 = 0.0725 (< 0.1 bound)
        (int256 idx, int256 r) = PerpMath.accrue(
            0,
            0.01e18,
            1 hours,
            int256(SCALE / 2),
            SCALE,
            MAX_VEL,
            MAX_RATE,
            10e18
        );
        assertEq(r, 0.0725e18);
        // ((0.01 + 0.0725) × 3600) / 2 / 86400 × 10 = 0.0171875
        assertEq(idx, 0.0171875e18);
    }
}
