// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";
import {TaskCommon} from "./TaskCommon.sol";
import {TaskChains} from "./TaskChains.sol";

/// @title TaskBisectionGame
/// @notice The moves of a dispute that narrows (issue 21 item 2, seed 003's pinpoint protocol): recording the
///         challenger and its bond, the opening move, each move's midpoint check and narrowing of [lo, hi], passing
///         the turn, and handing the isolated step to a referee round. Internal: inlined into the linked
///         `TaskDisputes`, whose entries check who may call them.
library TaskBisectionGame {
    using SafeERC20 for IERC20;

    /// @dev Records the challenger, its root and bond (counted in escrow), flags the task and pulls the bond.
    function record(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d,
        bytes32 root,
        uint256 bond
    ) internal {
        (d.challenger, d.bond, d.challengerRoot, d.moves) = (msg.sender, SafeCast.toUint96(bond), root, 1);
        // @dev The move window is fixed at the opening (a later parameter change does not move running deadlines) and
        //      the agreed input starts as the prescription (non-zero: the first agreement rewrites a warm slot).
        (d.window, d.agreed) = (uint32($.params.disputeWindowSec / 2), k.prescriptionHash);
        $.totalEscrow[uint8(k.currency)] += bond;
        // @dev Flag bit 5: a bisection decides the task (finalize reads it from a slot it loads anyway).
        k.flags |= 32;
        // @dev The bond is pulled before the proofs are checked (a failing proof reverts it all); the registry's
        //      entry holds the reentrancy guard.
        IERC20($.tokens[uint8(k.currency)]).safeTransferFrom(msg.sender, address(this), bond);
    }

    /// @dev Checks the challenger's final leaf (≠ the executor's result) and first midpoint leaf against its root and
    ///      hands the move to the executor (or, for a one-checkpoint chain, the step to the referees). Returns the
    ///      move's deadline (0 when judging starts at once).
    function firstMove(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Bisection storage d,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) internal returns (uint256 ends) {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        uint32 n = d.n;
        if (n == 0) {
            // @dev No chain: the executor's move is due and it cannot make it; it loses when the move lapses.
            ends = block.timestamp + d.window;
            (d.phase, d.moveEnds) = (TaskChains.EXECUTOR_MOVE, uint40(ends));
            return ends;
        }
        if (finalLeaf == k.resultHash) revert ITaskRegistryErrors.TaskCannotChallenge(taskId, msg.sender);
        uint256 depth = d.depth;
        TaskChains.check(taskId, root, depth, n - 1, finalLeaf, finalProof);
        // @dev Leaf slots: pending in `pending` (0), the executor's step in `executorStep` (1), the challenger's in
        //      `challengerStep` (2); moves permute them (`roles`).
        (d.hi, d.roles) = (n - 1, 4);
        d.executorStep = k.resultHash;
        d.challengerStep = finalLeaf;
        if (n == 1) {
            narrowed($, taskId, k, d);
            return 0;
        }
        TaskChains.check(taskId, root, depth, (n - 1) / 2, midLeaf, midProof);
        ends = block.timestamp + d.window;
        d.pending = midLeaf;
        d.phase = TaskChains.EXECUTOR_MOVE;
        d.moveEnds = uint40(ends);
    }

    /// @dev The step is isolated: the referees judge its output. The task's `resultHash` holds the executor's step
    ///      output while they do (the registry's commit–reveal counts reveals equal to it as the executor's side);
    ///      round 1 is the referee council, drawn from a fresh seed block excluding round 0, client and executor.
    function narrowed(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d
    ) internal {
        (d.phase, d.moveEnds, d.finalResult) = (TaskChains.JUDGING, 0, k.resultHash);
        uint256 r = d.roles;
        bytes32 executorStep = TaskChains.leafAt(d, (r >> 2) & 3);
        bytes32 challengerStep = TaskChains.leafAt(d, 3 - (r & 3) - ((r >> 2) & 3));
        k.resultHash = executorStep;
        if (k.flags & TaskChains.APPEAL != 0) {
            // @dev An appeal's step is judged like a dispute's: the task reopens as Disputed for the referees and the
            //      bond joins its escrow (it pays the referee draw's and finalize's keepers and the referees' fees).
            k.status = ITaskRegistry.Status.Disputed;
            k.escrow += d.bond;
            d.bond = 0;
        }
        if (block.timestamp > k.votingEnds) k.flags |= 1;
        (k.round, k.agree, k.disagree) = (1, 0, 0);
        uint64 target = TaskCommon.commitSeed($, k);
        uint256 w = $.params.disputeWindowSec;
        k.commitEnds = uint40(block.timestamp + w / 2);
        k.votingEnds = uint40(block.timestamp + w);
        emit ITaskRegistryEvents.BisectionNarrowed(
            taskId,
            d.hi,
            d.agreed,
            executorStep,
            challengerStep,
            d.moves,
            target
        );
    }

    /// @dev Checks the move is the caller's and in time; returns whether the executor moves.
    function checkMover(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Bisection storage d
    ) internal view returns (bool byExecutor) {
        uint8 phase = d.phase;
        if (phase != TaskChains.EXECUTOR_MOVE && phase != TaskChains.CHALLENGER_MOVE) {
            revert ITaskRegistryErrors.TaskBisectionPhase(taskId, phase);
        }
        byExecutor = phase == TaskChains.EXECUTOR_MOVE;
        address mover = byExecutor ? $.tasks[taskId].executor : d.challenger;
        if (msg.sender != mover) revert ITaskRegistryErrors.TaskNotYourMove(taskId, msg.sender, mover);
        if (block.timestamp > d.moveEnds) revert ITaskRegistryErrors.TaskMoveDeadline(taskId, d.moveEnds);
        if (d.n == 0) revert ITaskRegistryErrors.TaskBadChain(taskId);
    }

    /// @dev Checks the mover's leaf at the midpoint against its own root and narrows: equal to the other's pending
    ///      leaf → past it (`agreed`); different → the new known disagreement: the pending slot becomes the other's
    ///      step, the mover's leaf goes into its own step slot and the other step slot is the next pending one.
    function narrow(
        uint256 taskId,
        ITaskRegistry.Bisection storage d,
        bool byExecutor,
        bytes32 leaf,
        bytes32[] calldata proof
    ) internal returns (uint32 mid) {
        uint32 lo = d.lo;
        mid = uint32((uint256(lo) + d.hi) / 2);
        TaskChains.check(taskId, byExecutor ? d.root : d.challengerRoot, d.depth, mid, leaf, proof);
        uint8 roles = d.roles;
        if (leaf == TaskChains.leafAt(d, roles & 3)) {
            (d.lo, d.agreed) = (mid + 1, leaf);
        } else {
            d.hi = mid;
            d.roles = disagree(d, roles, byExecutor, leaf);
        }
    }

    /// @dev A disagreement at the midpoint: the pending slot (the other's leaf there) becomes the other's step, the
    ///      mover's leaf goes into the mover's step slot, the other's old step slot is the next pending one.
    function disagree(
        ITaskRegistry.Bisection storage d,
        uint8 roles,
        bool byExecutor,
        bytes32 leaf
    ) internal returns (uint8) {
        uint256 p = roles & 3;
        uint256 e = (roles >> 2) & 3;
        uint256 c = 3 - p - e;
        TaskChains.setLeafAt(d, byExecutor ? e : c, leaf);
        return byExecutor ? uint8(c | (e << 2)) : uint8(e | (p << 2));
    }

    /// @dev Counts the move; unless it isolated the step (then the referees' round starts), checks the mover's leaf
    ///      at the next midpoint, stores it as pending and passes the turn.
    function advance(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Bisection storage d,
        bool byExecutor,
        bytes32 nextLeaf,
        bytes32[] calldata nextProof
    ) internal returns (uint256 ends) {
        d.moves += 1;
        (uint32 lo, uint32 hi) = (d.lo, d.hi);
        if (lo == hi) {
            narrowed($, taskId, $.tasks[taskId], d);
            return 0;
        }
        uint256 next = (uint256(lo) + hi) / 2;
        TaskChains.check(taskId, byExecutor ? d.root : d.challengerRoot, d.depth, next, nextLeaf, nextProof);
        ends = block.timestamp + d.window;
        TaskChains.setLeafAt(d, d.roles & 3, nextLeaf);
        (d.phase, d.moveEnds) = (byExecutor ? TaskChains.CHALLENGER_MOVE : TaskChains.EXECUTOR_MOVE, uint40(ends));
    }
}
