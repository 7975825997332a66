// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskBisectionBase} from "./TaskBisectionBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {ITaskRegistryViews} from "../../../contracts/interfaces/tasks/ITaskRegistryViews.sol";
import {ITaskKeeperLens} from "../../../contracts/interfaces/keepers/ITaskKeeperLens.sol";
import {TaskKeeperLens} from "../../../contracts/periphery/TaskKeeperLens.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {MockERC20} from "../../../contracts/mocks/MockERC20.sol";

interface IReentrantUsd {
    function mint(address to, uint256 amount) external;
    function approve(address spender, uint256 amount) external returns (bool);
    function arm(address target, bytes calldata data) external;
}

/// @notice Issue 21 item 2: checkpoint chains and disputes that narrow (bisection to the first disagreeing step,
///         judged by a freshly drawn referee council), and the dispute-timeout keeper pay of item 6. Attacks first.
contract TaskBisectionTest is TaskBisectionBase {
    // ─── attacks ────────────────────────────────────────────────────────────────────────────────────────────

    /// TSK-05: a challenger that never answers loses its bond when its move lapses; the keeper's bounty comes out of
    /// that bond (0.1 % of the deposit), the rest goes to the executor, and verification goes on.
    function test_challengerNeverMoves_losesBond_keeperPaidFromBond_TSK05() public {
        (uint256 id, address[] memory c) = _setUp(16, 16, 5, true); // honest executor, false challenge
        _open(id, c[0]);
        _move(id); // the executor answers; now the challenger's move
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
        assertEq(d.phase, 2);
        vm.prank(KEEPER);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskMoveDeadline.selector, id, d.moveEnds));
        tasks.timeoutDispute(id);
        vm.warp(d.moveEnds + 1);
        (bool due, bytes memory payload) = _keeper().checker();
        assertTrue(due);
        assertEq(payload, abi.encodeWithSelector(ITaskRegistry.timeoutDispute.selector, id));
        uint256 execBefore = usdc.balanceOf(providers[1]);
        uint256 clientBefore = usdc.balanceOf(client);
        vm.prank(KEEPER);
        tasks.timeoutDispute(id);
        assertEq(usdc.balanceOf(KEEPER), 1e6, "bounty out of the bond");
        assertEq(usdc.balanceOf(providers[1]) - execBefore, BOND - 1e6);
        assertEq(usdc.balanceOf(client), clientBefore, "nobody else's funds");
        assertEq(tasks.bisectionOf(id).phase, 4);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Verifying));
        _escrowBalanced();
        // a second challenge is refused; the council's verification goes on
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBisectionPhase.selector, id, 4));
        tasks.openBisection(id, bytes32(uint256(1)), bytes32(0), new bytes32[](0), bytes32(0), new bytes32[](0));
        vm.warp(tasks.getTask(id).votingEnds + 1);
        tasks.openDispute(id); // 1–1 split: the ordinary dispute round
    }

    /// TSK-05: a defender that never reveals loses: rejected, slashed the full fault amount (the keeper is the slash's
    /// finder), the bond returned, the client refunded.
    function test_defenderNeverReveals_executorSlashed_clientRefunded_TSK05() public {
        (uint256 id, address[] memory c) = _setUp(16, 3, 16, true);
        _open(id, c[0]);
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        uint256 chalBefore = usdc.balanceOf(c[0]);
        vm.prank(KEEPER);
        tasks.timeoutDispute(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(_slashedDps(providers[1]), SLASH, "full fault amount");
        assertEq(usdc.balanceOf(c[0]) - chalBefore, BOND, "bond back (its council fee stays reserved for its claim)");
        assertEq(tasks.bisectionOf(id).phase, 5);
        assertEq(_slashedDps(c[0]) + _slashedDps(c[1]), 0);
        _escrowBalanced();
    }

    /// An executor that committed no chain cannot answer: it loses when its first move lapses.
    function test_noChain_executorLosesByTimeout() public {
        (uint256 id, address[] memory c) = _setUp(16, 3, 16, false);
        _open(id, c[0]);
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadChain.selector, id));
        tasks.bisect(id, bytes32(0), new bytes32[](0), bytes32(0), new bytes32[](0));
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        tasks.timeoutDispute(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(_slashedDps(providers[1]), SLASH);
    }

    /// A third account cannot move for either party, and a party cannot move out of turn.
    function test_thirdAccount_cannotMoveForAParty() public {
        (uint256 id, address[] memory c) = _setUp(16, 3, 16, true);
        _open(id, c[0]);
        bytes32[] memory p = _proof(execLeaves, 7);
        vm.prank(KEEPER);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotYourMove.selector, id, KEEPER, providers[1]));
        tasks.bisect(id, execLeaves[7], p, bytes32(0), p);
        vm.prank(c[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotYourMove.selector, id, c[0], providers[1]));
        tasks.bisect(id, execLeaves[7], p, bytes32(0), p);
    }

    /// A proof for a different root (the other party's chain, or a forged leaf) is refused.
    function test_proofForDifferentRoot_reverts() public {
        (uint256 id, address[] memory c) = _setUp(16, 3, 16, true);
        _open(id, c[0]);
        // the executor tries to answer with the honest chain's leaf and proof (not under its committed root)
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadProof.selector, id, 7));
        tasks.bisect(id, chalLeaves[7], _proof(chalLeaves, 7), bytes32(0), new bytes32[](0));
        // a proof of the wrong length
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadProof.selector, id, 7));
        tasks.bisect(id, execLeaves[7], new bytes32[](3), bytes32(0), new bytes32[](0));
        // a chain whose last leaf is not the committed result is refused at commit
        (uint256 id2, ) = _setUpSecond();
        bytes32[] memory other = _chain(8, 8, "");
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadProof.selector, id2, 7));
        tasks.commitChain(id2, _root(other), 8, _proof(other, 7));
    }

    function _setUpSecond() internal returns (uint256 id, address[] memory c) {
        id = _submit(USDC, 1_000e6, 2, 2);
        _bid(id, providers[1], 400e6);
        _closeAndDraw(id);
        _commitAll(id, providers[1], keccak256("x"));
        c = tasks.councilOf(id, 0);
    }

    /// A finalised task cannot be bisected; nor can a task be finalised while a bisection moves.
    function test_bisectionOnFinalisedTask_reverts() public {
        (uint256 id, address[] memory c) = _setUp(16, 16, 5, true);
        _open(id, c[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBisectionPhase.selector, id, 1));
        _finalize(id);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBisectionPhase.selector, id, 1));
        tasks.openDispute(id);
        // a finished task
        (uint256 id2, address[] memory c2) = _setUpSecond();
        _voteAll(id2, 0, true, 2);
        _finalize(id2);
        vm.prank(c2[0]);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistry.TaskAlreadyDone.selector, id2, ITaskRegistry.Status.Accepted)
        );
        tasks.openBisection(id2, bytes32(uint256(1)), bytes32(0), new bytes32[](0), bytes32(0), new bytes32[](0));
    }

    /// Two concurrent challenges on one task: the second is refused; a member that revealed the executor's result
    /// (or none) and outsiders cannot challenge at all.
    function test_twoConcurrentChallenges_secondRefused() public {
        (uint256 id, address[] memory c) = _setUp(16, 3, 16, true);
        vm.prank(c[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskCannotChallenge.selector, id, c[1]));
        tasks.openBisection(id, bytes32(uint256(1)), bytes32(0), new bytes32[](0), bytes32(0), new bytes32[](0));
        vm.prank(KEEPER);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskCannotChallenge.selector, id, KEEPER));
        tasks.openBisection(id, bytes32(uint256(1)), bytes32(0), new bytes32[](0), bytes32(0), new bytes32[](0));
        _open(id, c[0]);
        vm.prank(client);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBisectionPhase.selector, id, 1));
        tasks.openBisection(id, bytes32(uint256(1)), bytes32(0), new bytes32[](0), bytes32(0), new bytes32[](0));
    }

    /// The challenger unbonds its stake between moves: the bond is held by the registry and still answers for a
    /// false challenge; the executor's duty lock (TSK-08) keeps its slash covered.
    function test_challengerUnbondsBetweenMoves_bondStillAnswers() public {
        (uint256 id, address[] memory c) = _setUp(16, 16, 5, true);
        _open(id, c[0]);
        assertEq(usdc.balanceOf(address(tasks)) >= BOND, true);
        vm.prank(c[0]);
        registry.requestUnbond(1_000e18);
        _playOut(id);
        _referees(id, 5); // the executor's step output is right
        uint256 execBefore = usdc.balanceOf(providers[1]);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(usdc.balanceOf(providers[1]) - execBefore, 400e6 + BOND / 2, "price + half the bond");
        _escrowBalanced();
    }

    // ─── the narrowed dispute ───────────────────────────────────────────────────────────────────────────────

    /// TSK-06: a cheating executor (wrong from step 700 of 1,024) is caught in 11 on-chain moves (the opening and 10
    /// narrowing moves); the referees judge the single step; only the executor is slashed (scaled by severity), the
    /// challenger's bond comes back, the client is refunded, honest members lose nothing.
    function test_cheatingExecutor_caughtIn11Moves_TSK06() public {
        (uint256 id, address[] memory c) = _setUp(1024, 700, 1024, true);
        _open(id, c[0]);
        uint256 txs = 1 + _playOut(id);
        assertEq(txs, 11, "moves for 1,024 checkpoints");
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
        assertEq(d.phase, 3);
        assertEq(d.moves, 11);
        assertEq(d.lo, 700);
        assertEq(d.hi, 700);
        assertEq(d.agreed, execLeaves[699]);
        assertEq(d.executorStep, execLeaves[700]);
        assertEq(d.challengerStep, chalLeaves[700]);
        address[] memory r = _referees(id, 1); // 4 of 5 reveal the challenger's output
        uint256 clientBefore = usdc.balanceOf(client);
        uint256 chalBefore = usdc.balanceOf(c[0]);
        _finalize(id);
        ITaskRegistry.Task memory t = tasks.getTask(id);
        assertEq(uint8(t.status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(t.resultHash, execLeaves[1023], "the final result restored");
        assertEq(t.verdictHash, bytes32(0));
        // severity: faultDps × (2n − step) / 2n = 100 × (2048 − 700) / 2048, rounded up
        uint256 expected = (uint256(SLASH) * (2048 - 700) + 2047) / 2048;
        assertEq(_slashedDps(providers[1]), expected);
        assertEq(usdc.balanceOf(c[0]) - chalBefore, BOND, "bond returned");
        assertGt(usdc.balanceOf(client), clientBefore);
        assertEq(_slashedDps(c[0]) + _slashedDps(c[1]), 0, "round 0 not judged on reveals");
        assertEq(_slashedDps(r[0]), SLASH, "the referee against the quorum");
        for (uint256 i = 1; i < 5; ++i) assertEq(_slashedDps(r[i]), 0);
        vm.prank(r[1]);
        assertEq(tasks.claimCouncilFee(id), 4e6);
        vm.prank(r[0]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNothingToClaim.selector, id, r[0]));
        tasks.claimCouncilFee(id);
        vm.prank(c[0]);
        assertEq(tasks.claimCouncilFee(id), 4e6, "the member that revealed against the executor");
        _escrowBalanced();
    }

    /// TSK-06: a false challenge (the executor honest) costs the challenger its bond — half to the executor, half
    /// shared by the referees siding with the verdict (claimed with their fee) — and nothing else.
    function test_falseChallenge_bondToExecutorAndReferees_TSK06() public {
        (uint256 id, address[] memory c) = _setUp(64, 64, 10, true); // the challenger's chain is wrong from step 10
        _open(id, c[0]);
        _playOut(id);
        assertEq(tasks.bisectionOf(id).hi, 10);
        address[] memory r = _referees(id, 5);
        uint256 execBefore = usdc.balanceOf(providers[1]);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(tasks.getTask(id).verdictHash, execLeaves[63]);
        assertEq(usdc.balanceOf(providers[1]) - execBefore, 400e6 + BOND / 2);
        assertEq(tasks.bisectionOf(id).refereeShare, BOND / 2 / 5);
        vm.prank(r[0]);
        assertEq(tasks.claimCouncilFee(id), 4e6 + 10e6);
        assertEq(_slashedDps(providers[1]) + _slashedDps(c[0]) + _slashedDps(c[1]), 0);
        _claimAll(id);
        assertEq(tasks.getTask(id).escrow, 0, "every fee and share claimed");
        _escrowBalanced();
    }

    /// TSK-05: referees that reach no quorum leave the step undecided; after the window and the grace anyone's
    /// finalize ends the task Unresolved, the bond goes back and nobody is slashed for a fault.
    function test_undecidedStep_unresolved_bondReturned_TSK05() public {
        (uint256 id, address[] memory c) = _setUp(8, 2, 8, true);
        _open(id, c[0]);
        _playOut(id);
        _draw(id);
        vm.expectRevert();
        _finalize(id);
        vm.warp(uint256(tasks.getTask(id).votingEnds) + 2 days + 1);
        uint256 chalBefore = usdc.balanceOf(c[0]);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Unresolved));
        assertEq(usdc.balanceOf(c[0]) - chalBefore, BOND);
        assertEq(_slashedDps(providers[1]), 0);
        _escrowBalanced();
    }

    /// A one-checkpoint chain goes to the referees at once (the opening is the only move); the client may challenge.
    function test_clientAppeal_singleCheckpoint_judgedAtOnce() public {
        (uint256 id, ) = _setUp(1, 0, 1, true);
        _open(id, client);
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
        assertEq(d.phase, 3);
        assertEq(d.moves, 1);
        _referees(id, 0);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(_slashedDps(providers[1]), SLASH, "wrong at step 0: all of it");
    }

    /// Malformed chains are refused: not a power of two, zero root, a second commit, by someone else.
    function test_commitChain_guards() public {
        (uint256 id, ) = _setUpSecond();
        vm.startPrank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadChain.selector, id));
        tasks.commitChain(id, bytes32(uint256(1)), 3, new bytes32[](0));
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadChain.selector, id));
        tasks.commitChain(id, bytes32(0), 1, new bytes32[](0));
        tasks.commitChain(id, keccak256("x"), 1, new bytes32[](0));
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskBadChain.selector, id));
        tasks.commitChain(id, keccak256("x"), 1, new bytes32[](0));
        vm.stopPrank();
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskNotExecutor.selector, address(this), providers[1])
        );
        tasks.commitChain(id, keccak256("x"), 1, new bytes32[](0));
        assertEq(tasks.bisectionBond(id), BOND);
    }

    /// Keepers see the bisection's due work: nothing while a move is pending, `timeoutDispute` once it lapsed (marker:
    /// the moves made), the referee draw, then `finalize` once the referees' quorum is in (lens and `checker()`).
    function test_keeperLens_surfacesLapsedMoveAndJudgedStep() public {
        TaskKeeperLens lens = new TaskKeeperLens(address(tasks), address(registry));
        (uint256 id, address[] memory c) = _setUp(16, 3, 16, true);
        _open(id, c[0]);
        (ITaskKeeperLens.DueTask[] memory due, , , ) = lens.dueTasks(id, 1);
        assertEq(due.length, 0, "a pending move is nobody's work");
        (bool can, ) = _keeper().checker();
        assertFalse(can);
        _move(id);
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        (due, , , ) = lens.dueTasks(id, 1);
        assertEq(uint8(due[0].action), uint8(ITaskKeeperLens.Action.TimeoutDispute));
        assertEq(due[0].selector, ITaskRegistry.timeoutDispute.selector);
        assertEq(due[0].marker, 2);
        // a second task whose bisection reaches the referees
        (uint256 id2, address[] memory c2) = _setUp(4, 1, 4, true);
        _open(id2, c2[0]);
        _playOut(id2);
        vm.roll(tasks.getTask(id2).targetBlock + 1);
        (due, , , ) = lens.dueTasks(id2, 1);
        assertEq(uint8(due[0].action), uint8(ITaskKeeperLens.Action.DrawCouncil));
        _referees(id2, 0);
        (due, , , ) = lens.dueTasks(id2, 1);
        assertEq(uint8(due[0].action), uint8(ITaskKeeperLens.Action.Finalize));
        (can, ) = _keeper().checker();
        assertTrue(can);
        _finalize(id2);
        assertEq(uint8(tasks.getTask(id2).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(_slashedDps(providers[1]), (uint256(SLASH) * (8 - 1) + 7) / 8, "step 1 of 4: 7/8 of the fault amount");
    }

    /// SEC-04 through the currency: a USDC that re-enters the registry while the bisection pays (the lapsed
    /// challenger's bond to the keeper) or pulls the bond cannot run a second settlement step inside it — the
    /// reentrancy guard reverts the outer call and nothing moves.
    function test_reentrancyViaCurrency_revertsBondPaths_SEC04() public {
        IReentrantUsd rusd = IReentrantUsd(deployCode("ReentrantERC20.sol:ReentrantERC20"));
        usdc = MockERC20(address(rusd)); // the helpers read `usdc` and `tasks`
        tasks = ITaskRegistry(
            _proxy(
                "TaskRegistry.sol:TaskRegistry",
                abi.encodeWithSignature(
                    "initialize(address,address,address,address[3],address,(uint16,uint16,uint16,uint8,uint8,uint32,uint32,uint32,uint128))",
                    manager,
                    registry,
                    matcher,
                    [address(ch), address(rusd), address(dps)],
                    pool,
                    _params()
                )
            )
        );
        _grant(Roles.COMPUTE, address(tasks));
        _grant(Roles.PROVIDER_SLASHER, address(tasks));
        _grant(Roles.STAKE_LOCKER, address(tasks));
        rusd.mint(client, 1_000_000e6);
        vm.prank(client);
        rusd.approve(address(tasks), type(uint256).max);
        bytes4 reentrant = bytes4(keccak256("ReentrancyGuardReentrantCall()"));

        (uint256 id, address[] memory c) = _setUp(16, 16, 5, true);
        // the bond pull re-enters timeoutDispute
        rusd.arm(address(tasks), abi.encodeCall(ITaskRegistry.timeoutDispute, (id)));
        vm.expectRevert(reentrant);
        _open(id, c[0]);
        _openDisarmed(rusd, id, c[0]);
        _move(id);
        vm.warp(tasks.bisectionOf(id).moveEnds + 1);
        // the keeper's bounty transfer re-enters finalize
        rusd.arm(address(tasks), abi.encodeCall(ITaskRegistry.finalize, (id)));
        vm.prank(KEEPER);
        vm.expectRevert(reentrant);
        tasks.timeoutDispute(id);
        assertEq(tasks.bisectionOf(id).phase, 2, "nothing moved");
        assertEq(tasks.bisectionOf(id).bond, BOND);
    }

    /// @dev Opens with the token's hook pointed at a harmless view (`taskCount`), so the re-entry is a no-op.
    function _openDisarmed(IReentrantUsd rusd, uint256 id, address challenger) internal {
        rusd.arm(address(tasks), abi.encodeCall(ITaskRegistryViews.taskCount, ()));
        _open(id, challenger);
    }

    /// TSK-06 over chains of 2..64 checkpoints and every pair of first wrong steps: the bisection isolates exactly the
    /// first disagreement in log2 n + 1 moves, honest referees side with the party right at that step, and only the
    /// party wrong there pays (the executor by severity, a wrong challenger with its bond); nobody else is slashed.
    /// forge-config: default.fuzz.runs = 48
    function testFuzz_bisection_isolatesFirstDisagreement_TSK06(uint8 logN, uint16 execBad, uint16 chalBad) public {
        uint256 k = bound(logN, 1, 6);
        uint256 n = 1 << k;
        uint256 e = bound(execBad, 0, n - 1); // the executor's final result is wrong
        uint256 ch = bound(chalBad, 0, n); // n: an honest challenger
        vm.assume(ch != e);
        (uint256 id, address[] memory c) = _setUp(n, e, ch, true);
        _open(id, c[0]);
        assertEq(1 + _playOut(id), k + 1, "log2 n + 1 moves");
        uint256 step = e < ch ? e : ch;
        ITaskRegistry.Bisection memory d = tasks.bisectionOf(id);
        assertEq(d.hi, step, "the first disagreement");
        assertEq(d.lo, step);
        assertEq(e < ch ? d.challengerStep : d.executorStep, keccak256(abi.encode("good", step)));
        _judgeHonestly(id, c, e < ch, n, step);
    }

    function _judgeHonestly(uint256 id, address[] memory c, bool execWrong, uint256 n, uint256 step) internal {
        address[] memory r = _referees(id, execWrong ? 0 : 5);
        uint256 chalBefore = usdc.balanceOf(c[0]);
        _finalize(id);
        if (execWrong) {
            assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
            assertEq(_slashedDps(providers[1]), (uint256(SLASH) * (2 * n - step) + 2 * n - 1) / (2 * n));
            assertEq(usdc.balanceOf(c[0]) - chalBefore, BOND, "the bond back");
        } else {
            assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
            assertEq(_slashedDps(providers[1]), 0, "the honest executor loses nothing");
            assertEq(usdc.balanceOf(c[0]), chalBefore, "the wrong challenger's bond is gone");
        }
        assertEq(_slashedDps(c[0]) + _slashedDps(c[1]), 0);
        for (uint256 i; i < r.length; ++i) assertEq(_slashedDps(r[i]), 0, "honest referees");
        _escrowBalanced();
    }
}
