// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20PermitUpgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/extensions/ERC20PermitUpgradeable.sol";
import {ChxUpgradeable} from "../../core/base/ChxUpgradeable.sol";

/// @title DPSTokenBrokenV2Mock
/// @notice Test-only: a layout-BREAKING "v2" of DPSToken (a field inserted at the head of its namespace and the
///         votes extension dropped). The storage-layout validation must reject it (SEC-02).
contract DPSTokenBrokenV2Mock is ChxUpgradeable, ERC20PermitUpgradeable {
    /// @custom:storage-location erc7201:chx.storage.DPSToken
    struct DPSTokenStorage {
        address inserted;
        uint256 totalEmitted;
        uint256 totalBurned;
        uint256 genesisSupply;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.DPSToken")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant DPS_TOKEN_STORAGE_LOCATION =
        0x75f1f5082035a9930a3cfff1bc6d42e3f1ab22967ecf60781ddc8102649bfb00;

    /// @notice Initialiser (never run on the live proxy; present so only the layout break is reported).
    /// @param authority AccessManager.
    function initialize(address authority) external initializer {
        __ChxUpgradeable_init(authority);
        __ERC20_init("x", "x");
        __ERC20Permit_init("x");
    }

    /// @notice Reads the inserted field (keeps the struct referenced).
    /// @return The field.
    function inserted() external view returns (address) {
        DPSTokenStorage storage $;
        assembly {
            $.slot := DPS_TOKEN_STORAGE_LOCATION
        }
        return $.inserted;
    }
}
