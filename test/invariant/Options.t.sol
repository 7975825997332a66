// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {OptionsSolBase} from "../helpers/OptionsSolBase.sol";
import {IOptionsMarketTypes} from "../../contracts/interfaces/markets/IOptionsMarket.sol";
import {OptionsHandler} from "./handlers/OptionsHandler.sol";

/// @notice MKT-07 and the options market's ledger as handler-based invariants.
contract OptionsInvariantTest is OptionsSolBase {
    OptionsHandler internal handler;
    address[4] internal actors;

    function setUp() public {
        _deployOptions();
        actors = [makeAddr("alice"), makeAddr("bob"), makeAddr("carol"), makeAddr("dave")];
        for (uint256 i = 0; i < 4; ++i) _fundAccount(actors[i], 50_000e6);
        handler = new OptionsHandler(options, oracle, actors, expiry);
        targetContract(address(handler));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_MKT07_writerCollateralCoversMaxPayout();
        check_MKT07_seriesPaysAtMostPosted();
        check_ACC01_poolCoversClaims();
        check_ACC02_longsEqualShorts();
    }

    /// @notice MKT-07: a written option's payout never exceeds its posted collateral — every writer's collateral
    ///         always covers its shorts at the maximum payoff (size × cap), the most any settlement can take.
    function check_MKT07_writerCollateralCoversMaxPayout() public view {
        for (uint256 id = 1; id <= 2; ++id) {
            uint256 cap = options.series(id).capWad;
            for (uint256 i = 0; i < 4; ++i) {
                IOptionsMarketTypes.Position memory p = options.positionOf(id, actors[i]);
                assertGe(uint256(p.collateralUsdc) * 1e30, uint256(p.shortCh) * cap, "collateral < shorts x cap");
            }
        }
    }

    /// @notice MKT-07: total payouts of a series (to holders, plus collateral returned to writers) never exceed the
    ///         total collateral posted to it.
    function check_MKT07_seriesPaysAtMostPosted() public view {
        for (uint256 id = 1; id <= 2; ++id) {
            IOptionsMarketTypes.Series memory s = options.series(id);
            assertLe(uint256(s.paidUsdc) + s.releasedUsdc, s.postedUsdc, "paid + released > posted");
            // a settled series keeps only rounding dust (swept into fees): ≤ 1 unit per long and per short rounded
            if (s.settled) assertLe(s.postedUsdc - s.paidUsdc - s.releasedUsdc, 2 * uint256(s.accountCount), "dust");
        }
    }

    /// @notice ACC-01: the market's ClearingHouse PnL pool always holds its pending fees plus every series' reserve,
    ///         and the reserve is exactly Σ (posted − paid − released) over unsettled series.
    function check_ACC01_poolCoversClaims() public view {
        (uint256 fees, uint256 reserved) = options.poolClaims();
        uint256 sum;
        for (uint256 id = 1; id <= 2; ++id) {
            IOptionsMarketTypes.Series memory s = options.series(id);
            if (!s.settled) sum += s.postedUsdc - s.paidUsdc - s.releasedUsdc; // settled: dust moved to fees
        }
        assertEq(reserved, sum, "reserve");
        (, int256 poolUsdc) = chouse.marketInfo(address(options));
        assertGe(poolUsdc, int256(fees + reserved), "pool < claims");
    }

    /// @notice ACC-02: before the settlement price is fixed, Σ longs = Σ shorts = open interest of each series.
    function check_ACC02_longsEqualShorts() public view {
        for (uint256 id = 1; id <= 2; ++id) {
            IOptionsMarketTypes.Series memory s = options.series(id);
            if (s.priceFixedAt != 0) continue;
            uint256 longs;
            uint256 shorts;
            for (uint256 i = 0; i < 4; ++i) {
                IOptionsMarketTypes.Position memory p = options.positionOf(id, actors[i]);
                longs += p.longCh;
                shorts += p.shortCh;
            }
            assertEq(longs, shorts, "longs != shorts");
            assertEq(shorts, s.openInterestCh, "open interest");
        }
    }
}
