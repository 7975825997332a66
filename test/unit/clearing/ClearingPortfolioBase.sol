// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ClearingUnitBase} from "../../helpers/ClearingUnitBase.sol";
import {MockScenarioMarket} from "../../../contracts/mocks/MockScenarioMarket.sol";

/// @notice Shared set-up: a scenario (options) market with the same risk parameters as the perp stand-in (σ = 2 %:
///         IM range R = 10 %, MM range 5 %), holding, valuing and portfolio-margining its accounts.
abstract contract ClearingPortfolioBase is ClearingUnitBase {
    MockScenarioMarket internal opts;

    function setUp() public virtual override {
        super.setUp();
        opts = new MockScenarioMarket(address(chouse), address(oracle));
        _registerMarket(stack, address(opts), false);
        _portfolioMargin(stack, address(opts));
        _fundMarket(5_000e6);
    }

    /// Independent evaluation of the grid (CLR-04): worst weighted loss of the account's perp position and options
    /// over ±R/3, ±2R/3, ±R (full) and ±2R (half), at `priceWad`.
    function _worstLoss(address account, uint256 priceWad, uint256 rangeWad) internal view returns (uint256 worst) {
        int256 size =
            chouse.positionOf(account, address(market)).sizeCh + chouse.positionOf(account, address(opts)).sizeCh;
        int256 base = opts.valueAt(account, priceWad);
        for (uint256 f = 1; f <= 6; ++f) {
            if (f == 4 || f == 5) continue;
            uint256 move = (priceWad * rangeWad * f + 3e18 - 1) / 3e18;
            for (uint256 side; side < 2; ++side) {
                uint256 p = side == 0 ? priceWad + move : (move >= priceWad ? 0 : priceWad - move);
                int256 pnl = opts.valueAt(account, p) - base + (size * (int256(p) - int256(priceWad))) / 1e30;
                if (pnl >= 0) continue;
                uint256 loss = uint256(-pnl);
                if (f == 6) loss = (loss + 1) / 2;
                if (loss > worst) worst = loss;
            }
        }
    }
}
