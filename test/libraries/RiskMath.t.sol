// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {RiskMath} from "../../contracts/libraries/RiskMath.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";

/// @notice RiskMath.marginRates against a reference written from IRiskEngine's rule: im = min(1, max(imFloor,
///         ⌈σ·imMultiple⌉)), mm = min(im, max(mmFloor, ⌈σ·mmMultiple⌉)); products round up (a requirement, ACC-05).
contract RiskMathTest is Test {
    function _ceilWad(uint256 a, uint256 b) internal pure returns (uint256) {
        return (a * b + 1e18 - 1) / 1e18;
    }

    function _ref(IRiskEngine.MarketRiskParams memory p, uint256 sigma) internal pure returns (uint256 im, uint256 mm) {
        im = _ceilWad(sigma, p.imMultipleWad);
        if (im < p.imFloorWad) im = p.imFloorWad;
        if (im > 1e18) im = 1e18;
        mm = _ceilWad(sigma, p.mmMultipleWad);
        if (mm < p.mmFloorWad) mm = p.mmFloorWad;
        if (mm > im) mm = im;
    }

    function testFuzz_marginRates_matchReference(
        uint64 imMul,
        uint64 mmMul,
        uint64 imFloor,
        uint64 mmFloor,
        uint256 sigma
    ) public pure {
        sigma = bound(sigma, 0, 100e18);
        IRiskEngine.MarketRiskParams memory p = IRiskEngine.MarketRiskParams(imMul, mmMul, imFloor, mmFloor);
        (uint256 im, uint256 mm) = RiskMath.marginRates(p, sigma);
        (uint256 rim, uint256 rmm) = _ref(p, sigma);
        assertEq(im, rim, "im");
        assertEq(mm, rmm, "mm");
        assertLe(im, 1e18);
        assertLe(mm, im);
    }

    /// @dev More volatility never lowers a requirement.
    function testFuzz_marginRates_monotoneInSigma(uint64 imMul, uint64 mmMul, uint256 s1, uint256 s2) public pure {
        s1 = bound(s1, 0, 10e18);
        s2 = bound(s2, s1, 10e18);
        IRiskEngine.MarketRiskParams memory p = IRiskEngine.MarketRiskParams(imMul, mmMul, 0.05e18, 0.03e18);
        (uint256 im1, uint256 mm1) = RiskMath.marginRates(p, s1);
        (uint256 im2, uint256 mm2) = RiskMath.marginRates(p, s2);
        assertGe(im2, im1);
        assertGe(mm2, mm1);
    }

    function test_marginRates_floorsApplyAtZeroSigma() public pure {
        (uint256 im, uint256 mm) = RiskMath.marginRates(IRiskEngine.MarketRiskParams(3e18, 2e18, 0.1e18, 0.05e18), 0);
        assertEq(im, 0.1e18);
        assertEq(mm, 0.05e18);
    }

    function test_marginRates_productRoundsUp() public pure {
        // σ = 1 wei, multiple 1.5: 1.5e-18 → 2 wei
        (uint256 im, ) = RiskMath.marginRates(IRiskEngine.MarketRiskParams(1.5e18, 0, 0, 0), 1);
        assertEq(im, 2);
    }

    function test_marginRates_initialCappedAt100Percent_maintenanceAtMostInitial() public pure {
        (uint256 im, uint256 mm) = RiskMath.marginRates(IRiskEngine.MarketRiskParams(5e18, 6e18, 0, 0), 1e18);
        assertEq(im, 1e18);
        assertEq(mm, 1e18);
        // mm floor above im: clamped to im
        (im, mm) = RiskMath.marginRates(IRiskEngine.MarketRiskParams(1e18, 0, 0, 0.5e18), 0.2e18);
        assertEq(im, 0.2e18);
        assertEq(mm, 0.2e18);
    }
}
