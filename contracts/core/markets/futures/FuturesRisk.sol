// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FuturesBase} from "./FuturesBase.sol";
import {IFuturesTypes} from "../../../interfaces/IFuturesTypes.sol";
import {IRiskEngine} from "../../../interfaces/IRiskEngine.sol";
import {FuturesMath} from "../../../libraries/FuturesMath.sol";

/// @title FuturesRisk
/// @notice What a FuturesMarket account holds beyond its one net ClearingHouse position, for the ClearingHouse's
///         market-account-risk hook (IMarketAccountRisk, docs/futures.md "Margin beyond the net position"): the
///         delivery payment an electing long owes from election to settlement, the delivery bond of an assignable
///         short, the margin of the series legs that the net position hides (calendar spreads), and the mark of
///         expired legs at their fixed settlement price instead of the index. An external
///         library on the market's storage (linked, not delegate-called through a selector forwarder).
library FuturesRisk {
    uint256 private constant BPS = 10_000;

    /// @dev Per-account sums over its series (memory, to keep the stack small).
    struct Sums {
        int256 netCh;
        uint256 liveLongCh;
        uint256 liveShortCh;
    }

    /// @notice IMarketAccountRisk.accountRisk for the market whose storage is `$`. Bounded by
    ///         MAX_SERIES_PER_ACCOUNT; never reverts for an account that holds nothing.
    /// @param $ The FuturesMarket storage.
    /// @param account The account.
    /// @param priceWad The index the ClearingHouse values the account at.
    /// @return equityAdjustmentUsdc Delivery payments held (−, rounded up), price-fixed legs' mark from the index to
    ///         the settlement price and corrections owed for such legs closed at the index (rounded down).
    /// @return extraInitialUsdc Delivery bonds and the initial margin of the legs the net position hides.
    /// @return extraMaintenanceUsdc Delivery bonds and the maintenance margin of those legs.
    function accountRisk(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 priceWad
    ) external view returns (int256 equityAdjustmentUsdc, uint256 extraInitialUsdc, uint256 extraMaintenanceUsdc) {
        uint256[] storage ids = $.accountSeries[account];
        uint256 penaltyBps = $.params.penaltyBps;
        Sums memory sum;
        // settlement-price corrections of legs a liquidation closed at the index, not yet paid
        equityAdjustmentUsdc = $.liquidationCashUsdc[account];
        for (uint256 i; i < ids.length; ++i) {
            IFuturesTypes.Series storage s = $.series[ids[i]];
            IFuturesTypes.Position storage p = $.positions[ids[i]][account];
            int256 size = p.sizeCh;
            sum.netCh += size;
            uint256 markWad = priceWad;
            if (s.finalAt != 0) {
                // expired and price-fixed: marked at the settlement price, not the moving index (item 23)
                markWad = s.settlementPriceWad;
                equityAdjustmentUsdc += FuturesMath.valueDown(size, markWad) - FuturesMath.valueUp(size, priceWad);
            } else if (size > 0) {
                sum.liveLongCh += uint256(size);
            } else {
                sum.liveShortCh += uint256(-size);
            }
            // The long's delivery payment, held from election to settlement: the whole election until the series
            // is finalised, then its deliverable share; at the settlement price once fixed, else at the index.
            uint256 elected = p.electedCh;
            if (elected != 0) equityAdjustmentUsdc -= int256(FuturesMath.usdcUp(_paymentCh(s, elected), markWad));
            // The short's delivery bond: the penalty on the part of its (estimated) assignment not escrowed in CH.
            uint256 bond = _bondUsdc(s, p, size, penaltyBps, markWad);
            extraInitialUsdc += bond;
            extraMaintenanceUsdc += bond;
        }
        (uint256 spreadIm, uint256 spreadMm) = _spreadMargin($, sum, priceWad);
        extraInitialUsdc += spreadIm;
        extraMaintenanceUsdc += spreadMm;
    }

    /// @dev CH an electing long pays for: its election until finalisation, then ⌈elected × deliverable / Σ elected⌉.
    function _paymentCh(IFuturesTypes.Series storage s, uint256 elected) private view returns (uint256) {
        if (s.deliveryDeadline == 0) return elected;
        uint256 total = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        uint256 deliverable = total < assignable ? total : assignable;
        return Math.mulDiv(elected, deliverable, total, Math.Rounding.Ceil);
    }

    /// @dev ⌈(assigned − escrowed) × price × penalty⌉ for a short: its assignment once finalised, before that the
    ///      assignment the current elections would give (the short size at expiry once the price is fixed, the live
    ///      short open interest before). Grows as longs elect; falls as the short escrows CH.
    function _bondUsdc(
        IFuturesTypes.Series storage s,
        IFuturesTypes.Position storage p,
        int256 size,
        uint256 penaltyBps,
        uint256 markWad
    ) private view returns (uint256) {
        uint256 base = p.baseTaken ? p.deliveryBaseCh : (size < 0 ? uint256(-size) : 0);
        if (base == 0) return 0;
        uint256 elected = s.electedCh;
        uint256 assignable = s.finalAt != 0 ? s.assignableShortCh : uint256(s.shortOiCh) + s.postExpiryShortCh;
        uint256 assigned = FuturesMath.assignment(base, elected < assignable ? elected : assignable, assignable);
        uint256 escrow = p.escrowCh;
        if (assigned <= escrow) return 0;
        return (FuturesMath.usdcUp((assigned - escrow) * penaltyBps, markWad) + BPS - 1) / BPS;
    }

    /// @dev The margin of the live legs the net ClearingHouse position does not show, at the market's own rates: the
    ///      matched part of a calendar spread (long one series, short another: the far leg stands alone once the
    ///      near one settles) and, when price-fixed legs offset live ones, the live net beyond the total net. One
    ///      RiskEngine read, only for such accounts.
    function _spreadMargin(
        FuturesBase.FuturesMarketStorage storage $,
        Sums memory sum,
        uint256 priceWad
    ) private view returns (uint256 im, uint256 mm) {
        uint256 matched = sum.liveLongCh < sum.liveShortCh ? sum.liveLongCh : sum.liveShortCh;
        uint256 liveNet = sum.liveLongCh - matched + sum.liveShortCh - matched;
        uint256 totalNet = FuturesMath.abs(sum.netCh);
        uint256 hidden = matched + (liveNet > totalNet ? liveNet - totalNet : 0);
        if (hidden == 0) return (0, 0);
        (, , address riskEngine, , , ) = $.clearingHouse.modules();
        (uint256 imRateWad, uint256 mmRateWad) = IRiskEngine(riskEngine).marginRates(address(this));
        uint256 notional = FuturesMath.usdcUp(hidden, priceWad);
        im = Math.mulDiv(notional, imRateWad, 1e18, Math.Rounding.Ceil);
        mm = Math.mulDiv(notional, mmRateWad, 1e18, Math.Rounding.Ceil);
    }
}
