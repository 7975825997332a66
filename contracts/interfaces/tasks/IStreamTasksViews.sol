// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "./IStreamTasks.sol";
import {IStreamTasksTypes} from "./IStreamTasksTypes.sol";

/// @title IStreamTasksViews
/// @notice The read side of IStreamTasks: streams, subscriptions, receipt digests and the consensus records.
interface IStreamTasksViews {
    /// @notice The DPS each new subscription locks.
    /// @return lockDps The amount.
    function subscriptionLock() external view returns (uint96 lockDps);

    /// @notice EIP-712 digest the client signs for a receipt (domain "CHX StreamTasks", version "1").
    function receiptDigest(IStreamTasks.Receipt calldata r) external view returns (bytes32);

    /// @notice A stream.
    function getStream(uint256 streamId) external view returns (IStreamTasks.Stream memory);

    /// @notice A subscriber's latest price (0: never subscribed), requests and amount already paid, and the stake its
    ///         subscription locks (0 when not subscribed).
    function subscription(
        uint256 streamId,
        address provider
    ) external view returns (uint128 price, uint64 paid, uint128 paidAmount, uint96 lockedDps);

    /// @notice Answers needed per request under the stream's mode: 1, ceil(w·c) or c.
    function answersPerRequest(uint256 streamId) external view returns (uint256);

    /// @notice The consensus parameters.
    /// @return p The parameters.
    function consensusParams() external view returns (IStreamTasksTypes.ConsensusParams memory p);

    /// @notice A request.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @return q The request.
    function getRequest(uint256 streamId, uint32 requestId) external view returns (IStreamTasksTypes.Request memory q);

    /// @notice A member's answer to a request.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param provider The member.
    /// @return a The answer record.
    function answerOf(
        uint256 streamId,
        uint32 requestId,
        address provider
    ) external view returns (IStreamTasksTypes.Answer memory a);

    /// @notice A subscriber's council duty on a stream.
    /// @param streamId The stream.
    /// @param provider The provider.
    /// @return d The duty.
    function dutyOf(uint256 streamId, address provider) external view returns (IStreamTasksTypes.Duty memory d);

    /// @notice Requests asked on a stream so far.
    /// @param streamId The stream.
    /// @return count The count.
    function requestCount(uint256 streamId) external view returns (uint32 count);

    /// @notice The commitment a member posts for `answer` with `salt`.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param provider The member.
    /// @param answer The answer hash.
    /// @param salt A secret salt.
    /// @return The commitment.
    function answerCommitment(
        uint256 streamId,
        uint32 requestId,
        address provider,
        bytes32 answer,
        bytes32 salt
    ) external pure returns (bytes32);
}
