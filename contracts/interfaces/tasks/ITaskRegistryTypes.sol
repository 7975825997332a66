// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ITaskRegistryTypes
/// @notice Value types of ITaskRegistry that name no other task type (inherited by it; `ITaskRegistry.Bisection`
///         still resolves). The task, its terms, parameters and enums stay in ITaskRegistry.
interface ITaskRegistryTypes {
    /// @notice A checkpoint chain and its bisection dispute (issue 21 item 2; docs/tasks.md "Disputes that narrow").
    ///         The executor's chain is a Merkle root over `n` checkpoint hashes (n a power of two ≤ 2^16, the last leaf
    ///         its final result). A challenger bonds and both parties reveal their leaf at the midpoint of
    ///         [`lo`, `hi`] with a proof against their own root; equal leaves move `lo` past it, different ones set `hi`
    ///         to it, until `lo` = `hi` = the first disagreeing step, which a freshly drawn referee council judges.
    /// @param challenger Who opened the bisection (a round-0 member that revealed another result, or the client).
    /// @param phase 0 none, 1 the executor's move, 2 the challenger's move, 3 referees judging, 4 ended (no verdict
    ///        yet on the task: the challenger let a move lapse), 5 settled with the task.
    /// @param moves Moves made so far (opening included).
    /// @param moveEnds Deadline of the pending move (the party to move loses after it: `timeoutDispute`).
    /// @param lo Lowest index that may still be the first disagreement.
    /// @param hi Index known to disagree (initially n − 1, the final results).
    /// @param n Checkpoints in the executor's chain (0: no chain committed).
    /// @param bond The challenger's bond, task currency.
    /// @param window Seconds each move may take (half the dispute window when the bisection opened).
    /// @param refereeShare Per referee siding with the verdict: its share of a false challenger's bond (claimed with
    ///        its council fee).
    /// @param depth log2 n (the proofs' length), fixed when the chain is committed.
    /// @param roles Storage only (`bisectionOf` returns the three leaves decoded): which of the `pending`,
    ///        `executorStep`, `challengerStep` slots holds each (bits 0–1: pending, 2–3: the executor's step), so a
    ///        disagreeing move rewrites one leaf slot instead of two (issue 21 item 8's `bisect:step` ≤ 80,000).
    /// @param root The executor's chain root.
    /// @param challengerRoot The challenger's chain root.
    /// @param pending The leaf the first mover revealed at the current midpoint.
    /// @param agreed The leaf both revealed at `lo` − 1 (while `lo` = 0: the task's prescription hash, i.e. its input).
    /// @param executorStep The executor's leaf at `hi`.
    /// @param challengerStep The challenger's leaf at `hi`.
    /// @param finalResult The executor's final result (the task's `resultHash` holds `executorStep` while judging).
    /// @param verdict The step output the referees' quorum revealed (zero until judged).
    struct Bisection {
        uint8 phase;
        uint8 moves;
        uint40 moveEnds;
        uint32 lo;
        uint32 hi;
        uint32 n;
        uint32 window;
        uint8 depth;
        uint8 roles;
        address challenger;
        uint96 bond;
        uint128 refereeShare;
        bytes32 root;
        bytes32 challengerRoot;
        bytes32 pending;
        bytes32 agreed;
        bytes32 executorStep;
        bytes32 challengerStep;
        bytes32 finalResult;
        bytes32 verdict;
    }
}
