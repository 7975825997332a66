// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IChxModule
/// @notice Behaviour shared by every upgradeable CHX core contract: per-feature pause flags and a version.
interface IChxModule {
    /// @notice Thrown when an action is attempted while its feature is paused.
    /// @param feature The feature id (keccak256 of its name, e.g. keccak256("perp.open")).
    error ChxFeaturePaused(bytes32 feature);

    /// @notice Thrown when a zero address is passed where a contract or account is required.
    error ChxZeroAddress();

    /// @notice Emitted when a feature's pause flag changes.
    /// @param feature The feature id.
    /// @param paused The new flag.
    /// @param by The account that changed it (guardian to pause, timelock to unpause).
    event FeaturePauseSet(bytes32 indexed feature, bool paused, address indexed by);

    /// @notice Pauses a feature. Mapped to the GUARDIAN role: the guardian can pause, never unpause.
    /// @param feature The feature id.
    function pauseFeature(bytes32 feature) external;

    /// @notice Unpauses a feature. Admin (timelock) only.
    /// @param feature The feature id.
    function unpauseFeature(bytes32 feature) external;

    /// @notice Whether a feature is paused.
    /// @param feature The feature id.
    /// @return True when paused.
    function isFeaturePaused(bytes32 feature) external view returns (bool);

    /// @notice The implementation version, bumped by every upgrade.
    /// @return A semantic version string.
    function version() external view returns (string memory);
}
