// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../interfaces/clearing/IClearingHouseErrors.sol";
import {IMarketAccountRisk} from "../../interfaces/callback/IMarketAccountRisk.sol";
import {ClearingMath} from "../ClearingMath.sol";
import {RiskMath} from "../RiskMath.sol";
import {MarketSet} from "../../types/MarketSet.sol";
import {RiskWord} from "../../types/RiskWord.sol";
import {ClearingHouseStorage, ClearingStorage} from "./ClearingStorage.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";
import {ClearingPortfolio} from "./ClearingPortfolio.sol";
import {ClearingCollateral} from "./ClearingCollateral.sol";

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
        uint88 risk;
    }

    /// @dev What a margin computation needs besides the position: the copy's generation and σ + 1, the price.
    struct MarginInputs {
        uint256 generation;
        uint256 sigmaPlusOneWad;
        uint256 priceWad;
        bool portfolio;
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
            (ClearingHouseStorage.MarketRef memory ref, IClearingHouse.Position memory p) = positionAt(
                $,
                account,
                tr,
                set.idAt(i)
            );
            grossOpenUsdc += FixedPointMath.abs(p.openNotionalUsdc);
            if (!withMargin) continue;
            if (p.sizeCh != 0) _addMargin($, s, m, ref, p);
            if (ref.flags & ClearingStorage.FLAG_ACCOUNT_RISK != 0) _addAccountRisk(s, ref.market, account, priceWad);
            if (ref.flags & ClearingStorage.FLAG_SCENARIO_RISK != 0) m.portfolio = true;
        }
        // Portfolio margin (CLR-04): only for an account holding a scenario market, in the linked library.
        if (m.portfolio) s = ClearingPortfolio.applyPortfolio(s, account, acc, tr, priceWad);
        s.equityUsdc = s.collateralUsdc + s.unrealisedPnlUsdc;
        // Token collateral at its haircut value (linked library): only for an account holding some.
        if (acc.tokenMask != 0 && withMargin) {
            s.tokenMask = acc.tokenMask;
            s.tokenCollateralUsdc = ClearingCollateral.valueOf(account, acc.tokenMask, priceWad);
            s.equityUsdc += int256(s.tokenCollateralUsdc);
        }
    }

    /// @notice Reverts ClearingInsufficientMargin unless the state's equity covers its initial margin.
    function requireInitial(IClearingHouse.MarginState memory s, address account) internal pure {
        if (s.equityUsdc < SafeCast.toInt256(s.initialMarginUsdc)) {
            revert IClearingHouseErrors.ClearingInsufficientMargin(account, s.initialMarginUsdc, s.equityUsdc);
        }
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

    /// @notice The market and position at id `id` of `account` (the traded one from `tr`).
    function positionAt(
        ClearingHouseStorage.Layout storage $,
        address account,
        Traded memory tr,
        uint256 id
    ) internal view returns (ClearingHouseStorage.MarketRef memory ref, IClearingHouse.Position memory p) {
        if (id == tr.id) return (ClearingHouseStorage.MarketRef(tr.market, tr.flags, tr.risk), tr.position);
        ref = $.marketById[id];
        p = $.positions[account][ref.market];
    }

    /// @notice A market's margin rates: from the pushed copy (the market's own σ when flagged FLAG_MARKET_SIGMA, the
    ///         index σ otherwise) while it is current, otherwise from the RiskEngine itself.
    function rates(
        ClearingHouseStorage.Layout storage $,
        MarginInputs memory m,
        ClearingHouseStorage.MarketRef memory ref
    ) internal view returns (uint256 imRate, uint256 mmRate) {
        uint256 c = ref.risk;
        // The compact copy in the id slot (already read) while it is the current generation's, else the full word.
        RiskWord w =
            c != 0 && c >> ClearingStorage.RISK_GEN_SHIFT == m.generation ? _expand(c) : $.riskParams[ref.market];
        uint256 sigmaPlusOne = m.sigmaPlusOneWad;
        if (ref.flags & ClearingStorage.FLAG_MARKET_SIGMA != 0) sigmaPlusOne = _marketSigmaPlusOne($, m, ref.market);
        if (sigmaPlusOne != 0 && w.isCurrent(m.generation)) {
            return RiskMath.marginRates(w.params(), sigmaPlusOne - 1);
        }
        return $.riskEngine.marginRates(ref.market);
    }

    /// @dev The RiskWord a current compact copy `c` stands for (same parameters, same generation).
    function _expand(uint256 c) private pure returns (RiskWord) {
        uint256 u = ClearingStorage.RISK_UNIT;
        uint256 mask = (uint256(1) << ClearingStorage.RISK_BITS) - 1;
        return
            RiskWord.wrap(
                ((c & mask) * u) |
                    ((((c >> 20) & mask) * u) << 64) |
                    ((((c >> 40) & mask) * u) << 128) |
                    ((((c >> 60) & mask) * u) << 188) |
                    ((c >> ClearingStorage.RISK_GEN_SHIFT) << 248)
            );
    }

    /// @dev σ + 1 of the market's own pushed σ, the stale σ applied after its stale-at time; 0 when the word is not
    ///      current (the RiskEngine is then asked).
    function _marketSigmaPlusOne(
        ClearingHouseStorage.Layout storage $,
        MarginInputs memory m,
        address market
    ) private view returns (uint256) {
        uint256 word = $.marketSigma[market];
        if (word == 0 || word >> 248 != m.generation) return 0;
        uint256 sigmaPlusOne = uint72(word);
        if (block.timestamp > uint40(word >> 144)) {
            uint256 stale = uint72(word >> 72);
            if (stale + 1 > sigmaPlusOne) sigmaPlusOne = stale + 1;
        }
        return sigmaPlusOne;
    }

    /// @dev Adds one position to the margin state. The rates come from the pushed copy of the RiskEngine's inputs
    ///      (same rule, RiskMath) while it is current, otherwise from the RiskEngine itself.
    function _addMargin(
        ClearingHouseStorage.Layout storage $,
        IClearingHouse.MarginState memory s,
        MarginInputs memory m,
        ClearingHouseStorage.MarketRef memory ref,
        IClearingHouse.Position memory p
    ) private view {
        (uint256 imRate, uint256 mmRate) = rates($, m, ref);
        uint256 priceWad = m.priceWad;
        s.unrealisedPnlUsdc += ClearingMath.valueUsdcDown(p.sizeCh, priceWad) - p.openNotionalUsdc;
        uint256 notional = ClearingMath.notionalUsdcUp(FixedPointMath.abs(p.sizeCh), priceWad);
        s.grossNotionalUsdc += notional;
        s.initialMarginUsdc += FixedPointMath.wadMulUp(notional, imRate);
        s.maintenanceMarginUsdc += FixedPointMath.wadMulUp(notional, mmRate);
    }
}
