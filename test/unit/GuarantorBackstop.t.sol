// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolEvents} from "../../contracts/interfaces/clearing/IGuarantorPoolEvents.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";
import {IInsuranceFund} from "../../contracts/interfaces/clearing/IInsuranceFund.sol";
import {IInsuranceFundErrors} from "../../contracts/interfaces/clearing/IInsuranceFundErrors.sol";
import {GuarantorRules} from "../../contracts/libraries/clearing/GuarantorRules.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Issue 20 items 1–2: the insurance requirement computed from cleared exposure and enforced (CLR-01), its
///         grace period and rule slash, the guarantors' fee share wired from market fees and vested against fee
///         sniping, the DPS slash of a guarantor that fails to cover its customer's loss, notices (CLR-02). Each
///         attack test is named after the scenario it replays.
contract GuarantorBackstopTest is ClearingUnitBase {
    uint64 internal constant STRESS = 0.05e18; // requirement: 5 % of cleared exposure
    uint32 internal constant GRACE = 1 days;
    uint16 internal constant SLASH_BPS = 1_000; // 10 % of the bond per rule slash
    uint32 internal constant VEST = 1 days;
    address internal sink = makeAddr("dps sink");

    function _backstop(uint64 stress, uint16 feeShareBps, uint32 vestSec) internal {
        pool.setBackstopParams(
            IGuarantorPool.BackstopParams({
                insuranceFund: address(insurance),
                stressWad: stress,
                dpsSink: sink,
                graceSec: GRACE,
                slashBps: SLASH_BPS,
                feeShareBps: feeShareBps,
                vestSec: vestSec
            })
        );
    }

    function _belowRequirement(address g, uint256 required, uint256 staked) internal pure returns (bytes memory) {
        return abi.encodeWithSelector(IGuarantorPoolErrors.PoolInsuranceBelowRequirement.selector, g, required, staked);
    }

    // ───────────── item 1: the insurance requirement (CLR-01) ─────────────

    /// CLR-01: a guarantor whose insurance stake is below exposure × stress admits no new risk; a top-up lets the
    /// trade through; a reduction always passes, also while short.
    function test_CLR01_belowRequirement_blocksNewRiskNotReductions() public {
        _backstop(STRESS, 0, 0);
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        vm.expectRevert(_belowRequirement(guarantor, 25e6, 0)); // 500 × 5 %
        market.trade(50e18);
        insurance.setGuarantorStake(guarantor, 25e6); // top-up
        vm.prank(alice);
        market.trade(50e18);
        assertEq(pool.requiredInsuranceUsdc(guarantor), 25e6);
        // the stake loses value (an insurance loss): short, new risk refused, reductions open
        insurance.setGuarantorStake(guarantor, 24e6);
        vm.prank(alice);
        vm.expectRevert(_belowRequirement(guarantor, 26e6, 24e6)); // 520 × 5 %
        market.trade(2e18);
        vm.prank(alice);
        market.trade(-30e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 20e18);
    }

    /// Requirement bypass by splitting: the same owner clears through two guarantors. The requirement is linear in
    /// exposure and read per guarantor address, so the second guarantor needs its own stake and the two together
    /// need what one would.
    function test_requirementBypass_splitIntoTwoGuarantors_needsTheSameStake() public {
        _backstop(STRESS, 0, 0);
        address g2 = makeAddr("second guarantor");
        _setupGuarantor(g2, false, 1_000e6);
        insurance.setGuarantorStake(guarantor, 25e6);
        _setupTrader(alice, guarantor, 100e6);
        _setupTrader(bob, g2, 100e6);
        vm.prank(alice);
        market.trade(50e18);
        vm.prank(bob);
        vm.expectRevert(_belowRequirement(g2, 25e6, 0)); // the first guarantor's stake does not count
        market.trade(50e18);
        insurance.setGuarantorStake(g2, 25e6);
        vm.prank(bob);
        market.trade(50e18);
        assertEq(pool.requiredInsuranceUsdc(guarantor) + pool.requiredInsuranceUsdc(g2), 50e6);
    }

    /// Splitting exposure never lowers the total requirement (each part rounds up).
    function testFuzz_requirement_splitNeverCheaper(uint96 a, uint96 b, uint64 stress) public pure {
        stress = uint64(bound(stress, 0, 1e18));
        assertGe(
            GuarantorRules.requirement(a, stress) + GuarantorRules.requirement(b, stress),
            GuarantorRules.requirement(uint256(a) + b, stress)
        );
    }

    /// Grace: a shortfall is flagged (event), slashable only after the grace period, once per period; a top-up
    /// clears it.
    function test_shortfall_graceThenBoundedSlash_topUpClears() public {
        _backstop(STRESS, 0, 0);
        insurance.setGuarantorStake(guarantor, 25e6);
        _aliceLong50();
        assertFalse(pool.flagShortfall(guarantor));
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoShortfall.selector, guarantor, 25e6, 25e6));
        pool.slashShortfall(guarantor);

        insurance.setGuarantorStake(guarantor, 10e6);
        uint64 graceEnd = uint64(block.timestamp) + GRACE;
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.GuarantorShortfallFlagged(guarantor, 25e6, 10e6, graceEnd);
        assertTrue(pool.flagShortfall(guarantor));
        assertTrue(pool.flagShortfall(guarantor)); // idempotent: the clock does not restart
        assertEq(pool.incomeOf(guarantor).shortSince, block.timestamp);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolGraceNotOver.selector, guarantor, graceEnd, block.timestamp)
        );
        pool.slashShortfall(guarantor);

        vm.warp(graceEnd);
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.DpsSlashedByRule(guarantor, 2, 15e6, MIN_DPS / 10, sink, MIN_DPS - MIN_DPS / 10);
        assertEq(pool.slashShortfall(guarantor), MIN_DPS / 10);
        assertEq(dps.balanceOf(sink), MIN_DPS / 10);
        // at most one slash per grace period
        vm.expectRevert(
            abi.encodeWithSelector(
                IGuarantorPoolErrors.PoolGraceNotOver.selector,
                guarantor,
                graceEnd + GRACE,
                block.timestamp
            )
        );
        pool.slashShortfall(guarantor);

        insurance.setGuarantorStake(guarantor, 25e6); // top-up
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.GuarantorShortfallCleared(guarantor, 25e6, 25e6);
        assertFalse(pool.flagShortfall(guarantor));
        assertEq(pool.incomeOf(guarantor).shortSince, 0);
        vm.warp(block.timestamp + 2 * GRACE);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolNoShortfall.selector, guarantor, 25e6, 25e6));
        pool.slashShortfall(guarantor);
    }

    /// With the requirement off (no fund) nothing is ever short; the view reads 0.
    function test_requirementOff_nothingShort() public {
        pool.setBackstopParams(IGuarantorPool.BackstopParams(address(0), STRESS, address(0), GRACE, SLASH_BPS, 0, 0));
        _aliceLong50();
        assertEq(pool.requiredInsuranceUsdc(guarantor), 0);
        assertFalse(pool.flagShortfall(guarantor));
        // the slash rule is off without a sink
        insurance.setGuarantorStake(guarantor, 0);
        assertEq(pool.backstopParams().dpsSink, address(0));
    }

    function test_setBackstopParams_boundsAndAccess() public {
        IGuarantorPool.BackstopParams memory p = IGuarantorPool.BackstopParams(
            address(insurance),
            STRESS,
            sink,
            GRACE,
            SLASH_BPS,
            0,
            VEST
        );
        p.slashBps = 10_001;
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setBackstopParams(p);
        p.slashBps = SLASH_BPS;
        p.feeShareBps = 10_001;
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setBackstopParams(p);
        p.feeShareBps = 0;
        p.graceSec = 31 days;
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setBackstopParams(p);
        p.graceSec = GRACE;
        p.vestSec = 31 days;
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setBackstopParams(p);
        p.vestSec = VEST;
        p.stressWad = 1e18 + 1;
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.setBackstopParams(p);
        p.stressWad = STRESS;
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        pool.setBackstopParams(p);
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.BackstopParamsSet(address(insurance), STRESS, GRACE, SLASH_BPS, sink, 0, VEST);
        pool.setBackstopParams(p);
        assertEq(pool.backstopParams().vestSec, VEST);
    }

    // ───────────── item 2: fee income to capital providers ─────────────

    /// An open guarantor whose customer trades 500 CH at 10 with a 10 bps fee (5 USDC): half accrues to the
    /// guarantor.
    function _openPoolWithFeePayingCustomer(uint32 vestSec) internal returns (address og) {
        og = makeAddr("open guarantor");
        _setupGuarantor(og, true, 1_000e6);
        _backstop(0, 5_000, vestSec);
        market.setFeeBps(10);
        _depositFor(alice, 1_000e6);
        vm.prank(alice);
        pool.joinOpenGuarantor(og);
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.IncomeAccrued(og, alice, 2.5e6, 2.5e6);
        vm.prank(alice);
        market.trade(500e18);
        assertEq(pool.incomeOf(og).pendingUsdc, 2.5e6);
        assertEq(pool.incomeOwed(), 2.5e6);
    }

    /// The market fee flows ClearingHouse → flushFees → GuarantorPool.fundIncome (the share) and the insurance fund
    /// (the rest); collectIncome vests it into the share price of the pool's capital providers pro rata.
    function test_feeIncome_fromMarketFees_toCapitalProvidersProRata() public {
        address og = _openPoolWithFeePayingCustomer(VEST);
        // outside capital: bob holds half of the pool
        _mintUsdc(bob, 1_000e6);
        vm.startPrank(bob);
        usdcApprove(address(pool), 1_000e6);
        uint256 bobShares = pool.depositCapital(og, 1_000e6);
        vm.stopPrank();

        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolIncomeUnfunded.selector, 2.5e6, 0));
        pool.collectIncome(og);
        uint256 poolBalance = usdc.balanceOf(address(pool));
        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.IncomeFunded(2.5e6, 2.5e6, 0);
        chouse.flushFees();
        assertEq(usdc.balanceOf(address(pool)), poolBalance + 2.5e6);
        assertEq(insurance.feesReceivedUsdc(), 2.5e6);
        assertEq(pool.incomeOwed(), 0);

        vm.expectEmit(address(pool));
        emit IGuarantorPoolEvents.IncomeVesting(og, 2.5e6, uint64(block.timestamp) + VEST);
        assertEq(pool.collectIncome(og), 2.5e6);
        vm.expectRevert(IGuarantorPoolErrors.PoolZeroAmount.selector);
        pool.collectIncome(og);
        vm.warp(block.timestamp + VEST / 2);
        assertApproxEqAbs(pool.convertToAssets(og, bobShares), 1_000e6 + 0.625e6, 1);
        vm.warp(block.timestamp + VEST);
        assertApproxEqAbs(pool.convertToAssets(og, bobShares), 1_000e6 + 1.25e6, 1);
        assertApproxEqAbs(pool.guarantorInfo(og).capitalUsdc, 2_002.5e6, 1);
        vm.prank(bob);
        uint256 out = pool.withdrawCapital(og, bobShares, bob);
        assertApproxEqAbs(out, 1_001.25e6, 1);
    }

    /// Fee sniping: deposit just before the income is credited, then leave at once. The income vests over time,
    /// so the sniper leaves with no more than it brought.
    function test_feeSniping_depositBeforeCreditThenLeave_earnsNothing() public {
        address og = _openPoolWithFeePayingCustomer(VEST);
        chouse.flushFees();
        address sniper = makeAddr("sniper");
        _mintUsdc(sniper, 100_000e6);
        vm.startPrank(sniper);
        usdcApprove(address(pool), 100_000e6);
        uint256 shares = pool.depositCapital(og, 100_000e6);
        pool.collectIncome(og);
        uint256 out = pool.withdrawCapital(og, shares, sniper);
        vm.stopPrank();
        assertLe(out, 100_000e6, "sniper took income it did not carry risk for");
        vm.warp(block.timestamp + VEST);
        assertApproxEqAbs(pool.convertToAssets(og, pool.sharesOf(og, og)), 1_002.5e6, 1, "income left for holders");
    }

    /// The same sniping without vesting pays the sniper (why income vests).
    function test_feeSniping_withoutVesting_wouldPay() public {
        address og = _openPoolWithFeePayingCustomer(0);
        chouse.flushFees();
        address sniper = makeAddr("sniper");
        _mintUsdc(sniper, 100_000e6);
        vm.startPrank(sniper);
        usdcApprove(address(pool), 100_000e6);
        uint256 shares = pool.depositCapital(og, 100_000e6);
        pool.collectIncome(og);
        uint256 out = pool.withdrawCapital(og, shares, sniper);
        vm.stopPrank();
        assertGt(out, 100_000e6 + 2e6);
    }

    /// creditIncome (a direct payment) vests as well; fundIncome and onRiskIncrease are the ClearingHouse's only.
    function test_creditIncome_vests_andHooksAreClearingHouseOnly() public {
        _backstop(0, 5_000, VEST);
        _mintUsdc(bob, 10e6);
        vm.startPrank(bob);
        usdcApprove(address(pool), 10e6);
        pool.creditIncome(guarantor, 10e6);
        vm.stopPrank();
        assertEq(pool.incomeOf(guarantor).unvestedUsdc, 10e6);
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, 1_000e6);
        vm.warp(block.timestamp + VEST / 4);
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, 1_002.5e6);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolOnlyClearingHouse.selector, bob));
        vm.prank(bob);
        pool.fundIncome(1);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPoolErrors.PoolOnlyClearingHouse.selector, bob));
        vm.prank(bob);
        pool.onRiskIncrease(alice, 1, 1);
        vm.prank(address(chouse));
        vm.expectRevert(IGuarantorPoolErrors.PoolInvalidParams.selector);
        pool.fundIncome(1); // nothing owed
    }

    /// A fee share that rounds to zero accrues nothing; a 100 % share sends the whole flush to the pool and nothing
    /// to the insurance fund.
    function test_feeShare_roundsToZero_andWholeFee() public {
        _backstop(0, 1, VEST); // 0.01 %
        market.setFeeBps(1);
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(1e18); // fee 0.001 USDC → share 0.0000001: rounds to 0
        assertEq(pool.incomeOf(guarantor).pendingUsdc, 0);
        _backstop(0, 10_000, VEST);
        vm.prank(alice);
        market.trade(10e18); // fee 0.01 USDC, all of it to the guarantor
        assertEq(pool.incomeOwed(), 0.01e6);
        uint256 fees = insurance.feesReceivedUsdc();
        chouse.flushFees(); // 0.011 accrued: 0.01 to the pool, 0.001 to the fund
        assertEq(insurance.feesReceivedUsdc(), fees + 0.001e6);
        assertEq(pool.collectIncome(guarantor), 0.01e6);
    }

    // ───────────── item 2: notices, rule slash, wipe-outs ─────────────

    /// alice: long 50 CH at 10 on 60 USDC through a guarantor with 60 USDC of capital, then the price falls to 7:
    /// her deficit exceeds the guarantor's capital.
    function _thinGuarantorDefault() internal returns (address g) {
        g = makeAddr("thin guarantor");
        _setupGuarantor(g, false, 60e6);
        _backstop(0, 0, VEST);
        _setupTrader(alice, g, 60e6);
        vm.prank(alice);
        market.trade(50e18);
        _fundInsurance(1_000e6);
        oracle.setPrice(7e18);
    }

    /// A guarantor that fails to cover its customer's loss loses slashBps of its DPS bond (event, bounded), and its
    /// wiped-out shares are reset as the insurance fund's are.
    function test_uncoveredLoss_slashesDpsByRule_andResetsShares() public {
        address g = _thinGuarantorDefault();
        vm.expectEmit(true, false, false, false, address(pool));
        emit IGuarantorPoolEvents.DpsSlashedByRule(g, 1, 0, 0, sink, 0);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(dps.balanceOf(sink), MIN_DPS / 10);
        assertEq(pool.guarantorInfo(g).dpsStaked, MIN_DPS - MIN_DPS / 10);
        assertEq(pool.guarantorInfo(g).capitalUsdc, 0);
        assertEq(pool.shareEpoch(g), 1, "wiped-out shares survive");
        assertEq(pool.sharesOf(g, g), 0);
        // a fresh deposit starts a clean share book
        _mintUsdc(g, 100e6);
        vm.startPrank(g);
        usdcApprove(address(pool), 100e6);
        assertEq(pool.depositCapital(g, 100e6), 100e6 * 1e24);
        vm.stopPrank();
    }

    /// Without a sink the rule slash is off: an uncovered loss leaves the bond whole.
    function test_uncoveredLoss_noSink_noSlash() public {
        address g = _thinGuarantorDefault();
        pool.setBackstopParams(
            IGuarantorPool.BackstopParams(address(insurance), 0, address(0), GRACE, SLASH_BPS, 0, 0)
        );
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(pool.guarantorInfo(g).dpsStaked, MIN_DPS);
        assertEq(pool.guarantorInfo(g).capitalUsdc, 0);
    }

    /// Income still vesting belongs to the same holders: it covers a default after the capital.
    function test_coverLoss_usesUnvestedIncomeAfterCapital() public {
        address g = _thinGuarantorDefault();
        _mintUsdc(bob, 200e6);
        vm.startPrank(bob);
        usdcApprove(address(pool), 200e6);
        pool.creditIncome(g, 200e6);
        vm.stopPrank();
        vm.prank(keeper);
        liq.liquidate(alice);
        uint256 unvested = pool.incomeOf(g).unvestedUsdc;
        assertLt(unvested, 200e6, "unvested income did not pay");
        assertEq(pool.guarantorInfo(g).dpsStaked, MIN_DPS, "covered in full: no slash");
        assertEq(usdc.balanceOf(address(insurance)), 1_000e6, "insurance paid before the guarantor's income");
    }

    /// Notice then default (CLR-02): a provider that gave notice just before a default bears its share of the loss;
    /// it cannot leave ahead of it.
    function test_CLR02_noticeThenDefault_bearsTheLoss() public {
        pool.setCapitalNotice(1 days, 1 days);
        address g = _thinGuarantorDefault();
        oracle.setPrice(10e18);
        _mintUsdc(bob, 60e6);
        // the thin guarantor is closed: bob is its co-owner depositing through it
        vm.prank(g);
        pool.configureGuarantor(true, 0);
        vm.startPrank(bob);
        usdcApprove(address(pool), 60e6);
        uint256 shares = pool.depositCapital(g, 60e6);
        pool.requestCapitalWithdrawal(g, shares);
        vm.expectRevert(
            abi.encodeWithSelector(
                IGuarantorPoolErrors.PoolNoticeNotElapsed.selector,
                bob,
                uint64(block.timestamp + 1 days),
                block.timestamp
            )
        );
        pool.withdrawCapital(g, shares, bob);
        vm.stopPrank();
        oracle.setPrice(8.5e18); // alice: 60 − 75 = −15
        vm.prank(keeper);
        liq.liquidate(alice);
        vm.warp(block.timestamp + 1 days);
        vm.prank(bob);
        uint256 out = pool.withdrawCapital(g, shares, bob);
        assertLt(out, 60e6, "the provider escaped the loss");
    }

    // ───────────── paused neighbour ─────────────

    /// The deposit pause of the pool (a paused neighbour) stops neither reductions, nor fee flushes, collection or
    /// the shortfall rule.
    function test_pausedNeighbour_poolDepositsPaused_incomeAndRulesRun() public {
        address og = _openPoolWithFeePayingCustomer(VEST);
        _pause(address(pool), "guarantor.deposit");
        chouse.flushFees();
        pool.collectIncome(og);
        vm.prank(alice);
        market.trade(-100e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 400e18);
    }
}

