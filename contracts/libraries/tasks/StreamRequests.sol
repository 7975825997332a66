// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksTypes} from "../../interfaces/tasks/IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {StreamTasksStorage} from "./StreamStorage.sol";

/// @title StreamRequests
/// @notice The request lookups and windows the Stream* libraries share: a request in a given phase, council
///         membership, answer commitments, deadlines and lifetimes, and whether a stream is halted.
library StreamRequests {
    /// @notice Request `r` of stream `id`, which must be in phase `want`.
    function request(
        StreamTasksStorage.Book storage b,
        uint256 id,
        uint32 r,
        IStreamTasksTypes.RequestPhase want
    ) internal view returns (IStreamTasksTypes.Request storage q) {
        q = b.requests[id][r];
        if (q.phase != want) revert IStreamTasksErrors.StreamRequestPhase(id, r, q.phase);
    }

    /// @notice Reverts unless `who` is a member of request r: subscribed when it was asked (fromRequest ≤ r ≤
    ///         toRequest).
    function member(StreamTasksStorage.Book storage b, uint256 id, uint32 r, address who) internal view {
        IStreamTasksTypes.Duty storage d = b.duties[id][who];
        if (d.fromRequest == 0 || r < d.fromRequest || r > d.toRequest) {
            revert IStreamTasksErrors.StreamNotMember(id, r, who);
        }
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

    /// @notice Answers a request expects: every member, but the first answerer of a challenged optimistic request.
    function expected(IStreamTasksTypes.Request storage q) internal view returns (uint8) {
        return q.phase == IStreamTasksTypes.RequestPhase.Challenged ? q.council - 1 : q.council;
    }

    /// @notice A one-address list (the ProviderRegistry's lock and release take lists).
    function one(address who) internal pure returns (address[] memory list) {
        list = new address[](1);
        list[0] = who;
    }

    /// @notice Whether failed consensus interrupted the stream (failures reached maxFailures): only the client's
    ///         `resume` resets that count.
    function halted(IStreamTasks.Stream storage s) internal view returns (bool) {
        uint8 max = s.maxFailures;
        return max != 0 && s.failures >= max;
    }
}
