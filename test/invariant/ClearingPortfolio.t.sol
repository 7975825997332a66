// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingPortfolioBase} from "../unit/clearing/ClearingPortfolioBase.sol";
import {IClearingHouse} from "../../contracts/interfaces/clearing/IClearingHouse.sol";
import {ClearingPortfolioHandler} from "./handlers/ClearingPortfolioHandler.sol";

/// @notice CLR-04 over any sequence of perp trades, margined option writing and buying, index moves and σ updates.
contract ClearingPortfolioInvariantTest is ClearingPortfolioBase {
    ClearingPortfolioHandler internal handler;
    address[3] internal traders = [address(0x7101), address(0x7102), address(0x7103)];

    function setUp() public override {
        super.setUp();
        for (uint256 i; i < 3; ++i) _setupTrader(traders[i], guarantor, 2_000e6);
        handler = new ClearingPortfolioHandler(address(oracle), address(market), address(opts), address(risk), traders);
        targetContract(address(handler));
    }

    /// CLR-04: an account's margin requirement is never below its worst loss over the scenario grid, options
    /// included (initial over the initial range, maintenance over the maintenance range).
    function invariant_CLR04_requirementCoversWorstScenarioLoss() public view {
        uint256 price = oracle.indexPrice();
        (uint256 im, uint256 mm) = risk.marginRates(address(market));
        for (uint256 i; i < 3; ++i) {
            IClearingHouse.MarginState memory s = chouse.marginState(traders[i]);
            assertGe(s.initialMarginUsdc, _worstLoss(traders[i], price, im), "initial");
            assertGe(s.maintenanceMarginUsdc, _worstLoss(traders[i], price, mm), "maintenance");
        }
    }
}
