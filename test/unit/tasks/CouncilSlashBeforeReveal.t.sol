// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";

/// @notice Sequence attacks on a council seat between its draw and its reveal: the member is slashed elsewhere (by
///         another task's fault, with the PROVIDER_SLASHER role) after it was drawn and before it reveals. The draw
///         is fixed (TSK-07), so the seat stays; what must hold is that the member's vote still counts once
///         (TSK-01), the task still ends and pays (a silent member slashed to nothing cannot brick `finalize`),
///         the slash of this task takes only what is left and never more than its bound (TSK-03), and the seat's
///         duty lock still keeps the member from unbonding its way out of the silent slash (TSK-08).
contract CouncilSlashBeforeRevealTest is TaskSolBase {
    bytes32 internal constant GOOD = keccak256("correct result");
    /// @dev TaskCommon.SILENT_SLASH_BPS of the task's fault amount (SLASH): what a late silent member loses.
    uint256 internal constant SILENT = (uint256(SLASH) * 2_500) / 10_000;

    function setUp() public {
        _deployTasks();
        _grant(Roles.PROVIDER_SLASHER, address(this));
    }

    function _locked(address p) internal view returns (uint256) {
        return registry.providerInfo(p).dutyLockedDps;
    }

    function _staked(address p) internal view returns (uint256) {
        return registry.providerInfo(p).stakedDps;
    }

    /// @dev A drawn 3-seat task (quorum 2) whose executor (providers[1]) committed GOOD: Verifying, round 0.
    function _verifying() internal returns (uint256 id, address[] memory c) {
        id = _drawnUsdcTask(3, 2);
        c = tasks.councilOf(id, 0);
        _commitAll(id, providers[1], GOOD);
    }

    /// TSK-01 / TSK-03: a member committed, is slashed half its stake elsewhere, then reveals with the executor. Its
    /// vote counts once, it is paid its fee, the task slashes nobody who sided with it, and its seat's lock is
    /// released in full (the slash took stake, not the lock).
    function test_memberSlashedBetweenCommitAndReveal_voteCountsAndIsPaid() public {
        (uint256 id, address[] memory c) = _verifying();
        address m = c[0];
        _commitAs(id, m, GOOD);
        _commitAs(id, c[1], GOOD);
        uint256 half = _staked(m) / 2;
        registry.slash(m, half, address(0), bytes32("other fault"));
        assertEq(_slashedDps(m), half);
        _toReveal(id);
        _revealAs(id, m, GOOD);
        _revealAs(id, c[1], GOOD);
        assertEq(tasks.getTask(id).agree, 2, "both votes counted, once each");
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        uint256 before = usdc.balanceOf(m);
        vm.prank(m);
        tasks.claimCouncilFee(id);
        assertGt(usdc.balanceOf(m), before, "the slashed voter is paid its fee");
        assertEq(_locked(m), 0, "its seat is released in full");
        assertEq(_slashedDps(m), half, "this task slashed nothing from a member that sided with its verdict");
    }

    /// TSK-02 liveness: the silent member is slashed to zero (stake and unbonding) before the reveal window closes.
    /// `finalize` must not revert on the registry's empty stake: the task ends Accepted, the executor is paid, the
    /// silent slash takes what is left (nothing), and the seat is still releasable.
    function test_silentMemberSlashedToZero_finalizeStillEndsAndPays() public {
        (uint256 id, address[] memory c) = _verifying();
        address silent = c[2];
        uint256 all = _staked(silent);
        registry.slash(silent, all, address(0), bytes32("other fault"));
        assertEq(_staked(silent), 0);
        assertEq(_locked(silent), SLASH, "the lock outlives the stake");
        _voteAll(id, 0, true, 2);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        uint256 execBefore = usdc.balanceOf(providers[1]);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        assertGt(usdc.balanceOf(providers[1]), execBefore, "the executor is paid");
        assertEq(_slashedDps(silent), all, "the silent slash found nothing more to take");
        tasks.releaseSeat(id, silent);
        assertEq(_locked(silent), 0);
    }

    /// TSK-08 attack: slashed below its seat's lock after the draw, the member tries to unbond what is left and walk
    /// away silent. The lock covers the whole remaining stake, so the unbond is refused; the late silent slash then
    /// takes its full bound from what the member kept.
    function test_slashedBelowLockAfterDraw_cannotUnbondAwayFromTheSilentSlash() public {
        (uint256 id, address[] memory c) = _verifying();
        address silent = c[2];
        uint256 keep = SLASH / 2; // below the seat's lock
        registry.slash(silent, _staked(silent) - keep, address(0), bytes32("other fault"));
        uint256 slashedBefore = _slashedDps(silent);
        assertEq(_staked(silent), keep);
        vm.prank(silent);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, silent, 1, 0));
        registry.requestUnbond(1);
        _voteAll(id, 0, true, 2);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        _finalize(id);
        assertEq(_slashedDps(silent) - slashedBefore, SILENT, "the silent slash took its bound");
        assertEq(_staked(silent), keep - SILENT);
        // no other member was touched by this task's slash
        assertEq(_slashedDps(c[0]), 0);
        assertEq(_slashedDps(c[1]), 0);
    }
}
