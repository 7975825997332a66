// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Vm} from "forge-std/Vm.sol";
import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseEvents} from "../../contracts/interfaces/clearing/IClearingHouseEvents.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";

/// @notice modifyPositionAndSettle (settle + modifyPosition in one call, the perp's trade) and the risk-reducing
///         trade path that no longer calls the guarantor (SEC-05).
contract ClearingTradeSettleTest is ClearingUnitBase {
    function test_tradeAndSettle_settlesThenTradesWithBothEvents() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.AccountSettled(alice, address(market), -7e6, 93e6, 1_007e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.PositionModified(alice, address(market), 50e18, 10e18, 50e18, 500e6, 0, 1e6, 92e6);
        vm.prank(address(market));
        (int256 pnl, IClearingHouse.Position memory p) = chouse.modifyPositionAndSettle(alice, 50e18, 10e18, 1e6, -7e6);
        assertEq(pnl, 0);
        assertEq(p.sizeCh, 50e18);
        assertEq(p.openNotionalUsdc, 500e6);
        assertEq(chouse.collateralOf(alice), 92e6);
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        assertEq(poolUsdc, 1_007e6);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 50e18);
        (uint256 fees, ) = chouse.totals();
        assertEq(fees, 1e6);
    }

    function test_tradeAndSettle_zeroSettleEmitsNoSettlement() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.recordLogs();
        vm.prank(address(market));
        chouse.modifyPositionAndSettle(alice, 50e18, 10e18, 0, 0);
        Vm.Log[] memory logs = vm.getRecordedLogs();
        for (uint256 i; i < logs.length; ++i) {
            assertTrue(logs[i].topics[0] != IClearingHouseEvents.AccountSettled.selector, "no AccountSettled");
        }
        assertEq(chouse.collateralOf(alice), 100e6);
    }

    /// @dev Same inputs, one call versus settle + modifyPosition: same collateral, position and pool movement.
    function testFuzz_tradeAndSettle_equalsSettleThenModify(
        int256 settleUsdc,
        uint256 closeCh,
        uint256 priceWad
    ) public {
        settleUsdc = bound(settleUsdc, -20e6, 20e6);
        closeCh = bound(closeCh, 1e18, 50e18);
        priceWad = bound(priceWad, 9e18, 11e18);
        _setupTrader(alice, guarantor, 100e6);
        _setupTrader(bob, guarantor, 100e6);
        vm.startPrank(address(market));
        chouse.modifyPosition(alice, 50e18, 10e18, 0);
        chouse.modifyPosition(bob, 50e18, 10e18, 0);
        (, int256 pool0) = chouse.marketInfo(address(market));
        (int256 pnlA, IClearingHouse.Position memory pa) = chouse.modifyPositionAndSettle(
            alice,
            -int256(closeCh),
            priceWad,
            1e6,
            settleUsdc
        );
        (, int256 pool1) = chouse.marketInfo(address(market));
        chouse.settle(bob, settleUsdc);
        int256 pnlB = chouse.modifyPosition(bob, -int256(closeCh), priceWad, 1e6);
        (, int256 pool2) = chouse.marketInfo(address(market));
        vm.stopPrank();
        assertEq(pnlA, pnlB);
        assertEq(chouse.collateralOf(alice), chouse.collateralOf(bob));
        IClearingHouse.Position memory pb = chouse.positionOf(bob, address(market));
        assertEq(pa.sizeCh, pb.sizeCh);
        assertEq(pa.openNotionalUsdc, pb.openNotionalUsdc);
        assertEq(pool1 - pool0, pool2 - pool1);
    }

    function test_tradeAndSettle_onlyRegisteredMarket() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingMarketNotRegistered.selector, bob));
        chouse.modifyPositionAndSettle(alice, 50e18, 10e18, 0, 1e6);
    }

    /// @dev SEC-05: a risk-reducing trade makes no guarantor call; the exposure stays (conservatively) at its last
    ///      risk-increasing value until syncExposure.
    function test_SEC05_reduceSkipsGuarantorUntilSync() public {
        _aliceLong50();
        (, uint256 exposure) = pool.customerInfo(alice);
        assertEq(exposure, 500e6);
        vm.prank(alice);
        market.trade(-20e18);
        (, exposure) = pool.customerInfo(alice);
        assertEq(exposure, 500e6, "stays high");
        chouse.syncExposure(alice);
        (, exposure) = pool.customerInfo(alice);
        assertEq(exposure, 300e6);
    }

    /// @dev SEC-05: closing works even if the guarantor contract reverts on every call.
    function test_SEC05_closeDoesNotDependOnGuarantor() public {
        _aliceLong50();
        vm.mockCallRevert(address(pool), abi.encodeWithSelector(IGuarantorPool.onExposureChanged.selector), "down");
        vm.mockCallRevert(address(pool), abi.encodeWithSelector(IGuarantorPool.onRiskIncrease.selector), "down");
        vm.prank(alice);
        market.trade(-50e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 0);
        // new risk still needs the guarantor
        vm.prank(alice);
        vm.expectRevert(bytes("down"));
        market.trade(10e18);
    }
}
