// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";
import {EmissionSolBase} from "../../helpers/EmissionSolBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {GFLToken} from "../../../contracts/core/token/GFLToken.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {IGFLToken} from "../../../contracts/interfaces/tokens/IGFLToken.sol";
import {IEmissionEvents} from "../../../contracts/interfaces/emission/IEmissionEvents.sol";

/// @notice The hot-path callers trusted by address (issue 18 gas): the GFL token's minter (Emission) and Emission's
///         trusted capacity recorder (the ProviderRegistry). Governance alone re-points them; nobody else writes.
contract TrustedCallersTest is EmissionSolBase {
    address internal p1 = address(0x1001);
    address internal stranger = address(0xBAD);

    function setUp() public {
        _deployEmission(0, 1);
    }

    function _unauthorized(address caller) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, caller);
    }

    // ------------------------------------------------------------------ GFL minter

    function test_gflMinter_onlyGovernanceSetsIt() public {
        vm.prank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        gfl.setMinter(stranger);
        vm.expectEmit(address(gfl));
        emit IGFLToken.GFLMinterSet(address(0), address(emission));
        gfl.setMinter(address(emission));
        assertEq(gfl.minter(), address(emission));
    }

    function test_gflMinter_strangerCannotMintBurnOrSet() public {
        gfl.setMinter(address(emission));
        vm.startPrank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        gfl.mint(stranger, 1e18);
        vm.expectRevert(_unauthorized(stranger));
        gfl.setBalance(stranger, 1e18);
        vm.expectRevert(_unauthorized(stranger));
        gfl.burn(p1, 0);
        vm.stopPrank();
        assertEq(gfl.totalSupply(), 0);
    }

    function test_gflMinter_writesWithoutAnyRole() public {
        address minter = address(0xA11CE);
        gfl.setMinter(minter);
        vm.startPrank(minter);
        gfl.setBalance(p1, 5e18);
        gfl.mint(p1, 1e18);
        gfl.burn(p1, 2e18);
        vm.stopPrank();
        assertEq(gfl.balanceOf(p1), 4e18);
    }

    function test_gflMinter_repointedMinterLosesAccess() public {
        address oldMinter = address(0xA11CE);
        gfl.setMinter(oldMinter);
        gfl.setMinter(address(emission));
        vm.prank(oldMinter);
        vm.expectRevert(_unauthorized(oldMinter));
        gfl.setBalance(oldMinter, 1e18);
    }

    function test_gflMinter_roleHolderStillWrites() public {
        gfl.setMinter(address(emission));
        _grant(Roles.EMISSION, p1);
        vm.prank(p1);
        gfl.setBalance(p1, 3e18);
        assertEq(gfl.balanceOf(p1), 3e18);
    }

    /// A claim accrues the reward without writing GFL (issue 18); the rebalance that follows writes GFL through the
    /// minter path even when no role may write GFL.
    function test_claim_lazySettleThroughMinter_withoutGflRole() public {
        gfl.setMinter(address(emission));
        _setRole(address(gfl), GFLToken.setBalance.selector, 999); // a role nobody holds
        _warpTo(0, 0);
        _record(p1, 100e18);
        vm.warp(emission.epochStart(1));
        emission.closeEpoch();
        vm.prank(p1);
        uint256 paid = emission.claim(p1);
        assertEq(paid, (100e18 * BASE_RATE) / 1e18);
        assertEq(gfl.balanceOf(p1), 0);
        emission.rebalanceProvider(p1);
        assertEq(gfl.balanceOf(p1), 100e18);
        assertEq(emission.claimable(p1), 0);
    }

    // ------------------------------------------------------------------ Emission trusted recorder

    function test_trustedRecorder_onlyGovernanceSetsIt() public {
        vm.prank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        emission.setTrustedRecorder(stranger);
        vm.expectEmit(address(emission));
        emit IEmissionEvents.TrustedRecorderSet(address(0), address(0xF00));
        emission.setTrustedRecorder(address(0xF00));
        assertEq(emission.trustedRecorder(), address(0xF00));
    }

    function test_trustedRecorder_recordsWithoutRole_strangerRejected() public {
        address recorder = address(0xF00);
        emission.setTrustedRecorder(recorder);
        _warpTo(0, 0);
        vm.prank(recorder);
        emission.recordCapacity(p1, 10e18);
        assertEq(emission.providerInfo(p1).epochGfl, 10e18);
        vm.prank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        emission.recordCapacity(p1, 1e18);
        _record(p1, 8e18); // the role holder still may
        assertEq(emission.providerInfo(p1).epochGfl, 8e18);
    }

    function test_trustedRecorder_repointedRecorderLosesAccess() public {
        emission.setTrustedRecorder(address(0xF00));
        emission.setTrustedRecorder(address(0));
        vm.prank(address(0xF00));
        vm.expectRevert(_unauthorized(address(0xF00)));
        emission.recordCapacity(p1, 1e18);
    }

    function test_trustedRecorder_pauseStillApplies() public {
        address recorder = address(0xF00);
        emission.setTrustedRecorder(recorder);
        bytes32 feature = emission.FEATURE_RECORD();
        _grant(Roles.GUARDIAN, address(this));
        emission.pauseFeature(feature);
        vm.prank(recorder);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        emission.recordCapacity(p1, 1e18);
    }
}
