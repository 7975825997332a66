// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksTypes} from "../../interfaces/tasks/IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {IStreamTasksEvents} from "../../interfaces/tasks/IStreamTasksEvents.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title StreamConsensus
/// @notice StreamTasks' on-chain consensus (issue 21 item 4, seed 004 section 2): requests put to the stream's council,
///         answered under the stream's response mode — optimistic (the first answer is delivered at once and can be
///         challenged with a bond; the other members then commit and reveal), weighted (blind commit–reveal, answers
///         weighted by the member's stake, consensus at ceil(w·c) reveals and a share ≥ w of the revealed weight) or
///         unanimous (every member reveals the same answer). The most weighted answer is delivered; a member that
///         stayed silent or revealed an answer other than a strict weighted majority's is at fault (slashable once per
///         request). Linked as an external library (delegatecall: StreamTasks' storage, `msg.sender`); the entry keeps
///         access control, pauses, token transfers and the ProviderRegistry calls.
library StreamConsensus {
    using SafeERC20 for IERC20;

    uint256 private constant WAD = 1e18;
    uint256 private constant BPS = 10_000;

    /// @notice A subscription (StreamTasks' storage; defined here so the consensus can pay and release it).
    struct Sub {
        uint128 price;
        uint64 paid;
        bool active;
        /// @dev TSK-08: DPS this subscription locked in the ProviderRegistry (held past unsubscribe while a duty is).
        uint96 lockedDps;
        /// @dev Cumulative amount paid (item 7: receipts carry the cumulative amount, so prices are fixed in them).
        uint128 paidAmount;
    }

    /// @notice Consensus state of every stream (appended to StreamTasks' ERC-7201 storage).
    struct Book {
        mapping(uint256 streamId => uint32) count;
        mapping(uint256 streamId => uint40) lastAt;
        mapping(uint256 streamId => mapping(uint32 requestId => IStreamTasksTypes.Request)) requests;
        mapping(uint256 streamId => mapping(uint32 requestId => mapping(address => IStreamTasksTypes.Answer))) answers;
        mapping(uint256 streamId => mapping(uint32 requestId => mapping(bytes32 answer => uint256))) weights;
        mapping(uint256 streamId => mapping(address provider => IStreamTasksTypes.Duty)) duties;
    }

    /// @notice Opens request `count + 1` of a live stream to its current subscribers (the caller checked the client).
    function open(
        Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        uint256 id,
        bytes32 inputHash
    ) external returns (uint32 r) {
        uint32 window = p.answerWindowSec;
        if (window == 0) revert IStreamTasksErrors.StreamConsensusParams("unset");
        if (s.status != IStreamTasks.Status.Live) revert IStreamTasks.StreamWrongStatus(id, s.status);
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
        Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        uint256 id,
        uint32 r,
        bytes32 answer
    ) external {
        IStreamTasksTypes.Request storage q = _request(b, id, r, IStreamTasksTypes.RequestPhase.Answering);
        if (s.mode != IStreamTasks.Mode.Optimistic || q.first != address(0) || answer == 0) {
            revert IStreamTasksErrors.StreamAnswerRejected(msg.sender);
        }
        _member(b, id, r, msg.sender);
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
        Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        address token,
        uint256 id,
        uint32 r
    ) external {
        IStreamTasksTypes.Request storage q = _request(b, id, r, IStreamTasksTypes.RequestPhase.Answering);
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
    function commit(Book storage b, IStreamTasks.Stream storage s, uint256 id, uint32 r, bytes32 commitment) external {
        IStreamTasksTypes.Request storage q = _blind(b, s, id, r);
        _member(b, id, r, msg.sender);
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
        Book storage b,
        IStreamTasks.Stream storage s,
        address registry,
        uint256 id,
        uint32 r,
        bytes32 answer,
        bytes32 salt
    ) external {
        IStreamTasksTypes.Request storage q = _blind(b, s, id, r);
        // @dev Reveals open when the commit window ends, or as soon as every expected member committed.
        if (block.timestamp > q.revealEnd || (block.timestamp <= q.commitEnd && q.commits < _expected(q))) {
            revert IStreamTasksErrors.StreamOutsideWindow(block.timestamp, q.commitEnd, q.revealEnd);
        }
        IStreamTasksTypes.Answer storage a = b.answers[id][r][msg.sender];
        if (
            answer == 0 ||
            a.answer != 0 ||
            a.commitment == 0 ||
            a.commitment != commitmentOf(id, r, msg.sender, answer, salt)
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

    /// @notice Resolves a request: delivered answer, the mode's consensus, the strict-majority verdict, the stream's
    ///         failure count. Returns who gets a challenge bond (zero when none).
    function resolve(Book storage b, IStreamTasks.Stream storage s, address token, uint256 id, uint32 r) external {
        address bondTo;
        uint128 bond;
        IStreamTasksTypes.Request storage q = b.requests[id][r];
        IStreamTasksTypes.RequestPhase ph = q.phase;
        if (ph != IStreamTasksTypes.RequestPhase.Answering && ph != IStreamTasksTypes.RequestPhase.Challenged) {
            revert IStreamTasksErrors.StreamRequestPhase(id, r, ph);
        }
        bool consensus;
        if (s.mode == IStreamTasks.Mode.Optimistic && ph == IStreamTasksTypes.RequestPhase.Answering) {
            // @dev Unanswered: after the answer window. Answered: after the challenge window, accepted as delivered.
            uint40 at = q.first == address(0) ? q.commitEnd : q.revealEnd;
            if (block.timestamp <= at) revert IStreamTasksErrors.StreamNotResolvable(at);
            consensus = q.first != address(0);
        } else {
            (consensus, bondTo, bond) = _tally(q, s);
        }
        q.phase = IStreamTasksTypes.RequestPhase.Resolved;
        q.consensus = consensus;
        uint8 f = s.failures;
        if (!consensus && s.status == IStreamTasks.Status.Live) {
            // @dev A failed on-chain consensus counts like a client's report (seed 004, 3.2).
            f += 1;
            s.failures = f;
            IStreamTasks.Status st = IStreamTasks.Status.Live;
            if (s.maxFailures != 0 && f >= s.maxFailures) {
                st = IStreamTasks.Status.Interrupted;
                s.status = st;
            }
            emit IStreamTasks.ConsensusFailed(id, f, st);
        }
        emit IStreamTasksEvents.RequestResolved(
            id,
            r,
            q.answer,
            consensus,
            q.decided,
            q.reveals,
            q.topWeight,
            q.revealedWeight,
            f
        );
        if (bond != 0) {
            emit IStreamTasksEvents.ChallengeBondPaid(id, r, bondTo, bond);
            IERC20(token).safeTransfer(bondTo, bond);
        }
    }

    /// @dev The verdict of a blind (commit–reveal) round: the strict weighted majority, the mode's consensus and,
    ///      for a challenged optimistic request, who gets the bond.
    function _tally(
        IStreamTasksTypes.Request storage q,
        IStreamTasks.Stream storage s
    ) private returns (bool consensus, address bondTo, uint128 bond) {
        if (block.timestamp <= q.revealEnd && q.reveals < _expected(q)) {
            revert IStreamTasksErrors.StreamNotResolvable(q.revealEnd);
        }
        uint256 top = q.topWeight;
        bool decided = q.reveals != 0 && top * 2 > q.revealedWeight;
        q.decided = decided;
        if (q.phase == IStreamTasksTypes.RequestPhase.Challenged) {
            // @dev The other members decide; undecided keeps the first answer (nobody proven wrong).
            consensus = decided;
            bool upheld = decided && q.top == q.answer;
            if (decided) q.answer = q.top;
            (bondTo, bond) = (upheld ? q.first : q.challenger, q.bond);
        } else if (s.mode == IStreamTasks.Mode.Weighted) {
            q.answer = q.top;
            uint256 w = s.weightWad;
            consensus = decided && uint256(q.reveals) * WAD >= w * q.council && top * WAD >= w * q.revealedWeight;
        } else {
            q.answer = q.top;
            consensus = q.reveals == q.council && q.secondWeight == 0;
        }
    }

    /// @notice Slashes `provider` for request `r` if it is at fault (TSK-03), inside the slash window, through the
    ///         ProviderRegistry (the caller is the finder): bounded by `slashDps`, once per member and request.
    function slashFaulty(
        Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        address registry,
        uint256 id,
        uint32 r,
        address provider
    ) external {
        IStreamTasksTypes.Request storage q = _request(b, id, r, IStreamTasksTypes.RequestPhase.Resolved);
        uint256 closedAt = uint256(endOf(q)) + p.slashWindowSec;
        if (block.timestamp > closedAt) revert IStreamTasksErrors.StreamSlashWindowOver(closedAt);
        _member(b, id, r, provider);
        IStreamTasksTypes.Answer storage a = b.answers[id][r][provider];
        bool guilty;
        if (s.mode == IStreamTasks.Mode.Optimistic && q.challenger == address(0)) {
            // @dev Unchallenged optimistic: only an unanswered request is everyone's fault (a deadline accepted).
            guilty = q.first == address(0);
        } else if (provider == q.first) {
            guilty = q.decided && q.top != a.answer;
        } else {
            guilty = a.answer == 0 || (q.decided && a.answer != q.top);
        }
        if (!guilty || a.slashed) revert IStreamTasksErrors.StreamNotFaulty(id, r, provider);
        a.slashed = true;
        uint256 slashed = IProviderRegistry(registry).slash(
            provider,
            p.slashDps,
            msg.sender,
            keccak256(abi.encode("stream", id, r))
        );
        emit IStreamTasksEvents.StreamProviderSlashed(id, r, provider, slashed, msg.sender);
    }

    /// @notice Item 4.2: credits the caller's consensus answers; if the receipts settled for it count fewer answers,
    ///         pays the shortfall at its price plus the client penalty from the deposit (capped by what is there).
    function claim(
        Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        Sub storage sub,
        address token,
        uint256 id,
        uint32[] calldata rs
    ) external {
        if (s.status == IStreamTasks.Status.Closed && block.timestamp > s.closesAt) {
            revert IStreamTasks.StreamWrongStatus(id, s.status);
        }
        uint32 credited = _credit(b, p, id, rs);
        uint64 paid = sub.paid;
        if (credited <= paid) revert IStreamTasksErrors.StreamNothingOwed(msg.sender);
        uint64 unpaid = credited - paid;
        uint256 owed = uint256(unpaid) * sub.price;
        uint256 d = s.deposit;
        uint256 amount = owed < d ? owed : d;
        uint256 penalty = (owed * p.clientPenaltyBps) / BPS;
        if (penalty > d - amount) penalty = d - amount;
        uint128 left = uint128(d - amount - penalty);
        s.deposit = left;
        sub.paid = credited;
        sub.paidAmount += uint128(amount);
        emit IStreamTasksEvents.UnpaidClaimed(id, msg.sender, credited, unpaid, amount, penalty, left);
        if (amount + penalty != 0) IERC20(token).safeTransfer(msg.sender, amount + penalty);
    }

    /// @notice TSK-08, on unsubscribe (after its event): the member stays bound to the requests asked so far; if one
    ///         of them is still slashable its lock is held until that window ends. Returns the lock to release now (0
    ///         if held).
    function leave(
        Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        Sub storage sub,
        uint256 id
    ) external returns (uint96 locked) {
        locked = sub.lockedDps;
        IStreamTasksTypes.Duty storage d = b.duties[id][msg.sender];
        uint32 count = b.count[id];
        d.toRequest = count;
        if (count != 0 && count >= d.fromRequest) {
            uint256 until = uint256(b.lastAt[id]) + lifetime(p) + p.slashWindowSec;
            // @dev The duty blocks re-joining (which would reset the range) even when no lock is configured.
            if (until >= block.timestamp) {
                d.lockUntil = uint40(until);
                if (locked != 0) {
                    emit IStreamTasksEvents.DutyLockHeld(id, msg.sender, locked, uint40(until));
                    return 0;
                }
            }
        }
        if (locked != 0) sub.lockedDps = 0;
    }

    /// @notice Releases a former member's held lock once its duty's slash window is over.
    function releaseLock(Book storage b, Sub storage sub, address registry, uint256 id, address provider) external {
        IStreamTasksTypes.Duty storage d = b.duties[id][provider];
        uint96 locked = sub.lockedDps;
        if (sub.active || locked == 0 || d.lockUntil >= block.timestamp) {
            revert IStreamTasksErrors.StreamDutyPending(d.lockUntil);
        }
        (sub.lockedDps, d.lockUntil) = (0, 0);
        emit IStreamTasksEvents.DutyLockReleased(id, provider, locked);
        address[] memory one = new address[](1);
        one[0] = provider;
        IProviderRegistry(registry).releaseStake(one, locked);
    }

    function _credit(
        Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        uint256 id,
        uint32[] calldata rs
    ) private returns (uint32 credited) {
        IStreamTasksTypes.Duty storage d = b.duties[id][msg.sender];
        credited = d.credited;
        for (uint256 i; i < rs.length; ++i) {
            uint32 r = rs[i];
            IStreamTasksTypes.Request storage q = _request(b, id, r, IStreamTasksTypes.RequestPhase.Resolved);
            uint256 due = uint256(endOf(q)) + p.payGraceSec;
            if (block.timestamp <= due) revert IStreamTasksErrors.StreamOutsideWindow(block.timestamp, due, 0);
            IStreamTasksTypes.Answer storage a = b.answers[id][r][msg.sender];
            if (a.answer == 0 || a.answer != q.answer || a.credited) {
                revert IStreamTasksErrors.StreamAnswerRejected(msg.sender);
            }
            a.credited = true;
            ++credited;
        }
        d.credited = credited;
    }

    /// @notice Commitment of `answer` with `salt` by `provider` for request `r` of stream `id`.
    function commitmentOf(
        uint256 id,
        uint32 r,
        address provider,
        bytes32 answer,
        bytes32 salt
    ) internal pure returns (bytes32) {
        return keccak256(abi.encode(id, r, provider, answer, salt));
    }

    /// @notice Last deadline of a request (slash and pay windows count from it).
    function endOf(IStreamTasksTypes.Request storage q) internal view returns (uint40) {
        return q.revealEnd > q.commitEnd ? q.revealEnd : q.commitEnd;
    }

    /// @notice Longest a request can stay open: answer, challenge, commit, reveal.
    function lifetime(IStreamTasksTypes.ConsensusParams storage p) internal view returns (uint256) {
        return 2 * uint256(p.answerWindowSec) + p.challengeWindowSec + p.revealWindowSec;
    }

    function _request(
        Book storage b,
        uint256 id,
        uint32 r,
        IStreamTasksTypes.RequestPhase want
    ) private view returns (IStreamTasksTypes.Request storage q) {
        q = b.requests[id][r];
        if (q.phase != want) revert IStreamTasksErrors.StreamRequestPhase(id, r, q.phase);
    }

    /// @dev A request in a blind (commit–reveal) phase: weighted/unanimous answering, or optimistic challenged.
    function _blind(
        Book storage b,
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

    /// @dev Answers a request expects: every member, but the first answerer of a challenged optimistic request.
    function _expected(IStreamTasksTypes.Request storage q) private view returns (uint8) {
        return q.phase == IStreamTasksTypes.RequestPhase.Challenged ? q.council - 1 : q.council;
    }

    /// @dev Member of request r: subscribed when it was asked (fromRequest ≤ r ≤ toRequest).
    function _member(Book storage b, uint256 id, uint32 r, address who) private view {
        IStreamTasksTypes.Duty storage d = b.duties[id][who];
        if (d.fromRequest == 0 || r < d.fromRequest || r > d.toRequest) {
            revert IStreamTasksErrors.StreamNotMember(id, r, who);
        }
    }

    function _divUp(uint256 a, uint256 d) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / d + 1;
    }
}
