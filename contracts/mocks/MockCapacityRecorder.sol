// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ICapacityRecorder} from "../interfaces/IEmissionHooks.sol";

/// @title MockCapacityRecorder
/// @notice Test-only ICapacityRecorder that remembers the last sample per provider and counts calls.
contract MockCapacityRecorder is ICapacityRecorder {
    mapping(address provider => uint256 capacityPflopsWad) public lastSample;
    uint256 public calls;

    /// @inheritdoc ICapacityRecorder
    function recordCapacity(address provider, uint256 capacityPflopsWad) external {
        lastSample[provider] = capacityPflopsWad;
        calls += 1;
    }
}
