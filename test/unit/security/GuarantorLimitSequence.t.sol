// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {IGuarantorPoolErrors} from "../../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";

/// @notice A guarantor lowers a customer's limit between two of its trades (round 48, docs/testing.md "Sequence
///         attacks"). The gate is the guarantor's rule: the next risk-increasing trade must be gated at the new limit,
///         even though the customer's exposure already exceeds it, and a risk-reducing trade must never be blocked
///         (a customer over its limit must be able to get back under it).
contract GuarantorLimitSequenceTest is ClearingUnitBase {
    /// alice is long 50 CH at 10 (exposure 500) when her guarantor lowers her limit to 400.
    function _limitLoweredUnderExposure() internal {
        _aliceLong50();
        vm.prank(guarantor);
        pool.admitCustomer(alice, 400e6);
    }

    function test_limitLoweredBetweenTrades_increaseRefusedAtTheNewLimit() public {
        _limitLoweredUnderExposure();
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerLimitExceeded.selector, alice, 400e6, 510e6)
        );
        market.trade(1e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 50e18, "the refused trade changed nothing");
    }

    function test_limitLoweredBetweenTrades_reductionsPass_thenRiskWithinTheLimitPasses() public {
        _limitLoweredUnderExposure();
        vm.prank(alice);
        market.trade(-20e18); // 30 CH left, exposure 300: a reduction is never gated
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 30e18);
        vm.prank(alice);
        market.trade(5e18); // 350 <= 400: new risk within the lowered limit passes
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 35e18);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerLimitExceeded.selector, alice, 400e6, 410e6)
        );
        market.trade(6e18); // 410 > 400
    }
}
