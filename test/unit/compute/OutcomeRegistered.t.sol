// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";
import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";

/// @notice Issue 18 item 4 (finalize gas): `recordTaskOutcome` learns "registered" from the draw index in the slot
///         the outcome writes, and reads the identity slot only for a provider never draw-listed. These tests attack
///         the shortcut: an address that never registered, a registered provider that was never listed (no stake),
///         a listed provider, and a caller without the hook's role.
contract OutcomeRegisteredTest is TaskSolBase {
    function setUp() public {
        _deployTasks();
        _grant(Roles.COMPUTE, address(this));
    }

    function test_unregistered_reverts() public {
        address stranger = address(0x5772);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderNotRegistered.selector, stranger));
        registry.recordTaskOutcome(stranger, true);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderNotRegistered.selector, stranger));
        registry.recordTaskOutcome(stranger, false);
    }

    /// A provider that registered but never staked is not draw-listed: the identity slot decides, and it records.
    function test_registeredNeverListed_records() public {
        address fresh = address(0xF4E5);
        vm.prank(fresh);
        registry.register(1, 0x2, bytes32(0), "");
        registry.recordTaskOutcome(fresh, true);
        registry.recordTaskOutcome(fresh, false);
        assertEq(registry.providerInfo(fresh).completed, 1);
        assertEq(registry.providerInfo(fresh).failed, 1);
    }

    function test_listedProvider_records() public {
        address p = providers[0];
        uint256 before = registry.providerInfo(p).completed;
        registry.recordTaskOutcome(p, true);
        assertEq(registry.providerInfo(p).completed, before + 1);
    }

    /// The shortcut is after the access check: a caller without Roles.COMPUTE still cannot record anything.
    function test_callerWithoutRole_reverts() public {
        address intruder = address(0xBAD);
        vm.prank(intruder);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, intruder));
        registry.recordTaskOutcome(providers[0], true);
    }
}
