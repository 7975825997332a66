// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";

/// @title TaskChains
/// @notice Checkpoint chains of the disputes that narrow (issue 21 item 2): the bisection's phases and flags, the
///         fixed-depth Merkle proofs of a chain's leaves, the three leaf slots a move permutes. Internal: inlined
///         into the linked `TaskDisputes` and the libraries it uses.
library TaskChains {
    uint8 internal constant EXECUTOR_MOVE = 1;
    uint8 internal constant CHALLENGER_MOVE = 2;
    uint8 internal constant JUDGING = 3;
    uint8 internal constant LAPSED = 4;
    uint8 internal constant SETTLED = 5;
    /// @dev Largest chain: 2^16 checkpoints (proofs of 16 hashes).
    uint256 internal constant MAX_CHAIN = 1 << 16;
    /// @dev Task flag bit 6: the bisection is the client's appeal of an accepted result (its own endings below).
    uint8 internal constant APPEAL = 64;
    /// @dev The verdict hash of a task whose acceptance an appeal overturned: no round-0 reveal equals it, so no
    ///      round-0 member claims a fee after it (the ones who accepted forfeit theirs to the client).
    bytes32 internal constant OVERTURNED = keccak256("chx.task.appeal.overturned");

    /// @dev The leaf in slot `i` (0 `pending`, 1 `executorStep`, 2 `challengerStep`).
    function leafAt(ITaskRegistry.Bisection storage d, uint256 i) internal view returns (bytes32) {
        return
            i == 0
                ? d.pending
                : i == 1
                    ? d.executorStep
                    : d.challengerStep;
    }

    /// @dev Writes `v` into leaf slot `i` (0 `pending`, 1 `executorStep`, 2 `challengerStep`).
    function setLeafAt(ITaskRegistry.Bisection storage d, uint256 i, bytes32 v) internal {
        if (i == 0) d.pending = v;
        else if (i == 1) d.executorStep = v;
        else d.challengerStep = v;
    }

    /// @dev Reverts TaskBadProof unless `proof` shows `leaf` at `index` of a tree of depth `depth` under `root`.
    function check(
        uint256 taskId,
        bytes32 root,
        uint256 depth,
        uint256 index,
        bytes32 leaf,
        bytes32[] calldata proof
    ) internal pure {
        if (root == bytes32(0) || !verifyDepth(root, depth, index, leaf, proof)) {
            revert ITaskRegistryErrors.TaskBadProof(taskId, index);
        }
    }

    /// @notice Whether `proof` (siblings bottom up, exactly log2 n of them) shows `leaf` at `index` under `root`.
    ///         Nodes are keccak256(left ‖ right); the fixed depth keeps an inner node from passing as a leaf.
    function verify(
        bytes32 root,
        uint256 n,
        uint256 index,
        bytes32 leaf,
        bytes32[] calldata proof
    ) internal pure returns (bool) {
        uint256 depth;
        while ((uint256(1) << depth) < n) ++depth;
        return index < n && verifyDepth(root, depth, index, leaf, proof);
    }

    /// @notice `verify` for a tree of 2^depth leaves (the hash loop in assembly: scratch space, no bounds checks
    ///         beyond the length check).
    function verifyDepth(
        bytes32 root,
        uint256 depth,
        uint256 index,
        bytes32 leaf,
        bytes32[] calldata proof
    ) internal pure returns (bool ok) {
        if (proof.length != depth || index >> depth != 0) return false;
        assembly ("memory-safe") {
            let h := leaf
            let off := proof.offset
            for {
                let i := 0
            } lt(i, depth) {
                i := add(i, 1)
            } {
                let s := calldataload(add(off, shl(5, i)))
                switch and(shr(i, index), 1)
                case 0 {
                    mstore(0, h)
                    mstore(32, s)
                }
                default {
                    mstore(0, s)
                    mstore(32, h)
                }
                h := keccak256(0, 64)
            }
            ok := eq(h, root)
        }
    }
}
