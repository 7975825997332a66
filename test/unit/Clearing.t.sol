// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "../helpers/ClearingSolBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/IClearingHouse.sol";
import {IGuarantorPool} from "../../contracts/interfaces/IGuarantorPool.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/ILiquidationEngine.sol";
import {IRiskEngine} from "../../contracts/interfaces/IRiskEngine.sol";
import {IChxModule} from "../../contracts/interfaces/IChxModule.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Unit tests of the clearing layer: accounts, the market interface, the guarantor gate, the risk engine,
///         liquidation and the waterfall, each step with worked numbers.
contract ClearingUnitTest is ClearingSolBase {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    address internal keeper = makeAddr("keeper");

    function setUp() public {
        _deployClearing();
        _setupGuarantor(guarantor, false, 1_000e6);
        _fundMarket(1_000e6);
    }

    // ───────────── deposit / withdraw ─────────────

    function test_deposit_creditsCollateralAndEmits() public {
        _mintUsdc(alice, 100e6);
        vm.startPrank(alice);
        usdc.approve(address(chouse), 100e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouse.MarginDeposited(alice, 100e6, 100e6);
        chouse.deposit(100e6);
        vm.stopPrank();
        assertEq(chouse.collateralOf(alice), 100e6);
        assertEq(usdc.balanceOf(address(chouse)), 1_100e6);
    }

    function test_deposit_revertsOnZeroAndWhenPaused() public {
        vm.prank(alice);
        vm.expectRevert(IClearingHouse.ClearingZeroAmount.selector);
        chouse.deposit(0);
        _pause(address(chouse), "clearing.deposit");
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, keccak256("clearing.deposit")));
        chouse.deposit(1);
    }

    function test_withdraw_paysAndEmits() public {
        _depositFor(alice, 100e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouse.MarginWithdrawn(alice, bob, 40e6, 60e6);
        vm.prank(alice);
        chouse.withdraw(40e6, bob);
        assertEq(usdc.balanceOf(bob), 40e6);
        assertEq(chouse.collateralOf(alice), 60e6);
    }

    function test_withdraw_revertsAboveCollateral() public {
        _depositFor(alice, 100e6);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouse.ClearingInsufficientCollateral.selector, alice, 101e6, int256(100e6))
        );
        chouse.withdraw(101e6, alice);
    }

    function test_withdraw_revertsBelowInitialMargin() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(50e18); // notional 500, IM 50
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouse.ClearingInsufficientMargin.selector, alice, 50e6, int256(49e6))
        );
        chouse.withdraw(51e6, alice);
        vm.prank(alice);
        chouse.withdraw(50e6, alice);
        assertEq(chouse.collateralOf(alice), 50e6);
    }

    /// SEC-05: without positions, withdrawal needs no oracle and survives the new-risk pause.
    function test_withdraw_worksWithBrokenOracleAndNewRiskPaused_SEC05() public {
        _depositFor(alice, 100e6);
        oracle.setInvalid(true);
        _pause(address(chouse), "clearing.newRisk");
        vm.prank(alice);
        chouse.withdraw(100e6, alice);
        assertEq(usdc.balanceOf(alice), 100e6);
    }

    // ───────────── positions ─────────────

    /// ACC-05 worked numbers: open 3 CH long at 10.000001 (basis rounds up), close at 9.999999 (value rounds down).
    function test_modifyPosition_workedNumbersAndRounding_ACC05() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 3e18, 10.0000001e18); // 30.0000003 USDC → basis 30.000001 (ceil to 1e-6)
        IClearingHouse.Position memory p = chouse.positionOf(alice, address(market));
        assertEq(p.sizeCh, 3e18);
        assertEq(p.openNotionalUsdc, 30_000001);
        int256 pnl = market.tradeAt(alice, -1e18, 9.9999999e18); // value 9.9999999 → 9.999999; basis 1/3 → 10.000000
        assertEq(pnl, 9_999999 - 10_000000);
        p = chouse.positionOf(alice, address(market));
        assertEq(p.openNotionalUsdc, 20_000001);
        // short: opening credit rounds down (toward −∞ for the account)
        _setupTrader(bob, guarantor, 100e6);
        market.tradeAt(bob, -3e18, 10.0000001e18);
        assertEq(chouse.positionOf(bob, address(market)).openNotionalUsdc, -30_000000);
    }

    function test_modifyPosition_realisesPnlAndChargesFee() public {
        _setupTrader(alice, guarantor, 100e6);
        market.setFeeBps(10); // 0.1 %
        vm.prank(alice);
        market.trade(50e18); // notional 500 → fee 0.5
        assertEq(chouse.collateralOf(alice), 99.5e6);
        oracle.setPrice(11e18);
        vm.prank(alice);
        int256 pnl = market.trade(-20e18); // realise 20 × (11 − 10) = 20, fee 0.22
        assertEq(pnl, 20e6);
        assertEq(chouse.collateralOf(alice), 99.5e6 + 20e6 - 0.22e6);
        (uint256 fees, ) = chouse.totals();
        assertEq(fees, 0.72e6);
        (, int256 poolUsdc, uint256 longOi, uint256 shortOi) = chouse.marketInfo(address(market));
        assertEq(poolUsdc, 1_000e6 - 20e6);
        assertEq(longOi, 30e18);
        assertEq(shortOi, 0);
        // flip to short 10: closes 30 (pnl 30), opens 10 short
        vm.prank(alice);
        market.trade(-40e18);
        IClearingHouse.Position memory p = chouse.positionOf(alice, address(market));
        assertEq(p.sizeCh, -10e18);
        assertEq(p.openNotionalUsdc, -110e6);
        (, , longOi, shortOi) = chouse.marketInfo(address(market));
        assertEq(longOi, 0);
        assertEq(shortOi, 10e18);
    }

    /// LIQ-01: a risk-increasing trade must leave equity ≥ initial margin.
    function test_modifyPosition_revertsBelowInitialMargin_LIQ01() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouse.ClearingInsufficientMargin.selector, alice, 100.1e6, int256(100e6))
        );
        market.trade(100.1e18);
    }

    function test_modifyPosition_gatedByGuarantor() public {
        _depositFor(alice, 100e6);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolNoGuarantor.selector, alice));
        market.trade(1e18);

        vm.prank(guarantor);
        pool.admitCustomer(alice, 200e6);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolCustomerLimitExceeded.selector, alice, 200e6, 300e6));
        market.trade(30e18);

        vm.prank(guarantor);
        pool.admitCustomer(alice, 100_000e6);
        _depositFor(alice, 10_000e6);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPool.PoolCapacityExceeded.selector, guarantor, 10_000e6, 10_010e6)
        );
        market.trade(1_001e18);

        pool.setParams(MIN_DPS + 1, MAX_LEVERAGE);
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPool.PoolStakeTooLow.selector, guarantor, MIN_DPS + 1, MIN_DPS)
        );
        market.trade(1e18);
    }

    /// ORC-01: with an invalid index a risk-increasing trade reverts; a reducing trade still goes through.
    function test_modifyPosition_oracleInvalid_ORC01() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 10e18, 10e18);
        oracle.setInvalid(true);
        vm.expectRevert(MockPriceIndex.MockPriceInvalid.selector);
        market.tradeAt(alice, 1e18, 10e18);
        market.tradeAt(alice, -10e18, 10e18);
        assertEq(chouse.marketsOf(alice).length, 0);
    }

    function test_newRiskPause_blocksOpensNotCloses() public {
        _setupTrader(alice, guarantor, 100e6);
        market.tradeAt(alice, 10e18, 10e18);
        _pause(address(chouse), "clearing.newRisk");
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, keccak256("clearing.newRisk")));
        market.tradeAt(alice, 1e18, 10e18);
        market.tradeAt(alice, -5e18, 10e18);
    }

    function test_accessControl_SEC01() public {
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.modifyPosition(alice, 1, 1, 0);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.settle(alice, 1);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.liquidationClose(alice, 1e18, 1, alice, 0);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.absorbDeficit(alice, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.registerMarket(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        pool.onExposureChanged(alice, 0, false);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        pool.coverLoss(alice, 1, alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        pool.slashDps(guarantor, 1, alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        risk.setVolatilityParams(0.9e18, 1, 0);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        liq.setParams(1, 1, 1);
        vm.stopPrank();
    }

    function test_registerMarket_revertsTwice() public {
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouse.ClearingMarketAlreadyRegistered.selector, address(market))
        );
        chouse.registerMarket(address(market));
    }

    function test_settle_movesCashAgainstPool() public {
        _depositFor(alice, 100e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouse.AccountSettled(alice, address(market), -7e6, 93e6, 1_007e6);
        market.settleFunding(alice, -7e6);
    }

    // ───────────── risk engine ─────────────

    /// Worked numbers: σ₀ = 2 % → v₀ = 4e-4; price 10 → 11: r = 10 %, v = 0.94·4e-4 + 0.06·0.01 = 9.76e-4,
    /// σ = √9.76e-4 = 0.031240998…; IM rate = max(10 %, 3σ) = 10 %.
    function test_updateVolatility_workedNumbers() public {
        _mintUsdc(address(risk), 10e6);
        vm.prank(keeper);
        risk.updateVolatility(); // first read: sets the reference price only
        assertEq(usdc.balanceOf(keeper), 1e6);
        vm.prank(keeper);
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskUpdateTooEarly.selector, block.timestamp + 1 hours));
        risk.updateVolatility();
        vm.warp(block.timestamp + 1 hours);
        oracle.setPrice(11e18);
        vm.prank(keeper);
        uint256 sigma = risk.updateVolatility();
        (, uint256 variance, , ) = risk.volatility();
        assertEq(variance, 0.000976e18);
        assertEq(sigma, 31240998703626618); // ceil(√(9.76e-4) · 1e18)
        (uint256 im, uint256 mm) = risk.marginRates(address(market));
        assertEq(im, 0.1e18);
        assertEq(mm, 0.05e18);
        // a 50 % move pushes σ above the floors: v = 0.94·9.76e-4 + 0.06·0.25
        vm.warp(block.timestamp + 1 hours);
        oracle.setPrice(16.5e18);
        vm.prank(keeper);
        sigma = risk.updateVolatility();
        (im, mm) = risk.marginRates(address(market));
        assertEq(im, (sigma * 3e18 + 1e18 - 1) / 1e18);
        assertGt(im, 0.1e18);
        assertGt(mm, 0.05e18);
    }

    function test_updateVolatility_bountyBoundedByBalance() public {
        _mintUsdc(address(risk), 0.4e6);
        vm.prank(keeper);
        risk.updateVolatility();
        assertEq(usdc.balanceOf(keeper), 0.4e6);
    }

    function test_setMarketParams_rejectsInconsistent() public {
        vm.expectRevert(IRiskEngine.RiskInvalidParams.selector);
        risk.setMarketParams(
            address(market),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 1e18,
                mmMultipleWad: 2e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskMarketUnknown.selector, alice));
        risk.marginRates(alice);
    }

    // ───────────── liquidation ─────────────

    function _aliceLong50() internal {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(50e18); // notional 500 at 10
    }

    /// LIQ-01: at or above maintenance margin a liquidation reverts.
    function test_liquidate_revertsWhenHealthy_LIQ01() public {
        _aliceLong50();
        oracle.setPrice(8.5e18); // equity 25, MM 21.25
        vm.expectRevert(
            abi.encodeWithSelector(ILiquidationEngine.LiquidationAccountHealthy.selector, alice, int256(25e6), 21.25e6)
        );
        liq.liquidate(alice);
    }

    /// Partial liquidation back to initial margin (LIQ-02) with a bounded bounty (LIQ-04), while new risk is paused
    /// (LIQ-05). Price 8.3: equity 15, MM 20.75, IM 41.5, notional 415; full bounty 4.15;
    /// f = 1 − (15 − 4.15)/41.5 = 0.738554216867469880 (rounded up).
    function test_liquidate_partialRestoresHealth_LIQ02_LIQ04_LIQ05() public {
        _aliceLong50();
        oracle.setPrice(8.3e18);
        _pause(address(chouse), "clearing.newRisk");
        vm.prank(keeper);
        (uint256 f, uint256 bounty) = liq.liquidate(alice);
        assertEq(f, 1e18 - (uint256(10.85e6) * 1e18) / 41.5e6);
        assertEq(bounty, (415e6 * f * 100) / (1e18 * 1e4));
        assertEq(usdc.balanceOf(keeper), bounty);
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertEq(s.positionCount, 1);
        assertGe(s.equityUsdc, int256(s.maintenanceMarginUsdc));
        // back to initial margin (the bounty actually paid is below the full-close bounty the fraction assumed)
        assertGe(s.equityUsdc + 2, int256(s.initialMarginUsdc));
        // a second call finds the account healthy: splitting cannot pay twice (LIQ-04)
        vm.expectRevert();
        liq.liquidate(alice);
        assertEq(market.liquidationCalls(), 1);
    }

    function test_liquidate_fullWhenRemainderIsDust() public {
        _setupTrader(alice, guarantor, 10e6);
        market.tradeAt(alice, 5e18, 10e18); // notional 50, IM 5
        oracle.setPrice(8.2e18); // equity 1, MM 2.05, notional 41 → keep ≈ 0.14 → 5.7 USDC left < dust 10
        (uint256 f, ) = liq.liquidate(alice);
        assertEq(f, 1e18);
        assertEq(chouse.marketsOf(alice).length, 0);
    }

    /// LIQ-03 layer 1: the account's own margin absorbs the loss; no other layer is touched.
    function test_waterfall_accountOnly_LIQ03() public {
        _aliceLong50();
        oracle.setPrice(8e18); // equity 0 → full close, collateral 0
        uint256 capitalBefore = pool.guarantorInfo(guarantor).capitalUsdc;
        liq.liquidate(alice);
        assertEq(chouse.collateralOf(alice), 0);
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, capitalBefore);
        assertEq(insurance.totalCovered(), 0);
    }

    /// LIQ-03 layer 2: the guarantor's capital pays the deficit; the insurance fund is untouched.
    function test_waterfall_guarantorCovers_LIQ03() public {
        _aliceLong50();
        _fundInsurance(1_000e6);
        oracle.setPrice(7e18); // collateral 100 − 150 = −50
        vm.expectEmit(address(chouse));
        emit IClearingHouse.DeficitAbsorbed(alice, IClearingHouse.Layer.Guarantor, 50e6, 0, address(0));
        liq.liquidate(alice);
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, 950e6);
        assertEq(insurance.totalCovered(), 0);
        assertEq(chouse.collateralOf(alice), 0);
    }

    /// LIQ-03 all layers in order under one price shock: guarantor (60) → insurance (40) → socialised (50).
    function test_waterfall_everyLayerInOrder_LIQ03() public {
        address g2 = makeAddr("thin guarantor");
        _setupGuarantor(g2, false, 60e6);
        _setupTrader(bob, g2, 100e6);
        vm.prank(bob);
        market.trade(50e18); // notional 500, capacity 600
        _fundInsurance(40e6);
        oracle.setPrice(5e18); // collateral 100 − 250 = −150
        vm.expectEmit(address(chouse));
        emit IClearingHouse.PositionLiquidated(bob, address(market), -50e18, 5e18, -250e6, 0, -150e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouse.DeficitAbsorbed(bob, IClearingHouse.Layer.Guarantor, 60e6, 90e6, address(0));
        vm.expectEmit(address(chouse));
        emit IClearingHouse.DeficitAbsorbed(bob, IClearingHouse.Layer.Insurance, 40e6, 50e6, address(0));
        vm.expectEmit(address(chouse));
        emit IClearingHouse.DeficitAbsorbed(bob, IClearingHouse.Layer.Socialised, 50e6, 0, address(market));
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.AccountLiquidated(bob, address(this), 1e18, 5e18, 0, 0, 0);
        liq.liquidate(bob);
        assertEq(pool.guarantorInfo(g2).capitalUsdc, 0);
        assertEq(insurance.totalAssets(), 0);
        (, uint256 socialised) = chouse.totals();
        assertEq(socialised, 50e6);
        (, int256 poolUsdc, , ) = chouse.marketInfo(address(market));
        assertEq(poolUsdc, 1_000e6 + 250e6 - 50e6);
        // ACC-01 ledger: balance = Σ collateral + pool + fees
        assertEq(usdc.balanceOf(address(chouse)), uint256(poolUsdc));
    }

    /// A deficit left by a cash flow (no positions) is resolved by the waterfall too.
    function test_waterfall_deficitWithoutPositions() public {
        _setupTrader(alice, guarantor, 10e6);
        market.settleFunding(alice, -15e6);
        liq.liquidate(alice);
        assertEq(chouse.collateralOf(alice), 0);
        assertEq(pool.guarantorInfo(guarantor).capitalUsdc, 995e6);
    }

    function test_liquidate_revertsWithOracleDown() public {
        _aliceLong50();
        oracle.setInvalid(true);
        vm.expectRevert(MockPriceIndex.MockPriceInvalid.selector);
        liq.liquidate(alice);
    }

    // ───────────── guarantor pool ─────────────

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
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolNotOpen.selector, guarantor));
        pool.joinOpenGuarantor(guarantor);
        vm.startPrank(bob);
        usdc.approve(address(pool), 1);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolNotOpen.selector, guarantor));
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
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolCustomerHasPositions.selector, alice, guarantor));
        pool.removeCustomer(alice);
    }

    function test_pool_unstakeBelowMinimumOnlyWithoutExposure() public {
        _aliceLong50();
        vm.prank(guarantor);
        vm.expectRevert(abi.encodeWithSelector(IGuarantorPool.PoolUnstakeNotAllowed.selector, guarantor, 1, MIN_DPS));
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
        _grant(Roles.SLASHER, address(this));
        pool.slashDps(guarantor, 400e18, bob);
        assertEq(dps.balanceOf(bob), 400e18);
        assertEq(pool.guarantorInfo(guarantor).dpsStaked, MIN_DPS - 400e18);
    }
}
