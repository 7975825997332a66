// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TimelockControllerUpgradeable} from "@openzeppelin/contracts-upgradeable/governance/TimelockControllerUpgradeable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";

/// @title ChxTimelock
/// @notice The TimelockController that holds AccessManager's ADMIN_ROLE: every parameter change and upgrade of
///         CHX waits `minDelay` here after a successful Governor vote.
/// @dev It upgrades itself only through its own scheduled operation (msg.sender == address(this)).
contract ChxTimelock is TimelockControllerUpgradeable, UUPSUpgradeable {
    /// @notice Thrown when anyone but the timelock itself tries to upgrade it.
    /// @param caller The rejected caller.
    error ChxTimelockUnauthorizedUpgrade(address caller);

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    // `initialize(minDelay, proposers, executors, admin)` is inherited from TimelockControllerUpgradeable:
    // proposers = [] at first (the Governor is granted by the deploy script), executors = [address(0)]
    // (anyone executes a ready operation), admin = the deployer until handover.

    /// @notice The implementation version.
    /// @return Semantic version.
    function version() external pure virtual returns (string memory) {
        return "1.0.0";
    }

    function _authorizeUpgrade(address) internal view override {
        if (msg.sender != address(this)) revert ChxTimelockUnauthorizedUpgrade(msg.sender);
    }
}
