// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";
import {AccessManagedUpgradeable} from "@openzeppelin/contracts-upgradeable/access/manager/AccessManagedUpgradeable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IChxModule} from "../../interfaces/base/IChxModule.sol";

/// @title ChxUpgradeable
/// @notice The pattern every CHX core contract follows: UUPS proxy, ERC-7201 namespaced storage, roles from the
///         protocol's single AccessManager, per-feature pause flags, transient-storage reentrancy guard.
/// @dev Upgrades go through `upgradeToAndCall`, which is `restricted`: AccessManager maps it to ADMIN_ROLE (the
///      timelock) by default, so only governance can upgrade. The constructor disables initializers so the
///      implementation itself can never be initialised (SEC-02).
abstract contract ChxUpgradeable is
    Initializable,
    UUPSUpgradeable,
    AccessManagedUpgradeable,
    ReentrancyGuardTransient,
    IChxModule
{
    /// @custom:storage-location erc7201:chx.storage.ChxModule
    struct ChxModuleStorage {
        mapping(bytes32 feature => bool paused) paused;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.ChxModule")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant CHX_MODULE_STORAGE_LOCATION =
        0xd9ba157648f20cc4034a6d6eed78c62d1343f741ae1abc46854b2c7f3965e300;

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    function _getChxModuleStorage() private pure returns (ChxModuleStorage storage $) {
        assembly {
            $.slot := CHX_MODULE_STORAGE_LOCATION
        }
    }

    // solhint-disable-next-line func-name-mixedcase
    function __ChxUpgradeable_init(address authority) internal onlyInitializing {
        if (authority == address(0)) revert ChxZeroAddress();
        __AccessManaged_init(authority);
    }

    /// @dev Reverts with ChxFeaturePaused when `feature` is paused.
    modifier whenActive(bytes32 feature) {
        _requireActive(feature);
        _;
    }

    function _requireActive(bytes32 feature) internal view {
        if (_getChxModuleStorage().paused[feature]) revert ChxFeaturePaused(feature);
    }

    /// @inheritdoc IChxModule
    function pauseFeature(bytes32 feature) external restricted {
        _getChxModuleStorage().paused[feature] = true;
        _afterPauseChanged(feature, true);
        emit FeaturePauseSet(feature, true, msg.sender);
    }

    /// @inheritdoc IChxModule
    function unpauseFeature(bytes32 feature) external restricted {
        _getChxModuleStorage().paused[feature] = false;
        _afterPauseChanged(feature, false);
        emit FeaturePauseSet(feature, false, msg.sender);
    }

    /// @dev Runs inside pauseFeature / unpauseFeature (restricted) after the mapping is written, and in
    ///      _syncPauseMirror: a module that mirrors a flag into a word its hot path already reads overrides it. The
    ///      mapping stays the source of truth (isFeaturePaused, every module that does not override this).
    function _afterPauseChanged(bytes32 feature, bool paused) internal virtual {}

    /// @dev Runs the hook with the mapping's value of `feature`: how a mirror is brought in line after an upgrade.
    function _syncPauseMirror(bytes32 feature) internal {
        _afterPauseChanged(feature, _getChxModuleStorage().paused[feature]);
    }

    /// @inheritdoc IChxModule
    function isFeaturePaused(bytes32 feature) external view returns (bool) {
        return _getChxModuleStorage().paused[feature];
    }

    /// @inheritdoc IChxModule
    function version() external pure virtual returns (string memory) {
        return "1.0.0";
    }

    /// @dev Only callers AccessManager allows for `upgradeToAndCall` (ADMIN_ROLE = the timelock) may upgrade.
    function _authorizeUpgrade(address) internal override restricted {}
}
