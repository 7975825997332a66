// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasksTypes} from "./IStreamTasksTypes.sol";

/// @title IStreamTasksEvents
/// @notice Events of the on-chain stream consensus (issue 21 item 4), carrying post-state: parameters, requests and
///         answers. The verdict events are in IStreamTasksVerdictEvents.
interface IStreamTasksEvents {
    /// @notice Emitted when governance sets the consensus parameters.
    /// @param p The parameters.
    /// @param registry The ProviderRegistry slashed through (the matcher's).
    event ConsensusParamsSet(IStreamTasksTypes.ConsensusParams p, address registry);
    /// @notice Emitted when the client asks the council a request.
    /// @param streamId The stream.
    /// @param requestId The request (1-based, per stream).
    /// @param inputHash Content hash of the request.
    /// @param council Members asked.
    /// @param commitEnd End of the commit (optimistic: first-answer) window.
    /// @param revealEnd End of the reveal window (optimistic: 0 until answered).
    event RequestOpened(
        uint256 indexed streamId,
        uint32 indexed requestId,
        bytes32 inputHash,
        uint8 council,
        uint40 commitEnd,
        uint40 revealEnd
    );
    /// @notice Emitted when a member commits to an answer.
    /// @param commits Commitments after.
    event AnswerCommitted(uint256 indexed streamId, uint32 indexed requestId, address indexed provider, uint8 commits);
    /// @notice Emitted when a member reveals its answer.
    /// @param answer The answer hash.
    /// @param weight Its weight (weighted: the member's stake; otherwise 1).
    /// @param reveals Reveals after.
    /// @param top The most weighted answer after.
    /// @param topWeight Its weight.
    event AnswerRevealed(
        uint256 indexed streamId,
        uint32 indexed requestId,
        address indexed provider,
        bytes32 answer,
        uint256 weight,
        uint8 reveals,
        bytes32 top,
        uint128 topWeight
    );
    /// @notice Emitted when an optimistic request gets its first answer, which is delivered at once.
    /// @param challengeEnd Last moment to challenge it.
    event AnswerDelivered(
        uint256 indexed streamId,
        uint32 indexed requestId,
        address indexed provider,
        bytes32 answer,
        uint40 challengeEnd
    );
    /// @notice Emitted when an optimistic first answer is challenged; the other members now commit and reveal.
    event RequestChallenged(
        uint256 indexed streamId,
        uint32 indexed requestId,
        address indexed challenger,
        uint128 bond,
        uint40 commitEnd,
        uint40 revealEnd
    );
}
