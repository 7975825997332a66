// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FixedPointMath as F} from "../../contracts/libraries/math/FixedPointMath.sol";

/// @notice FixedPointMath against plain-arithmetic references (inputs bounded so the reference cannot overflow),
///         and the rounding direction of every function: Down ≤ exact ≤ Up, and Up − Down ≤ 1 (ACC-05).
contract FixedPointMathTest is Test {
    uint256 internal constant LIM = 2 ** 120;

    // ───────────────────────────── references ─────────────────────────────

    function _refDown(uint256 a, uint256 b, uint256 d) internal pure returns (uint256) {
        return (a * b) / d;
    }

    function _refUp(uint256 a, uint256 b, uint256 d) internal pure returns (uint256) {
        return (a * b + d - 1) / d;
    }

    /// @dev Floor division for signed values, written from the definition q·b ≤ a < (q+1)·b (b > 0).
    function _refFloor(int256 a, int256 b) internal pure returns (int256 q) {
        q = a / b;
        if (q * b > a) q -= 1;
    }

    function _refCeil(int256 a, int256 b) internal pure returns (int256 q) {
        q = a / b;
        if (q * b < a) q += 1;
    }

    // ───────────────────────────── unsigned ─────────────────────────────

    function testFuzz_mulDiv_matchesReference(uint256 a, uint256 b, uint256 d) public pure {
        a = bound(a, 0, LIM);
        b = bound(b, 0, LIM);
        d = bound(d, 1, type(uint128).max);
        assertEq(F.mulDivDown(a, b, d), _refDown(a, b, d));
        assertEq(F.mulDivUp(a, b, d), _refUp(a, b, d));
    }

    function testFuzz_mulDiv_upMinusDownAtMostOne(uint256 a, uint256 b, uint256 d) public pure {
        d = bound(d, 1, type(uint256).max);
        // keep the result representable: a·b/d < 2^256
        a = bound(a, 0, type(uint128).max);
        b = bound(b, 0, type(uint128).max);
        uint256 down = F.mulDivDown(a, b, d);
        uint256 up = F.mulDivUp(a, b, d);
        assertLe(down, up);
        assertLe(up - down, 1);
        assertEq(up == down, mulmod(a, b, d) == 0);
    }

    /// @dev Round 42's one-product fast path gives exactly OpenZeppelin's 512-bit Math.mulDiv, on both sides of the
    ///      256-bit boundary (the inputs are drawn so that half the products wrap and the 512-bit path runs).
    function testFuzz_mulDiv_fastPathEqualsOpenZeppelin(uint256 a, uint256 b, uint256 d, bool wide) public pure {
        d = bound(d, 1, type(uint256).max);
        if (!wide) {
            a = bound(a, 0, type(uint128).max);
            b = bound(b, 0, type(uint128).max);
        } else if (d < 2 ** 128) {
            d += 2 ** 128; // a wrapped product whose quotient still fits: a, b < 2^192, d ≥ 2^128
            a = bound(a, 0, 2 ** 192 - 1);
            b = bound(b, 0, 2 ** 192 - 1);
        } else {
            a = bound(a, 0, 2 ** 192 - 1);
            b = bound(b, 0, 2 ** 192 - 1);
        }
        assertEq(F.mulDivDown(a, b, d), Math.mulDiv(a, b, d));
        assertEq(F.mulDivUp(a, b, d), Math.mulDiv(a, b, d, Math.Rounding.Ceil));
        assertEq(
            F.wadMulUp(a % 2 ** 200, b % 2 ** 56),
            Math.mulDiv(a % 2 ** 200, b % 2 ** 56, 1e18, Math.Rounding.Ceil)
        );
    }

    /// @dev The same reverts as Math.mulDiv: a zero divisor (Panic 0x12) and a quotient beyond 2^256 (Panic 0x11).
    function test_mulDiv_revertsLikeOpenZeppelin() public {
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x12));
        this.extDown(3, 4, 0);
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x12));
        this.extUp(3, 4, 0);
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x12));
        this.extDown(0, 4, 0);
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x11));
        this.extDown(2 ** 255, 4, 1);
        vm.expectRevert(abi.encodeWithSignature("Panic(uint256)", 0x11));
        this.extUp(type(uint256).max, type(uint256).max, type(uint256).max - 1);
        // exact edges of the fast path: the largest product that fits, and the first one that wraps
        assertEq(F.mulDivDown(type(uint256).max, 1, 1), type(uint256).max);
        assertEq(F.mulDivUp(type(uint256).max, 1, 2), 2 ** 255);
        assertEq(F.mulDivDown(2 ** 128, 2 ** 128, 2 ** 128), 2 ** 128);
        assertEq(F.mulDivUp(2 ** 128 + 1, 2 ** 128, 2 ** 129), 2 ** 127 + 1);
    }

    function extDown(uint256 a, uint256 b, uint256 d) external pure returns (uint256) {
        return F.mulDivDown(a, b, d);
    }

    function extUp(uint256 a, uint256 b, uint256 d) external pure returns (uint256) {
        return F.mulDivUp(a, b, d);
    }

    /// @dev Full 512-bit precision: (2^255 · 4) / 8 = 2^254 although 2^255 · 4 overflows 256 bits.
    function test_mulDiv_fullPrecisionBeyond256Bits() public pure {
        assertEq(F.mulDivDown(2 ** 255, 4, 8), 2 ** 254);
        assertEq(F.mulDivUp(2 ** 255 + 1, 4, 8), 2 ** 254 + 1);
    }

    function testFuzz_wadMul_matchesReference(uint256 a, uint256 b) public pure {
        a = bound(a, 0, LIM);
        b = bound(b, 0, LIM);
        assertEq(F.wadMulDown(a, b), _refDown(a, b, 1e18));
        assertEq(F.wadMulUp(a, b), _refUp(a, b, 1e18));
    }

    function testFuzz_wadToUsdc_matchesReference(uint256 sizeWad, uint256 priceWad) public pure {
        sizeWad = bound(sizeWad, 0, LIM);
        priceWad = bound(priceWad, 0, LIM);
        assertEq(F.wadToUsdcDown(sizeWad, priceWad), _refDown(sizeWad, priceWad, 1e30));
        assertEq(F.wadToUsdcUp(sizeWad, priceWad), _refUp(sizeWad, priceWad, 1e30));
    }

    /// @dev Worked numbers: 1.5 CH at 2.000001 USDC/CH = 3.0000015 USDC → 3.000001 down, 3.000002 up.
    function test_wadToUsdc_worked() public pure {
        assertEq(F.wadToUsdcDown(1.5e18, 2.000001e18), 3_000_001);
        assertEq(F.wadToUsdcUp(1.5e18, 2.000001e18), 3_000_002);
        assertEq(F.wadToUsdcUp(1, 1), 1); // any non-zero dust rounds up to one USDC unit
        assertEq(F.wadToUsdcDown(1, 1), 0);
    }

    function testFuzz_usdcToWadExact_roundTrips(uint256 amountUsdc) public pure {
        amountUsdc = bound(amountUsdc, 0, type(uint256).max / 1e12);
        uint256 w = F.usdcToWadExact(amountUsdc);
        assertEq(w, amountUsdc * 1e12);
        // a USDC amount as a size at price 1.0 converts back exactly
        assertEq(F.wadToUsdcDown(w, 1e18), amountUsdc);
        assertEq(F.wadToUsdcUp(w, 1e18), amountUsdc);
    }

    function test_usdcToWadExact_overflowReverts() public {
        vm.expectRevert();
        this.usdcToWad(type(uint256).max / 1e12 + 1);
    }

    function usdcToWad(uint256 x) external pure returns (uint256) {
        return F.usdcToWadExact(x);
    }

    function testFuzz_bps_matchesReference(uint256 amount, uint256 bps) public pure {
        amount = bound(amount, 0, LIM);
        bps = bound(bps, 0, 10_000);
        assertEq(F.bpsDown(amount, bps), _refDown(amount, bps, 10_000));
        assertEq(F.bpsUp(amount, bps), _refUp(amount, bps, 10_000));
    }

    // ───────────────────────────── signed ─────────────────────────────

    function testFuzz_abs(int256 x) public pure {
        vm.assume(x != type(int256).min);
        uint256 a = F.abs(x);
        assertEq(a, x >= 0 ? uint256(x) : uint256(0 - x));
        assertEq(F.abs(-x), a);
    }

    function test_abs_minReverts() public {
        vm.expectRevert();
        this.absOf(type(int256).min);
    }

    function absOf(int256 x) external pure returns (uint256) {
        return F.abs(x);
    }

    function testFuzz_divDownUp_matchReference(int256 a, int256 b) public pure {
        a = bound(a, -int256(LIM), int256(LIM));
        b = bound(b, -int256(LIM), int256(LIM));
        vm.assume(b != 0);
        // reference is written for b > 0: a / b = (−a) / (−b)
        (int256 na, int256 nb) = b > 0 ? (a, b) : (-a, -b);
        assertEq(F.divDown(a, b), _refFloor(na, nb), "down");
        assertEq(F.divUp(a, b), _refCeil(na, nb), "up");
    }

    function test_divDownUp_worked() public pure {
        assertEq(F.divDown(-7, 2), -4);
        assertEq(F.divUp(-7, 2), -3);
        assertEq(F.divDown(7, -2), -4);
        assertEq(F.divUp(7, -2), -3);
        assertEq(F.divDown(-7, -2), 3);
        assertEq(F.divUp(-7, -2), 4);
        assertEq(F.divDown(-6, 2), -3);
        assertEq(F.divUp(-6, 2), -3);
    }

    function testFuzz_signedWadToUsdc_directions(int256 sizeWad, uint256 priceWad) public pure {
        sizeWad = bound(sizeWad, -int256(LIM), int256(LIM));
        priceWad = bound(priceWad, 0, LIM);
        int256 exactNum = sizeWad * int256(priceWad);
        assertEq(F.signedWadToUsdcDown(sizeWad, priceWad), _refFloor(exactNum, 1e30), "down");
        assertEq(F.signedWadToUsdcUp(sizeWad, priceWad), _refCeil(exactNum, 1e30), "up");
    }

    function testFuzz_signedMulDivDown_matchesReference(int256 x, uint256 n, uint256 d) public pure {
        x = bound(x, -int256(LIM), int256(LIM));
        n = bound(n, 0, LIM);
        d = bound(d, 1, LIM);
        assertEq(F.signedMulDivDown(x, n, d), _refFloor(x * int256(n), int256(d)));
    }
}
