// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/IClearingHouse.sol";
import {IChxModule} from "../../contracts/interfaces/IChxModule.sol";
import {IRiskEngine} from "../../contracts/interfaces/IRiskEngine.sol";
import {MockClearingMarket} from "../../contracts/mocks/MockClearingMarket.sol";
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
        (, int256 optPoolBefore, , ) = chouse.marketInfo(address(opt));
        (, int256 poolBefore, , ) = chouse.marketInfo(address(market));

        vm.prank(keeper);
        liq.liquidate(alice); // waterfall: guarantor 50, insurance 0, 89 socialised

        (, int256 optPoolAfter, , ) = chouse.marketInfo(address(opt));
        (, int256 poolAfter, , ) = chouse.marketInfo(address(market));
        assertEq(optPoolAfter, optPoolBefore, "options pool charged");
        (, uint256 socialised) = chouse.totals();
        assertEq(socialised, 89e6);
        assertEq(poolAfter, poolBefore - 89e6);
        assertEq(chouse.collateralOf(alice), 0);
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
        (, int256 optPoolBefore, , ) = chouse.marketInfo(address(opt));
        vm.expectEmit(address(chouse));
        emit IClearingHouse.DeficitUnabsorbed(alice, 90e6, -90e6);
        vm.prank(keeper);
        liq.liquidate(alice);
        (, int256 optPoolAfter, , ) = chouse.marketInfo(address(opt));
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

    function test_setMarketLossAbsorber_restrictedRegisteredAndEmitsPostState() public {
        vm.expectEmit(address(chouse));
        emit IClearingHouse.MarketFlagsSet(address(market), false, false, false);
        chouse.setMarketLossAbsorber(address(market), false);
        (bool accountRisk, bool absorber, bool holds) = chouse.marketFlags(address(market));
        assertFalse(accountRisk || absorber || holds);
        vm.expectRevert(abi.encodeWithSelector(IClearingHouse.ClearingMarketNotRegistered.selector, alice));
        chouse.setMarketLossAbsorber(alice, true);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, alice));
        chouse.setMarketLossAbsorber(address(market), true);
    }
}
