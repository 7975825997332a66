// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

/// @notice Issue 18 item 4: the guarantor's gate on a risk-increasing fill reads and writes fewer slots (the fee
///         share beside the insurance fund, the max leverage beside the income totals). Attack tests on the stored
///         forms: governance changes between two fills, values at and beyond each bound, income conservation
///         (ACC: Σ pending = owed + funded), a customer moving guarantor, a paused pool.
contract GuarantorHotPathTest is ClearingUnitBase {
    uint32 internal constant VEST = 1 days;
    address internal sink = makeAddr("dps sink");
    address internal og = makeAddr("open guarantor");

    function _backstop(uint16 feeShareBps) internal {
        pool.setBackstopParams(
            IGuarantorPool.BackstopParams({
                insuranceFund: address(insurance),
                stressWad: 0,
                dpsSink: sink,
                graceSec: 1 days,
                slashBps: 1_000,
                feeShareBps: feeShareBps,
                vestSec: VEST
            })
        );
    }

    /// The ClearingHouse's risk-increasing hook, called directly (the pool's own path, without a market).
    function _increase(address account, uint256 exposureUsdc, uint256 feeUsdc) internal {
        vm.prank(address(chouse));
        pool.onRiskIncrease(account, exposureUsdc, feeUsdc);
    }

    function _admit(address account, address g) internal {
        vm.prank(g);
        pool.admitCustomer(account, 1_000_000e6);
    }

    function _exposure(address g) internal view returns (uint256) {
        return pool.guarantorInfo(g).exposureUsdc;
    }

    /// Governance changes the fee share between two fills: the second accrues at the new share; every field of the
    /// backstop parameters reads back as set (the stored form differs from the ABI struct).
    function test_feeShare_changedBetweenFills_secondAccruesAtNewShare() public {
        _backstop(5_000);
        _admit(alice, guarantor);
        _increase(alice, 100e6, 10e6);
        assertEq(pool.incomeOf(guarantor).pendingUsdc, 5e6);
        _backstop(2_000);
        _increase(alice, 200e6, 10e6);
        assertEq(pool.incomeOf(guarantor).pendingUsdc, 7e6);
        assertEq(pool.incomeOwed(), 7e6);
        _backstop(0);
        _increase(alice, 300e6, 10e6);
        assertEq(pool.incomeOwed(), 7e6, "a zero share accrues nothing");
        IGuarantorPool.BackstopParams memory p = IGuarantorPool.BackstopParams(
            address(insurance),
            0.07e18,
            sink,
            3 days,
            777,
            10_000,
            2 days
        );
        pool.setBackstopParams(p);
        assertEq(abi.encode(pool.backstopParams()), abi.encode(p), "all seven fields read back");
    }

    /// Governance lowers the max leverage: the next fill is refused at the new capacity (reductions still pass);
    /// raised, the fill goes through.
    function test_leverage_loweredRefusesAtNewCapacity_raisedAdmits() public {
        _admit(alice, guarantor);
        _increase(alice, 5_000e6, 0); // capital 1,000 × 10
        pool.setParams(MIN_DPS, 4e18);
        vm.prank(address(chouse));
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCapacityExceeded.selector, guarantor, 4_000e6, 5_001e6)
        );
        pool.onRiskIncrease(alice, 5_001e6, 0);
        assertEq(_exposure(guarantor), 5_000e6, "refused fill changed nothing");
        vm.prank(address(chouse));
        pool.onExposureChanged(alice, 4_500e6, false); // a reduction above capacity still passes
        assertEq(_exposure(guarantor), 4_500e6);
        pool.setParams(MIN_DPS, 6e18);
        _increase(alice, 6_000e6, 0);
        assertEq(_exposure(guarantor), 6_000e6);
        (uint256 minDps, uint256 lev) = pool.params();
        assertEq(minDps, MIN_DPS);
        assertEq(lev, 6e18);
    }

    /// The max leverage is stored in 64 bits: the bound itself is accepted, one above reverts PoolInvalidParams and
    /// changes nothing; zero stays refused.
    function test_setParams_leverageAtAndBeyondBound() public {
        pool.setParams(MIN_DPS, type(uint64).max);
        (, uint256 lev) = pool.params();
        assertEq(lev, type(uint64).max);
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setParams(MIN_DPS + 1, uint256(type(uint64).max) + 1);
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setParams(MIN_DPS + 1, 0);
        (uint256 minDps, uint256 lev2) = pool.params();
        assertEq(minDps, MIN_DPS);
        assertEq(lev2, type(uint64).max);
    }

    /// The fee share at its bound (100 %) passes; beyond it reverts and the stored share is unchanged.
    function test_setBackstopParams_feeShareAtAndBeyondBound() public {
        _backstop(10_000);
        IGuarantorPool.BackstopParams memory p = pool.backstopParams();
        p.feeShareBps = 10_001;
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setBackstopParams(p);
        assertEq(pool.backstopParams().feeShareBps, 10_000);
        _admit(alice, guarantor);
        _increase(alice, 1e6, 3e6);
        assertEq(pool.incomeOwed(), 3e6, "the whole fee");
    }

    /// A guarantor's pending income is stored in 64 bits beside its capital and exposure (round 41; Σ pending keeps
    /// its 96-bit bound, which only 2^32 guarantors each at their own bound could reach): accruing up to the bound
    /// passes, one unit more reverts and changes nothing (neither the income nor the exposure of that fill).
    function test_accrue_incomeAtAndBeyondBound() public {
        _backstop(10_000);
        _admit(alice, guarantor);
        _increase(alice, 1e6, type(uint64).max);
        assertEq(pool.incomeOwed(), type(uint64).max);
        vm.prank(address(chouse));
        vm.expectRevert(
            abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 64, uint256(type(uint64).max) + 1)
        );
        pool.onRiskIncrease(alice, 2e6, 1);
        assertEq(pool.incomeOwed(), type(uint64).max);
        assertEq(pool.incomeOf(guarantor).pendingUsdc, type(uint64).max);
        assertEq(_exposure(guarantor), 1e6);
    }

    /// ACC: income accrued by two guarantors' customers through real fills, flushed by the ClearingHouse, collected,
    /// vested and released: Σ pending = incomeOwed before the flush, the pool receives exactly that, and each
    /// guarantor's capital ends at deposit + its share.
    function test_income_accruedFlushedCollectedVested_exactBalances() public {
        _setupGuarantor(og, true, 1_000e6);
        _backstop(5_000);
        market.setFeeBps(10);
        _setupTrader(alice, guarantor, 1_000e6);
        _setupTrader(bob, og, 1_000e6);
        vm.prank(alice);
        market.trade(50e18); // 500 × 10 bps = 0.5 → 0.25
        vm.prank(bob);
        market.trade(300e18); // 3,000 × 10 bps = 3 → 1.5
        vm.prank(alice);
        market.trade(-20e18); // a reduction accrues nothing
        uint256 pendingG = pool.incomeOf(guarantor).pendingUsdc;
        uint256 pendingO = pool.incomeOf(og).pendingUsdc;
        assertEq(pendingG, 0.25e6);
        assertEq(pendingO, 1.5e6);
        assertEq(pool.incomeOwed(), pendingG + pendingO, "ACC: sum pending = owed");
        uint256 balance = usdc.balanceOf(address(pool));
        chouse.flushFees();
        assertEq(usdc.balanceOf(address(pool)), balance + pendingG + pendingO);
        assertEq(pool.incomeOwed(), 0);
        assertEq(pool.collectIncome(guarantor), pendingG);
        assertEq(pool.incomeOf(guarantor).pendingUsdc, 0);
        assertEq(pool.incomeOf(guarantor).unvestedUsdc, pendingG);
        vm.warp(block.timestamp + VEST / 2);
        assertEq(pool.collectIncome(og), pendingO); // releases nothing of og's (none vesting), starts its vesting
        vm.warp(block.timestamp + VEST);
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, 1_000e6 + pendingG);
        assertEq(pool.guarantorInfo(og).capitalUsdc, 1_000e6 + pendingO);
        assertApproxEqAbs(pool.convertToAssets(og, pool.sharesOf(og, og)), 1_000e6 + pendingO, 1, "the sole holder");
        assertEq(pool.incomeOwed(), 0);
    }

    /// A customer with recorded exposure leaves its guarantor and is admitted elsewhere: its exposure leaves the old
    /// aggregate once, and its new fills charge only the new guarantor.
    function test_customerMovesGuarantor_oldAggregateNotChargedTwice() public {
        _setupGuarantor(og, true, 1_000e6);
        _admit(alice, guarantor);
        _admit(bob, guarantor);
        _increase(alice, 500e6, 0);
        _increase(bob, 200e6, 0);
        assertEq(_exposure(guarantor), 700e6);
        vm.prank(alice);
        pool.removeCustomer(alice);
        assertEq(_exposure(guarantor), 200e6);
        (, uint256 aliceExposure) = pool.customerInfo(alice);
        assertEq(aliceExposure, 0);
        _admit(alice, og);
        _increase(alice, 300e6, 0);
        vm.prank(address(chouse));
        pool.onExposureChanged(alice, 100e6, false);
        assertEq(_exposure(guarantor), 200e6, "old guarantor untouched");
        assertEq(_exposure(og), 100e6);
    }

    /// The pool's one pause (deposits) stops neither exposure updates, risk-increasing fills with their income,
    /// nor reductions.
    function test_pausedPool_exposureUpdatesAndReductionsPass() public {
        _backstop(5_000);
        market.setFeeBps(10);
        _setupTrader(alice, guarantor, 1_000e6);
        _pause(address(pool), "guarantor.deposit");
        vm.prank(alice);
        market.trade(50e18);
        assertEq(pool.incomeOwed(), 0.25e6);
        vm.prank(alice);
        market.trade(-50e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 0);
        _increase(alice, 10e6, 0);
        assertEq(_exposure(guarantor), 10e6);
        _mintUsdc(bob, 1e6);
        vm.startPrank(bob);
        usdcApprove(address(pool), 1e6);
        vm.expectRevert();
        pool.depositCapital(guarantor, 1e6);
        vm.stopPrank();
    }
}
