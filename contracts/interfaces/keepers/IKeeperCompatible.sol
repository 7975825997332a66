// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IKeeperChecker
/// @notice Gelato Automate resolver shape (SPEC section 10). Every module with maintenance work exposes it so a
///         vendor (or the CHX keeper's generic `checker` job) can find and perform the work without module code.
/// @dev Convention for every CHX checker: `execPayload` is complete calldata for a permissionless function of the
///      SAME contract (the keeper sends it to the checker's address), and that function reverts with a typed
///      `<Component>AlreadyDone(...)` error when the work was done by someone else, so racing keepers treat the
///      loss as success (OPS-01). The view must stay bounded (a capped scan), never an unbounded loop.
interface IKeeperChecker {
    /// @notice Whether work is due and the calldata that performs it.
    /// @return canExec True when `execPayload` would do useful work now.
    /// @return execPayload ABI-encoded call (selector + args) to send to this contract; empty when `canExec` is false.
    function checker() external view returns (bool canExec, bytes memory execPayload);
}

/// @title IKeeperUpkeep
/// @notice Chainlink Automation shape (AutomationCompatibleInterface), implemented next to `checker()`.
/// @dev `checkUpkeep` is simulated off chain (eth_call) and need not be view; `performUpkeep` must re-validate
///      `performData` on chain because anyone may call it with anything.
interface IKeeperUpkeep {
    /// @notice Whether upkeep is due and the data `performUpkeep` needs.
    /// @param checkData Per-registration static data (unused by CHX checkers unless documented).
    /// @return upkeepNeeded True when `performUpkeep(performData)` would do useful work now.
    /// @return performData Opaque data for `performUpkeep`.
    function checkUpkeep(bytes calldata checkData) external returns (bool upkeepNeeded, bytes memory performData);

    /// @notice Performs the upkeep found by `checkUpkeep`; reverts if it is no longer due.
    /// @param performData Data returned by `checkUpkeep`.
    function performUpkeep(bytes calldata performData) external;
}

/// @title IKeeperCompatible
/// @notice Both vendor shapes, for modules that implement them together.
interface IKeeperCompatible is IKeeperChecker, IKeeperUpkeep {}
