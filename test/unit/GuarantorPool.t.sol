// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Guarantor pool: open pools, capacity, customers, DPS bond, ACC-03/ACC-04.
contract GuarantorPoolTest is ClearingUnitBase {
    function test_pool_openGuarantorSharesAndSelfAdmission() public {
        address og = makeAddr("open guarantor");
        _setupGuarantor(og, true, 1_000e6);
        _mintUsdc(bob, 500e6);
        vm.startPrank(bob);
        usdc.approve(address(pool), 500e6);
        uint256 shares = pool.depositCapital(og, 500e6);
        vm.stopPrank();
        assertEq(shares, 500e6 * 1e24);
        assertEq(pool.convertToAssets(og, shares), 500e6);
        vm.prank(alice);
        pool.joinOpenGuarantor(og);
        assertEq(pool.guarantorOf(alice), og);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNotOpen.selector, guarantor));
        pool.joinOpenGuarantor(guarantor);
        vm.startPrank(bob);
        usdc.approve(address(pool), 1);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNotOpen.selector, guarantor));
        pool.depositCapital(guarantor, 1);
        vm.stopPrank();
    }

    function test_pool_withdrawCapitalKeepsCapacity() public {
        _aliceLong50(); // exposure 500 → needs capital ≥ 50
        uint256 all = pool.sharesOf(guarantor, guarantor);
        vm.prank(guarantor);
        vm.expectRevert();
        pool.withdrawCapital(guarantor, all, guarantor);
        vm.prank(guarantor);
        uint256 out = pool.withdrawCapital(guarantor, (all * 9) / 10, guarantor);
        assertApproxEqAbs(out, 900e6, 1);
    }

    function test_pool_customerCannotLeaveWithPositions() public {
        _aliceLong50();
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerHasPositions.selector, alice, guarantor)
        );
        pool.removeCustomer(alice);
    }

    function test_pool_unstakeBelowMinimumOnlyWithoutExposure() public {
        _aliceLong50();
        vm.prank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolUnstakeNotAllowed.selector, guarantor, 1, MIN_DPS)
        );
        pool.unstakeDps(1);
    }

    /// ACC-04: 1-wei deposit + donation up to 1e24 then a victim deposit V ≥ 1 USDC: the victim keeps
    /// ≥ V·(1 − 1e-6) and the attacker does not profit.
    function testFuzz_pool_inflationAttack_ACC04(uint256 donation, uint256 victimDeposit) public {
        donation = bound(donation, 1, 1e24);
        victimDeposit = bound(victimDeposit, 1e6, 1e15);
        address og = makeAddr("fresh open guarantor");
        _setupGuarantor(og, true, 0);
        address attacker = makeAddr("attacker");
        _mintUsdc(attacker, donation + 1);
        vm.startPrank(attacker);
        usdc.approve(address(pool), donation + 1);
        uint256 attackerShares = pool.depositCapital(og, 1);
        pool.creditIncome(og, donation);
        vm.stopPrank();
        _mintUsdc(bob, victimDeposit);
        vm.startPrank(bob);
        usdc.approve(address(pool), victimDeposit);
        uint256 victimShares = pool.depositCapital(og, victimDeposit);
        vm.stopPrank();
        uint256 victimValue = pool.convertToAssets(og, victimShares);
        assertGe(victimValue, victimDeposit - victimDeposit / 1e6 - 1);
        assertLe(pool.convertToAssets(og, attackerShares), donation + 1);
    }

    /// ACC-03: a thousand 1-wei deposit/withdraw round trips never increase a balance.
    function test_pool_roundTripsNoFreeValue_ACC03() public {
        _mintUsdc(guarantor, 1_000);
        vm.startPrank(guarantor);
        usdc.approve(address(pool), type(uint256).max);
        for (uint256 i; i < 1_000; ++i) {
            uint256 s = pool.depositCapital(guarantor, 1);
            pool.withdrawCapital(guarantor, s, guarantor);
        }
        vm.stopPrank();
        assertLe(usdc.balanceOf(guarantor), 1_000);
    }

    function test_clearing_roundTripsNoFreeValue_ACC03() public {
        _mintUsdc(alice, 1);
        vm.startPrank(alice);
        usdc.approve(address(chouse), type(uint256).max);
        for (uint256 i; i < 1_000; ++i) {
            chouse.deposit(1);
            chouse.withdraw(1, alice);
        }
        vm.stopPrank();
        assertEq(usdc.balanceOf(alice), 1);
        assertEq(chouse.collateralOf(alice), 0);
    }

    function test_pool_slashDps() public {
        _grant(Roles.GUARANTOR_SLASHER, address(this));
        pool.slashDps(guarantor, 400e18, bob);
        assertEq(dps.balanceOf(bob), 400e18);
        assertEq(pool.guarantorInfo(guarantor).dpsStaked, MIN_DPS - 400e18);
    }
}
