// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";
import {TaskCommon} from "./TaskCommon.sol";
import {TaskChains} from "./TaskChains.sol";
import {TaskBisectionGame} from "./TaskBisectionGame.sol";
import {TaskAppeals} from "./TaskAppeals.sol";

/// @title TaskDisputes
/// @notice Checkpoint chains and disputes that narrow (issue 21 item 2, seed 003's pinpoint protocol): the executor
///         commits a Merkle root over its checkpoint hashes; a challenger bonds and commits its own chain; the parties
///         alternate moves, each revealing its leaf at the current midpoint of [lo, hi] against its own root (and its
///         leaf at the next midpoint), until the first disagreeing step is isolated in ⌈log2 n⌉ moves after the
///         opening; that step is judged by a freshly drawn referee council through the registry's own draw and
///         commit–reveal (TaskCouncil), settled by `finalize` (TaskSettlement). A party letting its move lapse loses.
///         Linked as an external library (the registry's entries); the registry holds the reentrancy guard. The
///         mechanisms live in internal libraries inlined here: `TaskChains` (proofs, leaf slots, phases),
///         `TaskBisectionGame` (the moves) and `TaskAppeals` (how a client's appeal ends).
library TaskDisputes {
    /// @dev Task flag bit 6: the bisection is the client's appeal of an accepted result (`TaskChains.APPEAL`).
    uint8 internal constant APPEAL = TaskChains.APPEAL;

    /// @notice The executor commits its chain root over `n` checkpoints, the last being its final result.
    function commitChain(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bytes32 root,
        uint32 n,
        bytes32[] calldata lastProof
    ) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        if (k.status != ITaskRegistry.Status.Verifying) TaskCommon.revertStatus(taskId, k.status);
        if (msg.sender != k.executor) revert ITaskRegistryErrors.TaskNotExecutor(msg.sender, k.executor);
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        if (root == bytes32(0) || n == 0 || n > TaskChains.MAX_CHAIN || n & (n - 1) != 0 || d.n != 0 || d.phase != 0) {
            revert ITaskRegistryErrors.TaskBadChain(taskId);
        }
        uint8 depth;
        while ((uint256(1) << depth) < n) ++depth;
        TaskChains.check(taskId, root, depth, n - 1, k.resultHash, lastProof);
        (d.root, d.n, d.depth) = (root, n, depth);
        emit ITaskRegistryEvents.ChainCommitted(taskId, root, n);
    }

    /// @notice Opens the task's bisection and pulls the challenger's bond.
    function open(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) external {
        ITaskRegistry.Bisection storage d = _challenge($, taskId, $.tasks[taskId], root);
        uint256 ends = TaskBisectionGame.firstMove($, taskId, d, root, finalLeaf, finalProof, midLeaf, midProof);
        emit ITaskRegistryEvents.BisectionOpened(taskId, msg.sender, root, d.n, d.bond, ends);
    }

    /// @dev Checks who may open the bisection and records the challenger, its root and bond (counted in escrow).
    function _challenge(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bytes32 root
    ) private returns (ITaskRegistry.Bisection storage d) {
        if (k.status != ITaskRegistry.Status.Verifying) TaskCommon.revertStatus(taskId, k.status);
        d = $.bisections[taskId];
        // @dev One bisection per task: a second challenger (concurrent or after a lapse) is refused.
        if (d.phase != 0) revert ITaskRegistryErrors.TaskBisectionPhase(taskId, d.phase);
        // @dev The client, or a round-0 member that revealed a result other than the executor's (bits 0, 2; not 4).
        if (msg.sender != k.client && $.members[taskId][msg.sender] & 21 != 5) {
            revert ITaskRegistryErrors.TaskCannotChallenge(taskId, msg.sender);
        }
        TaskBisectionGame.record($, k, d, root, bondOf(k));
    }

    /// @notice One move of the party to move: its leaf at the midpoint narrows [lo, hi]; its next leaf passes the turn.
    /// @dev Gas (issue 21 item 8, `bisect:step` ≤ 80,000): the move's state is one slot (phase, moves, deadline, lo,
    ///      hi, n, window, depth, roles); an agreeing move writes `agreed` and the pending leaf, a disagreeing one the
    ///      mover's step leaf and the pending leaf (the other's leaf at the midpoint stays where it was pending and
    ///      becomes its step: `roles` records which slot holds which).
    function bisect(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bytes32 leaf,
        bytes32[] calldata proof,
        bytes32 nextLeaf,
        bytes32[] calldata nextProof
    ) external {
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        uint32 mid;
        uint256 ends;
        {
            bool byExecutor = TaskBisectionGame.checkMover($, taskId, d);
            mid = TaskBisectionGame.narrow(taskId, d, byExecutor, leaf, proof);
            ends = TaskBisectionGame.advance($, taskId, d, byExecutor, nextLeaf, nextProof);
        }
        emit ITaskRegistryEvents.BisectionMoved(taskId, msg.sender, mid, leaf, d.lo, d.hi, d.moves, ends);
    }

    /// @notice Ends a lapsed move. A lapsed challenger forfeits its bond here (keeper bounty, rest to the executor);
    ///         returns true when the executor lapsed (the registry then settles the task through TaskSettlement).
    function timeout(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId
    ) external returns (bool executorLapsed) {
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        uint8 phase = d.phase;
        if (phase != TaskChains.EXECUTOR_MOVE && phase != TaskChains.CHALLENGER_MOVE)
            revert ITaskRegistryErrors.TaskBisectionPhase(taskId, phase);
        if (block.timestamp <= d.moveEnds) revert ITaskRegistryErrors.TaskMoveDeadline(taskId, d.moveEnds);
        ITaskRegistry.Task storage k = $.tasks[taskId];
        bool isAppeal = k.flags & TaskChains.APPEAL != 0;
        if (phase == TaskChains.EXECUTOR_MOVE) {
            if (!isAppeal) return true;
            TaskAppeals.endAppeal($, taskId, k, d, true, true, false, bytes32(0));
            return false;
        }
        uint256 bond = d.bond;
        // @dev The keeper's bounty comes out of the forfeited bond only (none when the challenger calls it itself).
        uint256 cut = msg.sender == d.challenger ? 0 : TaskCommon.bountyOf(k);
        if (cut > bond) cut = bond;
        (d.phase, d.bond, d.moveEnds) = (TaskChains.LAPSED, 0, 0);
        k.flags &= ~uint8(32);
        $.totalEscrow[uint8(k.currency)] -= bond;
        emit ITaskRegistryEvents.BisectionEnded(taskId, true, true, 0, bond - cut, 0, cut);
        if (isAppeal) {
            // @dev The client let its appeal lapse: the acceptance stands and the appeal window is over.
            (k.flags, k.commitEnds) = (k.flags & ~TaskChains.APPEAL, 0);
            TaskAppeals.standing($, k);
            emit ITaskRegistryEvents.AppealSettled(taskId, false, true, 0, 0, bond - cut, 0);
        }
        TaskCommon.pay($, k.currency, msg.sender, cut);
        TaskCommon.pay($, k.currency, k.executor, bond - cut);
    }

    // ─── the client's appeal of an accepted result (issue 21 item 2) ─────────────────────────────────────────

    /// @notice The client appeals its accepted task inside the appeal window: a bisection against the executor's
    ///         chain, the client the challenger (same moves, timeouts and referee judging as `open`).
    function appeal(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        if (msg.sender != k.client) revert ITaskRegistryErrors.TaskCannotChallenge(taskId, msg.sender);
        uint256 ends = TaskAppeals.appealEnds($, k);
        if (ends == 0 || block.timestamp > ends) revert ITaskRegistryErrors.TaskAppealClosed(taskId, ends);
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        // @dev One bisection per task: a second appeal, or an appeal after a member's bisection, is refused.
        if (d.phase != 0) revert ITaskRegistryErrors.TaskBisectionPhase(taskId, d.phase);
        uint256 bond = appealBond(k);
        k.flags |= TaskChains.APPEAL;
        TaskBisectionGame.record($, k, d, root, bond);
        emit ITaskRegistryEvents.AppealOpened(taskId, msg.sender, bond, ends);
        uint256 moveEnds = TaskBisectionGame.firstMove($, taskId, d, root, finalLeaf, finalProof, midLeaf, midProof);
        emit ITaskRegistryEvents.BisectionOpened(taskId, msg.sender, root, d.n, bond, moveEnds);
    }

    /// @notice Closes an ended appeal window nobody used: releases the executor's duty lock and records its completion.
    function closeAppeal(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        uint256 ends = TaskAppeals.appealEnds($, k);
        uint8 phase = $.bisections[taskId].phase;
        // @dev An appeal in progress releases the lock when it ends (`_endAppeal`, or a lapsed client in `timeout`).
        if (ends == 0 || block.timestamp <= ends || (phase != 0 && phase < TaskChains.LAPSED)) {
            revert ITaskRegistryErrors.TaskAppealClosed(taskId, ends);
        }
        k.commitEnds = 0;
        TaskAppeals.standing($, k);
        emit ITaskRegistryEvents.AppealWindowClosed(taskId, k.executor);
    }

    /// @notice Settles an appeal's judged step (the registry routes `finalize` of an appealed task here): a referee
    ///         quorum on the executor's step output upholds the acceptance, one on another output overturns it;
    ///         without one past the window and the grace, the acceptance stands and the bond goes back.
    function finalizeAppeal(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        if (d.phase != TaskChains.JUDGING) revert ITaskRegistryErrors.TaskBisectionPhase(taskId, d.phase);
        uint256 q = TaskCommon.quorum(k);
        uint256 agree = k.agree;
        (bytes32 rival, uint256 c) = TaskCommon.rival($, taskId, k);
        if (agree >= q) return TaskAppeals.endAppeal($, taskId, k, d, false, false, true, bytes32(0));
        if (c >= q) return TaskAppeals.endAppeal($, taskId, k, d, true, false, true, rival);
        if (block.timestamp > uint256(k.votingEnds) + $.params.disputeWindowSec) {
            return TaskAppeals.endAppeal($, taskId, k, d, false, false, false, bytes32(0));
        }
        revert ITaskRegistryErrors.TaskNoQuorum(taskId, agree, c, q);
    }

    // ─── views the registry reads ───────────────────────────────────────────────────────────────────────────

    /// @notice `d` with its three leaf slots decoded (pending, the executor's and the challenger's step).
    function decoded(ITaskRegistry.Bisection storage d) internal view returns (ITaskRegistry.Bisection memory b) {
        b = d;
        uint256 r = b.roles;
        if (r == 0) return b; // no chain bisected yet: the slots hold their names
        bytes32[3] memory slots = [b.pending, b.executorStep, b.challengerStep];
        uint256 p = r & 3;
        uint256 e = (r >> 2) & 3;
        (b.pending, b.executorStep, b.challengerStep) = (slots[p], slots[e], slots[3 - p - e]);
    }

    /// @dev The appeal bond: the bisection bond, at least the referee council's fees (2n + 1) and two keeper bounties
    ///      (its draw and its finalize), so a losing appeal never costs anyone but the client.
    function appealBond(ITaskRegistry.Task storage k) internal view returns (uint256) {
        uint256 cost = (2 * uint256(k.councilSize) + 1) * k.councilFee + 2 * TaskCommon.bountyOf(k);
        uint256 b = bondOf(k);
        return b > cost ? b : cost;
    }

    /// @dev The bond a challenger posts: `BISECT_BOND_BPS` of the task's deposit, task currency.
    function bondOf(ITaskRegistry.Task storage k) internal view returns (uint256) {
        return (uint256(k.maxPayment) * TaskCommon.BISECT_BOND_BPS) / TaskCommon.BPS;
    }
}
