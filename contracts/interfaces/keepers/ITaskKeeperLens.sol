// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ITaskKeeperLens
/// @notice Read-only keeper scan of the TaskRegistry (periphery, holds nothing): pages through task ids and reports
///         every permissionless deadline or finalisation action that is due now — close bidding, expire a missed
///         deadline, draw a council, open a dispute after a vote window without a quorum, finalise a quorum, report
///         a failed CH redemption. It complements `TaskRegistry.checker()`, which (to fit the registry under the
///         EIP-170 size limit) only looks at the newest 64 tasks and returns one action at a time: the lens covers
///         every task, caller-paged, so a keeper finds all due work in a few calls (docs/keepers.md).
/// @dev The due rules mirror the registry's own guards; a keeper still simulates each call before sending it, and the
///      registry's typed errors (`TaskAlreadyDone`, `TaskWrongStatus`, `TaskCouncilNotDrawable`,
///      `TaskNoOpenRedemption`) tell a keeper that lost a race that the work was done (OPS-01).
interface ITaskKeeperLens {
    /// @notice The registry function a due task needs (each takes only the task id).
    enum Action {
        None,
        CloseBidding,
        Expire,
        DrawCouncil,
        OpenDispute,
        Finalize,
        ReportRedemptionFailure,
        TimeoutDispute
    }

    /// @notice One due action.
    /// @param taskId The task.
    /// @param action What to call on the registry.
    /// @param selector The registry function's selector (calldata = selector + abi.encode(taskId)).
    /// @param status The task's status now (`ITaskRegistry.Status` as uint8).
    /// @param round The task's council round (0, or 1 in a dispute).
    /// @param marker Distinguishes repeated work of the same kind: the seed block for DrawCouncil and for the
    ///        second (selecting) CloseBidding call (0 for the first, sealing one), the assignment id for
    ///        ReportRedemptionFailure, the moves made for TimeoutDispute (a bisection's lapsed move), 0 otherwise.
    struct DueTask {
        uint256 taskId;
        Action action;
        bytes4 selector;
        uint8 status;
        uint8 round;
        uint64 marker;
    }

    /// @notice Thrown when a page is empty or too large.
    /// @param limit The page size asked.
    /// @param maxLimit The largest page.
    error TaskLensBadPage(uint256 limit, uint256 maxLimit);

    /// @notice The TaskRegistry scanned.
    /// @return The address.
    function taskRegistry() external view returns (address);

    /// @notice The ProviderRegistry holding CH redemption assignments (their delivery deadlines).
    /// @return The address.
    function providerRegistry() external view returns (address);

    /// @notice Due actions of tasks `fromId` .. `fromId + limit − 1` (ids start at 1; ids past `taskCount` are
    ///         skipped), at most one per task, in id order.
    /// @param fromId First id to look at (0 is read as 1).
    /// @param limit Ids to look at (1..500).
    /// @return due The due actions.
    /// @return firstOpenId The lowest id in the page whose task may still need keeper work later (not final, or a
    ///         CH redemption still open), or `nextId` when none: a keeper restarts its scan there.
    /// @return nextId The first id after the page.
    /// @return taskCount The registry's task count.
    function dueTasks(
        uint256 fromId,
        uint256 limit
    ) external view returns (DueTask[] memory due, uint256 firstOpenId, uint256 nextId, uint256 taskCount);
}
