// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {ITaskRegistryErrors} from "../../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";

/// @notice Sequence attacks on the task council's commit-reveal and the task's terminal state: a commitment copied
///         from another member or another task, a finalisation repeated, a fee claimed twice.
contract TaskSequenceAttacksTest is TaskSolBase {
    bytes32 internal constant GOOD = keccak256("correct result");

    function setUp() public {
        _deployTasks();
    }

    /// TSK-01 attack: member B copies member A's commitment (seen in the mempool) and replays A's reveal (result and
    ///         salt); the commitment binds the member, so B's reveal is rejected and B cannot free-ride A's vote.
    function test_commitCopiedFromAnotherMember_revealRejected() public {
        (uint256 id, address[] memory c) = _verifyingN(GOOD, 3);
        _commitAs(id, c[0], GOOD);
        bytes32 copied = _commitment(id, c[0], GOOD);
        vm.prank(c[1]);
        tasks.commitResult(id, copied);
        _toReveal(id);
        _revealAs(id, c[0], GOOD);
        vm.prank(c[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadReveal.selector, id, c[1]));
        tasks.revealResult(id, GOOD, _salt(id, c[0]));
    }

    /// TSK-01 attack: a member replays, on a second task, the commitment and reveal it made on the first; the
    ///         commitment binds the task id, so the replayed reveal is rejected.
    function test_revealReplayedFromAnotherTask_rejected() public {
        (uint256 id1, address[] memory c1) = _verifyingN(GOOD, 3);
        (uint256 id2, address[] memory c2) = _verifyingN(GOOD, 3);
        address both;
        for (uint256 i; i < c1.length && both == address(0); ++i) if (_isIn(c1[i], c2)) both = c1[i];
        assertTrue(both != address(0), "the two councils share a member");
        bytes32 old = _commitment(id1, both, GOOD);
        vm.prank(both);
        tasks.commitResult(id2, old);
        _toReveal(id2);
        vm.prank(both);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadReveal.selector, id2, both));
        tasks.revealResult(id2, GOOD, _salt(id1, both));
    }

    /// TSK-02 attack: finalize an accepted task a second time (as client, then as a keeper) to pay the executor or
    ///         the keeper bounty twice; the second call reverts and no balance moves.
    function test_finalizeTwice_secondReverts() public {
        (uint256 id, ) = _verifyingN(GOOD, 3);
        _voteAll(id, 0, true, 2);
        _finalize(id);
        uint256 bal = usdc.balanceOf(address(tasks));
        vm.prank(client);
        vm.expectRevert();
        tasks.finalize(id);
        vm.prank(address(0xBEEF));
        vm.expectRevert();
        tasks.finalize(id);
        assertEq(usdc.balanceOf(address(tasks)), bal, "no second payout");
    }

    /// TSK-02 / TSK-08 attack: a voter claims its council fee twice (or after its seat was released by anyone) to drain the
    ///         fee pool; the second claim reverts with TaskNothingToClaim.
    function test_councilFeeClaimedTwice_reverts() public {
        (uint256 id, address[] memory c) = _verifyingN(GOOD, 3);
        _voteAll(id, 0, true, 2);
        _finalize(id);
        vm.prank(c[0]);
        tasks.claimCouncilFee(id);
        vm.prank(c[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[0]));
        tasks.claimCouncilFee(id);
        // a silent member (no vote) has no fee, before or after its seat is released
        tasks.releaseSeat(id, c[2]);
        vm.prank(c[2]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[2]));
        tasks.claimCouncilFee(id);
    }

    /// TSK-01 / TSK-02 attack: a member commits, stays silent through the verdict, then reveals after finalisation to earn a
    ///         fee it did not earn in time; the late reveal reverts and the member has nothing to claim.
    function test_revealAfterFinalize_rejectedAndUnpaid() public {
        (uint256 id, address[] memory c) = _verifyingN(GOOD, 3);
        _commitAs(id, c[2], GOOD);
        _voteAll(id, 0, true, 2);
        _finalize(id);
        vm.prank(c[2]);
        vm.expectRevert();
        tasks.revealResult(id, GOOD, _salt(id, c[2]));
        vm.prank(c[2]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[2]));
        tasks.claimCouncilFee(id);
    }
}
