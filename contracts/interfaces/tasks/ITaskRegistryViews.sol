// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ITaskRegistryViews
/// @notice The TaskRegistry's plain views (no task types): payment terms, councils, the leading rival result, the
///         task count and the replenishment backlog. Inherited by ITaskRegistry (one ABI).
interface ITaskRegistryViews {
    /// @notice A task's payment function and response mode as submitted (issue 21 item 5; immutable once submitted).
    /// @param taskId The task.
    /// @return paymentParams The payment-function word (`Terms.paymentParams`).
    /// @return responseMode The response mode (`Terms.responseMode`).
    function paymentTermsOf(uint256 taskId) external view returns (uint256 paymentParams, uint8 responseMode);

    /// @notice A council.
    /// @param taskId The task.
    /// @param round 0 or 1.
    /// @return The members.
    function councilOf(uint256 taskId, uint8 round) external view returns (address[] memory);

    /// @notice The current round's most revealed result other than the executor's (a quorum on it rejects).
    /// @param taskId The task.
    /// @return resultHash The result (zero when every reveal matched the executor's).
    /// @return count Members of the current round who revealed it.
    function leadingRival(uint256 taskId) external view returns (bytes32 resultHash, uint256 count);

    /// @notice Whether `member`'s seat on `taskId` had its duty lock released after the verdict (`releaseSeat` or
    ///         its fee claim). A seat of a task ended by a verdict holds its lock until then (TSK-08).
    /// @param taskId The task.
    /// @param member The council member.
    /// @return Whether the seat was released.
    function seatReleased(uint256 taskId, address member) external view returns (bool);

    /// @notice Whether a task's redemption failure was reported by someone other than its client, and what that paid
    ///         the client outside any call of the client's own (a client contract attributes it:
    ///         DeliveryOrders.reportFailure). False before a report and when the client reported itself.
    /// @param taskId The task.
    /// @return reported A third party (a keeper, the executor) reported the failure.
    /// @return compensationDps The DPS slashed from the failing provider and paid to the client.
    /// @return returnedCh The report's held bounty returned to the client (CH; when the executor reported, which
    ///         earns no bounty).
    function reportedToClient(
        uint256 taskId
    ) external view returns (bool reported, uint256 compensationDps, uint256 returnedCh);

    /// @notice Number of tasks submitted.
    /// @return The count.
    function taskCount() external view returns (uint256);

    /// @notice DPS transferred to the reward pool whose `replenish` is still pending.
    /// @return The amount.
    function replenishBacklog() external view returns (uint256);
}
