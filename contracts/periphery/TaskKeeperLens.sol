// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskKeeperLens} from "../interfaces/keepers/ITaskKeeperLens.sol";
import {ITaskRegistry} from "../interfaces/tasks/ITaskRegistry.sol";
import {IProviderRegistry} from "../interfaces/compute/IProviderRegistry.sol";

/// @title TaskKeeperLens
/// @notice Caller-paged scan of every TaskRegistry task for due keeper work (periphery: read-only, not upgradeable,
///         holds nothing; redeploy it to change the rules). See ITaskKeeperLens.
contract TaskKeeperLens is ITaskKeeperLens {
    /// @dev Largest page: ~30k gas per task (one `getTask`, sometimes `councilOf`/`assignment`) keeps a page of
    ///      500 far under a node's eth_call gas cap.
    uint256 private constant MAX_PAGE = 500;
    uint8 private constant ASSIGNMENT_OPEN = 1;
    /// @dev `Task.flags` bit 6: a client's appeal is running (TaskDisputes.APPEAL).
    uint8 private constant APPEAL_FLAG = 64;

    ITaskRegistry private immutable _tasks;
    IProviderRegistry private immutable _providers;

    /// @param taskRegistry_ The TaskRegistry proxy.
    /// @param providerRegistry_ The ProviderRegistry proxy.
    constructor(address taskRegistry_, address providerRegistry_) {
        _tasks = ITaskRegistry(taskRegistry_);
        _providers = IProviderRegistry(providerRegistry_);
    }

    /// @inheritdoc ITaskKeeperLens
    function taskRegistry() external view returns (address) {
        return address(_tasks);
    }

    /// @inheritdoc ITaskKeeperLens
    function providerRegistry() external view returns (address) {
        return address(_providers);
    }

    /// @inheritdoc ITaskKeeperLens
    function dueTasks(
        uint256 fromId,
        uint256 limit
    ) external view returns (DueTask[] memory due, uint256 firstOpenId, uint256 nextId, uint256 taskCount) {
        if (limit == 0 || limit > MAX_PAGE) revert TaskLensBadPage(limit, MAX_PAGE);
        taskCount = _tasks.taskCount();
        uint256 id = fromId == 0 ? 1 : fromId;
        nextId = id + limit;
        uint256 end = nextId > taskCount + 1 ? taskCount + 1 : nextId;
        firstOpenId = nextId;
        due = new DueTask[](end > id ? end - id : 0);
        uint256 n;
        for (; id < end; ++id) {
            ITaskRegistry.Task memory k = _tasks.getTask(id);
            (Action a, uint64 marker, bool open) = _dueAction(id, k);
            if (open && id < firstOpenId) firstOpenId = id;
            if (a == Action.None) continue;
            due[n++] = DueTask(id, a, _selector(a), uint8(k.status), k.round, marker);
        }
        assembly ("memory-safe") {
            mstore(due, n)
        }
    }

    /// @dev The registry's own guards, in the order its `checker()` applies them, plus disputes and redemptions.
    function _dueAction(
        uint256 id,
        ITaskRegistry.Task memory k
    ) private view returns (Action, uint64 marker, bool open) {
        ITaskRegistry.Status st = k.status;
        if (st == ITaskRegistry.Status.Bidding) {
            // sealed (seed block committed): select once the seed block is mined; marker = the seed block
            if (k.targetBlock != 0) {
                return (block.number > k.targetBlock ? Action.CloseBidding : Action.None, k.targetBlock, true);
            }
            bool closable = block.timestamp > k.biddingEnds || (k.maxBids != 0 && k.bidCount >= k.maxBids);
            return (closable ? Action.CloseBidding : Action.None, 0, true);
        }
        if (st >= ITaskRegistry.Status.Running && st <= ITaskRegistry.Status.Disputed) {
            if (st == ITaskRegistry.Status.Running && block.timestamp > _dueBy(id, k)) return (Action.Expire, 0, true);
            if (block.number > k.targetBlock && _tasks.councilOf(id, k.round).length == 0) {
                return (Action.DrawCouncil, k.targetBlock, true);
            }
            if (st == ITaskRegistry.Status.Running) return (Action.None, 0, true);
            // a bisection (issue 21 item 2): a lapsed move is due (marker: the moves made); a judged step settles
            // like a dispute round
            ITaskRegistry.Bisection memory b = _tasks.bisectionOf(id);
            if (b.phase == 1 || b.phase == 2) {
                return (block.timestamp > b.moveEnds ? Action.TimeoutDispute : Action.None, b.moves, true);
            }
            return (_verdictAction(id, k, b.phase == 3), 0, true);
        }
        if (st == ITaskRegistry.Status.Accepted && k.flags & APPEAL_FLAG != 0) {
            // a client's appeal of the accepted result (issue 21 item 2): its moves run on the Accepted task (the
            // referee round, once the step is isolated, reopens it as Disputed above); a lapsed move is due
            ITaskRegistry.Bisection memory b = _tasks.bisectionOf(id);
            if (b.phase == 1 || b.phase == 2) {
                return (block.timestamp > b.moveEnds ? Action.TimeoutDispute : Action.None, b.moves, true);
            }
            return (Action.None, 0, true);
        }
        if ((st == ITaskRegistry.Status.Rejected || st == ITaskRegistry.Status.Expired) && k.assignmentId != 0) {
            IProviderRegistry.Assignment memory asg = _providers.assignment(k.assignmentId);
            if (asg.status != ASSIGNMENT_OPEN) return (Action.None, 0, false);
            if (block.timestamp > asg.deadline) return (Action.ReportRedemptionFailure, k.assignmentId, true);
            return (Action.None, 0, true);
        }
        return (Action.None, 0, false);
    }

    /// @dev Verifying or Disputed: finalise a quorum (a rejection in round 0 only after the appeal window); open a
    ///      dispute when no side can reach the quorum any more, or the window ended without one.
    ///      A rejection needs a quorum on one other result (commit–reveal, issue 21 item 1), not mere dissent.
    function _verdictAction(uint256 id, ITaskRegistry.Task memory k, bool judging) private view returns (Action) {
        uint256 q = k.round == 0 ? k.quorum : uint256(k.councilSize) + 1;
        bool windowOver = block.timestamp > k.votingEnds;
        bool disputed = judging || k.status == ITaskRegistry.Status.Disputed;
        if (k.agree >= q) return Action.Finalize;
        uint256 d;
        if (k.disagree != 0) (, d) = _tasks.leadingRival(id);
        if (d >= q) return disputed || windowOver ? Action.Finalize : Action.None;
        // no quorum in the dispute round: governance's resolveDispute, then anyone's finalize (refund, TSK-05)
        if (disputed) return block.timestamp > uint256(k.votingEnds) + _disputeGrace() ? Action.Finalize : Action.None;
        uint256 left = uint256(k.councilSize) - k.agree - k.disagree;
        if (windowOver || (k.agree + left < q && d + left < q)) return Action.OpenDispute;
        return Action.None;
    }

    /// @dev When a Running task's pending checkpoint is due, as the registry's `expire` reads it (TaskPricing.dueBy):
    ///      the deadline, or in response mode 1 an earlier checkpoint's milestone L + (deadline − L)·(i + 1)/N with L
    ///      the bid window's end plus half the run time (docs/tasks.md "Payment functions and response modes").
    function _dueBy(uint256 id, ITaskRegistry.Task memory k) private view returns (uint256) {
        uint256 deadline = k.deadline;
        uint256 n = k.checkpoints;
        if (uint256(k.commits) + 1 >= n) return deadline;
        (, uint8 mode) = _tasks.paymentTermsOf(id);
        if (mode == 0) return deadline;
        uint256 latest = uint256(k.biddingEnds) + (deadline - k.biddingEnds) / 2;
        return latest + ((deadline - latest) * (uint256(k.commits) + 1)) / n;
    }

    function _disputeGrace() private view returns (uint256) {
        return _tasks.params().disputeWindowSec;
    }

    function _selector(Action a) private pure returns (bytes4) {
        if (a == Action.CloseBidding) return ITaskRegistry.closeBidding.selector;
        if (a == Action.Expire) return ITaskRegistry.expire.selector;
        if (a == Action.DrawCouncil) return ITaskRegistry.drawCouncil.selector;
        if (a == Action.OpenDispute) return ITaskRegistry.openDispute.selector;
        if (a == Action.Finalize) return ITaskRegistry.finalize.selector;
        if (a == Action.TimeoutDispute) return ITaskRegistry.timeoutDispute.selector;
        return ITaskRegistry.reportRedemptionFailure.selector;
    }
}
