// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";
import {TaskCommon} from "./TaskCommon.sol";
import {TaskChains} from "./TaskChains.sol";

/// @title TaskAppeals
/// @notice How a client's appeal of an accepted result ends (issue 21 item 2): its window, the escrow it
///         leaves behind, the released duty locks, the referees' and the wrong executor's slashes and the payout.
///         Internal: inlined into the linked `TaskDisputes` (the appeal's entries and a lapsed move's ending).
library TaskAppeals {
    /// @notice End of `k`'s appeal window (0: none — not an accepted non-CH task still holding its executor).
    function appealEnds(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k
    ) internal view returns (uint256) {
        uint256 acceptedAt = k.commitEnds;
        if (k.status != ITaskRegistry.Status.Accepted || acceptedAt == 0) return 0;
        return acceptedAt + $.params.disputeWindowSec;
    }

    /// @dev Ends an appeal. Effects: the task's status (Rejected when the executor was proven wrong, else Accepted),
    ///      the escrow keeping the unclaimed fees of the round-0 members still owed one (none when overturned) and the
    ///      fees of the referees siding with the verdict; the rest (bond left over and forfeited fees) goes to the
    ///      client when the executor was wrong or nobody was proven wrong, else to the executor. Then the locks are
    ///      released, the wrong referees and the executor proven wrong slashed (its slash paid to the client), paid.
    function endAppeal(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d,
        bool executorWrong,
        bool byTimeout,
        bool decided,
        bytes32 verdict
    ) internal {
        bool judged = d.phase == TaskChains.JUDGING;
        if (judged) k.resultHash = d.finalResult;
        if (executorWrong)
            (k.status, k.verdictHash, d.verdict) = (ITaskRegistry.Status.Rejected, TaskChains.OVERTURNED, verdict);
        else k.status = ITaskRegistry.Status.Accepted;
        (k.flags, k.commitEnds, d.phase, d.moveEnds) = (k.flags & ~TaskChains.APPEAL, 0, TaskChains.SETTLED, 0);
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

    /// @dev Releases the executor's lock (the referees' seats stay locked until released), then slashes: referees who revealed against the verdict
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
        release($, k);
        if (judged) _judgeReferees($, taskId, k, executorWrong, verdict);
        // @dev The acceptance stands: its completion, held back while it could be appealed, is recorded now.
        if (!executorWrong) {
            IProviderRegistry($.registry).recordTaskOutcome(k.executor, true);
            return 0;
        }
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

    /// @dev Ends the appeal window of an acceptance that stands (closed unused, or the client's appeal lapsed):
    ///      releases the executor's lock and records its completion, both held back since finalize.
    function standing(TaskRegistryStore.TaskRegistryStorage storage $, ITaskRegistry.Task storage k) internal {
        release($, k);
        IProviderRegistry($.registry).recordTaskOutcome(k.executor, true);
    }

    /// @dev Releases the executor's appeal-window lock. The referees' seats, like every seat of a task ended by a
    ///      verdict, stay locked until each member claims its fee or `releaseSeat` (TSK-08, docs/tasks.md).
    function release(TaskRegistryStore.TaskRegistryStorage storage $, ITaskRegistry.Task storage k) internal {
        uint256 amount = k.faultDps;
        if (amount != 0) IProviderRegistry($.registry).releaseStake(TaskCommon.one(k.executor), amount);
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
        for (address m = TaskCommon.headOf($, taskId, 1); m != address(0); m = address(uint160(b >> 8))) {
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
        for (address m = TaskCommon.headOf($, taskId, 0); m != address(0); m = address(uint160(b >> 8))) {
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
        for (address m = TaskCommon.headOf($, taskId, 1); m != address(0); m = address(uint160(b >> 8))) {
            b = words[m];
            if (b & 8 != 0 && TaskCommon.sidesWith(b, 1, upheld, verdict, res[m])) ++c;
        }
    }
}
