// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasksTypes} from "./IStreamTasksTypes.sol";

/// @title IStreamTasksCouncil
/// @notice The on-chain consensus actions of IStreamTasks (issue 21 item 4; docs/tasks.md "Stream consensus"): the
///         client asks its council a request, members answer, commit and reveal, anyone resolves and slashes, and
///         members claim consensus answers the client left unpaid.
interface IStreamTasksCouncil {
    /// @notice Sets the consensus parameters and caches the ProviderRegistry slashed through. ADMIN only.
    /// @dev `slashDps` must not exceed the subscription lock (a fault's slash is covered by the stake it locks).
    /// @param p The parameters.
    function setConsensusParams(IStreamTasksTypes.ConsensusParams calldata p) external;

    /// @notice Client asks its live stream's council a request on chain; every current subscriber is a member.
    /// @dev The deposit must cover the request for every member at `maxPrice` plus the client penalty.
    /// @param streamId The stream.
    /// @param inputHash Content hash of the request.
    /// @return requestId The request (1-based per stream).
    function request(uint256 streamId, bytes32 inputHash) external returns (uint32 requestId);

    /// @notice Optimistic mode: the first member's answer, delivered at once and challengeable for
    ///         `challengeWindowSec`. Within the answer window only.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param answer The answer hash (non-zero).
    function answer(uint256 streamId, uint32 requestId, bytes32 answer) external;

    /// @notice Anyone challenges an optimistic first answer inside its challenge window, bonding
    ///         `challengeBondRequests × maxPrice` in the stream's currency (approve first); the other members then
    ///         commit and reveal.
    /// @param streamId The stream.
    /// @param requestId The request.
    function challenge(uint256 streamId, uint32 requestId) external;

    /// @notice A member commits to its answer: `answerCommitment(streamId, requestId, member, answer, salt)`.
    ///         Weighted and unanimous requests, and challenged optimistic ones (not the first answerer).
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param commitment The commitment.
    function commitAnswer(uint256 streamId, uint32 requestId, bytes32 commitment) external;

    /// @notice A member reveals its committed answer: after the commit window (or once every member committed),
    ///         within the reveal window.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param answer The answer hash (non-zero).
    /// @param salt The commitment's salt.
    function revealAnswer(uint256 streamId, uint32 requestId, bytes32 answer, bytes32 salt) external;

    /// @notice Anyone resolves a request after its deadline (or once every answer is in): delivers the most weighted
    ///         answer, records the mode's consensus (a failure counts as a failed consensus of the stream) and pays
    ///         out a challenge bond.
    /// @param streamId The stream.
    /// @param requestId The request.
    function resolve(uint256 streamId, uint32 requestId) external;

    /// @notice Anyone slashes a member found at fault in a resolved request (silent, or outside a strict weighted
    ///         majority; an overturned optimistic first answer), `slashDps` through ProviderRegistry.slash with the
    ///         caller as finder, within `slashWindowSec` of the request's last deadline (TSK-03).
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param provider The member.
    function slashFaulty(uint256 streamId, uint32 requestId, address provider) external;

    /// @notice A provider proves consensus answers of resolved requests (older than `payGraceSec`); if the receipts
    ///         settled for it count fewer answers than proven, the shortfall is paid from the deposit at its
    ///         subscription price plus `clientPenaltyBps` of it (capped by the deposit). Until the stream closes.
    /// @param streamId The stream.
    /// @param requestIds Requests the caller answered in consensus.
    function claimUnpaid(uint256 streamId, uint32[] calldata requestIds) external;

    /// @notice Releases a leaving member's subscription lock once its last duty's slash window is over.
    /// @param streamId The stream.
    /// @param provider The former member.
    function releaseDutyLock(uint256 streamId, address provider) external;
}
