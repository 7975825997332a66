// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasksTypes} from "./IStreamTasksTypes.sol";

/// @title IStreamTasksErrors
/// @notice Errors of the on-chain stream consensus (issue 21 item 4).
interface IStreamTasksErrors {
    /// @notice Thrown when governance has not set the consensus parameters (or sets invalid ones).
    /// @param reason Short tag.
    error StreamConsensusParams(bytes32 reason);
    /// @notice Thrown when a request is not in the phase the action needs.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param phase Its phase.
    error StreamRequestPhase(uint256 streamId, uint32 requestId, IStreamTasksTypes.RequestPhase phase);
    /// @notice Thrown when the caller was not a council member of the request.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param provider The caller.
    error StreamNotMember(uint256 streamId, uint32 requestId, address provider);
    /// @notice Thrown when an answer, commitment, reveal or challenge comes outside its window.
    /// @param now_ The block time.
    /// @param opensAt Start of the window (exclusive).
    /// @param closesAt End of the window (inclusive).
    error StreamOutsideWindow(uint256 now_, uint256 opensAt, uint256 closesAt);
    /// @notice Thrown when a member commits, answers or reveals twice, or reveals without a matching commitment.
    /// @param provider The member.
    error StreamAnswerRejected(address provider);
    /// @notice Thrown when a request cannot resolve yet.
    /// @param resolvesAt When it can (unless every answer is in earlier).
    error StreamNotResolvable(uint256 resolvesAt);
    /// @notice Thrown when a slash targets a member that was not found at fault, or was slashed already.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param provider The member.
    error StreamNotFaulty(uint256 streamId, uint32 requestId, address provider);
    /// @notice Thrown when a fault is reported after its slash window.
    /// @param closedAt End of the slash window.
    error StreamSlashWindowOver(uint256 closedAt);
    /// @notice Thrown when a provider re-subscribes, or a lock is released, while an earlier duty is still slashable.
    /// @param lockUntil End of the duty.
    error StreamDutyPending(uint256 lockUntil);
    /// @notice Thrown when the deposit does not cover a new request at the maximum price plus the client penalty.
    /// @param required Deposit needed.
    /// @param deposit Deposit left.
    error StreamDepositTooLow(uint256 required, uint256 deposit);
    /// @notice Thrown when a claim of unpaid answers finds nothing owed.
    /// @param provider The claimant.
    error StreamNothingOwed(address provider);
}
