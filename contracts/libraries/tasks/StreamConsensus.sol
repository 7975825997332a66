// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksTypes} from "../../interfaces/tasks/IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {IStreamTasksEvents} from "../../interfaces/tasks/IStreamTasksEvents.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StreamTasksStorage} from "./StreamStorage.sol";
import {StreamRequests} from "./StreamRequests.sol";

/// @title StreamConsensus
/// @notice StreamTasks' on-chain consensus (issue 21 item 4, seed 004 section 2): requests put to the stream's council,
///         answered under the stream's response mode — optimistic (the first answer is delivered at once and can be
///         challenged with a bond; the other members then commit and reveal), weighted (blind commit–reveal, answers
///         weighted by the member's stake, consensus at ceil(w·c) reveals and a share ≥ w of the revealed weight) or
///         unanimous (every member reveals the same answer). The most weighted answer is delivered; a member that
///         stayed silent or revealed an answer other than a strict weighted majority's is at fault (slashable once per
///         request: StreamVerdict). Linked as an external library (delegatecall: StreamTasks' storage, `msg.sender`); the entry keeps
///         access control, pauses, token transfers and the ProviderRegistry calls.
library StreamConsensus {
    using SafeERC20 for IERC20;

    uint256 private constant BPS = 10_000;

    /// @notice Opens request `count + 1` of a live stream to its current subscribers (the caller checked the client).
    function open(
        StreamTasksStorage.Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        uint256 id,
        bytes32 inputHash
    ) external returns (uint32 r) {
        uint32 window = p.answerWindowSec;
        if (window == 0) revert IStreamTasksErrors.StreamConsensusParams("unset");
        if (s.status != IStreamTasks.Status.Live) revert IStreamTasksErrors.StreamWrongStatus(id, s.status);
        uint8 council = s.subscribers;
        // @dev The deposit covers this request for every member at maxPrice plus the penalty (rounded up).
        uint256 need = _divUp(uint256(council) * s.maxPrice * (BPS + p.clientPenaltyBps), BPS);
        if (s.deposit < need) revert IStreamTasksErrors.StreamDepositTooLow(need, s.deposit);
        r = b.count[id] + 1;
        b.count[id] = r;
        b.lastAt[id] = uint40(block.timestamp);
        IStreamTasksTypes.Request storage q = b.requests[id][r];
        uint40 commitEnd = uint40(block.timestamp + window);
        uint40 revealEnd = s.mode == IStreamTasks.Mode.Optimistic ? 0 : commitEnd + p.revealWindowSec;
        q.inputHash = inputHash;
        q.createdAt = uint40(block.timestamp);
        q.commitEnd = commitEnd;
        q.revealEnd = revealEnd;
        q.council = council;
        q.phase = IStreamTasksTypes.RequestPhase.Answering;
        emit IStreamTasksEvents.RequestOpened(id, r, inputHash, council, commitEnd, revealEnd);
    }

    /// @notice Optimistic: the first member's answer, delivered at once; opens the challenge window.
    function answerFirst(
        StreamTasksStorage.Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        uint256 id,
        uint32 r,
        bytes32 answer
    ) external {
        IStreamTasksTypes.Request storage q = StreamRequests.request(
            b,
            id,
            r,
            IStreamTasksTypes.RequestPhase.Answering
        );
        if (s.mode != IStreamTasks.Mode.Optimistic || q.first != address(0) || answer == 0) {
            revert IStreamTasksErrors.StreamAnswerRejected(msg.sender);
        }
        StreamRequests.member(b, id, r, msg.sender);
        if (block.timestamp > q.commitEnd) {
            revert IStreamTasksErrors.StreamOutsideWindow(block.timestamp, q.createdAt, q.commitEnd);
        }
        uint40 challengeEnd = uint40(block.timestamp + p.challengeWindowSec);
        q.first = msg.sender;
        q.answer = answer;
        q.revealEnd = challengeEnd;
        b.answers[id][r][msg.sender].answer = answer;
        emit IStreamTasksEvents.AnswerDelivered(id, r, msg.sender, answer, challengeEnd);
    }

    /// @notice Optimistic: challenges the first answer; the other members now commit and reveal. Returns the bond the
    ///         entry pulls from the challenger.
    function challenge(
        StreamTasksStorage.Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        address token,
        uint256 id,
        uint32 r
    ) external {
        IStreamTasksTypes.Request storage q = StreamRequests.request(
            b,
            id,
            r,
            IStreamTasksTypes.RequestPhase.Answering
        );
        if (q.first == address(0)) revert IStreamTasksErrors.StreamRequestPhase(id, r, q.phase);
        if (block.timestamp > q.revealEnd) {
            revert IStreamTasksErrors.StreamOutsideWindow(block.timestamp, q.commitEnd, q.revealEnd);
        }
        uint128 bond = uint128(uint256(p.challengeBondRequests) * s.maxPrice);
        uint40 commitEnd = uint40(block.timestamp + p.answerWindowSec);
        uint40 revealEnd = commitEnd + p.revealWindowSec;
        q.challenger = msg.sender;
        q.bond = bond;
        q.phase = IStreamTasksTypes.RequestPhase.Challenged;
        q.commitEnd = commitEnd;
        q.revealEnd = revealEnd;
        emit IStreamTasksEvents.RequestChallenged(id, r, msg.sender, bond, commitEnd, revealEnd);
        if (bond != 0) IERC20(token).safeTransferFrom(msg.sender, address(this), bond);
    }

    /// @notice A member's blind commitment (weighted, unanimous, or a challenged optimistic request).
    function commit(
        StreamTasksStorage.Book storage b,
        IStreamTasks.Stream storage s,
        uint256 id,
        uint32 r,
        bytes32 commitment
    ) external {
        IStreamTasksTypes.Request storage q = _blind(b, s, id, r);
        StreamRequests.member(b, id, r, msg.sender);
        if (block.timestamp > q.commitEnd) {
            revert IStreamTasksErrors.StreamOutsideWindow(block.timestamp, q.createdAt, q.commitEnd);
        }
        IStreamTasksTypes.Answer storage a = b.answers[id][r][msg.sender];
        if (commitment == 0 || a.commitment != 0) revert IStreamTasksErrors.StreamAnswerRejected(msg.sender);
        a.commitment = commitment;
        uint8 n = q.commits + 1;
        q.commits = n;
        emit IStreamTasksEvents.AnswerCommitted(id, r, msg.sender, n);
    }

    /// @notice Reveals a committed answer and adds its weight (weighted: the member's stake now; otherwise 1).
    function reveal(
        StreamTasksStorage.Book storage b,
        IStreamTasks.Stream storage s,
        address registry,
        uint256 id,
        uint32 r,
        bytes32 answer,
        bytes32 salt
    ) external {
        IStreamTasksTypes.Request storage q = _blind(b, s, id, r);
        // @dev Reveals open when the commit window ends, or as soon as every expected member committed.
        if (
            block.timestamp > q.revealEnd || (block.timestamp <= q.commitEnd && q.commits < StreamRequests.expected(q))
        ) {
            revert IStreamTasksErrors.StreamOutsideWindow(block.timestamp, q.commitEnd, q.revealEnd);
        }
        IStreamTasksTypes.Answer storage a = b.answers[id][r][msg.sender];
        if (
            answer == 0 ||
            a.answer != 0 ||
            a.commitment == 0 ||
            a.commitment != StreamRequests.commitmentOf(id, r, msg.sender, answer, salt)
        ) revert IStreamTasksErrors.StreamAnswerRejected(msg.sender);
        a.answer = answer;
        uint256 weight = 1;
        if (s.mode == IStreamTasks.Mode.Weighted) {
            weight = IProviderRegistry(registry).providerInfo(msg.sender).stakedDps;
            if (weight == 0) weight = 1;
        }
        uint256 w = b.weights[id][r][answer] + weight;
        b.weights[id][r][answer] = w;
        // @dev Tracks the top answer and the largest other weight incrementally (no loop over answers).
        if (w > q.topWeight) {
            if (q.top != answer) (q.secondWeight, q.top) = (q.topWeight, answer);
            q.topWeight = uint128(w);
        } else if (w > q.secondWeight) {
            q.secondWeight = uint128(w);
        }
        q.revealedWeight += uint128(weight);
        uint8 n = q.reveals + 1;
        q.reveals = n;
        emit IStreamTasksEvents.AnswerRevealed(id, r, msg.sender, answer, weight, n, q.top, q.topWeight);
    }

    /// @dev A request in a blind (commit–reveal) phase: weighted/unanimous answering, or optimistic challenged.
    function _blind(
        StreamTasksStorage.Book storage b,
        IStreamTasks.Stream storage s,
        uint256 id,
        uint32 r
    ) private view returns (IStreamTasksTypes.Request storage q) {
        q = b.requests[id][r];
        IStreamTasksTypes.RequestPhase ph = q.phase;
        bool ok =
            ph == IStreamTasksTypes.RequestPhase.Challenged
                ? msg.sender != q.first
                : ph == IStreamTasksTypes.RequestPhase.Answering && s.mode != IStreamTasks.Mode.Optimistic;
        if (!ok) revert IStreamTasksErrors.StreamRequestPhase(id, r, ph);
    }

    function _divUp(uint256 a, uint256 d) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / d + 1;
    }
}
