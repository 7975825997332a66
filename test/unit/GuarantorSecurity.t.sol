// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolEvents} from "../../contracts/interfaces/clearing/IGuarantorPoolEvents.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";

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
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerInDeficit.selector, alice, guarantor, -40e6)
        );
        pool.removeCustomer(alice);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerInDeficit.selector, alice, guarantor, -40e6)
        );
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
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerInDeficit.selector, alice, og, -40e6));
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

    // ───────────── item 26: shares survive wipe-outs; capital leaves by notice (CLR-02) ─────────────

    /// Every wipe-out (a loss taking the capital to ~0 with shares outstanding) multiplied the shares a later deposit
    /// mints; after a few, depositCapital overflowed and the guarantor could never be recapitalised.
    function test_repeatedWipeOuts_neverOverflowDeposits() public {
        address og = makeAddr("open guarantor");
        _setupGuarantor(og, true, 0);
        vm.prank(og);
        pool.admitCustomer(alice, 1_000e6);
        _grant(Roles.CLEARING, address(this));
        address lp = makeAddr("capital provider");
        _mintUsdc(lp, 20_000_000e6);
        vm.prank(lp);
        usdc.approve(address(pool), type(uint256).max);
        for (uint256 i; i < 12; ++i) {
            vm.prank(lp);
            pool.depositCapital(og, 1_000_000e6);
            pool.coverLoss(alice, 1_000_000e6, address(this)); // a default eats all of it
        }
        vm.prank(lp);
        uint256 shares = pool.depositCapital(og, 1_000e6);
        assertApproxEqAbs(pool.convertToAssets(og, shares), 1_000e6, 1);
    }

    /// A guarantor that sees a customer's default coming used to withdraw its capital at once, leaving the loss to
    /// the insurance fund. With the notice set, capital leaves only after the notice period, bearing the losses of
    /// that period (CLR-02).
    function test_withdrawCapital_aheadOfLiquidation_waitsForNotice_CLR02() public {
        pool.setCapitalNotice(3 days, 2 days);
        _setupTrader(alice, guarantor, 60e6);
        vm.prank(alice);
        market.trade(50e18);
        oracle.setPrice(8e18); // alice: equity 60 − 100 = −40, liquidatable
        uint256 all = pool.sharesOf(guarantor, guarantor);
        vm.startPrank(guarantor);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoticeRequired.selector, guarantor, guarantor));
        pool.withdrawCapital(guarantor, all / 2, guarantor);
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.CapitalWithdrawalRequested(
            guarantor,
            guarantor,
            all / 2,
            uint64(block.timestamp + 3 days),
            uint64(block.timestamp + 5 days)
        );
        (uint64 readyAt, uint64 expiresAt) = pool.requestCapitalWithdrawal(guarantor, all / 2);
        vm.expectRevert(
            abi.encodeWithSelector(
                IGuarantorPoolErrors.PoolNoticeNotElapsed.selector,
                guarantor,
                readyAt,
                block.timestamp
            )
        );
        pool.withdrawCapital(guarantor, all / 2, guarantor);
        vm.stopPrank();

        // the default lands during the notice: the guarantor's capital pays first
        _fundInsurance(1_000e6);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, 960e6);
        assertEq(usdc.balanceOf(address(insurance)), 1_000e6);

        vm.warp(readyAt);
        vm.startPrank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolExceedsNotice.selector, guarantor, all / 2, all / 2 + 1)
        );
        pool.withdrawCapital(guarantor, all / 2 + 1, guarantor);
        uint256 out = pool.withdrawCapital(guarantor, all / 4, guarantor);
        assertApproxEqAbs(out, 240e6, 1); // a quarter of 960: the loss was borne
        assertEq(pool.withdrawalNotice(guarantor, guarantor).shares, all / 2 - all / 4);
        // the rest of the notice, at once: the notice is used up
        pool.withdrawCapital(guarantor, all / 2 - all / 4, guarantor);
        assertEq(pool.withdrawalNotice(guarantor, guarantor).shares, 0);
        pool.requestCapitalWithdrawal(guarantor, 1); // a new notice: its period starts again
        (readyAt, expiresAt) = (uint64(block.timestamp + 3 days), uint64(block.timestamp + 5 days));
        assertEq(pool.withdrawalNotice(guarantor, guarantor).readyAt, readyAt);
        vm.warp(uint256(expiresAt) + 1);
        vm.expectRevert(
            abi.encodeWithSelector(
                IGuarantorPoolErrors.PoolNoticeExpired.selector,
                guarantor,
                expiresAt,
                block.timestamp
            )
        );
        pool.withdrawCapital(guarantor, 1, guarantor);
        pool.cancelCapitalWithdrawal(guarantor);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoticeRequired.selector, guarantor, guarantor));
        pool.cancelCapitalWithdrawal(guarantor);
        vm.stopPrank();
    }

    /// A flash deposit: an outsider puts capital into an open guarantor, joins it, opens the risk only that capital
    /// admits, and takes the capital back in the same block. The capital cannot leave with the risk it admitted: the
    /// immediate withdrawal needs a notice (CLR-02), the notice is refused while the exposure needs the capital, and a
    /// default during the position is paid from that capital first.
    function test_flashCapital_admitsRisk_cannotLeaveWithIt_CLR02() public {
        pool.setCapitalNotice(3 days, 2 days);
        address og = makeAddr("open guarantor");
        address mallory = makeAddr("mallory");
        _setupGuarantor(og, true, 10e6); // capacity for 100 USDC of exposure
        _mintUsdc(mallory, 1_000e6);
        _depositFor(mallory, 100e6);
        vm.startPrank(mallory);
        usdcApprove(address(pool), 1_000e6);
        uint256 shares = pool.depositCapital(og, 1_000e6);
        pool.joinOpenGuarantor(og);
        market.trade(50e18); // exposure 500: admitted only thanks to mallory's capital
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoticeRequired.selector, og, mallory));
        pool.withdrawCapital(og, shares, mallory);
        (, uint256 exposure) = pool.customerInfo(mallory);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCapacityExceeded.selector, og, 100e6, exposure) // og's 10 × 10
        );
        pool.requestCapitalWithdrawal(og, shares);
        vm.stopPrank();
        assertEq(pool.guarantorInfo(og).capitalUsdc, 1_010e6);
        // the position defaults: the flash capital (all but og's 10) pays before the insurance fund
        oracle.setPrice(7e18); // equity 100 − 150 = −50
        _fundInsurance(1_000e6);
        vm.prank(keeper);
        liq.liquidate(mallory);
        assertLt(pool.guarantorInfo(og).capitalUsdc, 1_010e6 - 40e6);
        assertEq(usdc.balanceOf(address(insurance)), 1_000e6);
    }

    /// The lock while the exposure needs the capital holds at the notice and at the withdrawal.
    function test_requestCapitalWithdrawal_refusedWhileExposureNeedsIt() public {
        pool.setCapitalNotice(1 days, 1 days);
        _aliceLong50(); // exposure 500: capital ≥ 50 needed
        uint256 all = pool.sharesOf(guarantor, guarantor);
        vm.startPrank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCapacityExceeded.selector, guarantor, 0, 500e6)
        );
        pool.requestCapitalWithdrawal(guarantor, all);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolInsufficientShares.selector, guarantor, all + 1, all)
        );
        pool.requestCapitalWithdrawal(guarantor, all + 1);
        vm.expectRevert(IGuarantorPoolErrors.PoolZeroAmount.selector);
        pool.requestCapitalWithdrawal(guarantor, 0);
        pool.requestCapitalWithdrawal(guarantor, (all * 9) / 10);
        vm.stopPrank();
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setCapitalNotice(1 days, 0);
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setCapitalNotice(91 days, 1 days);
        (uint64 noticeSec, uint64 windowSec) = pool.capitalNotice();
        assertEq(noticeSec, 1 days);
        assertEq(windowSec, 1 days);
    }

    /// After a wipe-out old shares and old notices are void; the next depositor's shares are worth its deposit.
    function test_wipeOut_resetsSharesAndVoidsNotices() public {
        pool.setCapitalNotice(1 days, 1 days);
        vm.prank(guarantor);
        pool.admitCustomer(alice, 1_000e6);
        uint256 all = pool.sharesOf(guarantor, guarantor);
        vm.prank(guarantor);
        pool.requestCapitalWithdrawal(guarantor, all);
        _grant(Roles.CLEARING, address(this));
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.GuarantorSharesReset(guarantor, 1, all, 0);
        pool.coverLoss(alice, 2_000e6, address(this));
        assertEq(pool.shareEpoch(guarantor), 1);
        assertEq(pool.sharesOf(guarantor, guarantor), 0);
        assertEq(pool.withdrawalNotice(guarantor, guarantor).shares, 0);
        _mintUsdc(guarantor, 100e6);
        vm.startPrank(guarantor);
        usdc.approve(address(pool), 100e6);
        uint256 shares = pool.depositCapital(guarantor, 100e6);
        assertEq(pool.sharesOf(guarantor, guarantor), shares);
        assertEq(pool.convertToAssets(guarantor, shares), 100e6);
        vm.warp(block.timestamp + 1 days);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoticeRequired.selector, guarantor, guarantor));
        pool.withdrawCapital(guarantor, shares, guarantor);
        vm.stopPrank();
    }
}
