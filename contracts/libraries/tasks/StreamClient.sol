// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {IStreamTasksStreamEvents} from "../../interfaces/tasks/IStreamTasksStreamEvents.sol";
import {StreamTasksStorage, StreamStorage} from "./StreamStorage.sol";
import {StreamRequests} from "./StreamRequests.sol";

/// @title StreamClient
/// @notice The client's status changes of a stream: re-specify, report failed consensus, resume a halted stream,
///         retract (the deposit stays until every receipt and unpaid on-chain answer could settle). Internal: inlined
///         into StreamTasks, which keeps the token moves (open, fund, withdraw).
library StreamClient {
    /// @dev The client changes I and f (bumps the spec version); not once closed.
    function updateSpec(uint256 id, bytes32 inputHash, bytes32 fnHash) internal {
        IStreamTasks.Stream storage s = client(id);
        if (s.status == IStreamTasks.Status.Closed)
            revert IStreamTasksErrors.StreamWrongStatus(id, IStreamTasks.Status.Closed);
        uint32 v = s.specVersion + 1;
        (s.inputHash, s.fnHash, s.specVersion) = (inputHash, fnHash, v);
        emit IStreamTasksStreamEvents.SpecUpdated(id, inputHash, fnHash, v);
    }

    /// @dev The client reports a failed consensus of its live stream; `maxFailures` of them interrupt it.
    function reportFailedConsensus(uint256 id) internal {
        IStreamTasks.Stream storage s = client(id);
        IStreamTasks.Status st = s.status;
        if (st != IStreamTasks.Status.Live) revert IStreamTasksErrors.StreamWrongStatus(id, st);
        uint8 f = s.failures + 1;
        s.failures = f;
        if (s.maxFailures != 0 && f >= s.maxFailures) {
            st = IStreamTasks.Status.Interrupted;
            s.status = st;
        }
        emit IStreamTasksStreamEvents.ConsensusFailed(id, f, st);
    }

    /// @dev The client resumes its halted stream: live again with c subscribers.
    function resume(uint256 id) internal {
        IStreamTasks.Stream storage s = client(id);
        IStreamTasks.Status st = s.status;
        if (st != IStreamTasks.Status.Interrupted || !StreamRequests.halted(s))
            revert IStreamTasksErrors.StreamWrongStatus(id, st);
        s.failures = 0;
        if (s.subscribers >= s.executors) {
            st = IStreamTasks.Status.Live;
            s.status = st;
        }
        emit IStreamTasksStreamEvents.StreamResumed(id, st);
    }

    /// @dev The client retracts: closed, receipts and unpaid-answer claims settle until `closesAt`.
    function retract(uint256 id) internal {
        IStreamTasks.Stream storage s = client(id);
        if (s.status == IStreamTasks.Status.Closed)
            revert IStreamTasksErrors.StreamWrongStatus(id, IStreamTasks.Status.Closed);
        StreamTasksStorage.Layout storage $ = StreamStorage.layout();
        uint256 grace = $.settleGraceSec;
        uint256 closesAt = block.timestamp + grace;
        // @dev Item 4: the deposit stays until providers could claim every on-chain answer the client left unpaid.
        uint256 lastAt = $.book.lastAt[id];
        if (lastAt != 0) {
            uint256 claimable = lastAt + StreamRequests.lifetime($.consensus) + $.consensus.payGraceSec + grace;
            if (claimable > closesAt) closesAt = claimable;
        }
        s.status = IStreamTasks.Status.Closed;
        s.closesAt = uint40(closesAt);
        emit IStreamTasksStreamEvents.StreamRetracted(id, uint40(closesAt));
    }

    /// @dev The stream `id`, whose client must be the caller.
    function client(uint256 id) internal view returns (IStreamTasks.Stream storage s) {
        s = StreamStorage.layout().streams[id];
        if (msg.sender != s.client) revert IStreamTasksErrors.StreamNotClient(msg.sender);
    }
}
