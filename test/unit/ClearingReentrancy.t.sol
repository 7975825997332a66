// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "../helpers/ClearingSolBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {ReentrantERC20} from "../../contracts/mocks/ReentrantERC20.sol";

/// @notice SEC-04: a malicious collateral token that re-enters the clearing layer during a transfer makes the
///         outer call revert (ReentrancyGuardReentrantCall bubbles up through the token).
contract ClearingReentrancyTest is ClearingSolBase {
    ReentrantERC20 internal rusd;
    address internal alice = makeAddr("alice");
    bytes4 internal constant REENTRANT = bytes4(keccak256("ReentrancyGuardReentrantCall()"));

    function setUp() public {
        rusd = ReentrantERC20(deployCode("ReentrantERC20.sol:ReentrantERC20"));
        _deployClearingWith(address(rusd));
        _setupGuarantor(guarantor, false, 1_000e6);
        _fundMarket(1_000e6);
        _setupTrader(alice, guarantor, 100e6);
    }

    function _mintUsdc(address to, uint256 amount) internal override {
        rusd.mint(to, amount);
    }

    function usdcApprove(address spender, uint256 amount) internal override {
        rusd.approve(spender, amount);
    }

    function test_withdraw_reenteringTokenReverts_SEC04() public {
        rusd.arm(address(chouse), abi.encodeCall(IClearingHouse.withdraw, (1e6, alice)));
        vm.prank(alice);
        vm.expectRevert(REENTRANT);
        chouse.withdraw(10e6, alice);
        assertEq(chouse.collateralOf(alice), 100e6);
    }

    function test_deposit_reenteringTokenReverts_SEC04() public {
        rusd.mint(alice, 10e6);
        vm.prank(alice);
        rusd.approve(address(chouse), 10e6);
        rusd.arm(address(chouse), abi.encodeCall(IClearingHouse.deposit, (1)));
        vm.prank(alice);
        vm.expectRevert(REENTRANT);
        chouse.deposit(10e6);
    }

    function test_liquidate_reenteringTokenReverts_SEC04() public {
        vm.prank(alice);
        market.trade(50e18);
        oracle.setPrice(8.3e18);
        rusd.arm(address(liq), abi.encodeCall(ILiquidationEngine.liquidate, (alice)));
        vm.expectRevert(REENTRANT);
        liq.liquidate(alice);
        assertEq(chouse.marketsOf(alice).length, 1);
    }

    function test_withdrawCapital_reenteringTokenReverts_SEC04() public {
        rusd.arm(address(pool), abi.encodeCall(IGuarantorPool.withdrawCapital, (guarantor, 1, guarantor)));
        uint256 shares = pool.sharesOf(guarantor, guarantor);
        vm.prank(guarantor);
        vm.expectRevert(REENTRANT);
        pool.withdrawCapital(guarantor, shares / 2, guarantor);
    }
}
