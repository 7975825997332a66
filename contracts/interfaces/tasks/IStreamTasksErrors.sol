// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "./IStreamTasks.sol";
import {IStreamTasksTypes} from "./IStreamTasksTypes.sol";

/// @title IStreamTasksErrors
/// @notice Errors of StreamTasks: the on-chain stream consensus (issue 21 item 4) and the stream lifecycle.
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

    // ─── the stream lifecycle ───
    /// @notice Thrown on invalid stream terms.
    /// @param reason Short tag.
    error StreamInvalidTerms(bytes32 reason);
    /// @notice Thrown when the stream is not in the status the action needs.
    /// @param streamId The stream.
    /// @param status Its status.
    error StreamWrongStatus(uint256 streamId, IStreamTasks.Status status);
    /// @notice Thrown when the caller is not the stream's client.
    /// @param caller The caller.
    error StreamNotClient(address caller);
    /// @notice Thrown when a subscriber's price exceeds the stream's maximum.
    /// @param price The price.
    /// @param maxPrice The maximum.
    error StreamPriceTooHigh(uint256 price, uint256 maxPrice);
    /// @notice Thrown when a provider fails the matcher's hard filters.
    /// @param provider The provider.
    error StreamIneligible(address provider);
    /// @notice Thrown when a provider subscribes twice or unsubscribes without a subscription.
    /// @param provider The provider.
    error StreamSubscription(address provider);
    /// @notice Thrown when the stream already has c subscribers.
    /// @param streamId The stream.
    error StreamFull(uint256 streamId);
    /// @notice Thrown when a receipt's signature is not the client's.
    /// @param signer The recovered signer.
    error StreamBadSignature(address signer);
    /// @notice Thrown when a receipt pays a provider that never subscribed.
    /// @param provider The provider.
    error StreamNotSubscriber(address provider);
    /// @notice Thrown when the deposit does not cover a settlement.
    /// @param owed Amount owed.
    /// @param deposit Deposit left.
    error StreamDepositExhausted(uint256 owed, uint256 deposit);
    /// @notice Thrown when a receipt's cumulative amount exceeds its answered count at the stream's maximum price.
    /// @param amount The receipt's amount.
    /// @param cap answered × maxPrice.
    error StreamReceiptAboveMaxPrice(uint256 amount, uint256 cap);
    /// @notice Thrown when the remaining deposit is withdrawn before the settlement grace ends.
    /// @param closesAt End of the grace.
    error StreamStillSettling(uint256 closesAt);
}
