// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksTypes} from "../../interfaces/tasks/IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";

/// @title StreamTasksStorage
/// @notice The StreamTasks ERC-7201 storage records, inherited by StreamTasks (so the upgrade-safety gate sees its
///         namespace) and used by the Stream* libraries through StreamStorage.layout().
abstract contract StreamTasksStorage {
    /// @notice A subscription.
    struct Sub {
        uint128 price;
        uint64 paid;
        bool active;
        /// @dev TSK-08: DPS this subscription locked in the ProviderRegistry (held past unsubscribe while a duty is).
        uint96 lockedDps;
        /// @dev Cumulative amount paid (item 7: receipts carry the cumulative amount, so prices are fixed in them).
        uint128 paidAmount;
    }

    /// @notice Consensus state of every stream (issue 21 item 4).
    struct Book {
        mapping(uint256 streamId => uint32) count;
        mapping(uint256 streamId => uint40) lastAt;
        mapping(uint256 streamId => mapping(uint32 requestId => IStreamTasksTypes.Request)) requests;
        mapping(uint256 streamId => mapping(uint32 requestId => mapping(address => IStreamTasksTypes.Answer))) answers;
        mapping(uint256 streamId => mapping(uint32 requestId => mapping(bytes32 answer => uint256))) weights;
        mapping(uint256 streamId => mapping(address provider => IStreamTasksTypes.Duty)) duties;
    }

    /// @custom:storage-location erc7201:chx.storage.StreamTasks
    struct Layout {
        address matcher;
        address[3] tokens;
        uint32 settleGraceSec;
        uint256 streamCount;
        mapping(uint256 streamId => IStreamTasks.Stream) streams;
        mapping(uint256 streamId => mapping(address provider => Sub)) subs;
        /// @dev The matcher's ProviderRegistry (cached by setSubscriptionLock) and the DPS a subscription locks.
        address registry;
        uint96 subscriptionLockDps;
        /// @dev Issue 21 item 4: on-chain consensus requests, answers and council duties.
        Book book;
        IStreamTasksTypes.ConsensusParams consensus;
    }
}

/// @title StreamStorage
/// @notice StreamTasks' storage pointer and the request lookups and windows the Stream* libraries share.
library StreamStorage {
    // keccak256(abi.encode(uint256(keccak256("chx.storage.StreamTasks")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant LOCATION = 0xa6bb5737be2e76814f566dc53853b18d2ebc3eedb01f47eeed2cc6f40abcf900;

    /// @notice StreamTasks' storage.
    function layout() internal pure returns (StreamTasksStorage.Layout storage $) {
        assembly {
            $.slot := LOCATION
        }
    }

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
