// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IStreamTasksVerdictEvents
/// @notice Events of the stream consensus verdicts and their consequences (issue 21 item 4), carrying post-state:
///         resolution, challenge bonds, slashes, unpaid-answer claims and held duty locks.
interface IStreamTasksVerdictEvents {
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
