// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {IGuarantorPoolErrors} from "../../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";

/// @notice `IClearingHouse.accountOf` (collateral and market count from the account's one slot): the options market's
///         cash moves and the guarantor's `removeCustomer` ask it instead of `collateralOf` + `marketsOf`, so it must
///         agree with both after every step that changes either, including the sequences the reviews attacked.
contract ClearingAccountOfTest is ClearingUnitBase {
    function _assertAgrees(address account) internal view {
        (int256 collateral, uint256 count) = chouse.accountOf(account);
        assertEq(collateral, chouse.collateralOf(account), "collateral");
        assertEq(count, chouse.marketsOf(account).length, "market count");
    }

    function test_unknownAccount_isZero() public {
        (int256 collateral, uint256 count) = chouse.accountOf(makeAddr("nobody"));
        assertEq(collateral, 0);
        assertEq(count, 0);
    }

    /// deposit → open → increase → partial close → full close → withdraw: agrees at every step.
    function test_agreesThroughALifecycle() public {
        _setupTrader(alice, guarantor, 100e6);
        _assertAgrees(alice);
        vm.startPrank(alice);
        market.trade(20e18);
        _assertAgrees(alice);
        market.trade(30e18);
        _assertAgrees(alice);
        market.trade(-10e18);
        _assertAgrees(alice);
        market.trade(-40e18);
        (, uint256 count) = chouse.accountOf(alice);
        assertEq(count, 0);
        _assertAgrees(alice);
        chouse.withdraw(50e6, alice);
        vm.stopPrank();
        _assertAgrees(alice);
    }

    /// A funding debit past the collateral (negative collateral while a position is open) is reported as is.
    function test_negativeCollateral_withPosition() public {
        _aliceLong50();
        market.settleFunding(alice, -150e6);
        (int256 collateral, uint256 count) = chouse.accountOf(alice);
        assertEq(collateral, -50e6);
        assertEq(count, 1);
        _assertAgrees(alice);
    }

    /// Attack: open, let the guarantor try to drop the customer (refused), close into a deficit (still refused, now for
    /// the deficit: LIQ-03), a third account covers it, then removal passes. One view answers both questions.
    function test_removeCustomer_positionThenDeficitThenCovered() public {
        _setupTrader(alice, guarantor, 60e6);
        vm.prank(alice);
        market.trade(50e18);
        vm.prank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerHasPositions.selector, alice, guarantor)
        );
        pool.removeCustomer(alice);
        oracle.setPrice(8e18);
        vm.prank(alice);
        market.trade(-50e18);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerInDeficit.selector, alice, guarantor, -40e6)
        );
        pool.removeCustomer(alice);
        _depositFor(alice, 40e6);
        _assertAgrees(alice);
        vm.prank(alice);
        pool.removeCustomer(alice);
        assertEq(pool.guarantorOf(alice), address(0));
    }

    /// Reorder: the customer reopens in the same block after its removal was refused; the removal is still refused
    /// and the exposure stays with the guarantor.
    function test_removeCustomer_reopenSameBlock_refused() public {
        _aliceLong50();
        vm.prank(alice);
        market.trade(-50e18);
        vm.prank(alice);
        market.trade(10e18);
        vm.prank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerHasPositions.selector, alice, guarantor)
        );
        pool.removeCustomer(alice);
        assertEq(pool.guarantorOf(alice), guarantor);
    }
}
