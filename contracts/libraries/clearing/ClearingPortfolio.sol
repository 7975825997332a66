// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../interfaces/clearing/IClearingHouseErrors.sol";
import {IMarketScenarioRisk} from "../../interfaces/callback/IMarketScenarioRisk.sol";
import {ClearingMath} from "../ClearingMath.sol";
import {MarketSet} from "../../types/MarketSet.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";
import {ClearingHouseStorage, ClearingStorage} from "./ClearingStorage.sol";
import {ClearingMargin} from "./ClearingMargin.sol";

/// @title ClearingPortfolio
/// @notice Portfolio margin (issue 20 item 3, CLR-04) of an account holding a market flagged FLAG_SCENARIO_RISK: the
///         requirement of its linear positions (perps, futures: every ClearingHouse position, all on the CH index)
///         and of what it holds in the scenario markets (options) is the worst loss over a fixed grid of index
///         scenarios instead of the sum of per-position rates, so offsets between them are recognised.
/// @dev Grid per requirement (R = the largest initial / maintenance rate of the account's markets, σ-driven with
///      its floor, RiskMath): moves ±R/3, ±2R/3, ±R at full weight and the stress moves ±2R at half weight (a price
///      never below 0), K = 8 scenarios, both grids (16 prices) in one call per scenario market. Linear PnL per
///      scenario is Σ size × (Pₖ − P), rounded against the account. Requirement = max(worst weighted loss,
///      BASIS_SHARE × the linear positions' stand-alone requirement) — the floor caps the offset credit (basis
///      between perps and futures tenors, and between series) at 75 %. Cost O(markets × K): one pass over the set
///      (≤ MarketSetLib.MAX) and one IMarketScenarioRisk call per scenario market, never O(positions of a market).
///      An external linked library: only portfolio accounts pay for it.
library ClearingPortfolio {
    /// @notice Scenarios per grid.
    uint256 internal constant K = 8;
    /// @notice Share of the linear stand-alone requirement a portfolio keeps however well hedged (BPS).
    uint256 internal constant BASIS_SHARE_BPS = 2_500;

    struct Acc {
        int256 netSizeCh;
        uint256 linearIm;
        uint256 linearMm;
        uint256 rangeIm;
        uint256 rangeMm;
        uint256 scenarioCount;
        address[] scenarioMarkets;
    }

    /// @notice Replaces the rate-based requirement of `account`'s positions in `s` (as ClearingMargin.scan built
    ///         it) by the portfolio requirement; extras of the account-risk hook stay.
    /// @param s The margin state so far (unrealised PnL and requirements of every position and hook).
    /// @param acc The account record (its market set).
    /// @param tr The traded market and its position after the trade (read from memory).
    /// @param priceWad The index price.
    /// @return The margin state with the portfolio requirements.
    function applyPortfolio(
        IClearingHouse.MarginState memory s,
        address account,
        ClearingHouseStorage.Account memory acc,
        ClearingMargin.Traded memory tr,
        uint256 priceWad
    ) external view returns (IClearingHouse.MarginState memory) {
        Acc memory a = _collect(account, acc, tr, priceWad);
        int256[] memory pnl = _scenarioPnl(a, account, priceWad);
        s.initialMarginUsdc = s.initialMarginUsdc - a.linearIm + _requirement(pnl, 0, a.linearIm);
        s.maintenanceMarginUsdc = s.maintenanceMarginUsdc - a.linearMm + _requirement(pnl, K, a.linearMm);
        return s;
    }

    /// @dev One pass over the account's markets.
    function _collect(
        address account,
        ClearingHouseStorage.Account memory acc,
        ClearingMargin.Traded memory tr,
        uint256 priceWad
    ) private view returns (Acc memory a) {
        ClearingHouseStorage.Layout storage $ = ClearingStorage.layout();
        ClearingMargin.MarginInputs memory m = ClearingMargin.MarginInputs(
            $.riskGeneration,
            $.sigmaPlusOneWad,
            priceWad,
            true
        );
        MarketSet set = acc.markets;
        uint256 n = set.count();
        a.scenarioMarkets = new address[](n);
        for (uint256 i; i < n; ++i) _addMarket($, m, a, account, tr, set.idAt(i));
    }

    /// @dev Σ PnL per scenario: the linear net size, then each scenario market's answer.
    function _scenarioPnl(Acc memory a, address account, uint256 priceWad) private view returns (int256[] memory pnl) {
        uint256[] memory prices = grid(priceWad, a.rangeIm, a.rangeMm);
        pnl = new int256[](2 * K);
        int256 base = ClearingMath.valueUsdcUp(a.netSizeCh, priceWad);
        for (uint256 k; k < 2 * K; ++k) pnl[k] = ClearingMath.valueUsdcDown(a.netSizeCh, prices[k]) - base;
        for (uint256 j; j < a.scenarioCount; ++j) {
            address market = a.scenarioMarkets[j];
            int256[] memory r = IMarketScenarioRisk(market).scenarioPnl(account, priceWad, prices);
            if (r.length != 2 * K) revert IClearingHouseErrors.ClearingBadScenarioAnswer(market, r.length);
            for (uint256 k; k < 2 * K; ++k) pnl[k] += r[k];
        }
    }

    /// @dev One market of the set: a scenario market is listed; a position joins the net size and the linear
    ///      stand-alone requirement; the grid range is the largest rate met.
    function _addMarket(
        ClearingHouseStorage.Layout storage $,
        ClearingMargin.MarginInputs memory m,
        Acc memory a,
        address account,
        ClearingMargin.Traded memory tr,
        uint256 id
    ) private view {
        (ClearingHouseStorage.MarketRef memory ref, IClearingHouse.Position memory p) = ClearingMargin.positionAt(
            $,
            account,
            tr,
            id
        );
        bool scenario = ref.flags & ClearingStorage.FLAG_SCENARIO_RISK != 0;
        if (p.sizeCh == 0 && !scenario) return;
        (uint256 imRate, uint256 mmRate) = ClearingMargin.rates($, m, ref);
        a.rangeIm = Math.max(a.rangeIm, imRate);
        a.rangeMm = Math.max(a.rangeMm, mmRate);
        if (scenario) a.scenarioMarkets[a.scenarioCount++] = ref.market;
        if (p.sizeCh == 0) return;
        a.netSizeCh += p.sizeCh;
        uint256 notional = ClearingMath.notionalUsdcUp(FixedPointMath.abs(p.sizeCh), m.priceWad);
        a.linearIm += FixedPointMath.wadMulUp(notional, imRate);
        a.linearMm += FixedPointMath.wadMulUp(notional, mmRate);
    }

    /// @notice The 2K scenario prices: the initial grid (range `rangeIm`) then the maintenance grid (`rangeMm`);
    ///         within each, +R/3, −R/3, +2R/3, −2R/3, +R, −R, +2R, −2R (the last two at half weight).
    /// @param priceWad The index price.
    /// @param rangeIm Initial range R, WAD.
    /// @param rangeMm Maintenance range R, WAD.
    /// @return prices 2K prices, WAD.
    function grid(uint256 priceWad, uint256 rangeIm, uint256 rangeMm) public pure returns (uint256[] memory prices) {
        prices = new uint256[](2 * K);
        _fill(prices, 0, priceWad, rangeIm);
        _fill(prices, K, priceWad, rangeMm);
    }

    function _fill(uint256[] memory prices, uint256 at, uint256 priceWad, uint256 range) private pure {
        uint256[4] memory thirds = [uint256(1), 2, 3, 6];
        for (uint256 i; i < 4; ++i) {
            uint256 move = Math.mulDiv(priceWad, range * thirds[i], 3 * FixedPointMath.WAD, Math.Rounding.Ceil);
            prices[at + 2 * i] = priceWad + move;
            prices[at + 2 * i + 1] = move >= priceWad ? 0 : priceWad - move;
        }
    }

    /// @dev max(worst weighted loss of the grid at `at`, BASIS_SHARE of `linear`), rounded up.
    function _requirement(int256[] memory pnl, uint256 at, uint256 linear) private pure returns (uint256 req) {
        for (uint256 k; k < K; ++k) {
            int256 v = pnl[at + k];
            if (v >= 0) continue;
            uint256 loss = uint256(-v);
            if (k >= K - 2) loss = (loss + 1) / 2; // stress moves at half weight, rounded up
            if (loss > req) req = loss;
        }
        req = Math.max(req, FixedPointMath.bpsUp(linear, BASIS_SHARE_BPS));
    }
}
