// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingSolBase} from "../helpers/ClearingSolBase.sol";
import {ClearingAdlHandler} from "./handlers/ClearingAdlHandler.sol";

/// @notice CLR-03 (ADL last, at the bankruptcy price, opposite side only) and CLR-05 (no stray losses) over any
///         sequence of trades, price moves, liquidations and auto-deleveraging rounds (issue 20 item 4).
contract ClearingAdlInvariantTest is ClearingSolBase {
    ClearingAdlHandler internal handler;
    address[4] internal traders = [address(0xA001), address(0xA002), address(0xA003), address(0xA004)];
    address internal g2 = address(0xA602);

    function setUp() public {
        _deployClearing();
        // thin guarantors: 50 USDC of capital each (capacity 500 of exposure), no insurance at first
        _setupGuarantor(guarantor, false, 50e6);
        _setupGuarantor(g2, false, 50e6);
        _setupTrader(traders[0], guarantor, 100e6);
        _setupTrader(traders[1], guarantor, 100e6);
        _setupTrader(traders[2], g2, 100e6);
        _setupTrader(traders[3], g2, 100e6);
        _fundMarket(10_000e6);
        handler = new ClearingAdlHandler(
            [
                address(chouse),
                address(pool),
                address(liq),
                address(oracle),
                address(insurance),
                address(market),
                address(usdc)
            ],
            traders
        );
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](5);
        selectors[0] = ClearingAdlHandler.trade.selector;
        selectors[1] = ClearingAdlHandler.movePrice.selector;
        selectors[2] = ClearingAdlHandler.fundInsurance.selector;
        selectors[3] = ClearingAdlHandler.liquidate.selector;
        selectors[4] = ClearingAdlHandler.adl.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
    }

    /// The ADL path is live (so the checks are not vacuous): a long defaults beyond its guarantor with an empty fund,
    /// the short on the other side is deleveraged and the deficit is gone.
    function test_handlerAdlPathIsLive() public {
        handler.trade(0, 40e18); // long 40 at 10 (notional 400 on 100)
        handler.trade(2, -40e18); // short 40 at 10
        handler.movePrice(5_000); // −50 %: loss 200 on 100 of collateral; the guarantor pays 50
        handler.liquidate(0);
        assertEq(handler.claimsOpened(), 1);
        assertEq(chouse.collateralOf(traders[0]), -50e6);
        handler.adl(0);
        assertGt(handler.adlSteps(), 0);
        assertEq(chouse.collateralOf(traders[0]), 0);
        assertEq(handler.violationsCLR03() + handler.violationsCLR05(), 0);
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_CLR03_CLR05_adlNoViolations();
        check_ACC01_ledgerThroughAdl();
    }

    /// CLR-03, CLR-05: properties observed inside handler calls.
    function check_CLR03_CLR05_adlNoViolations() public view {
        assertEq(handler.violationsCLR03(), 0, "CLR-03");
        assertEq(handler.violationsCLR05(), 0, "CLR-05");
    }

    /// ACC-01 through ADL: USDC held = Σ collateral (negative for a bankrupt awaiting ADL) + pool + fees.
    function check_ACC01_ledgerThroughAdl() public view {
        int256 total;
        for (uint256 i; i < 4; ++i) total += chouse.collateralOf(traders[i]);
        (, int256 poolUsdc) = chouse.marketInfo(address(market));
        (uint256 fees, ) = chouse.totals();
        assertEq(int256(usdc.balanceOf(address(chouse))), total + poolUsdc + int256(fees));
        uint256 uncovered;
        for (uint256 i; i < 4; ++i) {
            int256 c = chouse.collateralOf(traders[i]);
            if (c < 0) uncovered += uint256(-c);
        }
        // the bankrupt's deficit stays booked until ADL (or a deposit) pays it in; a haircut moves it exactly
        assertEq(chouse.uncoveredCollateralUsdc(), uncovered, "ACC-01: uncovered booked through ADL");
    }
}
