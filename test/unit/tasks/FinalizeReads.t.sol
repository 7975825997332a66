// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";

/// @notice Issue 18 item 4 (`TaskRegistry.finalize` gas): an accepting finalize no longer reads the task's
///         `resultHash` nor the members' revealed hashes — an acceptance sides every reveal by its executor bit. These
///         tests attack that shortcut: a minority revealing another result, a member revealing a near-copy, a dispute
///         decided for the executor, a second claim, and a rejection (which still compares revealed hashes, TSK-06).
contract FinalizeReadsTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    bytes32 internal constant GOOD = keccak256("correct result");

    function setUp() public {
        _deployTasks();
    }

    /// TSK-06: an acceptance reserves exactly the fees of the members who revealed the executor's result; the member
    /// revealing another result (here one bit away from the executor's) earns nothing and is not slashed, and no
    /// member claims twice. The accepted task still shows the executor's result as its verdict.
    function test_accept_minorityNearCopy_earnsNoFee_andNoSecondClaim_TSK06() public {
        (uint256 id, address[] memory c) = _verifyingN(GOOD, 3);
        bytes32 nearCopy = GOOD ^ bytes32(uint256(1));
        _commitAs(id, c[0], GOOD);
        _commitAs(id, c[1], GOOD);
        _commitAs(id, c[2], nearCopy);
        _toReveal(id);
        _revealAs(id, c[0], GOOD);
        _revealAs(id, c[1], GOOD);
        _revealAs(id, c[2], nearCopy);
        _finalize(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(uint8(t.status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(t.verdictHash, GOOD, "an acceptance's verdict is the executor's result");
        assertEq(t.escrow, 2 * t.councilFee, "two fees reserved, the near-copy's not");
        assertEq(_slashedDps(c[2]), 0, "round-0 dissent is not slashed");
        vm.prank(c[2]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[2]));
        tasks.claimCouncilFee(id);
        vm.prank(c[0]);
        assertEq(tasks.claimCouncilFee(id), t.councilFee);
        vm.prank(c[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[0]));
        tasks.claimCouncilFee(id);
        vm.prank(c[1]);
        assertEq(tasks.claimCouncilFee(id), t.councilFee);
        assertEq(tasks.getTask(id).escrow, 0, "every reserved fee paid, nothing left over");
    }

    /// TSK-03: a dispute the enlarged council decides for the executor slashes every member of both rounds who
    /// revealed another result — judged by the executor bit, not by a stored verdict hash — and pays the others.
    function test_acceptAfterDispute_slashesOtherRevealers_TSK03() public {
        (uint256 id, address[] memory c) = _verifyingN(GOOD, 2);
        _voteMask(id, 0, 2, 1); // c[0] reveals GOOD, c[1] OTHER_RESULT: no quorum either way
        tasks.openDispute(id);
        _draw(id);
        _voteMask(id, 1, 5, 0x1e); // c1[0] reveals OTHER_RESULT, four reveal GOOD (quorum n + 1 = 3)
        _finalize(id);
        address[] memory c1 = tasks.councilOf(id, 1);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(uint8(t.status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(_slashedDps(providers[1]), 0, "the executor was right");
        assertEq(_slashedDps(c1[0]), SLASH, "dispute member against the verdict");
        assertEq(_slashedDps(c[1]), SLASH, "first-round member against the verdict");
        assertEq(_slashedDps(c[0]), 0);
        assertEq(t.escrow, 5 * t.councilFee, "fees of the five who sided with the executor");
        vm.prank(c1[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c1[0]));
        tasks.claimCouncilFee(id);
        _claimAll(id);
        assertEq(tasks.getTask(id).escrow, 0);
    }

    /// A rejection still compares the revealed hashes: a member who revealed the executor's result, and one who
    /// revealed a third result, earn nothing; the quorum's members earn their fee.
    function test_reject_feesFollowRevealedHash_notExecutorBit() public {
        uint256 id = _submit(USDC, 1_000e6, 5, 3);
        _bid(id, providers[1], 300e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], GOOD);
        address[] memory c = tasks.councilOf(id, 0);
        bytes32[5] memory said = [OTHER_RESULT, OTHER_RESULT, OTHER_RESULT, GOOD, keccak256("third")];
        for (uint256 i; i < 5; ++i) _commitAs(id, c[i], said[i]);
        _toReveal(id);
        for (uint256 i; i < 5; ++i) _revealAs(id, c[i], said[i]);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        _finalize(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(uint8(t.status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(t.verdictHash, OTHER_RESULT);
        assertEq(t.escrow, 3 * t.councilFee, "only the quorum's three fees");
        for (uint256 i = 3; i < 5; ++i) {
            vm.prank(c[i]);
            vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[i]));
            tasks.claimCouncilFee(id);
        }
        vm.prank(c[0]);
        assertEq(tasks.claimCouncilFee(id), t.councilFee);
    }
}
