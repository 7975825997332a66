// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

/// @notice Issue 18 item 4 (round 41): the guarantor's pending income lives in the word of its capital and exposure
///         (uint96 / uint96 / uint64), which the gate of every risk-increasing fill already writes. Attack tests on the
///         narrowed values (at and beyond each bound: a clear revert, nothing changes), income conservation
///         (ACC: Σ pending = incomeOwed + incomeFunded), capital writes between fills, a customer moving guarantor, a
///         paused pool, and a loss / slash with income pending.
contract GuarantorIncomePackingTest is ClearingUnitBase {
    uint32 internal constant VEST = 1 days;
    uint256 internal constant MAX96 = type(uint96).max;
    address internal og = makeAddr("open guarantor");
    address internal lp = makeAddr("capital provider");

    function _backstop(uint16 feeShareBps) internal {
        pool.setBackstopParams(
            IGuarantorPool.BackstopParams(address(insurance), 0, makeAddr("sink"), 1 days, 1_000, feeShareBps, VEST)
        );
    }

    /// The ClearingHouse's risk-increasing hook, called directly (the pool's own path, without a market).
    function _increase(address account, uint256 exposureUsdc, uint256 feeUsdc) internal {
        vm.prank(address(chouse));
        pool.onRiskIncrease(account, exposureUsdc, feeUsdc);
    }

    function _reduce(address account, uint256 exposureUsdc) internal {
        vm.prank(address(chouse));
        pool.onExposureChanged(account, exposureUsdc, false);
    }

    function _admit(address account, address g, uint256 limitUsdc) internal {
        vm.prank(g);
        pool.admitCustomer(account, limitUsdc);
    }

    /// The ClearingHouse pays `amountUsdc` of the owed income in (what flushFees does).
    function _fund(uint256 amountUsdc) internal {
        _mintUsdc(address(chouse), amountUsdc);
        vm.startPrank(address(chouse));
        usdcApprove(address(pool), amountUsdc);
        pool.fundIncome(amountUsdc);
        vm.stopPrank();
    }

    /// `g` deposits `amountUsdc` into its own capital; returns the shares.
    function _deposit(address g, uint256 amountUsdc) internal returns (uint256) {
        _mintUsdc(g, amountUsdc);
        vm.startPrank(g);
        usdcApprove(address(pool), amountUsdc);
        uint256 shares = pool.depositCapital(g, amountUsdc);
        vm.stopPrank();
        return shares;
    }

    function _pending(address g) internal view returns (uint256) {
        return pool.incomeOf(g).pendingUsdc;
    }

    function _capital(address g) internal view returns (uint256) {
        return pool.guarantorInfo(g).capitalUsdc;
    }

    /// Capital + income still vesting is bounded by 96 bits: a deposit up to the bound passes (and the vesting later
    /// released into capital lands exactly on it), one unit more reverts — deposit or credited income — and changes
    /// nothing.
    function test_capital_atAndBeyondBound_revertsAndChangesNothing() public {
        vm.prank(og);
        pool.registerGuarantor(true, 0);
        _backstop(0);
        _mintUsdc(lp, 500e6);
        vm.startPrank(lp);
        usdcApprove(address(pool), 500e6);
        pool.creditIncome(og, 500e6); // vesting over VEST
        vm.stopPrank();
        _deposit(og, MAX96 - 500e6);
        uint256 shares = pool.guarantorInfo(og).totalShares;
        _mintUsdc(lp, 2);
        vm.startPrank(lp);
        usdcApprove(address(pool), 2);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 96, MAX96 + 1));
        pool.depositCapital(og, 1);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 96, MAX96 + 1));
        pool.creditIncome(og, 1);
        vm.stopPrank();
        assertEq(pool.guarantorInfo(og).totalShares, shares, "no share minted");
        assertEq(pool.incomeOf(og).unvestedUsdc, 500e6, "no income credited");
        vm.warp(block.timestamp + VEST);
        assertEq(_capital(og), MAX96, "the release lands on the bound");
        vm.prank(og);
        pool.withdrawCapital(og, 1e30, og); // releases the vesting into capital, then pays
        assertEq(pool.incomeOf(og).unvestedUsdc, 0);
        assertEq(_capital(og) + usdc.balanceOf(og), MAX96, "nothing lost");
    }

    /// The guarantor's aggregate exposure is stored in 96 bits: a risk-increasing fill up to the bound passes, one
    /// unit beyond is refused as over capacity (the capacity is capped at the stored width) and changes nothing;
    /// reductions never revert.
    function test_exposure_atAndBeyondBound_refusedAsOverCapacity() public {
        _backstop(10_000);
        _deposit(guarantor, MAX96 / 2); // capacity 10× the capital, far beyond 96 bits
        _admit(alice, guarantor, MAX96);
        _admit(bob, guarantor, MAX96);
        _increase(alice, MAX96 - 10, 7);
        _increase(bob, 10, 0);
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, MAX96);
        uint256 capital = _capital(guarantor);
        vm.prank(address(chouse));
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCapacityExceeded.selector, guarantor, MAX96, MAX96 + 1)
        );
        pool.onRiskIncrease(bob, 11, 5);
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, MAX96, "exposure unchanged");
        assertEq(_pending(guarantor), 7, "income unchanged");
        assertEq(pool.incomeOwed(), 7);
        assertEq(_capital(guarantor), capital, "capital unchanged");
        _reduce(alice, 0);
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, 10);
        assertEq(_pending(guarantor), 7);
    }

    /// ACC: two guarantors accrue through the gate; at every step Σ pending = incomeOwed + incomeFunded. A collect
    /// beyond what was paid in is refused; flushed, collected and vested, each capital ends at deposit + its income
    /// and the pool holds exactly the USDC it owes.
    function test_income_accrueFundCollectVest_sumPendingEqualsOwedPlusFunded() public {
        _setupGuarantor(og, true, 1_000e6);
        _backstop(5_000);
        _admit(alice, guarantor, 1_000e6);
        _admit(bob, og, 1_000e6);
        _increase(alice, 100e6, 3e6); // 1.5
        _increase(bob, 200e6, 1e6); // 0.5
        assertEq(_pending(guarantor) + _pending(og), pool.incomeOwed(), "ACC before funding");
        _fund(2e6);
        assertEq(pool.incomeOwed(), 0);
        assertEq(pool.collectIncome(guarantor), 1.5e6); // funded 0.5 left
        _increase(bob, 300e6, 2e6); // og: 0.5 + 1
        assertEq(_pending(og), 1.5e6);
        assertEq(pool.incomeOwed(), 1e6);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolIncomeUnfunded.selector, 1.5e6, 0.5e6));
        pool.collectIncome(og);
        _fund(1e6);
        assertEq(pool.collectIncome(og), 1.5e6);
        assertEq(_pending(guarantor) + _pending(og), 0);
        assertEq(pool.incomeOwed(), 0);
        vm.warp(block.timestamp + VEST);
        assertEq(_capital(guarantor), 1_000e6 + 1.5e6);
        assertEq(_capital(og), 1_000e6 + 1.5e6);
        assertEq(usdc.balanceOf(address(pool)), 2_000e6 + 3e6, "the pool holds capital + income, nothing owed");
    }

    /// Capital written between two fills (deposit, release, withdrawal, a loss) never touches the pending income
    /// stored beside it, and the fills never touch the capital.
    function test_capitalWritesBetweenFills_pendingIncomeSurvives() public {
        _backstop(10_000);
        _admit(alice, guarantor, 1_000e6);
        _increase(alice, 100e6, 4e6);
        uint256 shares = _deposit(guarantor, 500e6);
        assertEq(_pending(guarantor), 4e6);
        assertEq(_capital(guarantor), 1_500e6);
        _increase(alice, 200e6, 1e6);
        assertEq(_pending(guarantor), 5e6);
        assertEq(_capital(guarantor), 1_500e6, "the fill left the capital");
        vm.prank(guarantor);
        pool.withdrawCapital(guarantor, shares, guarantor);
        assertEq(_pending(guarantor), 5e6);
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, 200e6);
        _grant(Roles.CLEARING, address(this));
        pool.coverLoss(alice, 100e6, address(this));
        assertEq(_pending(guarantor), 5e6);
        assertApproxEqAbs(_capital(guarantor), 900e6, 1);
        _increase(alice, 250e6, 2e6);
        assertEq(_pending(guarantor), 7e6);
        assertEq(pool.incomeOwed(), 7e6);
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, 250e6);
    }

    /// A customer that accrued income for its guarantor leaves and joins another: the income stays with the first
    /// guarantor (once), its exposure leaves the first aggregate once, and its next fee pays only the second.
    function test_customerRemovedAfterAccrual_readmittedElsewhere_notChargedTwice() public {
        _setupGuarantor(og, true, 1_000e6);
        _backstop(5_000);
        _admit(alice, guarantor, 1_000e6);
        _increase(alice, 400e6, 2e6);
        vm.prank(alice);
        pool.removeCustomer(alice);
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, 0);
        assertEq(_pending(guarantor), 1e6, "the income stays with the guarantor that earned it");
        vm.prank(alice);
        pool.joinOpenGuarantor(og);
        _increase(alice, 300e6, 4e6);
        assertEq(_pending(guarantor), 1e6);
        assertEq(_pending(og), 2e6);
        assertEq(pool.incomeOwed(), 3e6, "ACC: sum pending = owed");
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, 0);
        assertEq(pool.guarantorInfo(og).exposureUsdc, 300e6);
    }

    /// The pool's pause (deposits) stops neither the fills' income nor its collection; the refused deposit changes
    /// neither capital nor income.
    function test_pausedPool_incomeAccruesAndCollects_depositRefused() public {
        _backstop(5_000);
        _admit(alice, guarantor, 1_000e6);
        _pause(address(pool), "guarantor.deposit");
        _increase(alice, 100e6, 2e6);
        assertEq(_pending(guarantor), 1e6);
        _mintUsdc(lp, 1e6);
        vm.startPrank(lp);
        usdcApprove(address(pool), 1e6);
        vm.expectRevert();
        pool.depositCapital(guarantor, 1e6);
        vm.stopPrank();
        assertEq(_pending(guarantor), 1e6);
        assertEq(_capital(guarantor), 1_000e6);
        _fund(1e6);
        assertEq(pool.collectIncome(guarantor), 1e6);
        vm.warp(block.timestamp + VEST);
        assertEq(_capital(guarantor), 1_001e6);
    }

    /// A loss larger than capital + vesting income and the rule / governance slashes leave the pending income where
    /// it was (as before: it is not capital until collected); collected after the share reset, it vests for the new
    /// epoch's holders.
    function test_lossAndSlash_withPendingIncome_incomeStaysPending() public {
        _backstop(10_000);
        _admit(alice, guarantor, 1_000e6);
        _increase(alice, 100e6, 3e6);
        _grant(Roles.CLEARING, address(this));
        uint256 paid = pool.coverLoss(alice, 5_000e6, address(this));
        assertEq(paid, 1_000e6, "capital only: the pending income is not capital");
        assertEq(_capital(guarantor), 0);
        assertEq(pool.shareEpoch(guarantor), 1, "every share cancelled");
        assertEq(_pending(guarantor), 3e6);
        assertLt(pool.guarantorInfo(guarantor).dpsStaked, MIN_DPS, "rule slash for the uncovered loss");
        _grant(Roles.GUARANTOR_SLASHER, address(this));
        pool.slashDps(guarantor, 1, address(this));
        assertEq(_pending(guarantor), 3e6);
        assertEq(pool.incomeOwed(), 3e6);
        _fund(3e6);
        assertEq(pool.collectIncome(guarantor), 3e6);
        vm.warp(block.timestamp + VEST);
        assertEq(_capital(guarantor), 3e6);
        assertEq(pool.guarantorInfo(guarantor).exposureUsdc, 100e6, "a loss does not refresh the exposure");
    }
}
