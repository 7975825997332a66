// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ICapacityRecorder} from "../interfaces/callback/IEmissionHooks.sol";

/// @title MockCapacityRecorder
/// @notice Test-only ICapacityRecorder that remembers the last sample per provider, counts calls, and can be told
///         to revert.
contract MockCapacityRecorder is ICapacityRecorder {
    /// @notice Thrown by recordCapacity while failing is switched on.
    error MockRecorderDown();

    mapping(address provider => uint256 capacityPflopsWad) public lastSample;
    uint256 public calls;
    bool public failing;

    /// @notice Switches reverting on or off.
    /// @param on True to revert on every call.
    function setFailing(bool on) external {
        failing = on;
    }

    /// @inheritdoc ICapacityRecorder
    function recordCapacity(address provider, uint256 capacityPflopsWad) external {
        if (failing) revert MockRecorderDown();
        lastSample[provider] = capacityPflopsWad;
        calls += 1;
    }
}
