// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IStreamTasksTypes
/// @notice Value types of the on-chain stream consensus (issue 21 item 4): requests answered by the stream's council
///         under the stream's response mode, and the parameters of answering, challenging, slashing and paying.
/// @dev See docs/tasks.md, "Stream consensus".
interface IStreamTasksTypes {
    /// @notice Phase of a consensus request: Answering (commits, or the optimistic first answer and its challenge
    ///         window), Challenged (optimistic: the other members commit and reveal), Resolved.
    enum RequestPhase {
        None,
        Answering,
        Challenged,
        Resolved
    }

    /// @notice Governance parameters of stream consensus (all windows in seconds).
    /// @param answerWindowSec Commit window of a request (weighted, unanimous, a challenged optimistic request), and
    ///        the window in which an optimistic request must get its first answer.
    /// @param revealWindowSec Reveal window after the commit window.
    /// @param challengeWindowSec How long an optimistic first answer can be challenged.
    /// @param slashWindowSec How long after a request's last deadline its faults can be slashed (the duty lock of a
    ///        leaving member is held until then, TSK-08).
    /// @param payGraceSec How long after a request's last deadline the client has to pay it by receipt before the
    ///        provider may claim it from the deposit with the penalty.
    /// @param clientPenaltyBps Share of an unpaid amount the client additionally loses to the provider who claims it.
    /// @param challengeBondRequests A challenge bonds this many requests at the stream's `maxPrice`.
    /// @param slashDps DPS slashed per fault (≤ the subscription lock).
    struct ConsensusParams {
        uint32 answerWindowSec;
        uint32 revealWindowSec;
        uint32 challengeWindowSec;
        uint32 slashWindowSec;
        uint32 payGraceSec;
        uint16 clientPenaltyBps;
        uint16 challengeBondRequests;
        uint96 slashDps;
    }

    /// @notice One consensus request of a stream.
    /// @param inputHash Content hash of the request (the prompt).
    /// @param answer The delivered answer (optimistic: the first answer unless overturned; otherwise the most weighted
    ///        revealed answer; 0 when nobody answered).
    /// @param top The most weighted revealed answer (0 when none).
    /// @param first Optimistic: the member whose answer was delivered first.
    /// @param challenger Optimistic: who challenged the first answer (bond holder).
    /// @param createdAt When the client asked.
    /// @param commitEnd End of the commit (or first-answer) window.
    /// @param revealEnd End of the reveal window (optimistic, before a challenge: end of the challenge window).
    /// @param council Members of the council when asked (the stream's subscribers).
    /// @param commits Commitments received.
    /// @param reveals Answers revealed (an optimistic first answer is not counted).
    /// @param phase The phase.
    /// @param consensus The mode's consensus was reached (see docs/tasks.md).
    /// @param decided One answer holds a strict majority of the revealed weight (the slashing verdict).
    /// @param bond The challenge bond held.
    /// @param topWeight Weight of `top`.
    /// @param secondWeight Largest weight of any other revealed answer.
    /// @param revealedWeight Total revealed weight.
    struct Request {
        bytes32 inputHash;
        bytes32 answer;
        bytes32 top;
        address first;
        address challenger;
        uint40 createdAt;
        uint40 commitEnd;
        uint40 revealEnd;
        uint8 council;
        uint8 commits;
        uint8 reveals;
        RequestPhase phase;
        bool consensus;
        bool decided;
        uint128 bond;
        uint128 topWeight;
        uint128 secondWeight;
        uint128 revealedWeight;
    }

    /// @notice A member's answer to a request.
    /// @param commitment keccak256(abi.encode(streamId, requestId, provider, answer, salt)) (0: none).
    /// @param answer The revealed (or optimistic first) answer (0: none).
    /// @param slashed Slashed for this request already.
    /// @param credited Counted in the provider's claim of unpaid answers already.
    struct Answer {
        bytes32 commitment;
        bytes32 answer;
        bool slashed;
        bool credited;
    }

    /// @notice A subscriber's council duty on a stream.
    /// @param fromRequest First request it is a member of.
    /// @param toRequest Last request it is a member of (type(uint32).max while subscribed).
    /// @param credited Consensus answers proven on chain (claimUnpaid) — compared with the receipts' answered count.
    /// @param lockUntil After leaving with duties: the subscription lock is held until then (TSK-08).
    struct Duty {
        uint32 fromRequest;
        uint32 toRequest;
        uint32 credited;
        uint40 lockUntil;
    }
}