/// @notice The InsuranceFund's withdrawal floor reads the GuarantorPool's computed requirement (CLR-01); the fund's
///         stake pause (a paused neighbour) blocks top-ups, not reductions.
contract GuarantorInsuranceFloorTest is ClearingUnitBase {
    IInsuranceFund internal fund;

    function setUp() public override {
        super.setUp();
        fund = IInsuranceFund(
            _proxy(
                deployCode("InsuranceFund.sol:InsuranceFund"),
                abi.encodeWithSignature(
                    "initialize(address,address,uint64,uint64)",
                    address(manager),
                    address(usdc),
                    uint64(1 days),
                    uint64(1 days)
                )
            )
        );
        fund.setGuarantorPool(address(pool));
        pool.setBackstopParams(IGuarantorPool.BackstopParams(address(fund), 0.05e18, address(0), 1 days, 0, 0, 0));
        _mintUsdc(guarantor, 30e6);
        vm.startPrank(guarantor);
        usdcApprove(address(fund), 30e6);
        fund.stake(30e6);
        vm.stopPrank();
    }

    function test_CLR01_insuranceFloor_isTheComputedRequirement() public {
        assertEq(fund.guarantorPool(), address(pool));
        _aliceLong50(); // requires 25
        assertEq(fund.guarantorRequirement(guarantor), 25e6);
        assertEq(fund.guarantorShortfall(guarantor), 0);
        uint256 shares = fund.sharesOf(guarantor);
        vm.prank(guarantor);
        vm.expectRevert(); // leaving 0 < 25
        fund.requestWithdraw(shares);
        // a governance floor above the computed one wins
        fund.setGuarantorRequirement(guarantor, 28e6);
        assertEq(fund.guarantorRequirement(guarantor), 28e6);
        uint256 threeUsdc = fund.previewStake(3e6);
        vm.prank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IInsuranceFundErrors.InsuranceGuarantorFloor.selector, guarantor, 28e6, 27e6)
        );
        fund.requestWithdraw(threeUsdc);
    }

    function test_pausedNeighbour_insuranceStakePaused_reductionsStillPass() public {
        _aliceLong50();
        _pause(address(fund), "insurance.stake");
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolInsuranceBelowRequirement.selector, guarantor, 30.5e6, 30e6)
        );
        market.trade(11e18); // 610 × 5 % > 30
        vm.prank(alice);
        market.trade(-50e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 0);
    }
}
