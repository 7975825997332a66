// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../helpers/ClearingUnitBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/IClearingHouse.sol";
import {IChxModule} from "../../contracts/interfaces/IChxModule.sol";

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
}
