// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
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
    uint8 internal constant SETTLED = 5;
    /// @dev Largest chain: 2^16 checkpoints (proofs of 16 hashes).
    uint256 internal constant MAX_CHAIN = 1 << 16;
    /// @dev Task flag bit 6: the bisection is the client's appeal of an accepted result (its own endings below).
    uint8 internal constant APPEAL = 64;
    /// @dev The verdict hash of a task whose acceptance an appeal overturned: no round-0 reveal equals it, so no
    ///      round-0 member claims a fee after it (the ones who accepted forfeit theirs to the client).
    bytes32 internal constant OVERTURNED = keccak256("chx.task.appeal.overturned");

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
        uint8 depth;
        while ((uint256(1) << depth) < n) ++depth;
        _check(taskId, root, depth, n - 1, k.resultHash, lastProof);
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
        uint256 depth = d.depth;
        _check(taskId, root, depth, n - 1, finalLeaf, finalProof);
        // @dev Leaf slots: pending in `pending` (0), the executor's step in `executorStep` (1), the challenger's in
        //      `challengerStep` (2); moves permute them (`roles`).
        (d.hi, d.roles) = (n - 1, 4);
        d.executorStep = k.resultHash;
        d.challengerStep = finalLeaf;
        if (n == 1) {
            _narrowed($, taskId, k, d);
            return 0;
        }
        _check(taskId, root, depth, (n - 1) / 2, midLeaf, midProof);
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
        _record($, k, d, root, bondOf(k));
    }

    /// @dev Records the challenger, its root and bond (counted in escrow), flags the task and pulls the bond.
    function _record(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d,
        bytes32 root,
        uint256 bond
    ) private {
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
            bool byExecutor = _mover($, taskId, d);
            mid = _narrow(taskId, d, byExecutor, leaf, proof);
            ends = _advance($, taskId, d, byExecutor, nextLeaf, nextProof);
        }
        emit ITaskRegistryEvents.BisectionMoved(taskId, msg.sender, mid, leaf, d.lo, d.hi, d.moves, ends);
    }

    /// @dev Checks the move is the caller's and in time; returns whether the executor moves.
    function _mover(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Bisection storage d
    ) private view returns (bool byExecutor) {
        uint8 phase = d.phase;
        if (phase != EXECUTOR_MOVE && phase != CHALLENGER_MOVE) {
            revert ITaskRegistryErrors.TaskBisectionPhase(taskId, phase);
        }
        byExecutor = phase == EXECUTOR_MOVE;
        address mover = byExecutor ? $.tasks[taskId].executor : d.challenger;
        if (msg.sender != mover) revert ITaskRegistryErrors.TaskNotYourMove(taskId, msg.sender, mover);
        if (block.timestamp > d.moveEnds) revert ITaskRegistryErrors.TaskMoveDeadline(taskId, d.moveEnds);
        if (d.n == 0) revert ITaskRegistryErrors.TaskBadChain(taskId);
    }

    /// @dev Checks the mover's leaf at the midpoint against its own root and narrows: equal to the other's pending
    ///      leaf → past it (`agreed`); different → the new known disagreement: the pending slot becomes the other's
    ///      step, the mover's leaf goes into its own step slot and the other step slot is the next pending one.
    function _narrow(
        uint256 taskId,
        ITaskRegistry.Bisection storage d,
        bool byExecutor,
        bytes32 leaf,
        bytes32[] calldata proof
    ) private returns (uint32 mid) {
        uint32 lo = d.lo;
        mid = uint32((uint256(lo) + d.hi) / 2);
        _check(taskId, byExecutor ? d.root : d.challengerRoot, d.depth, mid, leaf, proof);
        uint8 roles = d.roles;
        if (leaf == _leaf(d, roles & 3)) {
            (d.lo, d.agreed) = (mid + 1, leaf);
        } else {
            d.hi = mid;
            d.roles = _disagree(d, roles, byExecutor, leaf);
        }
    }

    /// @dev A disagreement at the midpoint: the pending slot (the other's leaf there) becomes the other's step, the
    ///      mover's leaf goes into the mover's step slot, the other's old step slot is the next pending one.
    function _disagree(
        ITaskRegistry.Bisection storage d,
        uint8 roles,
        bool byExecutor,
        bytes32 leaf
    ) private returns (uint8) {
        uint256 p = roles & 3;
        uint256 e = (roles >> 2) & 3;
        uint256 c = 3 - p - e;
        _setLeaf(d, byExecutor ? e : c, leaf);
        return byExecutor ? uint8(c | (e << 2)) : uint8(e | (p << 2));
    }

    /// @dev Counts the move; unless it isolated the step (then the referees' round starts), checks the mover's leaf
    ///      at the next midpoint, stores it as pending and passes the turn.
    function _advance(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Bisection storage d,
        bool byExecutor,
        bytes32 nextLeaf,
        bytes32[] calldata nextProof
    ) private returns (uint256 ends) {
        d.moves += 1;
        (uint32 lo, uint32 hi) = (d.lo, d.hi);
        if (lo == hi) {
            _narrowed($, taskId, $.tasks[taskId], d);
            return 0;
        }
        uint256 next = (uint256(lo) + hi) / 2;
        _check(taskId, byExecutor ? d.root : d.challengerRoot, d.depth, next, nextLeaf, nextProof);
        ends = block.timestamp + d.window;
        _setLeaf(d, d.roles & 3, nextLeaf);
        (d.phase, d.moveEnds) = (byExecutor ? CHALLENGER_MOVE : EXECUTOR_MOVE, uint40(ends));
    }

    /// @dev The leaf in slot `i` (0 `pending`, 1 `executorStep`, 2 `challengerStep`).
    function _leaf(ITaskRegistry.Bisection storage d, uint256 i) private view returns (bytes32) {
        return
            i == 0
                ? d.pending
                : i == 1
                    ? d.executorStep
                    : d.challengerStep;
    }

    function _setLeaf(ITaskRegistry.Bisection storage d, uint256 i, bytes32 v) private {
        if (i == 0) d.pending = v;
        else if (i == 1) d.executorStep = v;
        else d.challengerStep = v;
    }

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
        ITaskRegistry.Task storage k = $.tasks[taskId];
        bool isAppeal = k.flags & APPEAL != 0;
        if (phase == EXECUTOR_MOVE) {
            if (!isAppeal) return true;
            _endAppeal($, taskId, k, d, true, true, false, bytes32(0));
            return false;
        }
        uint256 bond = d.bond;
        // @dev The keeper's bounty comes out of the forfeited bond only (none when the challenger calls it itself).
        uint256 cut = msg.sender == d.challenger ? 0 : TaskCommon.bountyOf(k);
        if (cut > bond) cut = bond;
        (d.phase, d.bond, d.moveEnds) = (LAPSED, 0, 0);
        k.flags &= ~uint8(32);
        $.totalEscrow[uint8(k.currency)] -= bond;
        emit ITaskRegistryEvents.BisectionEnded(taskId, true, true, 0, bond - cut, 0, cut);
        if (isAppeal) {
            // @dev The client let its appeal lapse: the acceptance stands and the appeal window is over.
            (k.flags, k.commitEnds) = (k.flags & ~APPEAL, 0);
            _release($, taskId, k, false);
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
        uint256 ends = appealEnds($, k);
        if (ends == 0 || block.timestamp > ends) revert ITaskRegistryErrors.TaskAppealClosed(taskId, ends);
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        // @dev One bisection per task: a second appeal, or an appeal after a member's bisection, is refused.
        if (d.phase != 0) revert ITaskRegistryErrors.TaskBisectionPhase(taskId, d.phase);
        uint256 bond = appealBond(k);
        k.flags |= APPEAL;
        _record($, k, d, root, bond);
        emit ITaskRegistryEvents.AppealOpened(taskId, msg.sender, bond, ends);
        uint256 moveEnds = _firstMove($, taskId, d, root, finalLeaf, finalProof, midLeaf, midProof);
        emit ITaskRegistryEvents.BisectionOpened(taskId, msg.sender, root, d.n, bond, moveEnds);
    }

    /// @notice Closes an ended appeal window nobody used and releases the executor's duty lock (permissionless).
    function closeAppeal(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        uint256 ends = appealEnds($, k);
        uint8 phase = $.bisections[taskId].phase;
        // @dev An appeal in progress releases the lock when it ends (`_endAppeal`, or a lapsed client in `timeout`).
        if (ends == 0 || block.timestamp <= ends || (phase != 0 && phase < LAPSED)) {
            revert ITaskRegistryErrors.TaskAppealClosed(taskId, ends);
        }
        k.commitEnds = 0;
        _release($, taskId, k, false);
        emit ITaskRegistryEvents.AppealWindowClosed(taskId, k.executor);
    }

    /// @notice Settles an appeal's judged step (the registry routes `finalize` of an appealed task here): a referee
    ///         quorum on the executor's step output upholds the acceptance, one on another output overturns it;
    ///         without one past the window and the grace, the acceptance stands and the bond goes back.
    function finalizeAppeal(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        if (d.phase != JUDGING) revert ITaskRegistryErrors.TaskBisectionPhase(taskId, d.phase);
        uint256 q = TaskCommon.quorum(k);
        uint256 agree = k.agree;
        (bytes32 rival, uint256 c) = TaskCommon.rival($, taskId, k);
        if (agree >= q) return _endAppeal($, taskId, k, d, false, false, true, bytes32(0));
        if (c >= q) return _endAppeal($, taskId, k, d, true, false, true, rival);
        if (block.timestamp > uint256(k.votingEnds) + $.params.disputeWindowSec) {
            return _endAppeal($, taskId, k, d, false, false, false, bytes32(0));
        }
        revert ITaskRegistryErrors.TaskNoQuorum(taskId, agree, c, q);
    }

    /// @dev Ends an appeal. Effects: the task's status (Rejected when the executor was proven wrong, else Accepted),
    ///      the escrow keeping the unclaimed fees of the round-0 members still owed one (none when overturned) and the
    ///      fees of the referees siding with the verdict; the rest (bond left over and forfeited fees) goes to the
    ///      client when the executor was wrong or nobody was proven wrong, else to the executor. Then the locks are
    ///      released, the wrong referees and the executor proven wrong slashed (its slash paid to the client), paid.
    function _endAppeal(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d,
        bool executorWrong,
        bool byTimeout,
        bool decided,
        bytes32 verdict
    ) private {
        bool judged = d.phase == JUDGING;
        if (judged) k.resultHash = d.finalResult;
        if (executorWrong) (k.status, k.verdictHash, d.verdict) = (ITaskRegistry.Status.Rejected, OVERTURNED, verdict);
        else k.status = ITaskRegistry.Status.Accepted;
        (k.flags, k.commitEnds, d.phase, d.moveEnds) = (k.flags & ~APPEAL, 0, SETTLED, 0);
        (uint256 rest, uint256 refFees) = _appealEscrow($, taskId, k, d, executorWrong, judged, verdict);
        bool toExecutor = decided && !executorWrong;
        uint256 slashed = _appealConsequences($, taskId, k, d, executorWrong, byTimeout, judged, verdict);
        emit ITaskRegistryEvents.AppealSettled(
            taskId,
            executorWrong,
            byTimeout,
            slashed,
            toExecutor ? 0 : rest,
            toExecutor ? rest : 0,
            refFees
        );
        TaskCommon.pay($, k.currency, toExecutor ? k.executor : k.client, rest);
    }

    /// @dev An ending appeal's escrow: the bond joins it (a judged step's already did), finalize's keeper bounty comes
    ///      out of it into the caller's keeper credit (judged step only), the unclaimed fees still owed to round 0 (none when overturned) and the
    ///      referees' fees stay; `rest` leaves.
    function _appealEscrow(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d,
        bool executorWrong,
        bool judged,
        bytes32 verdict
    ) private returns (uint256 rest, uint256 refFees) {
        k.escrow += d.bond;
        d.bond = 0;
        if (judged) TaskCommon.creditBounty($, taskId, k, ITaskRegistry.finalize.selector);
        uint256 owed = executorWrong ? 0 : _round0Owed($, taskId) * k.councilFee;
        if (judged) refFees = _refereeWinners($, taskId, !executorWrong, verdict) * k.councilFee;
        rest = k.escrow - owed - refFees;
        k.escrow = uint128(owed + refFees);
        $.totalEscrow[uint8(k.currency)] -= rest;
    }

    /// @dev Releases the executor's (and the referees') locks, then slashes: referees who revealed against the verdict
    ///      the fault amount, silent ones past their window the silent slice, and the executor proven wrong — by
    ///      severity after a judged step, the full fault amount on a lapse (the caller its finder) — to the client.
    function _appealConsequences(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d,
        bool executorWrong,
        bool byTimeout,
        bool judged,
        bytes32 verdict
    ) private returns (uint256 slashed) {
        _release($, taskId, k, judged);
        if (judged) _judgeReferees($, taskId, k, executorWrong, verdict);
        if (!executorWrong) return 0;
        slashed = _slashExecutor($, taskId, k, byTimeout ? k.faultDps : _severity(k.faultDps, d), byTimeout);
    }

    /// @dev The executor's slash after a judged step, scaled by severity like a dispute's (TaskSettlement): the share
    ///      of the chain from the first wrong step on, faultDps × (2n − step) / 2n, rounded up.
    function _severity(uint256 f, ITaskRegistry.Bisection storage d) private view returns (uint256) {
        uint256 twoN = 2 * uint256(d.n);
        return (f * (twoN - d.hi) + twoN - 1) / twoN;
    }

    /// @dev Slashes the executor proven wrong `amount` DPS, paid (net of the finder fee) to the client; a lapse's
    ///      finder is the caller unless it is a party.
    function _slashExecutor(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        uint256 amount,
        bool byTimeout
    ) private returns (uint256 slashed) {
        address finder = byTimeout && msg.sender != k.client && msg.sender != k.executor ? msg.sender : address(0);
        IProviderRegistry reg = IProviderRegistry($.registry);
        if (amount != 0) {
            bytes32 reason = keccak256(abi.encode("chx.task", taskId));
            (slashed, ) = reg.slashTo(k.executor, amount, finder, k.client, reason);
            emit ITaskRegistryEvents.FaultSlashed(taskId, k.executor, slashed);
        }
        reg.recordTaskOutcome(k.executor, false);
    }

    /// @dev Releases the executor's appeal-window lock (and, after a judged step, the referees' seats).
    function _release(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bool referees
    ) private {
        uint256 amount = k.faultDps;
        if (amount == 0) return;
        address[] memory all = new address[](referees ? 2 * uint256(k.councilSize) + 2 : 1);
        all[0] = k.executor;
        uint256 len = referees ? TaskCommon.appendCouncil($, taskId, 1, all, 1) : 1;
        assembly ("memory-safe") {
            mstore(all, len)
        }
        IProviderRegistry($.registry).releaseStake(all, amount);
    }

    /// @dev The referees' consequences (TSK-06: round 0 never saw the step and loses nothing here beyond a fee): a
    ///      reveal against a verdict costs the fault amount, silence past the reveal deadline the silent slice.
    function _judgeReferees(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bool executorWrong,
        bytes32 verdict
    ) private {
        mapping(address => uint256) storage words = $.members[taskId];
        mapping(address => bytes32) storage res = $.results[taskId];
        bool late = block.timestamp > k.votingEnds;
        bool hasVerdict = executorWrong || k.agree >= TaskCommon.quorum(k);
        uint256 b;
        for (address m = $.councilHeads[taskId][1]; m != address(0); m = address(uint160(b >> 8))) {
            b = words[m];
            if (b & 8 == 0) {
                if (late) TaskCommon.slashSilent($, taskId, k, m);
            } else if (hasVerdict && !TaskCommon.sidesWith(b, 1, !executorWrong, verdict, res[m])) {
                TaskCommon.slash($, taskId, k, m, address(0));
            }
        }
    }

    /// @dev Round-0 members who revealed the executor's result and have not claimed their fee yet.
    function _round0Owed(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId
    ) private view returns (uint256 c) {
        mapping(address => uint256) storage words = $.members[taskId];
        uint256 b;
        for (address m = $.councilHeads[taskId][0]; m != address(0); m = address(uint160(b >> 8))) {
            b = words[m];
            if (b & 84 == 20) ++c;
        }
    }

    /// @dev Referees who revealed an output siding with the verdict (upheld or undecided: the executor's step output).
    function _refereeWinners(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bool upheld,
        bytes32 verdict
    ) private view returns (uint256 c) {
        mapping(address => uint256) storage words = $.members[taskId];
        mapping(address => bytes32) storage res = $.results[taskId];
        uint256 b;
        for (address m = $.councilHeads[taskId][1]; m != address(0); m = address(uint160(b >> 8))) {
            b = words[m];
            if (b & 8 != 0 && TaskCommon.sidesWith(b, 1, upheld, verdict, res[m])) ++c;
        }
    }

    /// @notice End of `k`'s appeal window (0: none — not an accepted non-CH task still holding its executor).
    function appealEnds(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k
    ) internal view returns (uint256) {
        uint256 acceptedAt = k.commitEnds;
        if (k.status != ITaskRegistry.Status.Accepted || acceptedAt == 0) return 0;
        return acceptedAt + $.params.disputeWindowSec;
    }

    /// @dev The appeal bond: the bisection bond, at least the referee council's fees (2n + 1) and two keeper bounties
    ///      (its draw and its finalize), so a losing appeal never costs anyone but the client.
    function appealBond(ITaskRegistry.Task storage k) internal view returns (uint256) {
        uint256 cost = (2 * uint256(k.councilSize) + 1) * k.councilFee + 2 * TaskCommon.bountyOf(k);
        uint256 b = bondOf(k);
        return b > cost ? b : cost;
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
        uint256 r = d.roles;
        bytes32 executorStep = _leaf(d, (r >> 2) & 3);
        bytes32 challengerStep = _leaf(d, 3 - (r & 3) - ((r >> 2) & 3));
        k.resultHash = executorStep;
        if (k.flags & APPEAL != 0) {
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

    /// @dev Reverts TaskBadProof unless `proof` shows `leaf` at `index` of a tree of depth `depth` under `root`.
    function _check(
        uint256 taskId,
        bytes32 root,
        uint256 depth,
        uint256 index,
        bytes32 leaf,
        bytes32[] calldata proof
    ) private pure {
        if (root == bytes32(0) || !verifyDepth(root, depth, index, leaf, proof)) {
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
        return index < n && verifyDepth(root, depth, index, leaf, proof);
    }

    /// @notice `verify` for a tree of 2^depth leaves (the hash loop in assembly: scratch space, no bounds checks
    ///         beyond the length check).
    function verifyDepth(
        bytes32 root,
        uint256 depth,
        uint256 index,
        bytes32 leaf,
        bytes32[] calldata proof
    ) internal pure returns (bool ok) {
        if (proof.length != depth || index >> depth != 0) return false;
        assembly ("memory-safe") {
            let h := leaf
            let off := proof.offset
            for {
                let i := 0
            } lt(i, depth) {
                i := add(i, 1)
            } {
                let s := calldataload(add(off, shl(5, i)))
                switch and(shr(i, index), 1)
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
            ok := eq(h, root)
        }
    }

    /// @dev The bond a challenger posts: `BISECT_BOND_BPS` of the task's deposit, task currency.
    function bondOf(ITaskRegistry.Task storage k) internal view returns (uint256) {
        return (uint256(k.maxPayment) * TaskCommon.BISECT_BOND_BPS) / TaskCommon.BPS;
    }
}
