// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {ClearingMath} from "../../contracts/libraries/ClearingMath.sol";
import {FixedPointMath} from "../../contracts/libraries/math/FixedPointMath.sol";

/// @notice ClearingMath against references: the conversions round as named (ACC-05) and applyTrade matches an
///         average-cost reference written from its definition (closed basis pro rata toward −∞, realised PnL =
///         closed value (down) − removed basis, a flip restarts the basis at the trade price rounded up).
contract ClearingMathTest is Test {
    int256 internal constant LIM = 1e30;

    function _floorDiv(int256 a, int256 b) internal pure returns (int256 q) {
        q = a / b;
        if (q * b > a) q -= 1;
    }

    function _ceilDiv(int256 a, int256 b) internal pure returns (int256 q) {
        q = a / b;
        if (q * b < a) q += 1;
    }

    function testFuzz_conversions_matchReference(int256 size, uint256 price) public pure {
        size = bound(size, -LIM, LIM);
        price = bound(price, 0, 1e30);
        int256 exact = size * int256(price);
        assertEq(ClearingMath.valueUsdcDown(size, price), _floorDiv(exact, 1e30), "down");
        assertEq(ClearingMath.valueUsdcUp(size, price), _ceilDiv(exact, 1e30), "up");
        uint256 a = FixedPointMath.abs(size);
        assertEq(ClearingMath.notionalUsdcUp(a, price), uint256(_ceilDiv(int256(a) * int256(price), 1e30)));
    }

    function testFuzz_mulWad_matchesReference(uint256 a, uint256 b) public pure {
        a = bound(a, 0, 1e36);
        b = bound(b, 0, 1e36);
        assertEq(FixedPointMath.wadMulDown(a, b), (a * b) / 1e18);
        assertEq(FixedPointMath.wadMulUp(a, b), (a * b + 1e18 - 1) / 1e18);
    }

    /// @dev Reference average-cost update, written independently of the library's branch structure.
    function _refApply(
        int256 size,
        int256 open,
        int256 delta,
        uint256 price
    ) internal pure returns (int256 newSize, int256 newOpen, int256 pnl) {
        newSize = size + delta;
        bool reducing = size != 0 && delta != 0 && (size > 0) != (delta > 0);
        if (!reducing) return (newSize, open + _ceilDiv(delta * int256(price), 1e30), 0);
        int256 absSize = size > 0 ? size : -size;
        int256 absDelta = delta > 0 ? delta : -delta;
        int256 closeAbs = absDelta < absSize ? absDelta : absSize;
        int256 basis = closeAbs == absSize ? open : _floorDiv(open * closeAbs, absSize);
        int256 closedSize = size > 0 ? closeAbs : -closeAbs;
        pnl = _floorDiv(closedSize * int256(price), 1e30) - basis;
        newOpen = open - basis;
        if (absDelta > absSize) newOpen = _ceilDiv(newSize * int256(price), 1e30);
    }

    function testFuzz_applyTrade_matchesReference(int256 size, int256 open, int256 delta, uint256 price) public pure {
        size = bound(size, -1e24, 1e24);
        open = bound(open, -1e15, 1e15);
        delta = bound(delta, -1e24, 1e24);
        price = bound(price, 1, 1e22);
        (int256 s, int256 o, int256 p) = ClearingMath.applyTrade(size, open, delta, price);
        (int256 rs, int256 ro, int256 rp) = _refApply(size, open, delta, price);
        assertEq(s, rs, "size");
        assertEq(o, ro, "open");
        assertEq(p, rp, "pnl");
    }

    /// @dev Open then close at the same price never realises a profit (both legs round against the trader).
    function testFuzz_applyTrade_roundTripNeverProfits(int256 delta, uint256 price) public pure {
        delta = bound(delta, -1e24, 1e24);
        vm.assume(delta != 0);
        price = bound(price, 1, 1e22);
        (int256 s, int256 o, ) = ClearingMath.applyTrade(0, 0, delta, price);
        (int256 s2, int256 o2, int256 pnl) = ClearingMath.applyTrade(s, o, -delta, price);
        assertEq(s2, 0);
        assertEq(o2, 0);
        assertLe(pnl, 0);
        assertGe(pnl, -1);
    }

    function test_applyTrade_worked() public pure {
        // long 10 CH at 2 USDC: basis 20 USDC
        (int256 s, int256 o, int256 p) = ClearingMath.applyTrade(0, 0, 10e18, 2e18);
        assertEq(s, 10e18);
        assertEq(o, 20e6);
        assertEq(p, 0);
        // sell 4 at 3: closed basis 8, value 12 → +4 realised
        (s, o, p) = ClearingMath.applyTrade(s, o, -4e18, 3e18);
        assertEq(s, 6e18);
        assertEq(o, 12e6);
        assertEq(p, 4e6);
        // sell 10 at 1: close 6 (basis 12, value 6 → −6), flip to short 4 at 1: basis −4
        (s, o, p) = ClearingMath.applyTrade(s, o, -10e18, 1e18);
        assertEq(s, -4e18);
        assertEq(o, -4e6);
        assertEq(p, -6e6);
    }

    function test_applyTrade_partialCloseOfShort_basisRoundsTowardMinusInfinity() public pure {
        // short 3 wei-sized units with basis −10: closing 1 of 3 removes ⌊−10/3⌋ = −4, leaving −6
        (int256 s, int256 o, ) = ClearingMath.applyTrade(-3, -10, 1, 0);
        assertEq(s, -2);
        assertEq(o, -6);
    }
}
