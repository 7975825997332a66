// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IAccessManager} from "@openzeppelin/contracts/access/manager/IAccessManager.sol";

/// @notice What the Solidity test bases that deploy by artifact name share: the AccessManager and the three
///         wiring helpers (a UUPS proxy over a fresh implementation, one selector's role, a role grant).
abstract contract ManagedSolBase is Test {
    IAccessManager internal manager;

    function _proxy(string memory artifact, bytes memory init) internal returns (address) {
        return address(new ERC1967Proxy(deployCode(artifact), init));
    }

    function _setRole(address target, bytes4 selector, uint64 role) internal {
        bytes4[] memory sels = new bytes4[](1);
        sels[0] = selector;
        manager.setTargetFunctionRole(target, sels, role);
    }

    function _grant(uint64 role, address account) internal {
        manager.grantRole(role, account, 0);
    }
}
