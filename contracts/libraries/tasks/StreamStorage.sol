// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksTypes} from "../../interfaces/tasks/IStreamTasksTypes.sol";

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
/// @notice StreamTasks' storage pointer (the request lookups and windows are in StreamRequests).
library StreamStorage {
    // keccak256(abi.encode(uint256(keccak256("chx.storage.StreamTasks")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant LOCATION = 0xa6bb5737be2e76814f566dc53853b18d2ebc3eedb01f47eeed2cc6f40abcf900;

    /// @notice StreamTasks' storage.
    function layout() internal pure returns (StreamTasksStorage.Layout storage $) {
        assembly {
            $.slot := LOCATION
        }
    }
}
