// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistryTypes} from "./ITaskRegistryTypes.sol";

/// @title ITaskDisputes
/// @notice The TaskRegistry's checkpoint chains, bisection disputes and the client's appeal (issue 21 item 2;
///         docs/tasks.md "Disputes that narrow"): inherited by ITaskRegistry (one ABI). `timeoutDispute` stays in
///         ITaskRegistry (keepers and libraries take its selector from there).
interface ITaskDisputes is ITaskRegistryTypes {
    /// @notice The executor commits its checkpoint chain once its final result is committed (status Verifying, before
    ///         any bisection): the Merkle root over `n` checkpoint hashes, `n` a power of two ≤ 2^16, with the proof
    ///         that leaf n − 1 is the committed final result. Without a chain the executor cannot answer a bisection.
    /// @param taskId The task.
    /// @param root The chain root.
    /// @param n Checkpoints.
    /// @param lastProof Merkle proof of leaf n − 1 (= the final result), bottom up.
    function commitChain(uint256 taskId, bytes32 root, uint32 n, bytes32[] calldata lastProof) external;

    /// @notice Opens the task's bisection (one per task, while Verifying in round 0) by a round-0 member that
    ///         revealed a result other than the executor's, or by the client; pulls the bond (`bisectionBond`, task
    ///         currency; approve first). The challenger commits its own chain of the same length: its final leaf
    ///         (≠ the executor's result) and its leaf at the first midpoint, each with a proof against `root`.
    /// @param taskId The task.
    /// @param root The challenger's chain root.
    /// @param finalLeaf The challenger's final leaf.
    /// @param finalProof Its proof.
    /// @param midLeaf The challenger's leaf at the first midpoint ((n − 1) / 2).
    /// @param midProof Its proof.
    function openBisection(
        uint256 taskId,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) external;

    /// @notice One bisection move by the party whose turn it is, before `moveEnds`: its leaf at the current midpoint
    ///         (proof against its own root) narrows [lo, hi]; unless that isolates the step, its leaf at the next
    ///         midpoint hands the turn to the other party. Isolating the step commits the referee council's seed
    ///         (drawn with `drawCouncil`, judging by commit–reveal of the step's output, settled by `finalize`).
    /// @param taskId The task.
    /// @param leaf The mover's leaf at the current midpoint.
    /// @param proof Its proof.
    /// @param nextLeaf The mover's leaf at the next midpoint (ignored when the step is isolated).
    /// @param nextProof Its proof.
    function bisect(
        uint256 taskId,
        bytes32 leaf,
        bytes32[] calldata proof,
        bytes32 nextLeaf,
        bytes32[] calldata nextProof
    ) external;

    /// @notice A task's checkpoint chain and bisection.
    /// @param taskId The task.
    /// @return The record.
    function bisectionOf(uint256 taskId) external view returns (Bisection memory);

    /// @notice The bond a challenger posts to open a bisection on `taskId` (task currency).
    /// @param taskId The task.
    /// @return The bond.
    function bisectionBond(uint256 taskId) external view returns (uint256);

    /// @notice The client appeals its accepted task (issue 21 item 2) within the appeal window (`disputeWindowSec`
    ///         from acceptance; non-CH tasks without an earlier bisection): a bisection against the executor's
    ///         committed chain opens exactly as `openBisection` does, with the client as challenger proving its own
    ///         leaves, and pulls `appealBond` (approve first). The executor's duty lock (TSK-08) has been held since
    ///         acceptance, so its stake answers for the slash. Executor proven wrong (or lapsed): the task becomes
    ///         Rejected, the executor is slashed (scaled by severity, full on a lapse) to the client, the bond comes
    ///         back and the round-0 members who accepted lose their unclaimed fee to the client. Client proven wrong
    ///         (or lapsed): the acceptance stands and the bond pays the referees, the keeper and the executor.
    /// @param taskId The task.
    /// @param root The client's chain root.
    /// @param finalLeaf The client's final leaf (≠ the executor's result).
    /// @param finalProof Its proof.
    /// @param midLeaf The client's leaf at the first midpoint ((n − 1) / 2).
    /// @param midProof Its proof.
    function appeal(
        uint256 taskId,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) external;

    /// @notice Closes an accepted task's appeal window once it has ended without an appeal (permissionless),
    ///         releases the executor's duty lock and records its completion (held back while it could be appealed).
    /// @param taskId The task.
    function closeAppeal(uint256 taskId) external;

    /// @notice The bond a client posts to appeal `taskId`: the larger of `bisectionBond` and the referee council's
    ///         cost (2n + 1 council fees and two keeper bounties).
    /// @param taskId The task.
    /// @return The bond.
    function appealBond(uint256 taskId) external view returns (uint256);
}
