// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Vm} from "forge-std/Vm.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IEmissionEvents} from "../../contracts/interfaces/emission/IEmissionEvents.sol";
import {EmissionSolBase} from "../helpers/EmissionSolBase.sol";

/// @notice EMI-01 against replenishment (round 43's deep finding, fixed in round 44): DPS returned to the pool lowers
///         the cumulative-GFL counter, and the GFL-epochs it offsets keep their DPS value in `emissionBound()`, so the
///         bound never falls below what was minted, whatever halvings close the era afterwards.
contract EmissionBoundReplenishTest is EmissionSolBase {
    uint256 internal constant SPAN = 5_000e18;
    address internal p1 = address(0xB001);
    address internal p2 = address(0xB002);

    function setUp() public {
        _deployEmission(SPAN, 1);
    }

    /// @dev `epochs` epochs of 1,000 GFL each for p1 and p2 (sampled, closed, rebalanced), then both claim.
    function _accrue(uint256 epochs) internal {
        for (uint256 i; i < epochs; ++i) {
            _warpTo(emission.currentEpoch(), 1);
            _record(p1, 1_000e18);
            _record(p2, 1_000e18);
            _closeAndRebalance();
        }
        vm.prank(p1);
        emission.claim(p1);
        vm.prank(p2);
        emission.claim(p2);
    }

    /// @dev Also checks Replenished's post-state against the views: the counter, both pools and the bound after.
    function _replenish(uint256 amount) internal returns (uint256 gflEquivalent) {
        (uint256 before, , ) = emission.halvingState();
        dps.transfer(address(emission), amount);
        vm.recordLogs();
        vm.prank(registry);
        emission.replenish(amount);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        (uint256 after_, , ) = emission.halvingState();
        gflEquivalent = before - after_;
        bool seen;
        for (uint256 i; i < logs.length; ++i) {
            if (logs[i].topics[0] != IEmissionEvents.Replenished.selector) continue;
            seen = true;
            (, , , uint256 g, uint256 cumulative, uint256 pool, uint256 budget, uint256 bound) = abi.decode(
                logs[i].data,
                (uint256, uint256, uint256, uint256, uint256, uint256, uint256, uint256)
            );
            (uint256 poolNow, uint256 budgetNow, , ) = emission.pools();
            assertEq(g, gflEquivalent, "event: GFL equivalent");
            assertEq(cumulative, after_, "event: counter after");
            assertEq(pool, poolNow, "event: reward pool after");
            assertEq(budget, budgetNow, "event: keeper budget after");
            assertEq(bound, emission.emissionBound(), "event: emission bound after");
        }
        assertTrue(seen, "Replenished emitted");
    }

    function _minted() internal view returns (uint256 minted) {
        (, , minted, ) = emission.pools();
    }

    function _assertEmi01(string memory when) internal view {
        assertLe(_minted(), emission.emissionBound(), string.concat("EMI-01 ", when));
        assertLe(_minted(), (2 * BASE_RATE * SPAN) / 1e18, string.concat("2 r0 S ", when));
    }

    /// The attack (round 43's deep sequence, in small): accrue and mint 4,000 GFL-epochs in era 0, return DPS so the
    /// counter falls to about 700, then let two time halvings close era 0 and era 1 on the smaller counter. Without
    /// the offsets' value the bound would be rate_0 × 700 + rate_2 × 2 × span ≈ 6.4 DPS, below the 8 DPS minted.
    function test_replenishThenTimeHalvings_boundStaysAboveMinted() public {
        _accrue(2);
        assertEq(emission.halvings(), 0, "era 0");
        uint256 minted = _minted();
        assertGt(minted, 0, "rewards minted");
        uint256 boundBefore = emission.emissionBound();
        uint256 rate = emission.rewardRateWad(0);
        uint256 gflEquivalent = _replenish(7e18);
        uint256 offsetValue = Math.mulDiv(rate, gflEquivalent, 1e18, Math.Rounding.Ceil);
        assertEq(emission.emissionBound(), boundBefore + offsetValue, "offset GFL-epochs kept in the bound");
        _assertEmi01("after replenish");
        // No capacity for two years: time halvings at year 1 and year 2 close era 0 and era 1.
        vm.warp(block.timestamp + 2 * 365 days + 20 days);
        while (emission.epochDue()) emission.closeEpoch();
        assertEq(emission.halvings(), 2, "two time halvings");
        _assertEmi01("after the halvings");
        assertGt(minted, emission.emissionBound() - offsetValue, "the attack: without the offsets, minted > bound");
        // More accrual afterwards, paid from the pool before anything is minted.
        _accrue(2);
        _assertEmi01("after more accrual");
    }

    /// Two replenishments in era 1, the second lowering the counter below the era's start: the bound keeps both
    /// offsets at the rate in force, and the era still makes at most `span` of net progress.
    function test_twoReplenishments_bothKeptInBound() public {
        _accrue(3);
        assertEq(emission.halvings(), 1, "era 1: 6,000 GFL-epochs crossed the 5,000 span");
        uint256 rate = emission.rewardRateWad(1);
        uint256 b0 = emission.emissionBound();
        uint256 g1 = _replenish(1e18);
        uint256 b1 = emission.emissionBound();
        assertEq(b1, b0 + Math.mulDiv(rate, g1, 1e18, Math.Rounding.Ceil), "first offset");
        uint256 g2 = _replenish(1e18);
        assertEq(emission.emissionBound(), b1 + Math.mulDiv(rate, g2, 1e18, Math.Rounding.Ceil), "second offset");
        (uint256 cumulative, uint256 threshold, ) = emission.halvingState();
        assertLt(cumulative, threshold - SPAN, "counter below the era's start");
        _assertEmi01("after two replenishments");
        _accrue(4);
        _assertEmi01("after accrual");
    }

    /// More DPS than the counter can offset: the GFL equivalent is capped at the counter, and so is the bound's
    /// increase (the rest of the DPS pays rewards without a counter effect).
    function test_replenishBeyondCounter_boundGrowsByCappedOffsetOnly() public {
        _accrue(1);
        (uint256 cumulative, , ) = emission.halvingState();
        uint256 rate = emission.rewardRateWad(0);
        uint256 b0 = emission.emissionBound();
        uint256 g = _replenish(100e18);
        assertEq(g, cumulative, "capped at the counter");
        assertEq(emission.emissionBound(), b0 + Math.mulDiv(rate, cumulative, 1e18, Math.Rounding.Ceil), "capped");
        _assertEmi01("after capped replenish");
    }

    /// At rate 0 (every halving done) a replenishment offsets nothing and leaves the bound as it was.
    function test_replenishAtRateZero_boundUnchanged() public {
        emission.setHalvingSpan(1);
        _accrue(1);
        assertEq(emission.halvings(), 64, "all halvings at a 1-wei span");
        uint256 b0 = emission.emissionBound();
        assertEq(_replenish(1e18), 0, "no GFL equivalent at rate 0");
        assertEq(emission.emissionBound(), b0, "bound unchanged");
        _assertEmi01("rate 0");
    }
}
