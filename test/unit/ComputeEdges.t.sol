// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryEvents} from "../../contracts/interfaces/compute/IProviderRegistryEvents.sol";
import {IProviderRegistryErrors} from "../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {IProviderMatcher} from "../../contracts/interfaces/compute/IProviderMatcher.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @notice Edge paths of ProviderRegistry and ProviderMatcher: profile updates, attestation of an unregistered
///         provider or of an out-of-range capacity, heartbeats without an emission recorder, the zero-address and
///         deadline guards of the CH paths, unordered tier thresholds, and the matcher's page and count limits.
contract ComputeEdgesTest is TaskSolBase {
    bytes4 internal constant ZERO = bytes4(keccak256("ChxZeroAddress()"));

    function setUp() public {
        _deployTasks();
        _grant(Roles.COMPUTE, address(this));
    }

    function _signed(IProviderRegistry.Attestation memory a) internal view returns (bytes memory) {
        return signDigest(ATTESTER_PK, registry.attestationDigest(a));
    }

    function _query() internal pure returns (IProviderMatcher.Query memory) {
        return
            IProviderMatcher.Query({
                mode: IProviderMatcher.Mode.Executor,
                workloadClass: 1,
                region: 0,
                regionStrict: false,
                budgetPriceWad: 0,
                requiredCapacityPflopsWad: 0,
                requiredCh: 0
            });
    }

    // ─── ProviderRegistry ───────────────────────────────────────────────────────────────────────────────

    function test_registry_updateProfile() public {
        address p = providers[0];
        vm.prank(p);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.ProviderProfileUpdated(p, 7, 0x6, keccak256("hw"), "ipfs://hw");
        registry.updateProfile(7, 0x6, keccak256("hw"), "ipfs://hw");
        IProviderRegistry.ProviderInfo memory info = registry.providerInfo(p);
        assertEq(info.region, 7);
        assertEq(info.workloadMask, 0x6);
        address stranger = makeAddr("stranger");
        vm.prank(stranger);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderNotRegistered.selector, stranger));
        registry.updateProfile(1, 0x2, bytes32(0), "");
    }

    function test_registry_attestationGuards() public {
        address stranger = makeAddr("stranger");
        IProviderRegistry.Attestation memory a = _attestation(stranger);
        bytes memory sig = _signed(a);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderNotRegistered.selector, stranger));
        registry.attest(a, sig);
        // A capacity beyond the packed 88-bit field is refused, not truncated.
        a = _attestation(providers[0]);
        a.capacityPflopsWad = uint256(type(uint88).max) + 1;
        sig = _signed(a);
        vm.expectRevert(IProviderRegistryErrors.ProviderValueTooLarge.selector);
        registry.attest(a, sig);
    }

    /// Without an emission recorder a heartbeat only updates the provider's uptime record.
    function test_registry_heartbeatWithoutRecorder() public {
        address p = providers[0];
        vm.warp(block.timestamp + 1 hours);
        vm.prank(p);
        registry.heartbeat(0.4e18);
        assertEq(registry.providerInfo(p).lastSamplePflopsWad, 0.4e18);
    }

    function test_registry_zeroAddressAndDeadlineGuards() public {
        address p = providers[0];
        vm.prank(p);
        vm.expectRevert(ZERO);
        registry.mintCH(1e18, address(0));
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderBadDeadline.selector, block.timestamp));
        registry.assignRedemption(p, 1e18, block.timestamp);
        uint256 far = uint256(type(uint40).max) + 1;
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderBadDeadline.selector, far));
        registry.assignRedemption(p, 1e18, far);
        vm.expectRevert(ZERO);
        registry.reportDeliveryFailure(1, address(0));
        uint128[4] memory t = [uint128(1), 3, 2, 4];
        vm.expectRevert(IProviderRegistryErrors.ProviderInvalidParams.selector);
        registry.setTierThresholds(t);
    }

    function test_registry_initRejectsZeroAddresses() public {
        IProviderRegistry.Params memory p = registry.params();
        address impl = deployCode("ProviderRegistry.sol:ProviderRegistry");
        vm.expectRevert(ZERO);
        new ERC1967Proxy(
            impl,
            abi.encodeWithSignature(
                "initialize(address,address,address,address,(uint96,uint96,uint64,uint64,uint64,uint32,uint32,uint16,uint16,uint128))",
                manager,
                dps,
                ch,
                address(0),
                p
            )
        );
        address mImpl = deployCode("ProviderMatcher.sol:ProviderMatcher");
        vm.expectRevert(ZERO);
        new ERC1967Proxy(mImpl, abi.encodeWithSignature("initialize(address,address)", manager, address(0)));
    }

    // ─── ProviderMatcher ────────────────────────────────────────────────────────────────────────────────

    function test_matcher_pageLimitsAndEmptyPick() public {
        matcher.setLimits(1_000e18, 4, 4);
        address[] memory five = new address[](5);
        for (uint256 i; i < 5; ++i) five[i] = providers[i];
        vm.expectRevert(abi.encodeWithSelector(IProviderMatcher.MatcherPageTooLarge.selector, 5, 4));
        matcher.scoreCandidates(_query(), five, bytes32(0));
        vm.expectRevert(abi.encodeWithSelector(IProviderMatcher.MatcherPageTooLarge.selector, 5, 4));
        matcher.selectFromCandidates(_query(), five, new address[](0), bytes32(0), 1);
        address[] memory four = new address[](4);
        for (uint256 i; i < 4; ++i) four[i] = providers[i];
        // Asking for none picks none; asking for two picks two of the eligible candidates.
        assertEq(matcher.selectFromCandidates(_query(), four, new address[](0), bytes32(0), 0).length, 0);
        assertEq(matcher.selectFromCandidates(_query(), four, new address[](0), bytes32(0), 2).length, 2);
    }

    /// A draw over an empty snapshot yields an empty selection rather than a modulo-by-zero revert.
    function test_matcher_emptyRegistry() public {
        IProviderRegistry.Params memory p = registry.params();
        address emptyRegistry = address(
            new ERC1967Proxy(
                deployCode("ProviderRegistry.sol:ProviderRegistry"),
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,(uint96,uint96,uint64,uint64,uint64,uint32,uint32,uint16,uint16,uint128))",
                    manager,
                    dps,
                    ch,
                    standard,
                    p
                )
            )
        );
        IProviderMatcher m = IProviderMatcher(
            address(
                new ERC1967Proxy(
                    deployCode("ProviderMatcher.sol:ProviderMatcher"),
                    abi.encodeWithSignature("initialize(address,address)", manager, emptyRegistry)
                )
            )
        );
        IProviderMatcher.DrawQuery memory q = IProviderMatcher.DrawQuery({
            workloadClass: 1,
            requiredCapacityPflopsWad: 0,
            atBlock: uint64(block.number),
            atTime: uint40(block.timestamp),
            candidates: 0,
            extraSamples: 8
        });
        assertEq(m.drawFromSnapshot(q, new address[](0), keccak256("seed"), 3).length, 0);
        vm.expectRevert(abi.encodeWithSelector(IProviderMatcher.MatcherCountTooLarge.selector, 33, 32));
        m.drawFromSnapshot(q, new address[](0), keccak256("seed"), 33);
    }
}
