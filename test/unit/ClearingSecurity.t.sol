// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {ILiquidationEngine} from "../../contracts/interfaces/clearing/ILiquidationEngine.sol";
import {IClearingHouseEvents} from "../../contracts/interfaces/clearing/IClearingHouseEvents.sol";
import {IClearingHouseErrors} from "../../contracts/interfaces/clearing/IClearingHouseErrors.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";
import {IGuarantorPool} from "../../contracts/interfaces/clearing/IGuarantorPool.sol";
import {IGuarantorPoolErrors} from "../../contracts/interfaces/clearing/IGuarantorPoolErrors.sol";
import {IRiskEngine} from "../../contracts/interfaces/clearing/IRiskEngine.sol";
import {MockClearingMarket} from "../../contracts/mocks/MockClearingMarket.sol";
import {MockAccountRiskMarket} from "../../contracts/mocks/MockAccountRiskMarket.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";

/// @notice Regression tests of the clearing items of the security review (issue 17): each test is the attack or the
///         failure the review found, named after the scenario.
contract ClearingSecurityTest is ClearingUnitBase {
    function _marketFeature() internal view returns (bytes32) {
        return keccak256(abi.encode(keccak256("clearing.market"), address(market)));
    }

    // ───────────── item 12: the per-market pause blocks new risk only (SEC-05) ─────────────

    /// SEC-05: with one market paused by the guardian, its positions can still be reduced and closed, its cash flows
    /// (funding, settlement) still settle and its accounts can still be liquidated; only new risk is refused.
    function test_marketPause_reducingTradesSettlementsAndLiquidationsStayOpen_SEC05() public {
        _setupTrader(alice, guarantor, 100e6);
        _setupTrader(bob, guarantor, 60e6);
        vm.prank(alice);
        market.trade(10e18);
        vm.prank(bob);
        market.trade(50e18); // notional 500, IM 50
        IChxModule(address(chouse)).pauseFeature(_marketFeature());

        // new risk is refused
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, _marketFeature()));
        market.tradeAt(alice, 1e18, 10e18);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, _marketFeature()));
        market.tradeAt(alice, -20e18, 10e18); // a flip adds risk

        // a reduction, a cash flow and a full close go through
        market.tradeAt(alice, -4e18, 10e18);
        market.settleFunding(alice, -1e6);
        market.tradeAt(alice, -6e18, 10e18);
        assertEq(chouse.positionOf(alice, address(market)).sizeCh, 0);
        assertEq(chouse.collateralOf(alice), 99e6);

        // and so does a liquidation
        oracle.setPrice(9e18); // bob: equity 60 − 50 = 10 < MM 22.5
        vm.prank(keeper);
        liq.liquidate(bob);
        assertLt(chouse.positionOf(bob, address(market)).sizeCh, 50e18);
    }

    // ───────────── item 14: socialised loss only to markets able to absorb it (ACC-01, LIQ-03) ─────────────

    /// A market registered without the loss-absorber flag (an options market: its pool is the writers' collateral)
    /// and a funded one; the account trades in the funded one, then receives a cash flow from the other.
    function _optionsLikeMarket() internal returns (MockClearingMarket opt) {
        opt = MockClearingMarket(
            deployCode(
                "MockClearingMarket.sol:MockClearingMarket",
                abi.encode(address(chouse), address(oracle), address(usdc))
            )
        );
        chouse.registerMarket(address(opt));
        _grant(Roles.MARKET, address(opt));
        risk.setMarketParams(
            address(opt),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        _mintUsdc(address(this), 500e6);
        usdc.approve(address(opt), 500e6);
        opt.fund(500e6);
    }

    /// Bad debt beyond the guarantor and the insurance fund used to land on the PnL pool of the account's LAST market
    /// — here an option payout's market, whose pool is other writers' collateral (ACC-01 for that market). It must
    /// land on the market the account last traded that can absorb a loss.
    function test_socialisedLoss_neverLandsOnOptionsPoolAfterPayout() public {
        MockClearingMarket opt = _optionsLikeMarket();
        address thinGuarantor = makeAddr("thin guarantor");
        _setupGuarantor(thinGuarantor, false, 50e6); // capacity 500
        _setupTrader(alice, thinGuarantor, 60e6);
        vm.prank(alice);
        market.trade(50e18); // notional 500 at 10, IM 50
        oracle.setPrice(6e18);
        market.tradeAt(alice, -50e18, 6e18); // closed at a 200 loss: collateral 60 − 200 = −140
        opt.settleFunding(alice, 1e6); // then an option payout from the options pool: −139
        (, int256 optPoolBefore) = chouse.marketInfo(address(opt));
        (, int256 poolBefore) = chouse.marketInfo(address(market));

        vm.prank(keeper);
        liq.liquidate(alice); // waterfall: guarantor 50, insurance 0, 89 left (no liquidation close: no ADL source)

        (, int256 optPoolAfter) = chouse.marketInfo(address(opt));
        (, int256 poolAfter) = chouse.marketInfo(address(market));
        assertEq(optPoolAfter, optPoolBefore, "options pool charged");
        (, uint256 socialised) = chouse.totals();
        // CLR-05: nothing is socialised any more; the deficit stays visible on the account (DeficitUnabsorbed)
        assertEq(socialised, 0);
        assertEq(poolAfter, poolBefore);
        assertEq(chouse.collateralOf(alice), -89e6);
    }

    /// CLR-05: options holders are never haircut: a default closed in a market that cannot absorb losses (an options
    /// market) is no auto-deleveraging source; the deficit stays visible on the account (DeficitUnabsorbed).
    function test_adl_optionsDefaultOpensNoClaim_CLR05() public {
        MockClearingMarket opt = _optionsLikeMarket();
        address thinGuarantor = makeAddr("thin guarantor");
        _setupGuarantor(thinGuarantor, false, 50e6); // capacity 500
        _setupTrader(alice, thinGuarantor, 60e6);
        vm.prank(alice);
        opt.trade(50e18); // notional 500 at 10
        oracle.setPrice(6e18); // −200: collateral −140; the guarantor pays 50
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.DeficitUnabsorbed(alice, 90e6, -90e6);
        vm.prank(keeper);
        liq.liquidate(alice);
        (address source, ) = chouse.adlSourceOf(alice);
        assertEq(source, address(0));
        assertEq(liq.adlClaim(alice).market, address(0));
    }

    /// An account that never traded a loss-absorbing market keeps what no layer could pay as negative collateral
    /// (DeficitUnabsorbed) instead of charging an options pool; the next liquidation call retries the insurance fund.
    function test_socialisedLoss_withoutAbsorberStaysOnAccountAndIsRetried() public {
        MockClearingMarket opt = _optionsLikeMarket();
        address thinGuarantor = makeAddr("thin guarantor");
        _setupGuarantor(thinGuarantor, false, 50e6);
        _setupTrader(alice, thinGuarantor, 60e6);
        vm.prank(alice);
        opt.trade(50e18);
        oracle.setPrice(6e18);
        opt.tradeAt(alice, -50e18, 6e18); // collateral −140
        (, int256 optPoolBefore) = chouse.marketInfo(address(opt));
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.DeficitUnabsorbed(alice, 90e6, -90e6);
        vm.prank(keeper);
        liq.liquidate(alice);
        (, int256 optPoolAfter) = chouse.marketInfo(address(opt));
        assertEq(optPoolAfter, optPoolBefore);
        assertEq(chouse.collateralOf(alice), -90e6);
        (, uint256 socialised) = chouse.totals();
        assertEq(socialised, 0);
        // the insurance fund refills; the deficit is retried and covered
        _fundInsurance(100e6);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(chouse.collateralOf(alice), 0);
    }

    /// The LiquidationEngine reports the collateral the waterfall leaves without reading it back: with no absorber
    /// market the reported figure is the negative collateral the ClearingHouse keeps, and a partial cover by the
    /// guarantor is netted first.
    function test_liquidate_reportedCollateralMatchesLedger_whenUnabsorbed() public {
        MockClearingMarket opt = _optionsLikeMarket();
        address thinGuarantor = makeAddr("thin guarantor");
        _setupGuarantor(thinGuarantor, false, 50e6);
        _setupTrader(alice, thinGuarantor, 60e6);
        vm.prank(alice);
        opt.trade(50e18);
        oracle.setPrice(6e18);
        opt.tradeAt(alice, -50e18, 6e18); // collateral −140, guarantor pays 50
        vm.expectEmit(address(liq));
        emit ILiquidationEngine.AccountLiquidated(alice, keeper, 0, 6e18, 0, -90e6, 0);
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(chouse.collateralOf(alice), -90e6);
    }

    function test_setMarketLossAbsorber_restrictedRegisteredAndEmitsPostState() public {
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.MarketFlagsSet(address(market), false, false, false);
        chouse.setMarketLossAbsorber(address(market), false);
        (bool accountRisk, bool absorber, bool holds) = chouse.marketFlags(address(market));
        assertFalse(accountRisk || absorber || holds);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingUnknownMarket.selector, alice));
        chouse.setMarketLossAbsorber(alice, true);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.setMarketLossAbsorber(address(market), true);
    }

    // ───────────── item 11 (ClearingHouse side): every margin check includes what a market says is owed ─────────────

    /// A perp-like market whose account owes funding it has not settled yet (IMarketAccountRisk: a negative equity
    /// adjustment), registered and flagged like the deploy flags the perp market.
    function _fundingMarket() internal returns (MockAccountRiskMarket m) {
        m = MockAccountRiskMarket(
            deployCode(
                "MockAccountRiskMarket.sol:MockAccountRiskMarket",
                abi.encode(address(chouse), address(oracle), address(usdc))
            )
        );
        chouse.registerMarket(address(m));
        _grant(Roles.MARKET, address(m));
        risk.setMarketParams(
            address(m),
            IRiskEngine.MarketRiskParams({
                imMultipleWad: 3e18,
                mmMultipleWad: 1.5e18,
                imFloorWad: 0.1e18,
                mmFloorWad: 0.05e18
            })
        );
        chouse.setMarketLossAbsorber(address(m), true);
        _mintUsdc(address(this), 1_000e6);
        usdc.approve(address(m), 1_000e6);
        m.fund(1_000e6);
        chouse.setMarketAccountRisk(address(m), true);
    }

    /// An account at initial margin accrues funding it has not settled; withdrawals ignored it, so it withdrew margin
    /// the unsettled funding already owed and left the difference as bad debt for LPs (issue 17 item 11).
    function test_withdraw_includesOwedFunding_cannotLeaveBadDebt() public {
        MockAccountRiskMarket perp = _fundingMarket();
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        perp.trade(50e18); // notional 500, IM 50, MM 25
        perp.setRisk(alice, -45e6, 0, 0); // 45 of funding owed, not yet settled
        // equity 100 − 45 = 55: withdrawing 40 would leave 15 < IM 50
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 50e6, 15e6)
        );
        chouse.withdraw(40e6, alice);
        vm.prank(alice);
        chouse.withdraw(5e6, alice); // 100 − 5 − 45 = 50 ≥ 50
        IClearingHouse.MarginState memory s = chouse.marginState(alice);
        assertEq(s.equityUsdc, 50e6);
        assertEq(s.unrealisedPnlUsdc, -45e6);
    }

    /// The same unsettled funding makes the account liquidatable once equity net of it falls below maintenance.
    function test_liquidation_includesOwedFunding() public {
        MockAccountRiskMarket perp = _fundingMarket();
        _setupTrader(alice, guarantor, 100e6);
        vm.prank(alice);
        perp.trade(50e18);
        (bool liquidatable, , ) = liq.isLiquidatable(alice);
        assertFalse(liquidatable);
        perp.setRisk(alice, -80e6, 0, 0); // equity 20 < MM 25
        (liquidatable, , ) = liq.isLiquidatable(alice);
        assertTrue(liquidatable, "owed funding ignored by the liquidation check");
        vm.prank(keeper);
        liq.liquidate(alice);
        assertLt(chouse.positionOf(alice, address(perp)).sizeCh, 50e18);
    }

    // ───────────── markets that hold their accounts (the futures market's spreads and deliveries) ─────────────

    function _holdingMarket() internal returns (MockAccountRiskMarket m) {
        m = _fundingMarket();
        chouse.setMarketHoldsAccounts(address(m), true);
    }

    /// A holding market keeps a flat account in its set: its extra margin still binds the withdrawal and the
    /// guarantor cannot let it go, until the market releases it.
    function test_heldAccount_staysInSetAtZeroSizeUntilReleased() public {
        MockAccountRiskMarket m = _holdingMarket();
        _setupTrader(alice, guarantor, 100e6);
        vm.startPrank(alice);
        m.trade(10e18);
        m.trade(-10e18);
        vm.stopPrank();
        assertEq(chouse.marketsOf(alice).length, 1);
        m.setRisk(alice, 0, 30e6, 20e6); // e.g. a calendar spread netting to zero
        vm.prank(alice);
        vm.expectRevert(
            abi.encodeWithSelector(IClearingHouseErrors.ClearingInsufficientMargin.selector, alice, 30e6, 0)
        );
        chouse.withdraw(100e6, alice);
        vm.prank(guarantor);
        vm.expectRevert(
            abi.encodeWithSelector(IGuarantorPoolErrors.PoolCustomerHasPositions.selector, alice, guarantor)
        );
        pool.removeCustomer(alice);
        m.setRisk(alice, 0, 0, 0);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.AccountReleased(alice, address(m), 0);
        m.release(alice);
        assertEq(chouse.marketsOf(alice).length, 0);
        m.release(alice); // idempotent
        vm.prank(alice);
        chouse.withdraw(100e6, alice);
    }

    /// A held account at zero net size is liquidated through the market's hook (Δ = 0); the waterfall waits until
    /// the market released it, so a deficit is absorbed only once nothing is held any more.
    function test_heldAccount_liquidationHearsZeroAndWaterfallWaitsForRelease() public {
        MockAccountRiskMarket m = _holdingMarket();
        _setupTrader(alice, guarantor, 100e6);
        vm.startPrank(alice);
        m.trade(10e18);
        m.trade(-10e18);
        vm.stopPrank();
        m.settleFunding(alice, -150e6); // collateral −50, still held
        vm.prank(keeper);
        liq.liquidate(alice);
        assertEq(m.lastLiquidationDelta(), 0);
        assertEq(chouse.collateralOf(alice), -50e6, "waterfall ran while the market still held the account");
        m.setReleaseOnLiquidation(true);
        vm.prank(keeper);
        liq.liquidate(alice); // the hook releases it; the waterfall follows in the same call
        assertEq(chouse.marketsOf(alice).length, 0);
        assertEq(chouse.collateralOf(alice), 0);
    }

    /// The set's held bits follow their markets when an entry is removed (the last entry moves into its place).
    function test_heldAccount_heldBitMovesWithItsMarket() public {
        MockAccountRiskMarket m = _holdingMarket();
        _setupTrader(alice, guarantor, 200e6);
        vm.startPrank(alice);
        market.trade(10e18); // place 0: not held
        m.trade(10e18); // place 1: held
        m.trade(-10e18); // held at zero size
        market.trade(-10e18); // place 0 removed: m moves into it, still held
        vm.stopPrank();
        address[] memory list = chouse.marketsOf(alice);
        assertEq(list.length, 1);
        assertEq(list[0], address(m));
        vm.startPrank(alice);
        m.trade(5e18); // back from zero: no second entry
        market.trade(5e18);
        vm.stopPrank();
        assertEq(chouse.marketsOf(alice).length, 2);
        m.release(alice); // position open: stays until it closes
        assertEq(chouse.marketsOf(alice).length, 2);
        vm.prank(alice);
        m.trade(-5e18);
        list = chouse.marketsOf(alice);
        assertEq(list.length, 1);
        assertEq(list[0], address(market));
    }

    function test_marketFlagSetters_restrictedRegisteredAndEmitPostState() public {
        MockAccountRiskMarket m = _fundingMarket();
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.MarketFlagsSet(address(m), true, true, true);
        chouse.setMarketHoldsAccounts(address(m), true);
        vm.expectEmit(address(chouse));
        emit IClearingHouseEvents.MarketFlagsSet(address(m), false, true, true);
        chouse.setMarketAccountRisk(address(m), false);
        (bool accountRisk, bool absorber, bool holds) = chouse.marketFlags(address(m));
        assertFalse(accountRisk);
        assertTrue(absorber && holds);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingUnknownMarket.selector, alice));
        chouse.setMarketAccountRisk(alice, true);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouseErrors.ClearingMarketNotRegistered.selector, alice));
        vm.prank(alice);
        chouse.releaseAccount(bob);
        vm.startPrank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.setMarketAccountRisk(address(m), true);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.setMarketHoldsAccounts(address(m), true);
        vm.stopPrank();
    }
}
