// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "./IStreamTasks.sol";

/// @title IStreamTasksStreamEvents
/// @notice Events of the stream lifecycle (open, subscriptions, spec, failures, settlement, funding, retraction),
///         carrying post-state. The consensus events are in IStreamTasksEvents.
interface IStreamTasksStreamEvents {
    /// @notice Emitted when a stream opens.
    event StreamOpened(uint256 indexed streamId, address indexed client, IStreamTasks.StreamTerms terms);
    /// @notice Emitted on subscribe / unsubscribe with the post-state.
    event Subscribed(
        uint256 indexed streamId,
        address indexed provider,
        uint128 price,
        uint8 subscribers,
        IStreamTasks.Status status
    );
    /// @notice Emitted when a provider leaves.
    event Unsubscribed(
        uint256 indexed streamId,
        address indexed provider,
        uint8 subscribers,
        IStreamTasks.Status status
    );
    /// @notice Emitted when the client changes I and f.
    event SpecUpdated(uint256 indexed streamId, bytes32 inputHash, bytes32 fnHash, uint32 specVersion);
    /// @notice Emitted when the client resumes a stream its failed-consensus reports interrupted.
    /// @param streamId The stream.
    /// @param status Live when c subscribers are there, otherwise Interrupted (with a fresh count).
    event StreamResumed(uint256 indexed streamId, IStreamTasks.Status status);
    /// @notice Emitted when the client reports a failed consensus.
    event ConsensusFailed(uint256 indexed streamId, uint8 failures, IStreamTasks.Status status);
    /// @notice Emitted per settled receipt.
    event ReceiptSettled(
        uint256 indexed streamId,
        address indexed provider,
        uint64 answered,
        uint64 newlyPaid,
        uint256 amount,
        uint128 deposit
    );
    /// @notice Emitted on top-up.
    event StreamFunded(uint256 indexed streamId, uint256 amount, uint128 deposit);
    /// @notice Emitted when the client retracts.
    event StreamRetracted(uint256 indexed streamId, uint40 closesAt);
    /// @notice Emitted when the remaining deposit is withdrawn.
    event StreamWithdrawn(uint256 indexed streamId, uint256 amount);
    /// @notice Emitted when governance sets the stake a subscription locks (TSK-08).
    /// @param lockDps DPS each new subscription locks in the ProviderRegistry until it ends.
    /// @param registry The ProviderRegistry holding the locks (the matcher's).
    event SubscriptionLockSet(uint96 lockDps, address registry);
}
