// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseEvents} from "../../contracts/interfaces/clearing/IClearingHouseEvents.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";
import {ClearingStorage} from "../../contracts/libraries/clearing/ClearingStorage.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Accounts, positions and the market interface: deposit, withdraw, modifyPosition, settle, pauses, access.
contract ClearingAccountsTest is ClearingUnitBase {
    /// @dev The retired OI mapping is the ninth slot of ClearingStorage.LOCATION (storage-layouts/ClearingHouse.json:
    ///      `__deprecated_openInterest`, slot 8).
    uint256 private constant DEPRECATED_OI_SLOT = 8;

    function test_deposit_creditsCollateralAndEmits() public {
        _mintUsdc(alice, 100e6);
        vm.startPrank(alice);
        usdc.approve(address(chouse), 100e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.MarginDeposited(alice, 100e6, 100e6);
        chouse.deposit(100e6);
        vm.stopPrank();
        assertEq(chouse.collateralOf(alice), 100e6);
        assertEq(usdc.balanceOf(address(chouse)), 1_100e6);
    }

    function test_deposit_revertsOnZeroAndWhenPaused() public {
        vm.prank(alice);
        vm.expectRevert(IClearingHouseErrors.ClearingZeroAmount.selector);
        chouse.deposit(0);
        _pause(address(chouse), "clearing.deposit");
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, keccak256("clearing.deposit")));
        chouse.deposit(1);
    }

    function test_withdraw_paysAndEmits() public {
        _depositFor(alice, 100e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.MarginWithdrawn(alice, bob, 40e6, 60e6);
        vm.prank(alice);
        chouse.withdraw(40e6, bob);
        assertEq(usdc.balanceOf(bob), 40e6);
        assertEq(chouse.collateralOf(alice), 60e6);
    }

    function test_withdraw_revertsAboveCollateral() public {
        _depositFor(alice, 100e6);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingInsufficientCollateral.selector,
                alice,
                101e6,
                int256(100e6)
            )
        );
        chouse.withdraw(101e6, alice);
    }

    function test_withdraw_revertsBelowInitialMargin() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(50e18); // notional 500, IM 50
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 50e6, int256(49e6))
        );
        chouse.withdraw(51e6, alice);
        vm.prank(alice);
        chouse.withdraw(50e6, alice);
        assertEq(chouse.collateralOf(alice), 50e6);
    }

    /// SEC-05: without positions, withdrawal needs no oracle and survives the new-risk pause.
    function test_withdraw_worksWithBrokenOracleAndNewRiskPaused_SEC05() public {
        _depositFor(alice, 100e6);
        oracle.setInvalid(true);
        _pause(address(chouse), "clearing.newRisk");
        vm.prank(alice);
        chouse.withdraw(100e6, alice);
        assertEq(usdc.balanceOf(alice), 100e6);
    }

    // ───────────── positions ─────────────

    /// ACC-05 worked numbers: open 3 CH long at 10.000001 (basis rounds up), close at 9.999999 (value rounds down).
    function test_modifyPosition_workedNumbersAndRounding_ACC05() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 3e18, 10.0000001e18); // 30.0000003 USDC → basis 30.000001 (ceil to 1e-6)
        IClearingHouse.Position memory p = chouse.positionOf(alice, address(market));
        assertEq(p.sizeCh, 3e18);
        assertEq(p.openNotionalUsdc, 30_000001);
        int256 pnl = market.tradeAt(alice, -1e18, 9.9999999e18); // value 9.9999999 → 9.999999; basis 1/3 → 10.000000
        assertEq(pnl, 9_999999 - 10_000000);
        p = chouse.positionOf(alice, address(market));
        assertEq(p.openNotionalUsdc, 20_000001);
        // short: opening credit rounds down (toward −∞ for the account)
        _setupTrader(bob, guarantor, 100e6);
        market.tradeAt(bob, -3e18, 10.0000001e18);
        assertEq(chouse.positionOf(bob, address(market)).openNotionalUsdc, -30_000000);
    }

    function test_modifyPosition_realisesPnlAndChargesFee() public {
        _setupTrader(alice, guarantor, 100e6);
        market.setFeeBps(10); // 0.1 %
        vm.prank(alice);
        market.trade(50e18); // notional 500 → fee 0.5
        assertEq(chouse.collateralOf(alice), 99.5e6);
        oracle.setPrice(11e18);
        vm.prank(alice);
        int256 pnl = market.trade(-20e18); // realise 20 × (11 − 10) = 20, fee 0.22
        assertEq(pnl, 20e6);
        assertEq(chouse.collateralOf(alice), 99.5e6 + 20e6 - 0.22e6);
        (uint256 fees, ) = chouse.totals();
        assertEq(fees, 0.72e6);
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        assertEq(poolUsdc, 1_000e6 - 20e6);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 30e18);
        // flip to short 10: closes 30 (pnl 30), opens 10 short
        vm.prank(alice);
        market.trade(-40e18);
        IClearingHouse.Position memory p = chouse.positionOf(alice, address(market));
        assertEq(p.sizeCh, -10e18);
        assertEq(p.openNotionalUsdc, -110e6);
    }

    /// Issue 18 item 4, one source of truth for open interest (round 47): the market keeps it; a trade that opens,
    /// flips and closes positions of two accounts neither reads nor writes the ClearingHouse's retired OI slot, which
    /// stays zero, while the positions and the pool move.
    function test_trade_touchesNoOpenInterestCopy() public {
        _setupTrader(alice, guarantor, 100e6);
        _setupTrader(bob, guarantor, 100e6);
        bytes32 oiSlot = keccak256(abi.encode(address(market), uint256(ClearingStorage.LOCATION) + DEPRECATED_OI_SLOT));
        vm.record();
        vm.prank(alice);
        market.trade(50e18);
        vm.prank(bob);
        market.trade(-30e18);
        vm.prank(alice);
        market.trade(-60e18); // flips to short 10
        vm.prank(bob);
        market.trade(30e18); // closes
        (bytes32[] memory reads, bytes32[] memory writes) = vm.accesses(address(chouse));
        for (uint256 i; i < reads.length; ++i) assertTrue(reads[i] != oiSlot && reads[i] != bytes32(uint256(oiSlot) + 1));
        for (uint256 i; i < writes.length; ++i) assertTrue(writes[i] != oiSlot);
        assertEq(vm.load(address(chouse), oiSlot), bytes32(0));
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, -10e18);
        assertEq(chouse.positionOf(bob, address(market)).sizeCh, 0);
        (bool registered, ) = chouse.marketInfo(address(market));
        assertTrue(registered);
    }

    /// LIQ-01: a risk-increasing trade must leave equity ≥ initial margin.
    function test_modifyPosition_revertsBelowInitialMargin_LIQ01() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(
                IClearingHouseErrors.ClearingInsufficientMargin.selector,
                alice,
                100.1e6,
                int256(100e6)
            )
        );
        market.trade(100.1e18);
    }

    function test_modifyPosition_gatedByGuarantor() public {
        _depositFor(alice, 100e6);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoGuarantor.selector, alice));
        market.trade(1e18);

        vm.prank(guarantor);
        pool.admitCustomer(alice, 200e6);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerLimitExceeded.selector, alice, 200e6, 300e6)
        );
        market.trade(30e18);

        vm.prank(guarantor);
        pool.admitCustomer(alice, 100_000e6);
        _depositFor(alice, 10_000e6);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCapacityExceeded.selector, guarantor, 10_000e6, 10_010e6)
        );
        market.trade(1_001e18);

        pool.setParams(MIN_DPS + 1, MAX_LEVERAGE);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolStakeTooLow.selector, guarantor, MIN_DPS + 1, MIN_DPS)
        );
        market.trade(1e18);
    }

    /// ORC-01: with an invalid index a risk-increasing trade reverts; a reducing trade still goes through.
    function test_modifyPosition_oracleInvalid_ORC01() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 10e18, 10e18);
        oracle.setInvalid(true);
        vm.expectRevert(MockPriceIndex.MockPriceInvalid.selector);
        market.tradeAt(alice, 1e18, 10e18);
        market.tradeAt(alice, -10e18, 10e18);
        assertEq(chouse.marketsOf(alice).length, 0);
    }

    function test_newRiskPause_blocksOpensNotCloses() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 10e18, 10e18);
        _pause(address(chouse), "clearing.newRisk");
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, keccak256("clearing.newRisk")));
        market.tradeAt(alice, 1e18, 10e18);
        market.tradeAt(alice, -5e18, 10e18);
    }

    function test_accessControl_SEC01() public {
        vm.startPrank(alice);
        // The market hot path checks registration (ADMIN) instead of an AccessManager round trip (gas).
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingMarketNotRegistered.selector, alice));
        chouse.modifyPosition(alice, 1, 1, 0);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingMarketNotRegistered.selector, alice));
        chouse.settle(alice, 1);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingOnlyLiquidationEngine.selector, alice));
        chouse.liquidationClose(alice, 1e18, 1, alice, 0);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingOnlyLiquidationEngine.selector, alice));
        chouse.absorbDeficit(alice, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.registerMarket(alice);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolOnlyClearingHouse.selector, alice));
        pool.onExposureChanged(alice, 0, false);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        pool.coverLoss(alice, 1, alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        pool.slashDps(guarantor, 1, alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        risk.setVolatilityParams(0.9e18, 1, 0);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        liq.setParams(1, 1, 1);
        vm.stopPrank();
    }

    /// The GUARDIAN freezes one market's new risk at once; its exits and cash flows stay open (SEC-05, issue 17 item 12;
    /// the full attack is ClearingSecurity.t.sol).
    function test_marketPause_freezesOneMarket() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(10e18);
        bytes32 feature = keccak256(abi.encode(keccak256("clearing.market"), address(market)));
        IChxModule(address(chouse)).pauseFeature(feature);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        market.tradeAt(alice, 5e18, 10e18);
        market.settleFunding(alice, 1);
        IChxModule(address(chouse)).unpauseFeature(feature);
        market.tradeAt(alice, -5e18, 10e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 5e18);
    }

    function test_registerMarket_revertsTwice() public {
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingMarketAlreadyRegistered.selector, address(market))
        );
        chouse.registerMarket(address(market));
    }

    function test_settle_movesCashAgainstPool() public {
        _depositFor(alice, 100e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.AccountSettled(alice, address(market), -7e6, 93e6, 1_007e6);
        market.settleFunding(alice, -7e6);
    }

    // ───────────── risk engine ─────────────
}
