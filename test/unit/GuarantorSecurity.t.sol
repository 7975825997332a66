// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IGuarantorPool} from "../../contracts/interfaces/IGuarantorPool.sol";

/// @notice Regression tests of the guarantor items of the security review (issue 17 items 4, 5, 26), each named after
///         the attack it replays.
contract GuarantorSecurityTest is ClearingUnitBase {
    /// alice: long 50 CH at 10 on 60 USDC, then closed herself at 8: flat with collateral 60 − 100 = −40.
    function _aliceFlatInDeficit() internal {
        _setupTrader(alice, guarantor, 60e6);
        vm.prank(alice);
        market.trade(50e18);
        oracle.setPrice(8e18);
        vm.prank(alice);
        market.trade(-50e18);
        assertEq(chouse.collateralOf(alice), -40e6);
        assertEq(chouse.marketsOf(alice).length, 0);
    }

    // ───────────── item 4: the guarantor cannot escape first loss (LIQ-03) ─────────────

    /// A flat account with negative collateral (self-close, funding or futures settlement) used to be removable by its
    /// guarantor, so the later liquidation billed the insurance fund instead (LIQ-03). Removal is refused while the
    /// account is in deficit, and the guarantor's capital pays first.
    function test_removeCustomer_afterDeficit_guarantorStillPaysFirst_LIQ03() public {
        _aliceFlatInDeficit();
        _fundInsurance(1_000e6);
        vm.prank(guarantor);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolCustomerInDeficit.selector, alice, guarantor, -40e6));
        pool.removeCustomer(alice);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolCustomerInDeficit.selector, alice, guarantor, -40e6));
        pool.removeCustomer(alice);
        uint256 capitalBefore = pool.guarantorInfo(guarantor).capitalUsdc;
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, capitalBefore - 40e6, "guarantor did not pay first");
        assertEq(usdc.balanceOf(address(insurance)), 1_000e6, "insurance paid before the guarantor");
        assertEq(chouse.collateralOf(alice), 0);
        // once the deficit is covered the customer may leave
        vm.prank(guarantor);
        pool.removeCustomer(alice);
        assertEq(pool.guarantorOf(alice), address(0));
    }

    /// An account in deficit without a guarantor (a cash flow charged after it left) cannot hand its loss to an open
    /// guarantor by joining it.
    function test_joinOpenGuarantor_refusedWhileInDeficit() public {
        _depositFor(alice, 10e6);
        market.settleFunding(alice, -50e6);
        address og = makeAddr("open guarantor");
        _setupGuarantor(og, true, 1_000e6);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolCustomerInDeficit.selector, alice, og, -40e6));
        pool.joinOpenGuarantor(og);
        // a closed guarantor may still take such an account on knowingly
        vm.prank(og);
        pool.admitCustomer(alice, 100e6);
        assertEq(pool.guarantorOf(alice), og);
    }

    // ───────────── item 5: exposure moves with the customer ─────────────

    /// A customer's exposure stayed recorded at the guarantor it left (locking that guarantor's capital forever) and
    /// was then subtracted from the next guarantor's aggregate on its first trade (defeating that guarantor's
    /// capacity check). Leaving takes the customer's recorded exposure off the old guarantor and zeroes it.
    function test_removeCustomer_exposureMovesWithCustomerAndIsZeroed() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(50e18); // exposure 500
        vm.prank(alice);
        market.trade(-50e18); // a reduction does not call the guarantor: 500 stays recorded
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, 500e6);
        vm.prank(alice);
        pool.removeCustomer(alice);
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, 0, "stale exposure left at the old guarantor");
        (, uint256 aliceExposure) = pool.customerInfo(alice);
        assertEq(aliceExposure, 0);

        // the next guarantor's aggregate is the sum of its customers' exposures
        address g2 = makeAddr("second guarantor");
        _setupGuarantor(g2, false, 1_000e6);
        _setupTrader(bob, g2, 100e6);
        vm.prank(bob);
        market.trade(40e18); // 400
        vm.prank(g2);
        pool.admitCustomer(alice, 1_000e6);
        vm.prank(alice);
        market.trade(30e18); // 300
        assertEq(pool.guarantorInfo(g2).exposureUsdc, 700e6, "stale exposure subtracted from the new guarantor");
    }
}
