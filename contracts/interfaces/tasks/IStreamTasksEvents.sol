// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasksTypes} from "./IStreamTasksTypes.sol";

/// @title IStreamTasksEvents
/// @notice Events of the on-chain stream consensus (issue 21 item 4), carrying post-state.
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
    /// @notice Emitted when a request resolves: the delivered (most weighted) answer and the verdict.
    /// @param answer The delivered answer.
    /// @param consensus The mode's consensus was reached.
    /// @param decided A strict weighted majority exists (members outside it are slashable).
    /// @param reveals Answers revealed.
    /// @param topWeight Weight of the most weighted answer.
    /// @param revealedWeight Total revealed weight.
    /// @param failures The stream's failed-consensus count after.
    event RequestResolved(
        uint256 indexed streamId,
        uint32 indexed requestId,
        bytes32 answer,
        bool consensus,
        bool decided,
        uint8 reveals,
        uint128 topWeight,
        uint128 revealedWeight,
        uint8 failures
    );
    /// @notice Emitted when a challenge bond is paid out at resolution.
    /// @param to The first answerer (upheld) or the challenger (overturned or undecided).
    event ChallengeBondPaid(uint256 indexed streamId, uint32 indexed requestId, address indexed to, uint128 bond);
    /// @notice Emitted when a member outside consensus (or silent) is slashed through the ProviderRegistry.
    /// @param slashedDps DPS taken (≤ the parameter).
    /// @param finder Who reported it (gets the registry's finder fee).
    event StreamProviderSlashed(
        uint256 indexed streamId,
        uint32 indexed requestId,
        address indexed provider,
        uint256 slashedDps,
        address finder
    );
    /// @notice Emitted when a provider claims consensus answers the client left unpaid, with the client's penalty.
    /// @param credited The provider's proven consensus answers after.
    /// @param unpaid Answers paid by this claim.
    /// @param amount Paid for them (at the subscription price).
    /// @param penalty The client's penalty paid on top.
    /// @param deposit Deposit left.
    event UnpaidClaimed(
        uint256 indexed streamId,
        address indexed provider,
        uint32 credited,
        uint64 unpaid,
        uint256 amount,
        uint256 penalty,
        uint128 deposit
    );
    /// @notice Emitted after Unsubscribed when the leaving member's lock is held for requests it is still bound to
    ///         (TSK-08); released by `releaseDutyLock` after `lockUntil`.
    /// @param lockedDps The lock held.
    /// @param lockUntil End of its last duty's slash window.
    event DutyLockHeld(uint256 indexed streamId, address indexed provider, uint96 lockedDps, uint40 lockUntil);
    /// @notice Emitted when a leaving member's duty lock is released after its last duty's slash window.
    event DutyLockReleased(uint256 indexed streamId, address indexed provider, uint96 lockedDps);
}
