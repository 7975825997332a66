// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IRewardPool} from "../../interfaces/callback/IEmissionHooks.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";
import {TaskCommon} from "./TaskCommon.sol";
import {TaskPricing} from "./TaskPricing.sol";

/// @title TaskSettlement
/// @notice The TaskRegistry's endings: verdicts (pay, slash the side found wrong, reserve council fees, refund),
///         expiry of a missed deadline, council fee claims and CH redemption failures. Linked as an external
///         library; the registry holds the reentrancy guard and access control.
library TaskSettlement {
    using SafeERC20 for IERC20;

    uint256 private constant BPS = 10_000;

    /// @notice Finalises on a quorum (a round-0 rejection only after the appeal window).
    function finalize(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Status st = k.status;
        if (st < ITaskRegistry.Status.Verifying || st > ITaskRegistry.Status.Disputed)
            TaskCommon.revertStatus(taskId, st);
        uint8 ph = k.flags & 32 == 0 ? 0 : $.bisections[taskId].phase;
        // @dev A bisection in progress settles by its moves (or their timeout); a judged step by the referees.
        if (ph == 1 || ph == 2) revert ITaskRegistryErrors.TaskBisectionPhase(taskId, ph);
        if (ph == 3) return _finalizeJudged($, taskId, k);
        uint256 q = TaskCommon.quorum(k);
        // @dev An acceptance's verdict is `resultHash`, which `_settle` never reads for one (no verdict hash stored,
        //      every reveal sides by its executor bit): zero here saves the cold read (issue 18 finalize gas).
        if (k.agree >= q) return _settle($, taskId, true, bytes32(0), true);
        // @dev The accepted result is the quorum's: a quorum on another result proves the executor wrong.
        (bytes32 rival, uint256 d) = TaskCommon.rival($, taskId, k);
        if (d >= q) {
            if (st == ITaskRegistry.Status.Verifying && block.timestamp <= k.votingEnds) {
                revert ITaskRegistryErrors.TaskAppealWindowOpen(taskId, k.votingEnds);
            }
            return _settle($, taskId, false, rival, true);
        }
        // @dev TSK-05 (item 9): a dispute without a verdict past the window and governance's grace ends with a
        //      refund, so no escrow waits on governance.
        if (
            st == ITaskRegistry.Status.Disputed && block.timestamp > uint256(k.votingEnds) + $.params.disputeWindowSec
        ) {
            return _unresolved($, taskId, k);
        }
        revert ITaskRegistryErrors.TaskNoQuorum(taskId, k.agree, d, q);
    }

    /// @dev The referee council's verdict on the bisected step (issue 21 item 2): a quorum (n + 1 of 2n + 1) revealing
    ///      the executor's step output accepts the task (the challenger was wrong); a quorum on another output proves
    ///      the executor wrong (rejected). Without one past the window and the grace: Unresolved, bond returned.
    function _finalizeJudged(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k
    ) private {
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        uint256 q = TaskCommon.quorum(k);
        uint256 agree = k.agree;
        (bytes32 rival, uint256 c) = TaskCommon.rival($, taskId, k);
        k.resultHash = d.finalResult;
        if (agree >= q) return _settle($, taskId, true, d.finalResult, true);
        if (c >= q) {
            d.verdict = rival;
            return _settle($, taskId, false, rival, true);
        }
        if (block.timestamp > uint256(k.votingEnds) + $.params.disputeWindowSec) return _unresolved($, taskId, k);
        revert ITaskRegistryErrors.TaskNoQuorum(taskId, agree, c, q);
    }

    /// @notice Settles a task whose executor let a bisection move lapse: rejected, the executor slashed the full fault
    ///         amount (the caller is the finder), the challenger's bond returned, the client refunded.
    function settleLapse(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        _settle($, taskId, false, bytes32(0), false);
    }

    /// @dev Ends a dispute nobody decided: full refund, no payment, no slash (no recorded fault), every duty and a CH
    ///      redemption's reservation released.
    function _unresolved(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k
    ) private {
        k.status = ITaskRegistry.Status.Unresolved;
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        uint256 bond;
        if (d.phase == 3) {
            // @dev An undecided step proves nobody wrong: the challenger's bond goes back.
            (bond, d.bond, d.phase) = (d.bond, 0, 5);
            $.totalEscrow[uint8(k.currency)] -= bond;
            emit ITaskRegistryEvents.BisectionEnded(taskId, false, false, bond, 0, 0, 0);
        }
        TaskCommon.creditBounty($, taskId, k, ITaskRegistry.finalize.selector);
        uint256 refund = TaskCommon.release($, k);
        uint256 assignmentId = k.assignmentId;
        k.assignmentId = 0;
        emit ITaskRegistry.TaskClosed(taskId, ITaskRegistry.Status.Unresolved, msg.sender, refund);
        TaskCommon.releaseDuties($, taskId, k, true);
        // @dev No verdict, so nobody is wrong; but members silent past their reveal deadline missed it.
        _judge($, taskId, k, false, bytes32(0), false, false);
        if (assignmentId != 0) IProviderRegistry($.registry).releaseRedemption(assignmentId);
        TaskCommon.pay($, k.currency, d.challenger, bond);
        TaskCommon.pay($, k.currency, k.client, refund);
    }

    /// @notice Governance's verdict on a dispute the enlarged council left without a quorum.
    function resolveDispute(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bool executorCorrect
    ) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        if (k.status != ITaskRegistry.Status.Disputed) TaskCommon.revertStatus(taskId, k.status);
        if (block.timestamp <= k.votingEnds) revert ITaskRegistryErrors.TaskDeadlineNotPassed(k.votingEnds);
        _settle($, taskId, executorCorrect, executorCorrect ? k.resultHash : bytes32(0), false);
    }

    /// @notice Enforces a missed deadline: refund, and the executor slashed (finder: the caller).
    function expire(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        if (k.status != ITaskRegistry.Status.Running) TaskCommon.revertStatus(taskId, k.status);
        uint256 due = TaskPricing.dueBy($, taskId, k, k.commits);
        if (block.timestamp <= due) revert ITaskRegistryErrors.TaskDeadlineNotPassed(due);
        k.status = ITaskRegistry.Status.Expired;
        uint256 refund = _releaseKeepingReport($, k);
        emit ITaskRegistry.TaskClosed(taskId, ITaskRegistry.Status.Expired, msg.sender, refund);
        TaskCommon.releaseDuties($, taskId, k, true);
        // @dev TSK-03: the executor accepted this deadline and missed it. CH tasks are compensated by the registry
        //      through reportRedemptionFailure once the delivery deadline passes.
        if (k.currency != ITaskRegistry.Currency.CH) {
            // @dev Item 16: an executor expiring its own task earns no finder fee on its own slash.
            address finder = msg.sender == k.executor ? address(0) : msg.sender;
            TaskCommon.slash($, taskId, k, k.executor, finder);
            IProviderRegistry($.registry).recordTaskOutcome(k.executor, false);
        }
        TaskCommon.pay($, k.currency, k.client, refund);
    }

    /// @notice Reports a rejected or expired CH redemption as failed (the registry compensates the client).
    function reportRedemptionFailure(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        uint256 id = k.assignmentId;
        // @dev Only Rejected and Expired tasks (Cancelled ones never had an assignment) may report a failure.
        if (id == 0 || k.status < ITaskRegistry.Status.Rejected)
            revert ITaskRegistryErrors.TaskNoOpenRedemption(taskId);
        k.assignmentId = 0;
        // @dev The report's bounty was held back when the task ended; the client or executor reporting gets none,
        //      and the held slice goes back to the client then.
        uint256 held = k.flags & 2 != 0 ? TaskCommon.bountyOf(k) : 0;
        uint256 bounty =
            held == 0 ? 0 : TaskCommon.creditBounty($, taskId, k, ITaskRegistry.reportRedemptionFailure.selector);
        uint256 back = held - bounty;
        if (back != 0) {
            k.escrow -= uint128(back);
            $.totalEscrow[uint8(k.currency)] -= back;
        }
        address client = k.client;
        uint256 comp = IProviderRegistry($.registry).reportDeliveryFailure(id, client);
        // @dev A report by anyone but the client pays the client outside any call of its own: record what it got
        //      (amounts < 2^127: DPS supply and the task's uint128 escrow).
        if (msg.sender != client) $.reportedToClient[taskId] = (comp << 128) | (back << 1) | 1;
        emit ITaskRegistryEvents.RedemptionFailed(taskId, id, comp);
        TaskCommon.pay($, k.currency, client, back);
    }

    /// @notice Pays the caller's keeper credits in `currency` to `to` (the entry checks `to`); once: the credit is
    ///         zeroed before the transfer.
    function claimKeeperCredits(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Currency currency,
        address to
    ) external returns (uint256 amount) {
        uint8 c = uint8(currency);
        amount = $.keeperCredits[msg.sender][c];
        if (amount == 0) revert ITaskRegistryErrors.TaskKeeperNothingToClaim(msg.sender, c);
        $.keeperCredits[msg.sender][c] = 0;
        $.totalEscrow[c] -= amount;
        emit ITaskRegistryEvents.KeeperCreditsClaimed(msg.sender, to, c, amount);
        TaskCommon.pay($, currency, to, amount);
    }

    /// @dev Pays the executor, slashes the side found wrong, reserves the fees of the members who sided with the
    ///      verdict (claimed with `claimCouncilFee`), credits the keeper's bounty, holds a CH redemption's report bounty
    ///      and refunds the rest. Effects first, then slashes and transfers. `byKeeper`: finalize (governance's
    ///      resolution earns no bounty).
    function _settle(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        bool executorCorrect,
        bytes32 verdict,
        bool byKeeper
    ) private {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        ITaskRegistry.Status outcome = executorCorrect ? ITaskRegistry.Status.Accepted : ITaskRegistry.Status.Rejected;
        k.status = outcome;
        uint8 ph = k.flags & 32 == 0 ? 0 : $.bisections[taskId].phase;
        // @dev Issue 21 item 2: a bisection (moving, or its step judged) decides who was wrong at one step; the final
        //      result the client should have got is not known, so a rejection records no verdict hash.
        bool bisected = ph != 0 && ph < 4;
        // @dev An acceptance's verdict is `resultHash` (getTask shows it): stored only for a rejection.
        if (!executorCorrect && !bisected) k.verdictHash = verdict;
        if (byKeeper) TaskCommon.creditBounty($, taskId, k, ITaskRegistry.finalize.selector);
        (uint256 reserved, uint256 refund, uint256 executorPaid, uint256 replenished) = _split(
            $,
            taskId,
            k,
            executorCorrect,
            verdict,
            bisected
        );
        emit ITaskRegistry.TaskFinalized(taskId, outcome, executorPaid, reserved, refund, replenished);
        // @dev The council's seats stay locked until each member claims its fee or `releaseSeat` (TSK-08, lazy).
        TaskCommon.releaseDuties($, taskId, k, false);
        _judge($, taskId, k, executorCorrect, verdict, true, bisected);
        _executorOutcome($, taskId, k, executorCorrect, executorPaid, replenished, ph);
        TaskCommon.pay($, k.currency, k.client, refund);
        if (bisected) _settleBond($, taskId, k, executorCorrect, ph != 3);
    }

    /// @dev Pays and records the executor found right (an appealable acceptance: recorded when final), or slashes and
    ///      records the executor found wrong (a CH redemption is compensated by `reportRedemptionFailure` instead).
    function _executorOutcome(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bool executorCorrect,
        uint256 executorPaid,
        uint256 replenished,
        uint8 ph
    ) private {
        if (executorCorrect) {
            _payExecutor($, k, executorPaid, replenished);
            // @dev An acceptance the client may still appeal (`commitEnds` holds its time) records the completion
            //      when it is final: `closeAppeal`, or the appeal's end (issue 18 item 4, finalize gas).
            if (k.commitEnds == 0) IProviderRegistry($.registry).recordTaskOutcome(k.executor, true);
        } else if (k.currency != ITaskRegistry.Currency.CH) {
            if (ph != 0 && ph < 4) {
                // @dev A lapsed move: the full fault amount, the caller the finder (its bounty is the registry's finder
                //      fee on the executor's slash, never the client's escrow).
                address finder = ph == 3 || msg.sender == k.executor ? address(0) : msg.sender;
                TaskCommon.slashAmount($, taskId, k.executor, _severity(k, $.bisections[taskId], ph), finder);
            } else {
                TaskCommon.slash($, taskId, k, k.executor, address(0));
            }
            IProviderRegistry($.registry).recordTaskOutcome(k.executor, false);
        }
    }

    /// @dev The executor's slash when a bisection proves it wrong, within the fault amount its duty locked (TSK-08):
    ///      scaled by severity — the share of the chain from the first wrong step on: faultDps × (2n − step) / 2n,
    ///      rounded up (a wrong first step: all of it; only the last step wrong: just over half). A lapsed move
    ///      (or no chain to answer with): all of it.
    function _severity(
        ITaskRegistry.Task storage k,
        ITaskRegistry.Bisection storage d,
        uint8 ph
    ) private view returns (uint256) {
        uint256 f = k.faultDps;
        if (ph != 3) return f;
        uint256 twoN = 2 * uint256(d.n);
        return (f * (twoN - d.hi) + twoN - 1) / twoN;
    }

    /// @dev Splits a settled bisection's bond and pays it (last step of a settlement). The challenger proven wrong loses it:
    ///      half shared equally by the referees who revealed the executor's step output (claimed with their fee), the
    ///      rest to the executor. The executor proven wrong (or lapsed): the bond goes back to the challenger.
    function _settleBond(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bool executorCorrect,
        bool byTimeout
    ) private {
        ITaskRegistry.Bisection storage d = $.bisections[taskId];
        uint256 bond = d.bond;
        (uint256 toExecutor, uint256 toChallenger, uint256 toReferees) = (0, 0, 0);
        if (executorCorrect) {
            uint256 w = _roundWinners($, taskId, 1, true, bytes32(0));
            uint256 share = w == 0 ? 0 : bond / 2 / w;
            toReferees = share * w;
            toExecutor = bond - toReferees;
            d.refereeShare = uint128(share);
            k.escrow += uint128(toReferees);
        } else {
            toChallenger = bond;
        }
        (d.bond, d.phase) = (0, 5);
        $.totalEscrow[uint8(k.currency)] -= bond - toReferees;
        emit ITaskRegistryEvents.BisectionEnded(
            taskId,
            executorCorrect,
            byTimeout,
            toChallenger,
            toExecutor,
            toReferees,
            0
        );
        TaskCommon.pay($, k.currency, k.executor, toExecutor);
        TaskCommon.pay($, k.currency, d.challenger, toChallenger);
    }

    /// @dev Splits the escrow left after the keeper's bounty: the fees of the members siding with the verdict stay
    ///      reserved, the executor's cost goes out (when correct), a rejected CH redemption holds its report bounty,
    ///      the rest is the client's refund.
    function _split(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bool executorCorrect,
        bytes32 verdict,
        bool bisected
    ) private returns (uint256 reserved, uint256 refund, uint256 executorPaid, uint256 replenished) {
        // @dev After a bisection round 0 sides by "executor's result or not" (its step verdict is round 1's only).
        reserved = _roundWinners($, taskId, 0, executorCorrect, bisected ? bytes32(0) : verdict);
        if (k.round != 0) reserved += _roundWinners($, taskId, 1, executorCorrect, verdict);
        reserved *= k.councilFee;
        uint256 executorCost;
        if (executorCorrect)
            (executorCost, executorPaid, replenished) = _executorShare(
                $,
                k.currency,
                TaskPricing.priceAccepted($, taskId, k)
            );
        uint256 escrow = k.escrow;
        // @dev A rejected CH redemption keeps the bounty of its failure report in escrow (paid by that report).
        uint256 hold = executorCorrect ? 0 : _holdReport(k, escrow - reserved);
        refund = escrow - reserved - executorCost - hold;
        k.escrow = uint128(reserved + hold);
        $.totalEscrow[uint8(k.currency)] -= escrow - reserved - hold;
    }

    /// @dev Marks and sizes the report bounty a task with an open CH redemption holds back (≤ `available`).
    function _holdReport(ITaskRegistry.Task storage k, uint256 available) private returns (uint256 hold) {
        if (k.assignmentId == 0) return 0;
        hold = TaskCommon.bountyOf(k);
        if (hold > available) hold = available;
        if (hold != 0) k.flags |= 2;
    }

    /// @dev Releases an expiring task's escrow to the client except a CH redemption's held report bounty.
    function _releaseKeepingReport(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k
    ) private returns (uint256 amount) {
        uint256 escrow = k.escrow;
        uint256 hold = _holdReport(k, escrow);
        amount = escrow - hold;
        k.escrow = uint128(hold);
        $.totalEscrow[uint8(k.currency)] -= amount;
    }

    /// @dev Members of round `r` who revealed a result siding with the verdict (fee earners).
    function _roundWinners(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        uint256 r,
        bool executorCorrect,
        bytes32 verdict
    ) private view returns (uint256 right) {
        mapping(address => uint256) storage words = $.members[taskId];
        mapping(address => bytes32) storage res = $.results[taskId];
        uint256 b;
        for (address m = TaskCommon.headOf($, taskId, r); m != address(0); m = address(uint160(b >> 8))) {
            b = words[m];
            if (b & (4 << r) == 0) continue;
            // @dev An acceptance sides by the member's executor bit: its revealed hash is read only for a rejection
            //      (one cold read per revealing member less in an accepting finalize, issue 18 finalize gas).
            if (executorCorrect ? b & (16 << r) != 0 : TaskCommon.sidesWith(b, r, false, verdict, res[m])) ++right;
        }
    }

    /// @dev The council's consequences, after the duty locks are released (bounded: ≤ 3·maxCouncil + 1 members).
    ///      With a verdict (`hasVerdict`) after a dispute, every member of both rounds who revealed a result against
    ///      it is slashed the fault amount (a recorded dispute, TSK-03); without a dispute a minority reveal only
    ///      loses the fee (a round-0 quorum is not a recorded dispute, and honest dissent must not be punished by a
    ///      colluding quorum, TSK-06). A member silent past its reveal deadline loses the bounded silent slice
    ///      (its round ended after its window; round 0 of a disputed task: the dispute opened after it).
    function _judge(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bool executorCorrect,
        bytes32 verdict,
        bool hasVerdict,
        bool bisected
    ) private {
        mapping(address => uint256) storage words = $.members[taskId];
        mapping(address => bytes32) storage res = $.results[taskId];
        uint256 last = k.round;
        bool lateNow = block.timestamp > k.votingEnds;
        for (uint256 r; r <= last; ++r) {
            bool late = r < last ? k.flags & 1 != 0 : lateNow;
            uint256 b;
            for (address m = TaskCommon.headOf($, taskId, r); m != address(0); m = address(uint160(b >> 8))) {
                b = words[m];
                if (b & (4 << r) == 0) {
                    if (late) TaskCommon.slashSilent($, taskId, k, m);
                } else if (
                    // @dev After a bisection only the referees are judged on reveals (TSK-06): round 0 never saw the
                    //      step, so its reveals cost nothing beyond the fee.
                    hasVerdict &&
                    last != 0 &&
                    !(bisected && r == 0) &&
                    !TaskCommon.sidesWith(b, r, executorCorrect, verdict, res[m])
                ) {
                    TaskCommon.slash($, taskId, k, m, address(0));
                }
            }
        }
    }

    /// @dev Executor's share: CH and USDC get the price; DPS clients pay price × (1 − discount) (rounded up, the
    ///      executor is not short-changed by rounding), of which `dpsReplenishBps` (rounded down) returns to the
    ///      reward pool.
    function _executorShare(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Currency cur,
        uint256 price
    ) private view returns (uint256 cost, uint256 paid, uint256 replenished) {
        if (cur != ITaskRegistry.Currency.DPS) return (price, price, 0);
        cost = (price * (BPS - $.params.dpsDiscountBps) + BPS - 1) / BPS;
        if ($.emission != address(0)) replenished = (cost * $.params.dpsReplenishBps) / BPS;
        paid = cost - replenished;
    }

    function _payExecutor(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k,
        uint256 paid,
        uint256 replenished
    ) private {
        ITaskRegistry.Currency cur = k.currency;
        if (cur == ITaskRegistry.Currency.CH) {
            // @dev Redemption: the CH goes to the registry, which burns it against the executor's liability.
            IERC20($.tokens[0]).safeTransfer($.registry, paid);
            IProviderRegistry($.registry).confirmDelivery(k.assignmentId);
            return;
        }
        TaskCommon.pay($, cur, k.executor, paid);
        if (replenished != 0) {
            IERC20($.tokens[2]).safeTransfer($.emission, replenished);
            // @dev Item 17: a failing pool (paused, epochs far behind) must not block the verdict. The DPS is
            //      already at the pool (unaccounted there); the amount is retried with the next replenishment.
            uint256 due = $.replenishBacklogDps + replenished;
            try IRewardPool($.emission).replenish(due) {
                if (due != replenished) {
                    $.replenishBacklogDps = 0;
                    emit ITaskRegistryEvents.ReplenishmentFlushed(due - replenished);
                }
            } catch {
                $.replenishBacklogDps = due;
                emit ITaskRegistryEvents.ReplenishmentDeferred(replenished, due);
            }
        }
    }

    /// @notice Accounts the deferred DPS at the reward pool (reverts with the pool's error if it still fails).
    function flushReplenishment(TaskRegistryStore.TaskRegistryStorage storage $) external returns (uint256 amount) {
        amount = $.replenishBacklogDps;
        if (amount == 0) revert ITaskRegistryErrors.TaskNothingToFlush();
        $.replenishBacklogDps = 0;
        emit ITaskRegistryEvents.ReplenishmentFlushed(amount);
        IRewardPool($.emission).replenish(amount);
    }
}
