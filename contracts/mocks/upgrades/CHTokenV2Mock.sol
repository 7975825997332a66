// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CHToken} from "../../core/token/CHToken.sol";

/// @title CHTokenV2Mock
/// @notice Test-only upgrade rehearsal: CHToken plus a new namespaced field; every v1 slot is untouched.
contract CHTokenV2Mock is CHToken {
    /// @custom:storage-location erc7201:chx.storage.CHTokenV2Mock
    struct CHTokenV2MockStorage {
        uint256 marker;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.CHTokenV2Mock")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant CH_TOKEN_V2_MOCK_STORAGE_LOCATION =
        0x5791a420003a9f31525999435bc5c6f4ad741e6e613d5c4727a928b06b4b5800;

    function _getV2Storage() private pure returns (CHTokenV2MockStorage storage $) {
        assembly {
            $.slot := CH_TOKEN_V2_MOCK_STORAGE_LOCATION
        }
    }

    /// @notice The v2 migration: runs once, through `upgradeToAndCall`.
    /// @param marker_ Initial marker.
    function initializeV2(uint256 marker_) external reinitializer(2) {
        _getV2Storage().marker = marker_;
    }

    /// @notice Sets the v2 marker.
    /// @param value New marker.
    function setMarker(uint256 value) external restricted {
        _getV2Storage().marker = value;
    }

    /// @notice The v2 marker.
    /// @return The marker.
    function marker() external view returns (uint256) {
        return _getV2Storage().marker;
    }

    /// @notice The implementation version.
    /// @return Semantic version.
    function version() external pure override returns (string memory) {
        return "2.0.0";
    }
}
