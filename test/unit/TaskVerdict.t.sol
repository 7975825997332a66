// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../contracts/interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";

/// @notice Issue 21 items 1 and 6: commit–reveal of the council's own results (the accepted result is the quorum's)
///         and the keeper bounties of the maintenance steps. Each test is an attack or failure named after its
///         scenario.
contract TaskVerdictTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    bytes32 internal constant GOOD = keccak256("correct result");
    bytes32 internal constant BAD = keccak256("fabricated result");
    address internal constant KEEPER = address(0x4EE9);

    function setUp() public {
        _deployTasks();
    }

    /// @dev n = 3 (TaskSolBase._verifyingN: q = 2, deposit 1,000 USDC, providers[1] executes at 400 and commits
    ///      `result`).
    function _verifying(bytes32 result) internal returns (uint256 id, address[] memory c) {
        return _verifyingN(result, 3);
    }

    // ─── item 1: commit–reveal ──────────────────────────────────────────────────────────────────────────

    /// A lazy member that waits to copy the others cannot: nothing commits after the window, nothing reveals without
    /// a commitment, and no reveal happens before the window ends (so no result is visible while commitments open).
    function test_lazyCopier_cannotCommitLateOrRevealWithoutCommitment() public {
        (uint256 id, address[] memory c) = _verifying(GOOD);
        _commitAs(id, c[0], GOOD);
        uint256 ends = tasks.getTask(id).commitEnds;
        vm.prank(c[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskCommitPhase.selector, id, ends));
        tasks.revealResult(id, GOOD, _salt(id, c[0]));
        vm.prank(c[1]);
        vm.expectRevert(ITaskRegistryErrors.TaskZeroCommitment.selector);
        tasks.commitResult(id, bytes32(0));
        _toReveal(id);
        _revealAs(id, c[0], GOOD);
        vm.prank(c[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskCommitPhase.selector, id, ends));
        tasks.commitResult(id, _commitment(id, c[1], GOOD));
        vm.prank(c[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadReveal.selector, id, c[1]));
        tasks.revealResult(id, GOOD, _salt(id, c[1]));
        vm.warp(tasks.getTask(id).votingEnds + 1);
        vm.prank(c[0]);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskDeadlinePassed.selector, tasks.getTask(id).votingEnds)
        );
        tasks.revealResult(id, GOOD, _salt(id, c[0]));
    }

    /// A member copies another's commitment word for word; it cannot open it, even after seeing the other's result
    /// and salt (the commitment binds the member's address).
    function test_copiedCommitment_cannotBeRevealed() public {
        (uint256 id, address[] memory c) = _verifying(GOOD);
        bytes32 honest = _commitment(id, c[0], GOOD);
        vm.prank(c[0]);
        tasks.commitResult(id, honest);
        vm.prank(c[1]);
        tasks.commitResult(id, honest);
        _toReveal(id);
        _revealAs(id, c[0], GOOD);
        vm.prank(c[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadReveal.selector, id, c[1]));
        tasks.revealResult(id, GOOD, _salt(id, c[0]));
    }

    /// A member cannot change its answer at reveal: another result than the committed one does not open it. It may
    /// replace its commitment while the commit window is open.
    function test_revealOtherThanCommitted_reverts_replaceInWindowAllowed() public {
        (uint256 id, address[] memory c) = _verifying(GOOD);
        _commitAs(id, c[0], BAD);
        _commitAs(id, c[0], GOOD); // replaced inside the window
        _toReveal(id);
        vm.prank(c[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadReveal.selector, id, c[0]));
        tasks.revealResult(id, BAD, _salt(id, c[0]));
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.ResultRevealed(id, c[0], 0, GOOD, true, 1, 0);
        _revealAs(id, c[0], GOOD);
    }

    /// TSK-01 + TSK-03: a quorum revealing the same other result proves the executor wrong; the accepted result is
    /// the quorum's, the executor is slashed, only the quorum's members earn fees.
    function test_quorumOnOtherResult_rejectsExecutor_TSK01() public {
        (uint256 id, address[] memory c) = _verifying(BAD);
        _voteMask(id, 0, 3, 0); // all three reveal OTHER_RESULT
        vm.warp(tasks.getTask(id).votingEnds + 1); // the executor's appeal window
        _finalize(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(uint8(t.status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(t.verdictHash, OTHER_RESULT, "the quorum's result");
        assertEq(_slashedDps(providers[1]), SLASH);
        for (uint256 i; i < 3; ++i) {
            vm.prank(c[i]);
            assertEq(tasks.claimCouncilFee(id), 4e6);
        }
    }

    /// Attack on the old yes/no vote: two members that merely "disagree" but reveal different results are no quorum
    /// against the executor — the split opens the dispute round instead of rejecting (TSK-05 path kept; the
    /// enlarged council's verdict is `test_disputeMinority_isSlashed`).
    function test_dissentersOnDifferentResults_areNoQuorum_disputeDecides() public {
        (uint256 id, address[] memory c) = _verifying(GOOD);
        _commitAs(id, c[0], GOOD);
        _commitAs(id, c[1], keccak256("x"));
        _commitAs(id, c[2], keccak256("y"));
        _toReveal(id);
        _revealAs(id, c[0], GOOD);
        _revealAs(id, c[1], keccak256("x"));
        _revealAs(id, c[2], keccak256("y"));
        assertEq(tasks.getTask(id).disagree, 2);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoQuorum.selector, id, 1, 1, 2));
        _finalize(id);
        tasks.openDispute(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(uint8(t.status), uint8(ITaskRegistry.Status.Disputed));
        assertEq(t.round, 1);
        assertEq(t.flags & 1, 1, "the first round's reveal window had closed");
        assertEq(_slashedDps(providers[1]), 0, "no quorum, no slash");
    }

    /// A dispute-round member revealing against the enlarged council's verdict is slashed (a recorded dispute).
    function test_disputeMinority_isSlashed() public {
        (uint256 id, address[] memory c) = _verifyingN(BAD, 2);
        _voteMask(id, 0, 2, 1); // c[0] reveals BAD (executor's), c[1] OTHER
        tasks.openDispute(id);
        _draw(id);
        _voteMask(id, 1, 5, 1); // c1[0] sides with the executor; four reveal OTHER_RESULT
        _finalize(id);
        address[] memory c1 = tasks.councilOf(id, 1);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(tasks.getTask(id).verdictHash, OTHER_RESULT);
        assertEq(_slashedDps(c1[0]), SLASH, "dispute minority");
        assertEq(_slashedDps(c[0]), SLASH, "first-round member with the cheat");
        assertEq(_slashedDps(c[1]), 0);
        assertEq(_slashedDps(providers[1]), SLASH, "the executor proven wrong");
        vm.prank(c1[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c1[0]));
        tasks.claimCouncilFee(id);
    }

    /// A round-0 minority reveal with a quorum and no dispute only loses its fee (no recorded dispute: honest dissent
    /// is not punished by a possibly colluding quorum, TSK-06).
    function test_round0Minority_losesFeeOnly() public {
        (uint256 id, address[] memory c) = _verifying(GOOD);
        _voteMask(id, 0, 3, 3); // c[0], c[1] agree; c[2] reveals OTHER
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(_slashedDps(c[2]), 0);
        vm.prank(c[2]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[2]));
        tasks.claimCouncilFee(id);
    }

    /// A member that never reveals loses its fee and, once its reveal window has closed, the bounded silent slice
    /// (a quarter of the fault amount, within its seat's lock: TSK-08).
    function test_silentMember_losesFeeAndBoundedSlice() public {
        (uint256 id, address[] memory c) = _verifying(GOOD);
        _commitAs(id, c[2], GOOD); // commits, never reveals
        _voteAll(id, 0, true, 2);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.SilentMemberSlashed(id, c[2], SLASH / 4);
        _finalize(id);
        assertEq(_slashedDps(c[2]), SLASH / 4);
        assertEq(_slashedDps(c[0]) + _slashedDps(c[1]) + _slashedDps(providers[1]), 0);
        vm.prank(c[2]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[2]));
        tasks.claimCouncilFee(id);
    }

    /// A quorum reached early ends the task inside the reveal window: the member that had not revealed yet missed
    /// no deadline and is not slashed (it only loses the fee).
    function test_earlyQuorum_doesNotSlashMemberStillInWindow() public {
        (uint256 id, address[] memory c) = _verifying(GOOD);
        _voteAll(id, 0, true, 2);
        assertLe(block.timestamp, tasks.getTask(id).votingEnds);
        _finalize(id);
        assertEq(_slashedDps(c[2]), 0);
    }

    /// `leadingRival` and the registry's own keeper scan see the quorum's other result: finalize is due only once the
    /// executor's appeal window has passed.
    function test_leadingRival_andChecker_followTheReveals() public {
        (uint256 id, ) = _verifying(BAD);
        (bytes32 r0, uint256 n0) = tasks.leadingRival(id);
        assertEq(r0, bytes32(0));
        assertEq(n0, 0);
        _voteMask(id, 0, 3, 1); // c[0] the executor's, c[1] and c[2] OTHER_RESULT
        (bytes32 r, uint256 n) = tasks.leadingRival(id);
        assertEq(r, OTHER_RESULT);
        assertEq(n, 2);
        (bool due, ) = _keeper().checker();
        assertFalse(due, "the executor's appeal window is open");
        vm.warp(tasks.getTask(id).votingEnds + 1);
        (bool due2, bytes memory payload) = _keeper().checker();
        assertTrue(due2);
        assertEq(payload, abi.encodeWithSelector(ITaskRegistry.finalize.selector, id));
    }

    /// The dispute council is drawn late (after the round's commit window would have closed): its members get full
    /// windows from the draw, can still answer, and are not slashed as silent (TSK-03: no deadline they never had).
    function test_lateDisputeDraw_membersGetFullWindows() public {
        (uint256 id, ) = _verifyingN(GOOD, 2);
        _voteMask(id, 0, 2, 1);
        tasks.openDispute(id);
        vm.warp(tasks.getTask(id).commitEnds + 1 hours); // nobody drew in time
        _draw(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(t.commitEnds, block.timestamp + 1 days, "half the dispute window from the draw");
        assertEq(t.votingEnds, block.timestamp + 2 days);
        _voteAll(id, 1, true, 3);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        address[] memory c1 = tasks.councilOf(id, 1);
        for (uint256 i; i < c1.length; ++i) assertEq(_slashedDps(c1[i]), 0, "inside its window: not silent");
    }

    // ─── item 6: keeper bounties ────────────────────────────────────────────────────────────────────────

    /// Every maintenance step pays its (third-party) keeper 0.1 % of the deposit; the client and the executor
    /// calling the same steps earn nothing (self-dealing only moves the client's own deposit), and TSK-02 holds.
    function test_keeperBounties_paidPerStep_notToClientOrExecutor() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        vm.prank(KEEPER);
        tasks.closeBidding(id); // seal: no bounty
        assertEq(tasks.keeperCredits(KEEPER, USDC), 0, "sealing pays nothing");
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256(abi.encode("block", target)));
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.KeeperBountyPaid(id, KEEPER, ITaskRegistry.closeBidding.selector, 1, 1e6, 999e6);
        vm.prank(KEEPER);
        tasks.closeBidding(id);
        vm.prank(providers[1]); // the executor draws: nothing
        tasks.drawCouncil(id);
        assertEq(usdc.balanceOf(providers[1]), 0);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 3);
        vm.prank(KEEPER);
        tasks.finalize(id);
        assertEq(tasks.keeperCredits(KEEPER, USDC), 2e6, "closeBidding + finalize");
        assertEq(usdc.balanceOf(KEEPER), 0, "credited, not transferred (pull)");
        assertEq(tasks.keeperCredits(providers[1], USDC), 0, "the executor's draw earned nothing");
        assertEq(usdc.balanceOf(client), 1_000_000e6 - 400e6 - 12e6 - 2e6, "the client paid the two bounties");
        _claimAll(id);
        assertEq(usdc.balanceOf(address(tasks)), 2e6, "only the keeper's credits are left");
        assertEq(tasks.totalEscrow(USDC), 2e6, "TSK-02: credits count in totalEscrow");
        vm.prank(KEEPER);
        assertEq(tasks.claimKeeperCredits(USDC, KEEPER), 2e6);
        assertEq(usdc.balanceOf(KEEPER), 2e6);
        assertEq(usdc.balanceOf(address(tasks)), 0);
        assertEq(tasks.totalEscrow(USDC), 0);
    }

    /// The drawCouncil bounty goes to the caller of the draw (not a seed re-commit) of either round.
    function test_drawCouncilBounty_paidOnDrawOnly() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        _close(id);
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 257); // the seed aged out: the call re-commits and earns nothing
        vm.prank(KEEPER);
        tasks.drawCouncil(id);
        assertEq(tasks.keeperCredits(KEEPER, USDC), 0);
        target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256("fresh"));
        vm.prank(KEEPER);
        tasks.drawCouncil(id);
        assertEq(tasks.keeperCredits(KEEPER, USDC), 1e6);
        vm.prank(client); // the client gets nothing (its own deposit)
        vm.expectRevert();
        tasks.drawCouncil(id); // already drawn
    }

    /// A client finalising its own task earns no bounty; the slice stays in its refund.
    function test_clientFinalizing_earnsNoBounty() public {
        (uint256 id, ) = _verifying(GOOD);
        _voteAll(id, 0, true, 2);
        uint256 before = usdc.balanceOf(client);
        _finalize(id);
        assertEq(usdc.balanceOf(client) - before, 1_000e6 - 400e6 - 8e6, "full refund of the rest");
    }

    /// Governance's resolution is not a keeper step: no bounty.
    function test_resolveDispute_paysNoBounty() public {
        (uint256 id, ) = _verifyingN(GOOD, 2);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        tasks.openDispute(id);
        _draw(id);
        vm.warp(tasks.getTask(id).votingEnds + 1);
        tasks.resolveDispute(id, true);
        assertEq(usdc.balanceOf(address(this)), 0);
        assertEq(tasks.keeperCredits(address(this), USDC), 0);
    }
}
