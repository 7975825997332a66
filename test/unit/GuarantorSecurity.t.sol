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
}
