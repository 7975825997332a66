// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseEvents} from "../../contracts/interfaces/clearing/IClearingHouseEvents.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {IClearingRiskSync} from "../../contracts/interfaces/callback/IClearingRiskSync.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {MockPriceIndex} from "../../contracts/mocks/MockPriceIndex.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Risk engine and liquidation: volatility worked numbers, LIQ-01..05, every waterfall layer (LIQ-03).
contract ClearingRiskLiquidationTest is ClearingUnitBase {
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

    /// The ClearingHouse's pushed copy of σ and the market parameters gives the RiskEngine's rates exactly, follows
    /// every update, and is ignored once the risk engine is replaced (gas: docs/clearing.md).
    function test_marginRatesCopy_followsRiskEngine() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(50e18); // notional 500 at 10
        // a 50 % move pushes σ above the floors: the copy must follow it
        vm.prank(keeper);
        risk.updateVolatility();
        vm.warp(block.timestamp + 1 hours);
        oracle.setPrice(15e18);
        vm.prank(keeper);
        risk.updateVolatility();
        _assertMarginMatchesRiskEngine(15e18);
        risk.setMarketParams(
            address(market),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 4e18,
                mmMultipleWad: 2e18,
                imFloorWad: 0.2e18,
                mmFloorWad: 0.1e18
            })
        );
        _assertMarginMatchesRiskEngine(15e18);
        // a push from anyone but the ClearingHouse's risk engine changes nothing
        IClearingRiskSync(address(chouse)).syncVolatility(0);
        IClearingRiskSync(address(chouse)).syncMarketRisk(
            address(market),
            IRiskEngine.MarketRiskParams({imMultipleWad: 0, mmMultipleWad: 0, imFloorWad: 1, mmFloorWad: 1})
        );
        _assertMarginMatchesRiskEngine(15e18);
    }

    function test_marginRatesCopy_ignoredAfterRiskEngineReplaced() public {
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        market.trade(50e18);
        IRiskEngine risk2 = IRiskEngine(
            _proxy(
                deployCode("RiskEngine.sol:RiskEngine"),
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,uint256,uint256,uint256,uint256)",
                    address(manager),
                    address(oracle),
                    address(chouse),
                    address(usdc),
                    0.5e18,
                    0.94e18,
                    1 hours,
                    0
                )
            )
        );
        chouse.setModules(address(oracle), address(risk2), address(pool), address(insurance), address(liq));
        // the old engine's market parameters are not used: the new engine does not know the market yet
        vm.expectRevert(abi.encodeWithSelector(IRiskEngine.RiskMarketUnknown.selector, address(market)));
        chouse.marginState(alice);
        risk2.setMarketParams(
            address(market),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 1e18,
                mmMultipleWad: 0.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        risk = risk2;
        // σ 0.5 (taken from the new engine by setModules) × 1 → IM rate 50 %
        assertEq(chouse.marginState(alice).initialMarginUsdc, 250e6);
        _assertMarginMatchesRiskEngine(10e18);
    }

    function _assertMarginMatchesRiskEngine(uint256 priceWad) private view {
        (uint256 im, uint256 mm) = risk.marginRates(address(market));
        IClearingHouse.MarginState memory s = chouse.marginStateAt(alice, priceWad);
        uint256 notional = (50e18 * priceWad + 1e30 - 1) / 1e30;
        assertEq(s.initialMarginUsdc, (notional * im + 1e18 - 1) / 1e18);
        assertEq(s.maintenanceMarginUsdc, (notional * mm + 1e18 - 1) / 1e18);
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

    /// LIQ-03 all layers in order under one price shock: guarantor (60) → insurance (40) → the 50 left opens an
    /// auto-deleveraging claim (CLR-03; nothing is socialised, the pool is not charged: CLR-05).
    function test_waterfall_everyLayerInOrder_LIQ03() public {
        address g2 = makeAddr("thin guarantor");
        _setupGuarantor(g2, false, 60e6);
        _setupTrader(bob, g2, 100e6);
        vm.prank(bob);
        market.trade(50e18); // notional 500, capacity 600
        _fundInsurance(40e6);
        oracle.setPrice(5e18); // collateral 100 − 250 = −150
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.PositionLiquidated(bob, address(market), -50e18, 5e18, -250e6, 0, -150e6);
        vm.expectEmit(address(chouse));
        emit IClearingHouse.DeficitAbsorbed(bob, IClearingHouse.Layer.Guarantor, 60e6, 90e6, address(0));
        vm.expectEmit(address(chouse));
        emit IClearingHouse.DeficitAbsorbed(bob, IClearingHouse.Layer.Insurance, 40e6, 50e6, address(0));
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.DeficitUnabsorbed(bob, 50e6, -50e6);
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.AdlRoundOpened(bob, address(market), true, 50e6, 50e18, 1e6, block.timestamp + 300);
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.AccountLiquidated(bob, address(this), 1e18, 5e18, 0, -50e6, 0);
        liq.liquidate(bob);
        assertEq(pool.guarantorInfo(g2).capitalUsdc, 0);
        assertEq(insurance.totalAssets(), 0);
        (, uint256 socialised) = chouse.totals();
        assertEq(socialised, 0);
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        assertEq(poolUsdc, 1_000e6 + 250e6);
        // ACC-01 ledger: balance = Σ collateral + pool + fees (bob's −50 is the deficit ADL covers)
        assertEq(int256(usdc.balanceOf(address(chouse))), poolUsdc - 50e6);
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
}
