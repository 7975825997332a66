// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";
import {ClearingSolBase} from "../helpers/ClearingSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IGuarantorPoolEvents} from "../../contracts/interfaces/clearing/IGuarantorPoolEvents.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {MockInsuranceFund} from "../../contracts/mocks/MockInsuranceFund.sol";

/// @notice GuarantorPool.coverLoss admits the LiquidationEngine governance registered with one SLOAD instead of an
///         AccessManager round trip, and the engine pays the waterfall from its synced copy of the ClearingHouse's
///         modules (issue 18 gas, docs/clearing.md "Trusted engine"). Attacks: a stranger, a rotated engine, a paused
///         pool, a closed pool target, a module swap.
contract LiquidationTrustedEngineTest is ClearingSolBase {
    address internal alice = makeAddr("alice");
    address internal keeper = makeAddr("keeper");
    address internal stranger = makeAddr("stranger");
    address internal g = makeAddr("thin guarantor");

    function setUp() public {
        _deployClearing();
        pool.setTrustedEngine(address(liq));
        vm.prank(stranger);
        liq.syncModules();
    }

    function _unauthorized(address caller) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, caller);
    }

    /// @dev alice (50 CH long at 10 on 60 USDC, guarantor capital 60) is bankrupt at 7: a 90 USDC deficit the
    ///      guarantor covers up to its capital (LIQ-03).
    function _bankruptAlice() internal {
        _setupGuarantor(g, false, 60e6);
        _setupTrader(alice, g, 60e6);
        vm.prank(alice);
        market.trade(50e18);
        _fundInsurance(1_000e6);
        oracle.setPrice(7e18);
    }

    function test_trustedEngine_onlyGovernanceSetsIt() public {
        vm.prank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        pool.setTrustedEngine(stranger);
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.TrustedEngineSet(stranger);
        pool.setTrustedEngine(stranger);
        assertEq(pool.trustedEngine(), stranger);
    }

    /// A caller that is neither the registered engine nor a CLEARING role holder is refused and the capital stays.
    function test_coverLoss_strangerRefused() public {
        _bankruptAlice();
        vm.prank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        pool.coverLoss(alice, 90e6, stranger);
        assertEq(pool.guarantorInfo(g).capitalUsdc, 60e6);
    }

    /// The registered engine needs no role: the bad-debt liquidation runs the guarantor layer with CLEARING revoked.
    function test_trustedEngine_coversLossWithoutClearingRole() public {
        manager.revokeRole(Roles.CLEARING, address(liq));
        _bankruptAlice();
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(pool.guarantorInfo(g).capitalUsdc, 0, "guarantor capital did not pay");
        assertGe(chouse.collateralOf(alice), 0, "deficit left");
    }

    /// Rotation: once governance re-points the trusted engine, the old one (holding no role) is refused at once, and
    /// the liquidation it would run reverts as a whole (nothing half-applied).
    function test_trustedEngine_rotated_oldEngineRefusedAtOnce() public {
        manager.revokeRole(Roles.CLEARING, address(liq));
        _bankruptAlice();
        pool.setTrustedEngine(stranger);
        vm.prank(keeper);
        vm.expectRevert(_unauthorized(address(liq)));
        liq.liquidate(alice);
        assertEq(pool.guarantorInfo(g).capitalUsdc, 60e6);
        // the new engine passes; clearing the address removes its fast path too
        vm.prank(stranger);
        assertEq(pool.coverLoss(alice, 1e6, stranger), 1e6);
        pool.setTrustedEngine(address(0));
        vm.prank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        pool.coverLoss(alice, 1e6, stranger);
    }

    /// A role holder other than the engine still passes through AccessManager (migrations, tests).
    function test_coverLoss_clearingRoleHolderStillAdmitted() public {
        _bankruptAlice();
        _grant(Roles.CLEARING, stranger);
        vm.prank(stranger);
        assertEq(pool.coverLoss(alice, 10e6, stranger), 10e6);
        assertEq(usdc.balanceOf(stranger), 10e6);
    }

    /// A paused pool (new guarantor capital paused) still takes first loss: a pause must not block a default
    /// (docs/clearing.md "Pauses": `guarantor.deposit` leaves cover open).
    function test_pausedPool_trustedEngineStillCovers() public {
        _bankruptAlice();
        _pause(address(pool), "guarantor.deposit");
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(pool.guarantorInfo(g).capitalUsdc, 0);
    }

    /// Residual (documented): AccessManager's setTargetClosed does not stop the registered engine — governance clears
    /// the trusted engine to stop it; role holders are stopped by the closed target as before.
    function test_closedTarget_stopsRoleHoldersNotTrustedEngine() public {
        _bankruptAlice();
        _grant(Roles.CLEARING, stranger);
        manager.setTargetClosed(address(pool), true);
        vm.prank(stranger);
        vm.expectRevert(_unauthorized(stranger));
        pool.coverLoss(alice, 1e6, stranger);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(pool.guarantorInfo(g).capitalUsdc, 0);
    }

    /// syncModules only copies the ClearingHouse's own modules: anyone may call it and nobody can point the waterfall
    /// elsewhere.
    function test_syncModules_copiesClearingHouseModules() public view {
        (address p, address f) = liq.waterfallModules();
        (, address chPool, address chFund) = chouse.liquidationModules();
        assertEq(p, chPool);
        assertEq(f, chFund);
        assertEq(p, address(pool));
        assertEq(f, address(insurance));
    }

    /// Module swap: the copy follows the ClearingHouse once anyone syncs; the new insurance fund pays, the old one is
    /// not touched (docs/clearing.md: governance batches setModules and syncModules).
    function test_moduleSwap_syncThenNewFundPays() public {
        MockInsuranceFund fund2 = MockInsuranceFund(
            deployCode("MockInsuranceFund.sol:MockInsuranceFund", abi.encode(address(usdc)))
        );
        chouse.setModules(address(oracle), address(risk), address(pool), address(fund2), address(liq));
        (, address stale) = liq.waterfallModules();
        assertEq(stale, address(insurance), "copy moved without a sync");
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.LiquidationModulesSynced(address(pool), address(fund2));
        vm.prank(stranger);
        liq.syncModules();
        _bankruptAlice();
        usdc.mint(address(fund2), 1_000e6);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(usdc.balanceOf(address(insurance)), 1_000e6, "old fund paid");
        assertLt(usdc.balanceOf(address(fund2)), 1_000e6, "new fund did not pay");
        assertGe(chouse.collateralOf(alice), 0);
    }

    /// Never synced (address(0) copy): the waterfall reads the ClearingHouse's modules on every default.
    function test_unsynced_readsClearingHouse() public {
        ILiquidationEngine fresh = ILiquidationEngine(
            _proxy(
                deployCode("LiquidationEngine.sol:LiquidationEngine"),
                abi.encodeWithSignature(
                    "initialize(address,address,uint256,uint256,uint256)",
                    address(manager),
                    address(chouse),
                    BOUNTY_BPS,
                    MAX_BOUNTY,
                    DUST
                )
            )
        );
        chouse.setModules(address(oracle), address(risk), address(pool), address(insurance), address(fresh));
        pool.setTrustedEngine(address(fresh));
        (address p, ) = fresh.waterfallModules();
        assertEq(p, address(0));
        _bankruptAlice();
        vm.prank(keeper);
        fresh.liquidate(alice);
        assertEq(pool.guarantorInfo(g).capitalUsdc, 0);
        assertLt(usdc.balanceOf(address(insurance)), 1_000e6, "insurance did not pay");
        assertGe(chouse.collateralOf(alice), 0);
    }
}
