// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";

/// @title TaskRegistryStore
/// @notice The TaskRegistry's ERC-7201 namespace, shared by the registry and the libraries that hold its mechanisms
///         (`contracts/libraries/tasks/`: bidding, council, settlement).
abstract contract TaskRegistryStore {
    /// @custom:storage-location erc7201:chx.storage.TaskRegistry
    struct TaskRegistryStorage {
        address registry;
        address matcher;
        address emission;
        address[3] tokens;
        ITaskRegistry.Params params;
        uint256 taskCount;
        uint256[3] totalEscrow;
        mapping(uint256 taskId => ITaskRegistry.Task) tasks;
        /// @dev Packed bids: price << 160 | bidder, in arrival order (≤ MAX_BIDS per task).
        mapping(uint256 taskId => mapping(uint256 index => uint256 bid)) bids;
        /// @dev The first member of the dispute round's council (zero: not drawn yet); the rest follow `members` links.
        ///      The first round's head is the task's `councilHead` (key 0 is no longer written).
        mapping(uint256 taskId => mapping(uint8 round => address first)) councilHeads;
        /// @dev A member's word: bit r member of round r; bit 2 + r revealed in round r; bit 4 + r revealed the
        ///      executor's result in round r; bit 6 fee claimed; bits 8..167 the next member of its council in draw order (zero: the last). The
        ///      council is a list threaded through the words the votes use anyway: one slot per seat plus the head.
        mapping(uint256 taskId => mapping(address member => uint256 word)) members;
        /// @dev DPS already transferred to the reward pool whose `replenish` failed (item 17); retried with the next
        ///      replenishment or `flushReplenishment`.
        uint256 replenishBacklogDps;
        /// @dev A member's commitment (keccak256(abi.encode(taskId, member, resultHash, salt))) until it reveals, then
        ///      its revealed result hash (issue 21 item 1). A member sits in one round of a task only.
        mapping(uint256 taskId => mapping(address member => bytes32 commitmentOrResult)) results;
        /// @dev Each task's checkpoint chain and bisection dispute (issue 21 item 2; `TaskDisputes`). Bonds held here
        ///      count in `totalEscrow` but not in the task's `escrow`.
        mapping(uint256 taskId => ITaskRegistry.Bisection) bisections;
        /// @dev Each task's payment function and response mode (issue 21 item 5; `TaskPricing`): `paymentParams` in
        ///      bits 0..247 (validated to its kind's fields), `responseMode` in bits 248..255. Zero (FLAT, final result
        ///      only) is never written.
        mapping(uint256 taskId => uint256 word) payment;
        /// @dev Keeper bounties credited and not yet claimed, by keeper and currency (issue 21 item 6; pull, like
        ///      FuturesLedger.creditBounty). Counted in `totalEscrow` (TSK-02: task escrows + bonds + these credits).
        mapping(address keeper => uint256[3] owed) keeperCredits;
        /// @dev A redemption failure reported by someone other than the task's client (a keeper, the executor): bit 0
        ///      set, the report's held bounty returned to the client in bits 1..127 and the DPS compensation paid to it
        ///      in bits 128..255, so a client contract (DeliveryOrders) attributes what arrived outside its own call
        ///      (round 49). Zero when the client reported (it measured both in its call) or before any report.
        mapping(uint256 taskId => uint256 word) reportedToClient;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.TaskRegistry")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant TASK_REGISTRY_STORAGE_LOCATION =
        0x594014470d997d78f129109bd55ca25d1bac153c594e77036730af191a075300;

    function _s() internal pure returns (TaskRegistryStorage storage $) {
        assembly {
            $.slot := TASK_REGISTRY_STORAGE_LOCATION
        }
    }
}
