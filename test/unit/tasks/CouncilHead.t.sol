// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";

/// @notice Issue 21 item 8 (drawCouncil gas): the first round's council head lives in the task's `councilHead`, in
///         the slot of `targetBlock` and `assignmentId`, the dispute council's in `councilHeads`. These tests attack
///         that packing: a second draw, a seed that aged out, a dispute council after the first, a later task whose
///         council shares members, a CH task whose redemption id shares the slot, and a member who unbonds and
///         withdraws between the draw and its commitment (TSK-07, TSK-08).
contract CouncilHeadTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    bytes32 internal constant GOOD = keccak256("correct result");

    function setUp() public {
        _deployTasks();
    }

    /// @dev A USDC task (n, q) with providers[0] the only bidder, bidding closed and the seed block mined.
    function _closed(uint8 n, uint8 q) internal returns (uint256 id) {
        id = _submit(USDC, 1_000e6, n, q);
        _bid(id, providers[0], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        _close(id);
    }

    function _disjoint(address[] memory a, address[] memory b) internal pure returns (bool) {
        for (uint256 i; i < a.length; ++i) if (_isIn(a[i], b)) return false;
        return true;
    }

    /// The head is the first member in draw order; the slot it shares keeps the seed block; a second draw of the
    /// same round reverts (the head marks the round drawn), from the client or a keeper alike.
    function test_firstCouncilHead_isTheTasksField_drawnOnce() public {
        uint256 id = _closed(3, 2);
        uint256 target = tasks.getTask(id).targetBlock;
        assertEq(tasks.getTask(id).councilHead, address(0), "no head before the draw");
        _draw(id);
        address[] memory c = tasks.councilOf(id, 0);
        assertEq(c.length, 3);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(t.councilHead, c[0], "head = first member");
        assertEq(t.targetBlock, target, "the head's write kept the seed block");
        assertEq(tasks.councilOf(id, 1).length, 0, "no dispute council");
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskCouncilNotDrawable.selector, id, target));
        tasks.drawCouncil(id);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskCouncilNotDrawable.selector, id, target));
        tasks.drawCouncil(id);
    }

    /// A seed whose hash aged out is re-committed without storing any council; the draw from the fresh seed then
    /// stores exactly one council, and the keeper schedule follows the head (draw, then nothing to draw).
    function test_seedAgedOut_redrawStoresOneCouncil() public {
        uint256 id = _closed(3, 2);
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 300);
        tasks.drawCouncil(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(t.councilHead, address(0), "an aged-out seed stores no council");
        assertEq(t.targetBlock, target + 301, "a fresh seed block");
        assertEq(tasks.councilOf(id, 0).length, 0);
        vm.roll(t.targetBlock + 1);
        (bool need, bytes memory data) = _keeper().checkUpkeep("");
        assertTrue(need);
        assertEq(data, abi.encodeCall(ITaskRegistry.drawCouncil, (id)));
        _draw(id);
        address[] memory c = tasks.councilOf(id, 0);
        assertEq(c.length, 3);
        assertEq(tasks.getTask(id).councilHead, c[0]);
        (need, data) = _keeper().checkUpkeep("");
        assertTrue(!need || keccak256(data) != keccak256(abi.encodeCall(ITaskRegistry.drawCouncil, (id))));
    }

    /// The dispute council's head is stored apart: drawing it leaves the first council (its head, its members'
    /// seats) intact, excludes it, and a first-round member cannot commit in the dispute round.
    function test_disputeCouncil_keepsFirstCouncilAndItsHead() public {
        uint256 id = _submit(USDC, 1_000e6, 2, 2);
        _bid(id, providers[0], 400e6);
        _closeAndDraw(id);
        address[] memory c0 = tasks.councilOf(id, 0);
        _commitAll(id, providers[0], GOOD);
        _voteMask(id, 0, 2, 1); // split: one agrees, one does not
        tasks.openDispute(id);
        _draw(id);
        address[] memory c1 = tasks.councilOf(id, 1);
        assertEq(c1.length, 5);
        assertEq(tasks.getTask(id).councilHead, c0[0], "the first council's head survives the dispute draw");
        address[] memory again = tasks.councilOf(id, 0);
        assertEq(again.length, 2);
        assertEq(again[0], c0[0]);
        assertEq(again[1], c0[1]);
        assertTrue(_disjoint(c0, c1), "a first-round member sits on the dispute council");
        vm.prank(c0[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotCouncilMember.selector, id, c0[0]));
        tasks.commitResult(id, _commitment(id, c0[0], GOOD));
        // the dispute council decides; both councils' seats stay locked until released (issue 18 item 4)
        _voteAll(id, 1, true, 5);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        for (uint256 i; i < c1.length; ++i) assertEq(registry.providerInfo(c1[i]).dutyLockedDps, SLASH);
        _releaseSeats(id);
        for (uint256 i; i < c1.length; ++i) assertEq(registry.providerInfo(c1[i]).dutyLockedDps, 0);
        for (uint256 i; i < c0.length; ++i) assertEq(registry.providerInfo(c0[i]).dutyLockedDps, 0);
    }

    /// A later task's council (same providers, its own head field) does not seat anyone in the earlier task: a
    /// member of the later council only that cannot commit on the earlier task, and the earlier council is unchanged.
    function test_laterTaskCouncil_doesNotSeatInEarlierTask() public {
        uint256 a = _submit(USDC, 1_000e6, 3, 2);
        _bid(a, providers[0], 400e6);
        _closeAndDraw(a);
        address[] memory ca = tasks.councilOf(a, 0);
        uint256 b = _submit(USDC, 1_000e6, 3, 2);
        _bid(b, providers[1], 400e6);
        _closeAndDraw(b);
        address[] memory cb = tasks.councilOf(b, 0);
        assertEq(tasks.getTask(b).councilHead, cb[0]);
        address[] memory caAfter = tasks.councilOf(a, 0);
        assertEq(caAfter.length, ca.length);
        for (uint256 i; i < ca.length; ++i) assertEq(caAfter[i], ca[i], "the later draw moved the earlier council");
        _commitAll(a, providers[0], GOOD);
        for (uint256 i; i < cb.length; ++i) {
            if (_isIn(cb[i], ca)) continue;
            vm.prank(cb[i]);
            vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotCouncilMember.selector, a, cb[i]));
            tasks.commitResult(a, _commitment(a, cb[i], GOOD));
        }
    }

    /// A CH task's redemption id shares the head's slot: drawing keeps it, and the accepted delivery confirms it.
    function test_chTask_assignmentIdSurvivesTheHead() public {
        vm.prank(providers[0]);
        registry.mintCH(500e18, client);
        uint256 id = _submit(ITaskRegistry.Currency.CH, 200e18, 3, 2);
        _bid(id, providers[0], 100e18);
        vm.warp(block.timestamp + 1 hours + 1);
        _close(id);
        uint256 asg = tasks.getTask(id).assignmentId;
        assertGt(asg, 0, "a CH task reserves a redemption");
        _draw(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(t.assignmentId, asg, "the head's write kept the redemption id");
        assertEq(t.councilHead, tasks.councilOf(id, 0)[0]);
        _commitAll(id, providers[0], GOOD);
        _voteAll(id, 0, true, 3);
        _finalize(id);
        assertEq(registry.providerInfo(providers[0]).assignedCh, 0, "the redemption was confirmed");
        assertEq(registry.liabilityOf(providers[0]), 400e18);
    }

    /// TSK-08: a member that unbonds everything and withdraws between the draw and its commitment keeps its seat's
    /// lock (the withdrawal leaves it) and still commits and reveals; the lock is released by its fee claim.
    function test_memberUnbondsBetweenDrawAndCommit_lockHeld_seatKept() public {
        ITaskRegistry.Terms memory terms = _terms(USDC, 1_000e6, 3, 2);
        terms.deadline = uint40(block.timestamp + 10 days);
        vm.prank(client);
        uint256 id = tasks.submit(terms, _prescription());
        _bid(id, providers[0], 400e6);
        _closeAndDraw(id);
        address[] memory c = tasks.councilOf(id, 0);
        address m = c[1];
        uint256 locked = registry.providerInfo(m).dutyLockedDps;
        assertGt(locked, 0, "the seat locked stake");
        uint256 staked = registry.providerInfo(m).stakedDps;
        vm.prank(m);
        try registry.requestUnbond(staked) {
            revert("unbonded the locked stake");
        } catch {}
        vm.prank(m);
        registry.requestUnbond(staked - locked);
        vm.warp(block.timestamp + 7 days + 1);
        vm.prank(m);
        registry.withdrawUnbonded();
        assertEq(registry.providerInfo(m).stakedDps, locked, "the lock stayed staked");
        _commitAll(id, providers[0], GOOD);
        _voteAll(id, 0, true, 3);
        _finalize(id);
        assertEq(registry.providerInfo(m).dutyLockedDps, locked, "the verdict leaves the seat locked");
        vm.prank(m);
        tasks.claimCouncilFee(id);
        assertEq(registry.providerInfo(m).dutyLockedDps, 0, "released by the member's claim");
    }
}
