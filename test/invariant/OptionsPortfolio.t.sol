// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OptionsMarginBase} from "../unit/options/OptionsMarginBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {IOptionsMarketTypes} from "../../contracts/interfaces/markets/IOptionsMarketTypes.sol";
import {OptionsPortfolioHandler} from "./handlers/OptionsPortfolioHandler.sol";

/// @notice CLR-04 on the real OptionsMarket over any sequence of margined and collateralised writing, long transfers,
///         closes, perp trades, index moves and liquidations; ACC-02 and the reserve with margined and prepaid shorts.
contract OptionsPortfolioInvariantTest is OptionsMarginBase {
    OptionsPortfolioHandler internal handler;
    address[3] internal traders = [address(0x7201), address(0x7202), address(0x7203)];

    function setUp() public override {
        super.setUp();
        _fundInsurance(100_000e6);
        for (uint256 i; i < 3; ++i) _setupTrader(traders[i], guarantor, 3_000e6);
        handler = new OptionsPortfolioHandler(
            address(oracle),
            address(market),
            address(options),
            address(liq),
            traders,
            [uncappedCall, put10, cappedCall]
        );
        targetContract(address(handler));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_CLR04_marginedOptionsRequirementCoversWorstScenarioLoss();
        check_ACC02_longsEqualShortsWithMarginedAndPrepaid();
        check_ACC01_uncoveredBookedThroughScenarioLiquidations();
    }

    /// ACC-01, the pools' cash: a liquidation's scenario-market hook settles the options it closes and the close then
    /// undoes that write (ClearingLiquidation._hook); the uncovered booking follows both and stays Σ max(0, −collateral).
    function check_ACC01_uncoveredBookedThroughScenarioLiquidations() public view {
        uint256 uncovered;
        for (uint256 i; i < 4; ++i) {
            int256 c = chouse.collateralOf(i < 3 ? traders[i] : address(handler));
            if (c < 0) uncovered += uint256(-c);
        }
        assertEq(chouse.uncoveredCollateralUsdc(), uncovered, "ACC-01: uncovered booked");
    }

    /// CLR-04: an account's margin requirement is never below its worst loss over the scenario grid, its margined
    /// option shorts included (initial over the initial range, maintenance over the maintenance range).
    function check_CLR04_marginedOptionsRequirementCoversWorstScenarioLoss() public view {
        uint256 price = oracle.indexPrice();
        (uint256 im, uint256 mm) = risk.marginRates(address(market));
        for (uint256 i; i < 3; ++i) {
            IClearingHouse.MarginState memory s = chouse.marginState(traders[i]);
            assertGe(s.initialMarginUsdc, _worstLoss(traders[i], price, im), "initial");
            assertGe(s.maintenanceMarginUsdc, _worstLoss(traders[i], price, mm), "maintenance");
        }
    }

    /// ACC-02 with margined shorts: per series Σ longs = Σ collateralised + margined + prepaid shorts = open interest,
    /// and the series' open margined shorts are the accounts' margined + prepaid; the reserve is Σ collateral +
    /// Σ prepaid value (before expiry).
    function check_ACC02_longsEqualShortsWithMarginedAndPrepaid() public view {
        uint256[3] memory ids = [uncappedCall, put10, cappedCall];
        uint256 reserve;
        for (uint256 j; j < 3; ++j) {
            uint256 longs;
            uint256 shorts;
            uint256 margined;
            for (uint256 i; i < 3; ++i) {
                IOptionsMarketTypes.Position memory p = options.positionOf(ids[j], traders[i]);
                IOptionsMarketTypes.MarginedShort memory m = options.marginedOf(ids[j], traders[i]);
                longs += p.longCh;
                shorts += uint256(p.shortCh) + m.shortCh + m.prepaidCh;
                margined += uint256(m.shortCh) + m.prepaidCh;
                reserve += uint256(p.collateralUsdc) + m.prepaidUsdc;
            }
            assertEq(longs, shorts, "longs = shorts");
            assertEq(options.series(ids[j]).openInterestCh, shorts, "open interest");
            assertEq(options.marginedSeries(ids[j]).openCh, margined, "margined open");
        }
        (uint256 fees, uint256 reserved) = options.poolClaims();
        assertEq(reserved, reserve, "reserve = collateral + prepaid");
        (, int256 poolUsdc) = chouse.marketInfo(address(options));
        assertGe(poolUsdc, int256(fees + reserved), "ACC-01");
    }
}
