// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksStreamEvents} from "../../interfaces/tasks/IStreamTasksStreamEvents.sol";
import {IStreamTasksTypes} from "../../interfaces/tasks/IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {IStreamTasksVerdictEvents} from "../../interfaces/tasks/IStreamTasksVerdictEvents.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {StreamTasksStorage} from "./StreamStorage.sol";
import {StreamRequests} from "./StreamRequests.sol";

/// @title StreamVerdict
/// @notice StreamTasks' consensus verdicts (issue 21 item 4): a request resolves to the delivered answer, the mode's
///         consensus (weighted: ceil(w·c) reveals and a share ≥ w of the revealed weight; unanimous: every member the
///         same answer; a challenged optimistic request: the other members' strict weighted majority decides who gets
///         the bond) and the stream's failure count; a member that stayed silent or revealed an answer other than a
///         strict weighted majority's is slashable once per request (TSK-03). Linked as an external library
///         (delegatecall: StreamTasks' storage, `msg.sender`).
library StreamVerdict {
    using SafeERC20 for IERC20;

    uint256 private constant WAD = 1e18;

    /// @notice Resolves a request: delivered answer, the mode's consensus, the strict-majority verdict, the stream's
    ///         failure count. Returns who gets a challenge bond (zero when none).
    function resolve(
        StreamTasksStorage.Book storage b,
        IStreamTasks.Stream storage s,
        address token,
        uint256 id,
        uint32 r
    ) external {
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
        uint8 f = consensus ? s.failures : _countFailure(s, id);
        emit IStreamTasksVerdictEvents.RequestResolved(
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
            emit IStreamTasksVerdictEvents.ChallengeBondPaid(id, r, bondTo, bond);
            IERC20(token).safeTransfer(bondTo, bond);
        }
    }

    /// @dev A failed on-chain consensus counts like a client's report (seed 004, 3.2) while the stream is live;
    ///      returns the failure count after.
    function _countFailure(IStreamTasks.Stream storage s, uint256 id) private returns (uint8 f) {
        f = s.failures;
        if (s.status != IStreamTasks.Status.Live) return f;
        f += 1;
        s.failures = f;
        IStreamTasks.Status st = IStreamTasks.Status.Live;
        if (s.maxFailures != 0 && f >= s.maxFailures) {
            st = IStreamTasks.Status.Interrupted;
            s.status = st;
        }
        emit IStreamTasksStreamEvents.ConsensusFailed(id, f, st);
    }

    /// @dev The verdict of a blind (commit–reveal) round: the strict weighted majority, the mode's consensus and,
    ///      for a challenged optimistic request, who gets the bond.
    function _tally(
        IStreamTasksTypes.Request storage q,
        IStreamTasks.Stream storage s
    ) private returns (bool consensus, address bondTo, uint128 bond) {
        if (block.timestamp <= q.revealEnd && q.reveals < StreamRequests.expected(q)) {
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
        StreamTasksStorage.Book storage b,
        IStreamTasksTypes.ConsensusParams storage p,
        IStreamTasks.Stream storage s,
        address registry,
        uint256 id,
        uint32 r,
        address provider
    ) external {
        IStreamTasksTypes.Request storage q = StreamRequests.request(b, id, r, IStreamTasksTypes.RequestPhase.Resolved);
        uint256 closedAt = uint256(StreamRequests.endOf(q)) + p.slashWindowSec;
        if (block.timestamp > closedAt) revert IStreamTasksErrors.StreamSlashWindowOver(closedAt);
        StreamRequests.member(b, id, r, provider);
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
        emit IStreamTasksVerdictEvents.StreamProviderSlashed(id, r, provider, slashed, msg.sender);
    }
}
