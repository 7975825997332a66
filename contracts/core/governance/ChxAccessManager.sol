// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AccessManagerUpgradeable} from "@openzeppelin/contracts-upgradeable/access/manager/AccessManagerUpgradeable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";

/// @title ChxAccessManager
/// @notice The single role system of CHX (OpenZeppelin AccessManager). ADMIN_ROLE belongs to the timelock; every
///         core contract points its `restricted` functions here.
/// @dev Upgradeable like every core contract; only an ADMIN_ROLE member (the timelock) may upgrade it.
contract ChxAccessManager is AccessManagerUpgradeable, UUPSUpgradeable {
    /// @notice Thrown when a non-admin tries to upgrade the manager.
    /// @param caller The rejected caller.
    error ChxAccessManagerUnauthorizedUpgrade(address caller);

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    // `initialize(initialAdmin)` is inherited from AccessManagerUpgradeable: the deployer is the first
    // ADMIN_ROLE member while wiring, and hands the role to the timelock at handover.

    /// @notice The implementation version.
    /// @return Semantic version.
    function version() external pure virtual returns (string memory) {
        return "1.0.0";
    }

    function _authorizeUpgrade(address) internal view override {
        (bool isAdmin, uint32 delay) = hasRole(ADMIN_ROLE, msg.sender);
        if (!isAdmin || delay != 0) revert ChxAccessManagerUnauthorizedUpgrade(msg.sender);
    }
}
