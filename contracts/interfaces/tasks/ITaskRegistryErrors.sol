// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ITaskRegistryErrors
/// @notice The errors of ITaskRegistry (inherited by it; same selectors and topics). Code that reverts or emits
///         them names this interface: `ITaskRegistryErrors.X`.
interface ITaskRegistryErrors {
    /// @notice Thrown when the terms are invalid (council, quorum, checkpoints, deadline, payment).
    /// @param reason Which term (short tag).
    error TaskInvalidTerms(bytes32 reason);
    /// @notice Thrown when a bid arrives after the halting rule closed bidding.
    /// @param taskId The task.
    /// @param biddingEnds End of the bid window.
    error TaskBiddingClosed(uint256 taskId, uint256 biddingEnds);
    /// @notice Thrown when bidding is closed before the halting rule allows it.
    /// @param taskId The task.
    /// @param biddingEnds End of the bid window.
    error TaskBiddingOpen(uint256 taskId, uint256 biddingEnds);
    /// @notice Thrown when a bid is too high for the deposit (price plus every council fee must fit).
    /// @param price The bid.
    /// @param maxPrice The largest valid bid.
    error TaskBidTooHigh(uint256 price, uint256 maxPrice);
    /// @notice Thrown when a bid is withdrawn by someone other than its bidder (or the index holds no bid).
    /// @param taskId The task.
    /// @param index The bid index.
    /// @param caller The caller.
    error TaskNotBidder(uint256 taskId, uint256 index, address caller);
    /// @notice Thrown when the client bids on its own task.
    /// @param taskId The task.
    error TaskClientCannotBid(uint256 taskId);
    /// @notice Thrown when the caller is not the task's executor.
    /// @param caller The caller.
    /// @param executor The executor.
    error TaskNotExecutor(address caller, address executor);
    /// @notice Thrown when a commit names a checkpoint other than the next one.
    /// @param expected Next checkpoint index.
    /// @param given Index given.
    error TaskBadCheckpoint(uint256 expected, uint256 given);
    /// @notice Thrown when the action comes after the task deadline.
    /// @param deadline The deadline.
    error TaskDeadlinePassed(uint256 deadline);
    /// @notice Thrown when a deadline-enforcement call (or governance's dispute resolution) comes too early.
    /// @param deadline The deadline.
    error TaskDeadlineNotPassed(uint256 deadline);
    /// @notice Thrown when the executor is selected before the seed block committed at the seal is mined.
    /// @param taskId The task.
    /// @param targetBlock The seed block.
    error TaskSeedPending(uint256 taskId, uint256 targetBlock);
    /// @notice Thrown when the council is drawn before its seed block is mined or when already drawn.
    /// @param taskId The task.
    /// @param targetBlock The seed block.
    error TaskCouncilNotDrawable(uint256 taskId, uint256 targetBlock);
    /// @notice Thrown when the matcher finds fewer eligible members than the council needs.
    /// @param needed Members needed.
    /// @param found Members found.
    error TaskCouncilUnavailable(uint256 needed, uint256 found);
    /// @notice Thrown when the caller is not a member of the task's current council.
    /// @param taskId The task.
    /// @param caller The caller.
    error TaskNotCouncilMember(uint256 taskId, address caller);
    /// @notice Thrown when a current member reveals twice (the first reveal counts once).
    /// @param taskId The task.
    /// @param member The member.
    error TaskAlreadyRevealed(uint256 taskId, address member);
    /// @notice Thrown when a commitment comes after the commit window, or a reveal before it ended.
    /// @param taskId The task.
    /// @param commitEnds End of the commit window.
    error TaskCommitPhase(uint256 taskId, uint256 commitEnds);
    /// @notice Thrown when a reveal does not open the member's commitment (or the member committed nothing).
    /// @param taskId The task.
    /// @param member The member.
    error TaskBadReveal(uint256 taskId, address member);
    /// @notice Thrown when a commitment is zero.
    error TaskZeroCommitment();
    /// @notice Thrown when the task is finalised without a quorum on any result.
    /// @param taskId The task.
    /// @param agree Reveals equal to the executor's result.
    /// @param disagree Reveals of the most revealed other result.
    /// @param quorum Reveals needed.
    error TaskNoQuorum(uint256 taskId, uint256 agree, uint256 disagree, uint256 quorum);
    /// @notice Thrown when a rejection is finalised inside the executor's appeal window.
    /// @param taskId The task.
    /// @param votingEnds End of the window.
    error TaskAppealWindowOpen(uint256 taskId, uint256 votingEnds);
    /// @notice Thrown when a dispute is opened while the council may still reach a quorum in time.
    /// @param taskId The task.
    error TaskNoDisagreement(uint256 taskId);
    /// @notice Thrown when a CH redemption failure is reported twice or for a task without one.
    /// @param taskId The task.
    error TaskNoOpenRedemption(uint256 taskId);
    /// @notice Thrown when a council fee is claimed by someone who did not vote with the verdict, or twice.
    /// @param taskId The task.
    /// @param member The caller.
    error TaskNothingToClaim(uint256 taskId, address member);
    /// @notice Thrown when a seat release names no member of the task, a task without a verdict, or a released seat.
    /// @param taskId The task.
    /// @param member The member named.
    error TaskSeatNotReleasable(uint256 taskId, address member);
    /// @notice Thrown when parameters are out of range.
    error TaskInvalidParams();
    /// @notice Thrown when `performUpkeep` data names no due action.
    error TaskUnknownUpkeep();
    /// @notice Thrown when `flushReplenishment` finds no deferred DPS.
    error TaskNothingToFlush();
    /// @notice Thrown when a checkpoint chain is malformed (n not a power of two in 1..2^16, zero root) or committed
    ///         twice or after a bisection opened.
    /// @param taskId The task.
    error TaskBadChain(uint256 taskId);
    /// @notice Thrown when a Merkle proof does not show `leaf` at `index` under the mover's root.
    /// @param taskId The task.
    /// @param index The leaf index.
    error TaskBadProof(uint256 taskId, uint256 index);
    /// @notice Thrown when a bisection is opened on a task that already has one, or the action needs none running.
    /// @param taskId The task.
    /// @param phase The bisection's phase.
    error TaskBisectionPhase(uint256 taskId, uint8 phase);
    /// @notice Thrown when a bisection is opened by someone who is neither a round-0 member that revealed a result
    ///         other than the executor's nor the client, or with a final leaf equal to the executor's result.
    /// @param taskId The task.
    /// @param caller The caller.
    error TaskCannotChallenge(uint256 taskId, address caller);
    /// @notice Thrown when a bisection move comes from someone other than the party to move.
    /// @param taskId The task.
    /// @param caller The caller.
    /// @param mover The party whose move it is.
    error TaskNotYourMove(uint256 taskId, address caller, address mover);
    /// @notice Thrown when a move comes after its deadline, or a timeout is claimed before it.
    /// @param taskId The task.
    /// @param moveEnds The move's deadline.
    error TaskMoveDeadline(uint256 taskId, uint256 moveEnds);
    /// @notice Thrown when `paymentParams` names a payment function outside the closed set (0 FLAT, 1 METERED,
    ///         2 PROPORTIONAL; docs/tasks.md "Payment functions and response modes").
    /// @param kind The kind byte (bits 0..7 of `paymentParams`).
    error TaskUnknownPaymentKind(uint8 kind);
    /// @notice Thrown when a known payment function's parameters are out of bounds: a zero declared or total
    ///         amount, a threshold above 100 %, bits set beyond the kind's fields, or a variable price on a CH task.
    /// @param kind The kind.
    /// @param paymentParams The word given.
    error TaskInvalidPaymentParams(uint8 kind, uint256 paymentParams);
    /// @notice Thrown when `responseMode` is neither 0 (final result only) nor 1 (a result per checkpoint, each due
    ///         by its milestone).
    /// @param responseMode The mode given.
    error TaskInvalidResponseMode(uint8 responseMode);
    /// @notice Thrown when a keeper claims credits it does not have (nothing credited, or claimed already).
    /// @param keeper The caller.
    /// @param currency The currency asked for.
    error TaskKeeperNothingToClaim(address keeper, uint8 currency);
    /// @notice Thrown when a client's appeal (or the closing of its window) comes outside the appeal window: the task
    ///         is not an accepted non-CH task whose executor is still held, or the window (`disputeWindowSec` from
    ///         acceptance) has ended (appeal) or not yet ended (close).
    /// @param taskId The task.
    /// @param appealEnds End of the window (0: the task has none, or it was closed).
    error TaskAppealClosed(uint256 taskId, uint256 appealEnds);
}
