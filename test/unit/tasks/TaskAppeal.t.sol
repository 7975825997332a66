// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskBisectionBase} from "./TaskBisectionBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {ITaskKeeperLens} from "../../../contracts/interfaces/keepers/ITaskKeeperLens.sol";
import {TaskKeeperLens} from "../../../contracts/periphery/TaskKeeperLens.sol";

/// @notice Issue 21 item 2, last sentence: "a client can appeal an accepted result the same way". The client opens a
///         bisection against the executor's chain inside the appeal window (`disputeWindowSec` from acceptance);
///         the executor's duty lock is held through that window. Attacks first.
contract TaskAppealTest is TaskBisectionBase {
    uint256 internal constant FEE = 4e6; // 1 % of the 400 USDC price
    uint256 internal constant WINDOW = 2 days; // disputeWindowSec

    /// @dev Council n = 2, q = 2, both members accept the executor's result; the executor's chain is fabricated from
    ///      `badFrom` on, the client's (its recomputation) from `clientBadFrom` on; finalised as the client.
    function _accepted(
        uint256 n,
        uint256 badFrom,
        uint256 clientBadFrom,
        bool commitChain
    ) internal returns (uint256 id, address[] memory c) {
        (id, c) = _executorRan(n, badFrom, clientBadFrom, commitChain);
        _voteAll(id, 0, true, 2);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
    }

    function _appeal(uint256 id, address who) internal {
        uint256 n = chalLeaves.length;
        uint256 mid = (n - 1) / 2;
        vm.prank(who);
        tasks.appeal(
            id,
            _root(chalLeaves),
            chalLeaves[n - 1],
            _proof(chalLeaves, n - 1),
            chalLeaves[mid],
            n > 1 ? _proof(chalLeaves, mid) : new bytes32[](0)
        );
    }

    function _locked(address p) internal view returns (uint256) {
        return registry.providerInfo(p).dutyLockedDps;
    }

    function _status(uint256 id) internal view returns (ITaskRegistry.Status) {
        return tasks.getTask(id).status;
    }

    // ─── attacks ────────────────────────────────────────────────────────────────────────────────────────────

    /// An appeal after the window closes is refused (and the window is `disputeWindowSec` from acceptance).
    function test_appealAfterWindow_reverts() public {
        (uint256 id, ) = _accepted(16, 3, 16, true);
        uint256 ends = block.timestamp + WINDOW;
        vm.warp(ends + 1);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, ends));
        _appeal(id, client);
    }

    /// Only the client appeals: a council member, the executor or a stranger cannot.
    function test_appealByNonClient_reverts() public {
        (uint256 id, address[] memory c) = _accepted(16, 3, 16, true);
        address[3] memory others = [c[0], providers[1], KEEPER];
        for (uint256 i; i < 3; ++i) {
            vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskCannotChallenge.selector, id, others[i]));
            _appeal(id, others[i]);
        }
    }

    /// TSK-08: the executor cannot withdraw the stake an appeal may slash between acceptance and the appeal: its duty
    /// lock is held through the window; a lapse then takes the full fault amount, paid to the client.
    function test_executorUnbondsBetweenAcceptanceAndAppeal_cannotEscape_TSK08() public {
        (uint256 id, ) = _accepted(16, 3, 16, true);
        address exec = providers[1];
        assertEq(_locked(exec), SLASH, "executor lock held after acceptance");
        uint256 staked = registry.providerInfo(exec).stakedDps;
        vm.prank(exec);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, exec, staked, staked - SLASH)
        );
        registry.requestUnbond(staked);
        vm.prank(exec);
        registry.requestUnbond(staked - SLASH); // everything the lock leaves
        _appeal(id, client);
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        uint256 dpsBefore = dps.balanceOf(client);
        vm.prank(KEEPER);
        tasks.timeoutDispute(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Rejected));
        assertEq(_slashedDps(exec), SLASH, "full fault amount on a lapse");
        assertEq(dps.balanceOf(client) - dpsBefore, SLASH - SLASH / 10, "slash net of the keeper's finder fee");
        assertEq(dps.balanceOf(KEEPER), SLASH / 10, "keeper is the finder");
        assertEq(_locked(exec), 0, "lock released with the appeal");
        _escrowBalanced();
    }

    /// One appeal per task: a second one (running or settled) is refused.
    function test_doubleAppeal_refused() public {
        (uint256 id, ) = _accepted(16, 3, 16, true);
        _appeal(id, client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBisectionPhase.selector, id, 1));
        _appeal(id, client);
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        tasks.timeoutDispute(id);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, 0));
        _appeal(id, client);
    }

    /// No appeal while the task is still verified or disputed by its council (the dispute path is `openBisection`),
    /// nor after a member's bisection decided it (one bisection per task: no window is opened then).
    function test_appealWhileCouncilDisputeOpen_refused() public {
        execLeaves = _chain(16, 3, "cheat");
        chalLeaves = _chain(16, 16, "liar");
        uint256 id = _submit(USDC, 1_000e6, 2, 2);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], execLeaves[15]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, 0));
        _appeal(id, client);
        _voteMask(id, 0, 2, 1); // 1–1
        vm.warp(tasks.getTask(id).votingEnds + 1);
        tasks.openDispute(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Disputed));
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, 0));
        _appeal(id, client);
    }

    /// After a member's bisection upheld the executor, the task is accepted without an appeal window.
    function test_afterMemberBisection_noAppealWindow() public {
        (uint256 id, address[] memory c) = _setUp(16, 16, 5, true); // honest executor, false challenge by c[0]
        _open(id, c[0]);
        _playOut(id);
        _referees(id, 5);
        _finalize(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Accepted));
        assertEq(_locked(providers[1]), 0, "no window: released at once");
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, 0));
        _appeal(id, client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, 0));
        tasks.closeAppeal(id);
    }

    /// Griefing with cheap appeals: the bond is at least the referee council's fees plus two keeper bounties (and the
    /// 10 % bisection bond), a lapsed appeal forfeits it to the executor (keeper's cut first), and there is one appeal
    /// per task.
    function test_repeatedCheapAppeals_bondForfeited_onePerTask() public {
        (uint256 id, ) = _accepted(16, 16, 5, true); // honest executor; the client's "recomputation" is wrong
        uint256 bond = tasks.appealBond(id);
        assertEq(bond, BOND);
        assertGe(bond, 5 * FEE + 2 * 1e6, "covers 2n + 1 referee fees and two bounties");
        uint256 clientBefore = usdc.balanceOf(client);
        _appeal(id, client);
        assertEq(clientBefore - usdc.balanceOf(client), bond);
        _move(id); // the executor answers; the client does not
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        uint256 execBefore = usdc.balanceOf(providers[1]);
        vm.prank(KEEPER);
        tasks.timeoutDispute(id);
        assertEq(usdc.balanceOf(KEEPER), 1e6);
        assertEq(usdc.balanceOf(providers[1]) - execBefore, bond - 1e6);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Accepted), "the acceptance stands");
        assertEq(_locked(providers[1]), 0, "the lapsed appeal ends the window");
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, 0));
        _appeal(id, client);
        _escrowBalanced();
    }

    /// The window closes without an appeal: anyone releases the executor's lock once it has ended, once.
    function test_closeAppeal_releasesLockAfterWindowOnly() public {
        (uint256 id, ) = _accepted(16, 3, 16, true);
        uint256 ends = block.timestamp + WINDOW;
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, ends));
        tasks.closeAppeal(id);
        vm.warp(ends + 1);
        assertEq(registry.providerInfo(providers[1]).completed, 0, "held back while appealable");
        vm.prank(KEEPER);
        tasks.closeAppeal(id);
        assertEq(_locked(providers[1]), 0);
        assertEq(registry.providerInfo(providers[1]).completed, 1, "recorded with the window's close, once");
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, 0));
        tasks.closeAppeal(id);
    }

    /// An appeal in progress cannot be closed, nor resolved by governance.
    function test_runningAppeal_notClosable_notResolvable() public {
        (uint256 id, ) = _accepted(16, 3, 16, true);
        _appeal(id, client);
        vm.warp(block.timestamp + WINDOW + 1);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskAppealClosed.selector, id, block.timestamp - 1));
        tasks.closeAppeal(id);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBisectionPhase.selector, id, 1));
        tasks.resolveDispute(id, true);
    }

    /// @dev The client appeals; `member`'s claim is refused while the appeal's moves run (status still Accepted).
    function _appealThenClaimRefused(uint256 id, address member) internal {
        _appeal(id, client);
        vm.prank(member);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBisectionPhase.selector, id, 1));
        tasks.claimCouncilFee(id);
    }

    /// A round-0 member that accepted cannot take its fee while the client's appeal runs (moves phase, status still
    /// Accepted): it would keep a fee the overturn forfeits to the client. Refused while the appeal runs; after the
    /// lapse overturns the acceptance the fee is the client's.
    function test_round0ClaimDuringRunningAppeal_refused_forfeitedOnOverturn() public {
        (uint256 id, address[] memory c) = _accepted(16, 3, 16, false);
        _appealThenClaimRefused(id, c[0]);
        uint256 before = usdc.balanceOf(client);
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        vm.prank(client);
        tasks.timeoutDispute(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Rejected));
        assertEq(usdc.balanceOf(client) - before, BOND + 2 * FEE, "bond back plus both forfeited fees");
        for (uint256 i; i < 2; ++i) {
            vm.prank(c[i]);
            vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[i]));
            tasks.claimCouncilFee(id);
        }
        assertEq(tasks.getTask(id).escrow, 0);
        _escrowBalanced();
    }

    /// The same claim after an appeal the referees upheld is paid (the fee was only held while the appeal ran).
    function test_round0ClaimAfterUpheldAppeal_paid() public {
        (uint256 id, address[] memory c) = _accepted(16, 16, 5, true);
        _appealThenClaimRefused(id, c[0]);
        _playOut(id);
        _referees(id, 5);
        vm.prank(KEEPER);
        tasks.finalize(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Accepted));
        vm.prank(c[0]);
        assertEq(tasks.claimCouncilFee(id), FEE);
    }

    // ─── outcomes ───────────────────────────────────────────────────────────────────────────────────────────

    /// TSK-06: a cheating executor is caught by the client's appeal: the step is isolated and judged by the referees,
    /// the task Rejected, the executor slashed by severity to the client, the bond back less the referees' fees and
    /// finalize's bounty, the round-0 members who accepted forfeit their unclaimed fees to the client; nobody else is
    /// slashed.
    function test_appeal_cheatingExecutor_overturned_slashedToClient_TSK06() public {
        (uint256 id, address[] memory c) = _accepted(16, 5, 16, true);
        uint256 usdBefore = usdc.balanceOf(client);
        _appeal(id, client);
        uint256 txs = _playOut(id);
        assertEq(txs, 4, "log2 16 moves after the opening");
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
        assertEq(d.phase, 3);
        assertEq(d.hi, 5, "first fabricated checkpoint");
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Disputed), "reopened for the referees");
        address[] memory r = _referees(id, 0);
        uint256 dpsBefore = dps.balanceOf(client);
        vm.prank(KEEPER);
        tasks.finalize(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Rejected));
        // issue 18 item 4: the appealable acceptance recorded no completion; the overturn records only the failure
        assertEq(registry.providerInfo(providers[1]).completed, 0, "no completion for an overturned acceptance");
        assertEq(registry.providerInfo(providers[1]).failed, 1);
        uint256 severity = (uint256(SLASH) * 27 + 31) / 32;
        assertEq(_slashedDps(providers[1]), severity, "scaled by severity");
        assertEq(dps.balanceOf(client) - dpsBefore, severity, "slash paid to the client (no finder)");
        assertEq(usdBefore + 2 * FEE - 1e6 - 5 * FEE, usdc.balanceOf(client), "bond back less fees, plus forfeits");
        for (uint256 i; i < r.length; ++i) assertEq(_slashedDps(r[i]), 0);
        assertEq(_slashedDps(c[0]) + _slashedDps(c[1]), 0, "round 0 loses only its fee");
        assertEq(_locked(providers[1]), 0);
        for (uint256 i; i < 2; ++i) {
            vm.prank(c[i]);
            vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, c[i]));
            tasks.claimCouncilFee(id);
        }
        for (uint256 i; i < r.length; ++i) {
            vm.prank(r[i]);
            assertEq(tasks.claimCouncilFee(id), FEE);
        }
        assertEq(tasks.getTask(id).escrow, 0);
        _escrowBalanced();
    }

    /// TSK-06: a false appeal: the referees uphold the executor; the bond pays the referees and finalize's keeper, the
    /// rest goes to the executor; nobody is slashed and the round-0 fees stay claimable.
    function test_falseAppeal_upheld_bondToExecutorAndReferees_TSK06() public {
        (uint256 id, address[] memory c) = _accepted(16, 16, 5, true);
        _appeal(id, client);
        _playOut(id);
        address[] memory r = _referees(id, 5);
        // the appeal's referees sit on an open duty (Disputed): no seat of the task can be released meanwhile
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskSeatNotReleasable.selector, id, r[0]));
        tasks.releaseSeat(id, r[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskSeatNotReleasable.selector, id, c[0]));
        tasks.releaseSeat(id, c[0]);
        uint256 execBefore = usdc.balanceOf(providers[1]);
        vm.prank(KEEPER);
        tasks.finalize(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Accepted));
        assertEq(registry.providerInfo(providers[1]).completed, 1, "completion recorded when the appeal upheld it");
        assertEq(usdc.balanceOf(providers[1]) - execBefore, BOND - 1e6 - 5 * FEE);
        assertEq(_slashedDps(providers[1]), 0);
        assertEq(_locked(providers[1]), 0);
        // issue 18 item 4 (an appeal after finalize): the referees' seats, like round 0's, stay locked until each
        // member's claim or `releaseSeat`; none was releasable while the appeal ran (Disputed)
        for (uint256 i; i < r.length; ++i) {
            assertEq(_slashedDps(r[i]), 0);
            assertEq(_locked(r[i]), SLASH, "referee seat held past the verdict");
        }
        _claimAll(id);
        _releaseSeats(id);
        for (uint256 i; i < r.length; ++i) assertEq(_locked(r[i]), 0, "referee seats released");
        for (uint256 i; i < c.length; ++i) assertEq(_locked(c[i]), 0, "round-0 seats released");
        assertEq(usdc.balanceOf(c[0]), FEE);
        assertEq(tasks.getTask(id).escrow, 0);
        _escrowBalanced();
    }

    /// TSK-05: referees without a quorum: past the window and the grace the appeal ends, the acceptance stands, the
    /// bond goes back less the fees of the referees who revealed the executor's output; silent referees lose the slice.
    function test_undecidedAppeal_acceptanceStands_TSK05() public {
        (uint256 id, ) = _accepted(16, 5, 16, true);
        _appeal(id, client);
        _playOut(id);
        _draw(id);
        address[] memory r = tasks.councilOf(id, 1);
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
        _commitAs(id, r[0], d.executorStep);
        _commitAs(id, r[1], d.challengerStep);
        _toReveal(id);
        _revealAs(id, r[0], d.executorStep);
        _revealAs(id, r[1], d.challengerStep);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoQuorum.selector, id, 1, 1, 3));
        _finalize(id);
        vm.warp(uint256(tasks.getTask(id).votingEnds) + WINDOW + 1);
        uint256 before = usdc.balanceOf(client);
        _finalize(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Accepted));
        assertEq(usdc.balanceOf(client) - before, BOND - FEE, "bond back less r[0]'s fee");
        assertEq(_slashedDps(providers[1]) + _slashedDps(r[0]) + _slashedDps(r[1]), 0);
        for (uint256 i = 2; i < r.length; ++i) assertEq(_slashedDps(r[i]), SLASH / 4, "silent referee");
        _claimAll(id);
        assertEq(tasks.getTask(id).escrow, 0);
        _escrowBalanced();
    }

    /// An executor that committed no chain cannot answer an appeal: it loses when its first move lapses (the client
    /// calling the timeout is no finder: the whole slash is its own).
    function test_noChain_appealWonByTimeout() public {
        (uint256 id, ) = _accepted(16, 3, 16, false);
        _appeal(id, client);
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        uint256 before = dps.balanceOf(client);
        vm.prank(client);
        tasks.timeoutDispute(id);
        assertEq(dps.balanceOf(client) - before, SLASH);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Rejected));
    }

    /// An executor that stops answering an appeal must not sit on the client's claim because nobody is watching: the
    /// keeper lens shows nothing while the move is pending and `timeoutDispute` once it lapsed (marker: the moves made),
    /// and the keeper's call ends the appeal against the executor.
    function test_keeperLens_surfacesLapsedAppealMove() public {
        TaskKeeperLens lens = new TaskKeeperLens(address(tasks), address(registry));
        (uint256 id, ) = _accepted(16, 3, 16, false);
        (ITaskKeeperLens.DueTask[] memory due, , , ) = lens.dueTasks(id, 1);
        assertEq(due.length, 0, "an accepted task without an appeal is nobody's work");
        _appeal(id, client);
        (due, , , ) = lens.dueTasks(id, 1);
        assertEq(due.length, 0, "a pending appeal move is nobody's work");
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        (due, , , ) = lens.dueTasks(id, 1);
        assertEq(due.length, 1);
        assertEq(uint8(due[0].action), uint8(ITaskKeeperLens.Action.TimeoutDispute));
        assertEq(due[0].selector, ITaskRegistry.timeoutDispute.selector);
        assertEq(due[0].marker, tasks.bisectionOf(id).moves);
        vm.prank(makeAddr("keeper"));
        tasks.timeoutDispute(id);
        assertEq(uint8(_status(id)), uint8(ITaskRegistry.Status.Rejected));
        (due, , , ) = lens.dueTasks(id, 1);
        assertEq(due.length, 0);
    }
}
