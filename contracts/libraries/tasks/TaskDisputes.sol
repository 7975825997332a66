// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";
import {TaskCommon} from "./TaskCommon.sol";

/// @title TaskDisputes
/// @notice Checkpoint chains and disputes that narrow (issue 21 item 2, seed 003's pinpoint protocol): the executor
///         commits a Merkle root over its checkpoint hashes; a challenger bonds and commits its own chain; the parties
///         alternate moves, each revealing its leaf at the current midpoint of [lo, hi] against its own root (and its
///         leaf at the next midpoint), until the first disagreeing step is isolated in ⌈log2 n⌉ moves after the
///         opening; that step is judged by a freshly drawn referee council through the registry's own draw and
///         commit–reveal (TaskCouncil), settled by `finalize` (TaskSettlement). A party letting its move lapse loses.
///         Linked as an external library; the registry holds the reentrancy guard.
library TaskDisputes {
    using SafeERC20 for IERC20;

    uint8 internal constant EXECUTOR_MOVE = 1;
    uint8 internal constant CHALLENGER_MOVE = 2;
    uint8 internal constant JUDGING = 3;
    uint8 internal constant LAPSED = 4;
    /// @dev Largest chain: 2^16 checkpoints (proofs of 16 hashes).
    uint256 internal constant MAX_CHAIN = 1 << 16;

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
        if (root == bytes32(0) || n == 0 || n > MAX_CHAIN || n & (n - 1) != 0 || d.n != 0 || d.phase != 0) {
            revert ITaskRegistryErrors.TaskBadChain(taskId);
        }
        _check(taskId, root, n, n - 1, k.resultHash, lastProof);
        (d.root, d.n) = (root, n);
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
        uint256 ends = _firstMove($, taskId, d, root, finalLeaf, finalProof, midLeaf, midProof);
        emit ITaskRegistryEvents.BisectionOpened(taskId, msg.sender, root, d.n, d.bond, ends);
    }

    /// @dev Checks the challenger's final leaf (≠ the executor's result) and first midpoint leaf against its root and
    ///      hands the move to the executor (or, for a one-checkpoint chain, the step to the referees). Returns the
    ///      move's deadline (0 when judging starts at once).
    function _firstMove(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Bisection storage d,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) private returns (uint256 ends) {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        uint32 n = d.n;
        if (n == 0) {
            // @dev No chain: the executor's move is due and it cannot make it; it loses when the move lapses.
            ends = block.timestamp + d.window;
            (d.phase, d.moveEnds) = (EXECUTOR_MOVE, uint40(ends));
            return ends;
        }
        if (finalLeaf == k.resultHash) revert ITaskRegistryErrors.TaskCannotChallenge(taskId, msg.sender);
        _check(taskId, root, n, n - 1, finalLeaf, finalProof);
        d.hi = n - 1;
        d.executorStep = k.resultHash;
        d.challengerStep = finalLeaf;
        if (n == 1) {
            _narrowed($, taskId, k, d);
            return 0;
        }
        _check(taskId, root, n, (n - 1) / 2, midLeaf, midProof);
        ends = block.timestamp + d.window;
        d.pending = midLeaf;
        d.phase = EXECUTOR_MOVE;
        d.moveEnds = uint40(ends);
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
        uint256 bond = bondOf(k);
        (d.challenger, d.bond, d.challengerRoot, d.moves) = (msg.sender, uint128(bond), root, 1);
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

    /// @notice One move of the party to move: its leaf at the midpoint narrows [lo, hi]; its next leaf passes the turn.
    function bisect(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bytes32 leaf,
        bytes32[] calldata proof,
        bytes32 nextLeaf,
        bytes32[] calldata nextProof
    ) external {
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        uint32 mid = _narrow(taskId, d, _mover($, taskId, d), leaf, proof);
        uint256 ends;
        if (d.lo == d.hi) _narrowed($, taskId, $.tasks[taskId], d);
        else ends = _passTurn(taskId, d, nextLeaf, nextProof);
        emit ITaskRegistryEvents.BisectionMoved(taskId, msg.sender, mid, leaf, d.lo, d.hi, d.moves, ends);
    }

    /// @dev The mover's leaf at the next midpoint (against its own root) and the turn to the other party.
    function _passTurn(
        uint256 taskId,
        ITaskRegistry.Bisection storage d,
        bytes32 nextLeaf,
        bytes32[] calldata nextProof
    ) private returns (uint256 ends) {
        bool byExecutor = d.phase == EXECUTOR_MOVE;
        _check(taskId, byExecutor ? d.root : d.challengerRoot, d.n, (d.lo + d.hi) / 2, nextLeaf, nextProof);
        ends = block.timestamp + d.window;
        (d.pending, d.phase, d.moveEnds) = (nextLeaf, byExecutor ? CHALLENGER_MOVE : EXECUTOR_MOVE, uint40(ends));
    }

    /// @dev Checks the move is the caller's and in time; returns the mover's root.
    function _mover(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Bisection storage d
    ) private view returns (bytes32) {
        uint8 phase = d.phase;
        if (phase != EXECUTOR_MOVE && phase != CHALLENGER_MOVE) {
            revert ITaskRegistryErrors.TaskBisectionPhase(taskId, phase);
        }
        bool byExecutor = phase == EXECUTOR_MOVE;
        address mover = byExecutor ? $.tasks[taskId].executor : d.challenger;
        if (msg.sender != mover) revert ITaskRegistryErrors.TaskNotYourMove(taskId, msg.sender, mover);
        if (block.timestamp > d.moveEnds) revert ITaskRegistryErrors.TaskMoveDeadline(taskId, d.moveEnds);
        if (d.n == 0) revert ITaskRegistryErrors.TaskBadChain(taskId);
        return byExecutor ? d.root : d.challengerRoot;
    }

    /// @dev Checks the mover's leaf at the midpoint and narrows: equal to the other's leaf there → past it; different
    ///      → the new known disagreement.
    function _narrow(
        uint256 taskId,
        ITaskRegistry.Bisection storage d,
        bytes32 root,
        bytes32 leaf,
        bytes32[] calldata proof
    ) private returns (uint32 mid) {
        (uint32 lo, uint32 hi) = (d.lo, d.hi);
        mid = (lo + hi) / 2;
        _check(taskId, root, d.n, mid, leaf, proof);
        bytes32 other = d.pending;
        if (leaf == other) {
            (lo, d.agreed) = (mid + 1, leaf);
        } else {
            hi = mid;
            (d.executorStep, d.challengerStep) = d.phase == EXECUTOR_MOVE ? (leaf, other) : (other, leaf);
        }
        (d.lo, d.hi, d.moves) = (lo, hi, d.moves + 1);
    }

    /// @notice Ends a lapsed move. A lapsed challenger forfeits its bond here (keeper bounty, rest to the executor);
    ///         returns true when the executor lapsed (the registry then settles the task through TaskSettlement).
    function timeout(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId
    ) external returns (bool executorLapsed) {
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        uint8 phase = d.phase;
        if (phase != EXECUTOR_MOVE && phase != CHALLENGER_MOVE)
            revert ITaskRegistryErrors.TaskBisectionPhase(taskId, phase);
        if (block.timestamp <= d.moveEnds) revert ITaskRegistryErrors.TaskMoveDeadline(taskId, d.moveEnds);
        if (phase == EXECUTOR_MOVE) return true;
        ITaskRegistry.Task storage k = $.tasks[taskId];
        uint256 bond = d.bond;
        // @dev The keeper's bounty comes out of the forfeited bond only (none when the challenger calls it itself).
        uint256 cut = msg.sender == d.challenger ? 0 : TaskCommon.bountyOf(k);
        if (cut > bond) cut = bond;
        (d.phase, d.bond, d.moveEnds) = (LAPSED, 0, 0);
        k.flags &= ~uint8(32);
        $.totalEscrow[uint8(k.currency)] -= bond;
        emit ITaskRegistryEvents.BisectionEnded(taskId, true, true, 0, bond - cut, 0, cut);
        TaskCommon.pay($, k.currency, msg.sender, cut);
        TaskCommon.pay($, k.currency, k.executor, bond - cut);
    }

    /// @dev The step is isolated: the referees judge its output. The task's `resultHash` holds the executor's step
    ///      output while they do (the registry's commit–reveal counts reveals equal to it as the executor's side);
    ///      round 1 is the referee council, drawn from a fresh seed block excluding round 0, client and executor.
    function _narrowed(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d
    ) private {
        (d.phase, d.moveEnds, d.finalResult) = (JUDGING, 0, k.resultHash);
        k.resultHash = d.executorStep;
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
            d.executorStep,
            d.challengerStep,
            d.moves,
            target
        );
    }

    /// @dev Reverts TaskBadProof unless `proof` shows `leaf` at `index` of an `n`-leaf tree under `root`.
    function _check(
        uint256 taskId,
        bytes32 root,
        uint256 n,
        uint256 index,
        bytes32 leaf,
        bytes32[] calldata proof
    ) private pure {
        if (root == bytes32(0) || !verify(root, n, index, leaf, proof)) {
            revert ITaskRegistryErrors.TaskBadProof(taskId, index);
        }
    }

    /// @notice Whether `proof` (siblings bottom up, exactly log2 n of them) shows `leaf` at `index` under `root`.
    ///         Nodes are keccak256(left ‖ right); the fixed depth keeps an inner node from passing as a leaf.
    function verify(
        bytes32 root,
        uint256 n,
        uint256 index,
        bytes32 leaf,
        bytes32[] calldata proof
    ) internal pure returns (bool) {
        uint256 depth;
        while ((uint256(1) << depth) < n) ++depth;
        if (proof.length != depth || index >= n) return false;
        bytes32 h = leaf;
        for (uint256 i; i < depth; ++i) {
            bytes32 s = proof[i];
            bool right = (index >> i) & 1 == 1;
            assembly ("memory-safe") {
                switch right
                case 0 {
                    mstore(0, h)
                    mstore(32, s)
                }
                default {
                    mstore(0, s)
                    mstore(32, h)
                }
                h := keccak256(0, 64)
            }
        }
        return h == root;
    }

    /// @dev The bond a challenger posts: `BISECT_BOND_BPS` of the task's deposit, task currency.
    function bondOf(ITaskRegistry.Task storage k) internal view returns (uint256) {
        return (uint256(k.maxPayment) * TaskCommon.BISECT_BOND_BPS) / TaskCommon.BPS;
    }
}
