// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";
import {IProviderMatcher} from "../../interfaces/compute/IProviderMatcher.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {ProviderSampling} from "../compute/ProviderSampling.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";
import {TaskCommon} from "./TaskCommon.sol";
import {TaskChains} from "./TaskChains.sol";

/// @title TaskCouncil
/// @notice The TaskRegistry's verification: drawing the council of each round from the committed seed block,
///         members' result commitments and reveals (TSK-01) and opening a dispute. Linked as an external library.
library TaskCouncil {
    /// @notice Draws the current round's council (or re-commits a seed block whose hash aged out).
    function drawCouncil(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Status st = k.status;
        if (st < ITaskRegistry.Status.Running || st > ITaskRegistry.Status.Disputed)
            TaskCommon.revertStatus(taskId, st);
        uint8 round = k.round;
        uint256 target = k.targetBlock;
        if (target == 0 || block.number <= target || TaskCommon.headOf($, taskId, round) != address(0)) {
            revert ITaskRegistryErrors.TaskCouncilNotDrawable(taskId, target);
        }
        if (block.number > target + 256) {
            // @dev The committed hash is out of reach: commit a fresh future block (nobody chose the old outcome).
            TaskCommon.commitSeed($, k);
            return;
        }
        bytes32 seed = TaskCommon.blockSeed(keccak256(abi.encode(taskId, k.executor, k.price, round)), target);
        uint256 size = round == 0 ? k.councilSize : 2 * uint256(k.councilSize) + 1;
        // @dev TSK-07: the snapshot at the commit block (target − 1), fixed before the seed existed.
        IProviderMatcher.DrawQuery memory q = IProviderMatcher.DrawQuery({
            workloadClass: k.workloadClass,
            requiredCapacityPflopsWad: k.capacityPflopsWad,
            atBlock: uint64(target - 1),
            atTime: k.seedTime,
            candidates: k.candidates,
            extraSamples: $.params.councilWindow
        });
        // @dev Issue 21 item 3: weighted by the snapshot's stake × reputation, drawn here from the registry (one
        //      call per batch of samples, no matcher hop; ProviderMatcher.drawFromSnapshot runs the same code).
        address[] memory picked = ProviderSampling.draw(
            IProviderRegistry($.registry),
            q,
            _excluded($, taskId, k),
            seed,
            size
        );
        if (picked.length < size) revert ITaskRegistryErrors.TaskCouncilUnavailable(size, picked.length);
        TaskCommon.storeCouncil($, taskId, k, round, picked);
        TaskCommon.lockDuty($, k, picked);
        // @dev A council drawn after its commit window closed (the final result committed, or the dispute opened, and
        //      nobody drew in time) gets full commit and reveal windows from now: nobody misses a deadline it never
        //      had. A draw inside the commit window keeps the windows (members had time to commit).
        if (st != ITaskRegistry.Status.Running && block.timestamp > k.commitEnds) {
            uint256 w = round == 0 ? $.params.verifyWindowSec : $.params.disputeWindowSec;
            k.commitEnds = uint40(block.timestamp + w / 2);
            k.votingEnds = uint40(block.timestamp + w);
        }
        emit ITaskRegistryEvents.CouncilDrawn(taskId, round, picked, TaskCommon.quorum(k), seed);
        TaskCommon.creditBounty($, taskId, k, ITaskRegistry.drawCouncil.selector);
    }

    /// @dev Client and executor never sit on the council; a dispute council excludes the first council. The caller is
    ///      not excluded: who calls must not change the draw (TSK-07).
    function _excluded(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k
    ) private view returns (address[] memory ex) {
        ex = new address[](2 + (k.round == 0 ? 0 : uint256(k.councilSize)));
        (ex[0], ex[1]) = (k.client, k.executor);
        uint256 len = k.round == 0 ? 2 : TaskCommon.appendCouncil($, taskId, 0, ex, 2);
        assembly ("memory-safe") {
            mstore(ex, len)
        }
    }

    /// @notice Records the caller's result commitment as a current council member, until the commit window ends.
    function commitResult(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bytes32 commitment
    ) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Status st = k.status;
        if (st < ITaskRegistry.Status.Verifying || st > ITaskRegistry.Status.Disputed)
            TaskCommon.revertStatus(taskId, st);
        if (commitment == bytes32(0)) revert ITaskRegistryErrors.TaskZeroCommitment();
        uint256 ends = k.commitEnds;
        if (block.timestamp > ends) revert ITaskRegistryErrors.TaskCommitPhase(taskId, ends);
        uint8 round = k.round;
        // @dev TSK-01: only current members commit (a member sits in one round; no reveal can precede the window end).
        if ($.members[taskId][msg.sender] & (1 << round) == 0) {
            revert ITaskRegistryErrors.TaskNotCouncilMember(taskId, msg.sender);
        }
        $.results[taskId][msg.sender] = commitment;
        emit ITaskRegistryEvents.ResultCommitment(taskId, msg.sender, round, commitment);
    }

    /// @notice Opens the caller's commitment after the commit window and counts its result (once per member).
    function revealResult(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bytes32 resultHash,
        bytes32 salt
    ) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Status st = k.status;
        if (st < ITaskRegistry.Status.Verifying || st > ITaskRegistry.Status.Disputed)
            TaskCommon.revertStatus(taskId, st);
        if (block.timestamp <= k.commitEnds) revert ITaskRegistryErrors.TaskCommitPhase(taskId, k.commitEnds);
        if (block.timestamp > k.votingEnds) revert ITaskRegistryErrors.TaskDeadlinePassed(k.votingEnds);
        uint8 round = k.round;
        uint256 b = $.members[taskId][msg.sender];
        // @dev TSK-01: only current members count, and each at most once.
        if (b & (1 << round) == 0) revert ITaskRegistryErrors.TaskNotCouncilMember(taskId, msg.sender);
        if (b & (4 << round) != 0) revert ITaskRegistryErrors.TaskAlreadyRevealed(taskId, msg.sender);
        mapping(address => bytes32) storage res = $.results[taskId];
        if (res[msg.sender] != keccak256(abi.encode(taskId, msg.sender, resultHash, salt))) {
            revert ITaskRegistryErrors.TaskBadReveal(taskId, msg.sender);
        }
        res[msg.sender] = resultHash;
        b |= 4 << round;
        uint8 a = k.agree;
        uint8 d = k.disagree;
        bool same = resultHash == k.resultHash;
        if (same) {
            b |= 16 << round;
            k.agree = ++a;
        } else {
            k.disagree = ++d;
        }
        $.members[taskId][msg.sender] = b;
        emit ITaskRegistryEvents.ResultRevealed(taskId, msg.sender, round, resultHash, same, a, d);
    }

    /// @notice Opens the dispute round (enlarged council from a fresh seed block).
    function openDispute(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        if (k.status != ITaskRegistry.Status.Verifying) TaskCommon.revertStatus(taskId, k.status);
        uint256 q = k.quorum;
        uint256 a = k.agree;
        (, uint256 d) = TaskCommon.rival($, taskId, k);
        bool windowOver = block.timestamp > k.votingEnds;
        if (a >= q) revert ITaskRegistryErrors.TaskNoDisagreement(taskId);
        if (d >= q) {
            // @dev A quorum's rejection may only be appealed by the executor, inside the window.
            if (msg.sender != k.executor || windowOver) revert ITaskRegistryErrors.TaskNoDisagreement(taskId);
        } else {
            // @dev Unrevealed members could still complete a quorum on the executor's or the leading other result.
            uint256 left = uint256(k.councilSize) - a - k.disagree;
            if (!windowOver && (a + left >= q || d + left >= q)) revert ITaskRegistryErrors.TaskNoDisagreement(taskId);
        }
        // @dev The first round's silent members missed their deadline only if its reveal window had closed.
        if (windowOver) k.flags |= 1;
        k.status = ITaskRegistry.Status.Disputed;
        k.round = 1;
        k.agree = 0;
        k.disagree = 0;
        uint64 target = TaskCommon.commitSeed($, k);
        uint256 w = $.params.disputeWindowSec;
        k.commitEnds = uint40(block.timestamp + w / 2);
        k.votingEnds = uint40(block.timestamp + w);
        emit ITaskRegistryEvents.DisputeOpened(taskId, msg.sender, target);
    }

    /// @notice Pays the caller its council fee (voted with the verdict, once) and releases its seat's duty lock if
    ///         `releaseSeat` has not (TSK-08: a verdict leaves the seats locked until their members act). Refused
    ///         (`TaskBisectionPhase`) while a client's appeal of the acceptance runs.
    function claimCouncilFee(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId
    ) external returns (uint256 fee) {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Status st = k.status;
        if (st != ITaskRegistry.Status.Accepted && st != ITaskRegistry.Status.Rejected)
            TaskCommon.revertStatus(taskId, st);
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        // @dev While the client's appeal runs (moves phase: still Accepted) the round-0 fees are at stake: an
        //      overturn forfeits the unclaimed ones to the client, so none is paid before the appeal ends.
        if (k.flags & TaskChains.APPEAL != 0) revert ITaskRegistryErrors.TaskBisectionPhase(taskId, d.phase);
        uint256 b = $.members[taskId][msg.sender];
        // @dev A member sits in one round only (the dispute council excludes round 0); bit 6 marks a claim.
        uint256 r = b & 2 != 0 ? 1 : 0;
        // @dev A judged bisection's referees side with the step output the quorum revealed (`d.verdict`).
        bytes32 verdict = r == 1 && d.verdict != bytes32(0) ? d.verdict : k.verdictHash;
        if (
            b & 64 != 0 ||
            b & (4 << r) == 0 ||
            !TaskCommon.sidesWith(b, r, st == ITaskRegistry.Status.Accepted, verdict, $.results[taskId][msg.sender])
        ) {
            revert ITaskRegistryErrors.TaskNothingToClaim(taskId, msg.sender);
        }
        fee = k.councilFee + (r == 1 ? d.refereeShare : 0);
        uint128 left = k.escrow - uint128(fee);
        k.escrow = left;
        $.totalEscrow[uint8(k.currency)] -= fee;
        emit ITaskRegistryEvents.CouncilFeeClaimed(taskId, msg.sender, fee, left);
        if (b & TaskCommon.SEAT_RELEASED == 0) TaskCommon.releaseSeat($, taskId, k, msg.sender, b | 64);
        else $.members[taskId][msg.sender] = b | 64;
        TaskCommon.pay($, k.currency, msg.sender, fee);
    }

    /// @notice Releases the duty lock of `member`'s seat (either round) on a task ended by a verdict (Accepted,
    ///         Rejected), once; permissionless, it only frees the member's own stake. Reverts
    ///         `TaskSeatNotReleasable` for a non-member, a task without a verdict or a seat already released.
    function releaseSeat(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId, address member) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Status st = k.status;
        uint256 b = $.members[taskId][member];
        if (
            (st != ITaskRegistry.Status.Accepted && st != ITaskRegistry.Status.Rejected) ||
            b & 3 == 0 ||
            b & TaskCommon.SEAT_RELEASED != 0
        ) revert ITaskRegistryErrors.TaskSeatNotReleasable(taskId, member);
        TaskCommon.releaseSeat($, taskId, k, member, b);
    }
}
