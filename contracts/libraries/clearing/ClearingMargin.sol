// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IMarketAccountRisk} from "../../interfaces/callback/IMarketAccountRisk.sol";
import {ClearingMath} from "../ClearingMath.sol";
import {RiskMath} from "../RiskMath.sol";
import {MarketSet} from "../../types/MarketSet.sol";
import {RiskWord} from "../../types/RiskWord.sol";
import {ClearingHouseStorage, ClearingStorage} from "./ClearingStorage.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";

/// @title ClearingMargin
/// @notice The account scan: one pass over an account's markets (bounded by MarketSetLib.MAX) giving the gross open
///         notional a guarantor limits and, on request, the margin state at one price.
library ClearingMargin {
    /// @dev The market a trade or liquidation step touched, and its position after it: the account scan reads it
    ///      from memory instead of storage. `id` 0 (no market has it): every position is read from storage.
    struct Traded {
        address market;
        uint256 id;
        IClearingHouse.Position position;
        uint8 flags;
    }

    /// @dev What a margin computation needs besides the position: the copy's generation and σ + 1, the price.
    struct MarginInputs {
        uint256 generation;
        uint256 sigmaPlusOneWad;
        uint256 priceWad;
    }

    /// @notice Scans `account`: gross open notional Σ |cost basis| (independent of the oracle) and, with
    ///         `withMargin`, the margin state at `priceWad` (one RiskEngine read per market unless its copy is
    ///         current, one IMarketAccountRisk call per flagged market). The position of `tr.id` is taken from `tr`.
    function scan(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingHouseStorage.Account memory acc,
        Traded memory tr,
        bool withMargin,
        uint256 priceWad
    ) internal view returns (IClearingHouse.MarginState memory s, uint256 grossOpenUsdc) {
        s.collateralUsdc = acc.collateralUsdc;
        MarketSet set = acc.markets;
        uint256 n = set.count();
        s.positionCount = n;
        MarginInputs memory m;
        if (withMargin) (m.generation, m.sigmaPlusOneWad, m.priceWad) = ($.riskGeneration, $.sigmaPlusOneWad, priceWad);
        for (uint256 i; i < n; ++i) {
            (ClearingHouseStorage.MarketRef memory ref, IClearingHouse.Position memory p) = _positionAt(
                $,
                account,
                tr,
                set.idAt(i)
            );
            grossOpenUsdc += FixedPointMath.abs(p.openNotionalUsdc);
            if (!withMargin) continue;
            if (p.sizeCh != 0) _addMargin($, s, m, ref.market, p);
            if (ref.flags & ClearingStorage.FLAG_ACCOUNT_RISK != 0) _addAccountRisk(s, ref.market, account, priceWad);
        }
        s.equityUsdc = s.collateralUsdc + s.unrealisedPnlUsdc;
    }

    /// @dev What the account holds in a flagged market beyond its position (IMarketAccountRisk): the equity
    ///      adjustment joins the unrealised PnL (so equity includes it), the extras join the requirements.
    function _addAccountRisk(
        IClearingHouse.MarginState memory s,
        address market,
        address account,
        uint256 priceWad
    ) private view {
        (int256 adjustmentUsdc, uint256 extraInitialUsdc, uint256 extraMaintenanceUsdc) = IMarketAccountRisk(market)
            .accountRisk(account, priceWad);
        s.unrealisedPnlUsdc += adjustmentUsdc;
        s.initialMarginUsdc += extraInitialUsdc;
        s.maintenanceMarginUsdc += extraMaintenanceUsdc;
    }

    function _positionAt(
        ClearingHouseStorage.Layout storage $,
        address account,
        Traded memory tr,
        uint256 id
    ) private view returns (ClearingHouseStorage.MarketRef memory ref, IClearingHouse.Position memory p) {
        if (id == tr.id) return (ClearingHouseStorage.MarketRef(tr.market, tr.flags), tr.position);
        ref = $.marketById[id];
        p = $.positions[account][ref.market];
    }

    /// @dev Adds one position to the margin state. The rates come from the pushed copy of the RiskEngine's inputs
    ///      (same rule, RiskMath) while it is current, otherwise from the RiskEngine itself.
    function _addMargin(
        ClearingHouseStorage.Layout storage $,
        IClearingHouse.MarginState memory s,
        MarginInputs memory m,
        address market,
        IClearingHouse.Position memory p
    ) private view {
        uint256 imRate;
        uint256 mmRate;
        RiskWord w = $.riskParams[market];
        if (m.sigmaPlusOneWad != 0 && w.isCurrent(m.generation)) {
            (imRate, mmRate) = RiskMath.marginRates(w.params(), m.sigmaPlusOneWad - 1);
        } else {
            (imRate, mmRate) = $.riskEngine.marginRates(market);
        }
        uint256 priceWad = m.priceWad;
        s.unrealisedPnlUsdc += ClearingMath.valueUsdcDown(p.sizeCh, priceWad) - p.openNotionalUsdc;
        uint256 notional = ClearingMath.notionalUsdcUp(FixedPointMath.abs(p.sizeCh), priceWad);
        s.grossNotionalUsdc += notional;
        s.initialMarginUsdc += FixedPointMath.wadMulUp(notional, imRate);
        s.maintenanceMarginUsdc += FixedPointMath.wadMulUp(notional, mmRate);
    }
}
