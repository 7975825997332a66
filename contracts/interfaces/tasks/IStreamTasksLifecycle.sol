// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "./IStreamTasks.sol";

/// @title IStreamTasksLifecycle
/// @notice The stream lifecycle of IStreamTasks (SPEC section 4): a client opens, funds, re-specifies, retracts and
///         withdraws its stream; providers subscribe and leave; anyone settles client-signed receipts.
interface IStreamTasksLifecycle {
    /// @notice Opens a stream and escrows `deposit` (approve first).
    /// @param t The terms.
    /// @return streamId The id.
    function open(IStreamTasks.StreamTerms calldata t) external returns (uint256 streamId);

    /// @notice Subscribes the caller at `price` per answered request (must pass the matcher's filters). The
    ///         subscription locks `subscriptionLock()` DPS of the caller's stake until it unsubscribes (TSK-08).
    function subscribe(uint256 streamId, uint128 price) external;

    /// @notice Leaves the stream (releasing the subscription's stake lock); below c subscribers a live stream is
    ///         interrupted.
    function unsubscribe(uint256 streamId) external;

    /// @notice Sets the DPS each new subscription locks (0: none); existing subscriptions keep their lock. ADMIN only.
    /// @param lockDps DPS per subscription.
    function setSubscriptionLock(uint96 lockDps) external;

    /// @notice Client changes I and f (bumps the spec version).
    function updateSpec(uint256 streamId, bytes32 inputHash, bytes32 fnHash) external;

    /// @notice Client reports a request whose consensus failed under the mode; `maxFailures` interrupt the stream
    ///         until the client `resume`s it (subscribers leaving and re-joining do not: issue 17 item 21).
    function reportFailedConsensus(uint256 streamId) external;

    /// @notice Client resets the failed-consensus count of its interrupted stream: live again with c subscribers.
    /// @param streamId The stream.
    function resume(uint256 streamId) external;

    /// @notice Client adds to the deposit.
    function fund(uint256 streamId, uint128 amount) external;

    /// @notice Client retracts: no new subscriptions; receipts settle for `settleGraceSec`, then the rest returns.
    function retract(uint256 streamId) external;

    /// @notice Client withdraws the remaining deposit after retraction and the grace.
    function withdraw(uint256 streamId) external;

    /// @notice Settles a batch of client-signed receipts (anyone may submit): each pays its cumulative amount minus
    ///         what was already paid to that provider for the stream, from the deposit.
    function settle(IStreamTasks.Receipt[] calldata receipts, bytes[] calldata signatures) external;
}
