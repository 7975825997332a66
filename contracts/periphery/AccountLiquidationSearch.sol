// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IClearingHouse} from "../interfaces/clearing/IClearingHouse.sol";

/// @title AccountLiquidationSearch
/// @notice The AccountLens's liquidation-price search on `ClearingHouse.marginStateAt` (read-only; internal, inlined
///         into the lens).
library AccountLiquidationSearch {
    /// @dev Relative precision of the liquidation-price search: the bracket ends within 1e-9 of each other.
    uint256 private constant PRICE_PRECISION = 1e9;
    /// @dev Most bracket widenings / bisection steps of the search (each one `marginStateAt`).
    uint256 private constant MAX_STEPS = 48;

    /// @dev f(price) = equity − maintenance margin at `priceWad`, from the ClearingHouse.
    function slack(IClearingHouse house, address account, uint256 priceWad) internal view returns (int256) {
        IClearingHouse.MarginState memory s = house.marginStateAt(account, priceWad);
        return s.equityUsdc - int256(s.maintenanceMarginUsdc);
    }

    /// @dev The index at which the account becomes liquidatable. Equity and maintenance margin are both linear in the
    ///      price (margin rates do not depend on it), so two `marginStateAt` reads give an estimate; a bracket around
    ///      it is then bisected on `marginStateAt` itself, so the answer holds the ClearingHouse's rounding (and any
    ///      price-dependent term a market adds, within the bracket's reach). Returns the liquidatable end of the
    ///      final bracket: the highest liquidatable price below the index, or the lowest one above it.
    function liquidationPrice(
        IClearingHouse house,
        address account,
        int256 slack0,
        uint256 p0
    ) internal view returns (uint256 priceWad, bool below) {
        if (p0 == 0) return (0, false);
        int256 slope = slack(house, account, p0 * 2) - slack0; // change of the slack over +p0
        if (slope == 0) return (0, false);
        below = slope > 0;
        if (slack0 < 0) return (p0, below); // liquidatable now
        uint256 move = (uint256(slack0) * p0) / (slope > 0 ? uint256(slope) : uint256(-slope));
        uint256 estimate;
        if (below) {
            if (move >= p0) {
                // the slack stays ≥ 0 down to a price of (almost) zero: check the smallest price
                if (slack(house, account, 1) >= 0) return (0, true);
                estimate = 1;
            } else {
                estimate = p0 - move;
            }
        } else {
            estimate = p0 + move;
        }
        return (refine(house, account, estimate, below), below);
    }

    /// @dev Bisects [liquidatable, healthy] around `estimate` on `marginStateAt`.
    function refine(
        IClearingHouse house,
        address account,
        uint256 estimate,
        bool below
    ) internal view returns (uint256) {
        uint256 delta = estimate / 1e6 + 1;
        uint256 bad; // liquidatable side
        uint256 good; // healthy side
        uint256 steps;
        for (; steps < MAX_STEPS; ++steps) {
            if (below) {
                bad = estimate > delta ? estimate - delta : 1;
                good = estimate + delta;
            } else {
                good = estimate > delta ? estimate - delta : 1;
                bad = estimate + delta;
            }
            bool badOk = slack(house, account, bad) < 0 || (below && bad == 1);
            bool goodOk = slack(house, account, good) >= 0;
            if (badOk && goodOk) break;
            delta *= 16;
        }
        for (; steps < MAX_STEPS; ++steps) {
            uint256 gap = bad > good ? bad - good : good - bad;
            uint256 lowEnd = bad < good ? bad : good;
            if (gap <= lowEnd / PRICE_PRECISION + 1) break;
            uint256 mid = (bad + good) / 2;
            if (slack(house, account, mid) < 0) bad = mid;
            else good = mid;
        }
        return bad;
    }
}
