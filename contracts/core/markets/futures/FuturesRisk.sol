// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FuturesBase} from "./FuturesBase.sol";
import {IFuturesTypes} from "../../../interfaces/markets/IFuturesTypes.sol";
import {IRiskEngine} from "../../../interfaces/clearing/IRiskEngine.sol";
import {IClearingHouse} from "../../../interfaces/clearing/IClearingHouse.sol";
import {FuturesMath} from "../../../libraries/FuturesMath.sol";
import {FixedPointMath} from "../../../libraries/math/FixedPointMath.sol";
import {FuturesLedger} from "../../../libraries/futures/FuturesLedger.sol";

/// @title FuturesRisk
/// @notice What a FuturesMarket account holds beyond its one net ClearingHouse position, for the ClearingHouse's
///         market-account-risk hook (IMarketAccountRisk, docs/futures.md "Margin beyond the net position"): the
///         delivery payment an electing long owes from election to settlement, the delivery bond of an assignable
///         short, the margin of the series legs that the net position hides (calendar spreads), and the mark of
///         expired legs at their fixed settlement price instead of the index; the closing cost of the live skew (LP
///         equity) and a few views moved out of the market for EIP-170. An external library on the market's storage
///         (linked, not delegate-called through a selector forwarder).
library FuturesRisk {
    uint256 private constant BPS = 10_000;
    /// @dev Tenor boundaries of IRiskEngine.tenorMarginRates, by time to expiry at read time: front month ≤ 35 days,
    ///      then ≤ 3 months (92 days: the longest three calendar months); every further leg is in the far tenor.
    uint256 internal constant TENOR_FRONT_SEC = 35 days;
    uint256 internal constant TENOR_MID_SEC = 92 days;

    /// @dev Per-account sums (memory, to keep the stack small): net and live (not price-fixed) sides over all legs,
    ///      and what the near legs walked one by one add to the aggregates (subtracted to get the far part).
    struct Sums {
        int256 netCh;
        uint256 liveLongCh;
        uint256 liveShortCh;
        uint256 nearLongCh;
        uint256 nearShortCh;
        uint256 nearElectedCh;
    }

    /// @notice IMarketAccountRisk.accountRisk for the market whose storage is `$`. O(near legs), not O(series held):
    ///         the legs in expiry buckets up to `(now + NEAR_SEC) / BUCKET_SEC` (FuturesLedger) — expiring,
    ///         price-fixed or in delivery — are valued one by one; every further leg is live and unfixed, so the
    ///         account aggregates (Σ long, Σ |short|, Σ elected) minus the near legs value them exactly: net size,
    ///         calendar-spread sides and the election payment at the index. A far short owes no delivery bond yet
    ///         (docs/futures.md "Series per account: the bound"). Never reverts for an account that holds nothing.
    /// @param $ The FuturesMarket storage.
    /// @param account The account.
    /// @param priceWad The index the ClearingHouse values the account at.
    /// @return equityAdjustmentUsdc Delivery payments held (−, rounded up), price-fixed legs' mark from the index to
    ///         the settlement price and corrections owed for such legs closed at the index (rounded down).
    /// @return extraInitialUsdc Delivery bonds, the initial margin of the legs the net position hides and the margin
    ///         the account's pending orders hold (escrowed: also added to the equity adjustment).
    /// @return extraMaintenanceUsdc Delivery bonds and the maintenance margin of those legs.
    function accountRisk(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 priceWad
    ) external view returns (int256 equityAdjustmentUsdc, uint256 extraInitialUsdc, uint256 extraMaintenanceUsdc) {
        FuturesLedger.AccountBook memory book = $.accountBooks[account];
        // settlement-price corrections of legs a liquidation closed at the index, not yet paid
        equityAdjustmentUsdc = book.liquidationCashUsdc;
        if (book.legs != 0) {
            Sums memory sum;
            // Nothing to walk when every leg is a live long without election (no short, no election, no leg expired
            // by the book's lower bound on expiries): no price-fixed mark, no delivery payment or bond, and the near
            // legs' sizes are what the aggregates hold — the walk would add exactly nothing (a hedger's long ladder).
            if (book.shortCh != 0 || book.electedCh != 0 || book.minExpiry <= block.timestamp) {
                int256 nearAdj;
                (nearAdj, extraInitialUsdc) = _nearLegs($, account, priceWad, sum);
                extraMaintenanceUsdc = extraInitialUsdc;
                equityAdjustmentUsdc += nearAdj;
            }
            // the far legs: live, unfixed, unfinalised (their buckets start after now + NEAR_SEC)
            uint256 farLong = book.longCh - sum.nearLongCh;
            uint256 farShort = book.shortCh - sum.nearShortCh;
            sum.netCh += int256(farLong) - int256(farShort);
            sum.liveLongCh += farLong;
            sum.liveShortCh += farShort;
            uint256 farElected = book.electedCh - sum.nearElectedCh;
            if (farElected != 0) equityAdjustmentUsdc -= int256(FuturesMath.usdcUp(farElected, priceWad));
            (uint256 spreadIm, uint256 spreadMm) = _legMargin($, account, sum, priceWad);
            extraInitialUsdc += spreadIm;
            extraMaintenanceUsdc += spreadMm;
        }
        // the initial margin pending orders hold until executed or cancelled (item 15): escrowed out of the
        // collateral, so it counts as equity and is required as initial margin (binds withdrawals, not liquidations)
        uint256 held = book.orderMarginUsdc;
        equityAdjustmentUsdc += int256(held);
        extraInitialUsdc += held;
    }

    /// @dev The near legs one by one: marks of price-fixed legs, election payments, delivery bonds; adds their sizes
    ///      to `sum`.
    function _nearLegs(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 priceWad,
        Sums memory sum
    ) private view returns (int256 adj, uint256 bonds) {
        uint256[] memory ids = FuturesLedger.heldUpTo($, account, FuturesLedger.nearBucket());
        for (uint256 i; i < ids.length; ++i) {
            IFuturesTypes.SeriesState storage s = $.series[ids[i]];
            IFuturesTypes.Position storage p = $.positions[ids[i]][account];
            int256 size = p.sizeCh;
            sum.netCh += size;
            if (size > 0) sum.nearLongCh += uint256(size);
            else sum.nearShortCh += uint256(-size);
            uint256 markWad = priceWad;
            if (s.finalAt != 0) {
                // expired and price-fixed: marked at the settlement price, not the moving index (item 23)
                markWad = s.settlementPriceWad;
                adj += FuturesMath.valueDown(size, markWad) - FuturesMath.valueUp(size, priceWad);
            } else if (size > 0) {
                sum.liveLongCh += uint256(size);
            } else {
                sum.liveShortCh += uint256(-size);
            }
            // The long's delivery payment, held from election to settlement: the whole election until the series
            // is finalised, then its deliverable share; at the settlement price once fixed, else at the index.
            uint256 elected = p.electedCh;
            if (elected != 0) {
                sum.nearElectedCh += elected;
                adj -= int256(FuturesMath.usdcUp(_paymentCh(s, elected), markWad));
            }
            // The short's delivery bond: the penalty on the part of its (estimated) assignment not escrowed in CH.
            bonds += _bondUsdc($, s, p, size, markWad);
        }
    }

    /// @notice IVaultMarket.withdrawableToVaultUsdc: the pool minus traders' unrealised profit (with the basis cash
    ///         closing the live skew would pay them, and the settlement-price corrections owed to liquidated accounts),
    ///         the vault reserve, unclaimed bounties and what pending orders hold (fees, escrowed margins), floored at 0.
    ///         Only cash: the ClearingHouse's uncovered negative collateral is not (IClearingHouse.withdrawMarketPool).
    function withdrawableUsdc(FuturesBase.FuturesMarketStorage storage $) public view returns (uint256) {
        (, int256 pool) = $.clearingHouse.marketInfo(address(this));
        pool -= int256($.clearingHouse.uncoveredCollateralUsdc());
        uint256 index = $.oracle.indexPrice();
        int256 pnl =
            FuturesLedger.traderPnlUp($, index) + int256(skewCloseCostUsdc($, index)) + $.totalLiquidationCashUsdc;
        uint256 reserve =
            (FuturesMath.usdcUp(FixedPointMath.abs($.traderNetSizeCh), index) * $.params.vaultReserveBps +
                FuturesLedger.BPS -
                1) / FuturesLedger.BPS;
        int256 free = pool - (pnl > 0 ? pnl : int256(0)) - int256(reserve) - int256(FuturesLedger.heldForOrders($));
        return free > 0 ? uint256(free) : 0;
    }

    /// @notice IVaultMarket.vaultEquityUsdc: the pool minus the traders' PnL at the index, the basis cash closing the
    ///         live skew would credit them, the liquidation corrections owed and what pending orders hold.
    function vaultEquityUsdc(FuturesBase.FuturesMarketStorage storage $) external view returns (int256) {
        (, int256 pool) = $.clearingHouse.marketInfo(address(this));
        uint256 index = $.oracle.indexPrice();
        return
            pool -
            FuturesLedger.traderPnlUp($, index) -
            int256(skewCloseCostUsdc($, index)) -
            $.totalLiquidationCashUsdc -
            int256(FuturesLedger.heldForOrders($));
    }

    /// @notice What closing every live series' open skew would pay the traders in basis cash (issue 17 item 2): for
    ///         each trading series, a trade of −(longOi − shortOi) at the series price the market would quote for it
    ///         now (the premium of the mid skew, FuturesMarket._priceFor), valued as the trader's credit
    ///         −skew × (index − price), rounded up (against LPs). The premium traders paid to open skew sits in the
    ///         pool; it is not LP equity while closing the skew would pay it back. Walks the series from the newest
    ///         down and stops once it has seen every series that is not price-fixed (at most maxLiveSeries).
    /// @param $ The FuturesMarket storage.
    /// @param index The index the vault is valued at.
    /// @return costUsdc Σ over live series (≥ 0 for every series up to rounding; never negative in total).
    function skewCloseCostUsdc(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 index
    ) public view returns (uint256 costUsdc) {
        IFuturesTypes.Params storage pr = $.params;
        uint256 unfixed = $.liveSeries;
        int256 cost;
        for (uint256 id = $.seriesCount; id >= $.firstOpenSeries && unfixed != 0; --id) {
            IFuturesTypes.SeriesState storage s = $.series[id];
            if (s.finalAt != 0) continue;
            --unfixed;
            if (block.timestamp >= s.expiry) continue;
            int256 skew = int256(uint256(s.longOiCh)) - int256(uint256(s.shortOiCh));
            if (skew == 0) continue;
            // the closing trade −skew: premium of the mid skew (skew + 0) / 2, i.e. skewSum = 2·skew − skew
            int256 premium = FuturesMath.premiumWad(
                skew,
                pr.skewScaleCh,
                pr.maxPremiumBps,
                s.expiry - block.timestamp,
                pr.premiumHorizonSec
            );
            uint256 price = FuturesMath.seriesPrice(index, premium, skew < 0);
            cost += FuturesMath.valueUp(-skew, index) - FuturesMath.valueDown(-skew, price);
        }
        return cost > 0 ? uint256(cost) : 0;
    }

    /// @notice Whether `p` can be settled now in its expired, finalised series `s` (FuturesBase._settleable): a short
    ///         that escrowed its assignment or whose deadline passed, an electing long once no short is left to
    ///         deliver, anything else at once.
    function settleable(
        IFuturesTypes.SeriesState storage s,
        IFuturesTypes.Position storage p
    ) internal view returns (bool) {
        if (!p.open) return false;
        uint256 elected = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        uint256 deliverable = elected < assignable ? elected : assignable;
        uint256 base = (p.baseTaken ? p.deliveryBaseCh : (p.sizeCh < 0 ? uint256(-int256(p.sizeCh)) : 0));
        if (base != 0) {
            uint256 assigned = FuturesMath.assignment(base, deliverable, assignable);
            return p.escrowCh >= assigned || block.timestamp >= s.deliveryDeadline;
        }
        if (p.electedCh != 0 && deliverable != 0) return s.shortPositions == 0;
        return true;
    }

    /// @dev CH an electing long pays for: its election until finalisation, then ⌈elected × deliverable / Σ elected⌉.
    function _paymentCh(IFuturesTypes.SeriesState storage s, uint256 elected) private view returns (uint256) {
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
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        IFuturesTypes.Position storage p,
        int256 size,
        uint256 markWad
    ) private view returns (uint256) {
        // @dev cheapest reads first: a live leg has no delivery base beyond its short size (baseTaken is set after
        //      expiry only), and without elections no short owes a bond
        uint256 base;
        if (s.finalAt == 0 && block.timestamp < s.expiry) base = size < 0 ? uint256(-size) : 0;
        else base = p.baseTaken ? p.deliveryBaseCh : (size < 0 ? uint256(-size) : 0);
        if (base == 0) return 0;
        uint256 elected = s.electedCh;
        if (elected == 0) return 0;
        uint256 assignable = s.finalAt != 0 ? s.assignableShortCh : uint256(s.shortOiCh) + s.postExpiryShortCh;
        uint256 assigned = FuturesMath.assignment(base, elected < assignable ? elected : assignable, assignable);
        uint256 escrow = p.escrowCh;
        if (assigned <= escrow) return 0;
        // the penalty read last: only a short owing a bond pays for the parameter slot
        return (FuturesMath.usdcUp((assigned - escrow) * $.params.penaltyBps, markWad) + BPS - 1) / BPS;
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
        uint256 totalNet = FixedPointMath.abs(sum.netCh);
        uint256 hidden = matched + (liveNet > totalNet ? liveNet - totalNet : 0);
        if (hidden == 0) return (0, 0);
        (, , address riskEngine, , , ) = $.clearingHouse.modules();
        (uint256 imRateWad, uint256 mmRateWad) = IRiskEngine(riskEngine).marginRates(address(this));
        uint256 notional = FuturesMath.usdcUp(hidden, priceWad);
        im = Math.mulDiv(notional, imRateWad, 1e18, Math.Rounding.Ceil);
        mm = Math.mulDiv(notional, mmRateWad, 1e18, Math.Rounding.Ceil);
    }

    /// @dev Per-tenor margin when the ClearingHouse charged the net at the lowest tenor σ (it names the RiskEngine),
    ///      else the hidden legs' margin.
    function _legMargin(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        Sums memory sum,
        uint256 priceWad
    ) private view returns (uint256, uint256) {
        address tenorRates = _tenorSource($);
        if (tenorRates != address(0)) return _tenorMargin($, account, sum, priceWad, tenorRates);
        return _spreadMargin($, sum, priceWad);
    }

    /// @dev IClearingHouse.tenorMarginSource of this market. In a margin check the ClearingHouse is the caller: asked
    ///      directly (no storage read for its address). Any other caller (a lens, a test) that does not answer is
    ///      answered from the stored ClearingHouse; one that answers shapes only its own view.
    ///      The call is encoded in scratch space (no memory allocation, no ABI decoder: ~0.4k less per margin check);
    ///      an answer that is not one clean address word counts as no answer.
    function _tenorSource(FuturesBase.FuturesMarketStorage storage $) private view returns (address) {
        bytes4 selector = IClearingHouse.tenorMarginSource.selector;
        bool ok;
        uint256 answer;
        assembly ("memory-safe") {
            mstore(0x00, selector)
            mstore(0x04, address())
            ok := staticcall(gas(), caller(), 0x00, 0x24, 0x00, 0x20)
            ok := and(ok, eq(returndatasize(), 0x20))
            answer := mload(0x00)
        }
        if (ok && answer >> 160 == 0) return address(uint160(answer));
        return $.clearingHouse.tenorMarginSource(address(this));
    }

    /// @dev Per-tenor margin (IRiskEngine.setTenorMargin; docs/clearing.md "Per-tenor margin"): the live legs' sizes
    ///      per tenor by time to expiry NOW (a series ageing into the front month is margined at the front σ from then
    ///      on) — legs expiring within TENOR_MID_SEC one by one (the expiry buckets up to there: ≤ 5 × 8 legs),
    ///      every further leg from the account aggregates as the far tenor, at max(≤ 12 months, the market's own:
    ///      beyond 12 months) — and the requirement max(Σ long_t × rate_t, Σ |short_t| × rate_t) (offsets between
    ///      tenors as between series: the larger side, each leg at its own tenor's rate, each stale tenor at least
    ///      at its stale σ). Returns what exceeds the ClearingHouse's charge of the net position at the lowest σ
    ///      (rounded down there, up here). One RiskEngine read (`riskEngine`: IClearingHouse.tenorMarginSource).
    function _tenorMargin(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        Sums memory sum,
        uint256 priceWad,
        address riskEngine
    ) private view returns (uint256 im, uint256 mm) {
        (uint256 baseIm, uint256 baseMm, uint256[4] memory imR, uint256[4] memory mmR) = IRiskEngine(riskEngine)
            .tenorMarginRates(address(this));
        (imR[2], mmR[2]) = (Math.max(imR[2], imR[3]), Math.max(mmR[2], mmR[3]));
        (uint256[3] memory longs, uint256[3] memory shorts) = _tenorSizes($, account, sum);
        uint256 netNotional = FuturesMath.usdcDown(FixedPointMath.abs(sum.netCh), priceWad);
        im = _aboveBase(longs, shorts, imR, priceWad, Math.mulDiv(netNotional, baseIm, 1e18));
        mm = _aboveBase(longs, shorts, mmR, priceWad, Math.mulDiv(netNotional, baseMm, 1e18));
    }

    /// @dev The live legs' Σ long and Σ |short| per tenor (0 front, 1 ≤ 3 months, 2 further) by time to expiry now.
    function _tenorSizes(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        Sums memory sum
    ) private view returns (uint256[3] memory longs, uint256[3] memory shorts) {
        uint256[] memory ids = FuturesLedger.heldUpTo(
            $,
            account,
            FuturesLedger.bucketOf(block.timestamp + TENOR_MID_SEC)
        );
        uint256 walkedLong;
        uint256 walkedShort;
        for (uint256 i; i < ids.length; ++i) {
            IFuturesTypes.SeriesState storage s = $.series[ids[i]];
            if (s.finalAt != 0) continue; // price-fixed: no price risk (marked at its settlement price)
            uint256 left = s.expiry > block.timestamp ? s.expiry - block.timestamp : 0;
            uint256 t = left <= TENOR_FRONT_SEC ? 0 : (left <= TENOR_MID_SEC ? 1 : 2);
            int256 size = $.positions[ids[i]][account].sizeCh;
            if (size > 0) {
                longs[t] += uint256(size);
                walkedLong += uint256(size);
            } else {
                shorts[t] += uint256(-size);
                walkedShort += uint256(-size);
            }
        }
        // the legs not walked expire after TENOR_MID_SEC: the far tenor
        longs[2] += sum.liveLongCh - walkedLong;
        shorts[2] += sum.liveShortCh - walkedShort;
    }

    /// @dev max(Σ long_t × rate_t, Σ short_t × rate_t) (each product rounded up) minus `charged`, floored at 0.
    function _aboveBase(
        uint256[3] memory longs,
        uint256[3] memory shorts,
        uint256[4] memory rates,
        uint256 priceWad,
        uint256 charged
    ) private pure returns (uint256) {
        uint256 longReq;
        uint256 shortReq;
        for (uint256 t; t < 3; ++t) {
            longReq += _atRate(longs[t], priceWad, rates[t]);
            shortReq += _atRate(shorts[t], priceWad, rates[t]);
        }
        uint256 req = longReq > shortReq ? longReq : shortReq;
        return req > charged ? req - charged : 0;
    }

    /// @dev ⌈⌈size × price⌉ × rate⌉ in USDC.
    function _atRate(uint256 sizeCh, uint256 priceWad, uint256 rateWad) private pure returns (uint256) {
        if (sizeCh == 0) return 0;
        return Math.mulDiv(FuturesMath.usdcUp(sizeCh, priceWad), rateWad, 1e18, Math.Rounding.Ceil);
    }

    /// @notice IFuturesMarket.deliveryObligation: `account`'s delivery assignment in a finalised series (a short's
    ///         pro-rata share, an electing long's deliverable share), its escrow and the delivery deadline.
    function deliveryObligation(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address account
    ) external view returns (uint256 assignedCh, uint256 escrowCh, uint64 deadline) {
        IFuturesTypes.SeriesState storage s = $.series[seriesId];
        IFuturesTypes.Position storage p = $.positions[seriesId][account];
        escrowCh = p.escrowCh;
        deadline = s.deliveryDeadline;
        if (deadline == 0) return (0, escrowCh, 0);
        uint256 elected = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        uint256 deliverable = elected < assignable ? elected : assignable;
        uint256 base = p.baseTaken ? p.deliveryBaseCh : (p.sizeCh < 0 ? uint256(-int256(p.sizeCh)) : 0);
        if (base != 0) assignedCh = FuturesMath.assignment(base, deliverable, assignable);
        else if (elected != 0) assignedCh = (uint256(p.electedCh) * deliverable) / elected;
    }

    /// @notice IFuturesMarket.accountSeries: the series `account` holds an open record in, in ascending expiry bucket
    ///         (reads one slot per bucket held; a view for lenses and keepers).
    function accountSeries(
        FuturesBase.FuturesMarketStorage storage $,
        address account
    ) external view returns (uint256[] memory) {
        return FuturesLedger.heldSeries($, account);
    }

    /// @notice IFuturesMarket.seriesInfo: the stored series (IFuturesTypes.SeriesState) in the view's `Series` form.
    function seriesInfo(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId
    ) external view returns (IFuturesTypes.Series memory v) {
        IFuturesTypes.SeriesState storage s = $.series[seriesId];
        (v.expiry, v.finalAt, v.deliveryDeadline) = (s.expiry, s.finalAt, s.deliveryDeadline);
        (v.openPositions, v.shortPositions, v.longOiCh, v.shortOiCh) = (
            s.openPositions,
            s.shortPositions,
            s.longOiCh,
            s.shortOiCh
        );
        (v.oiCapCh, v.electedCh, v.settlementPriceWad, v.assignableShortCh) = (
            s.oiCapCh,
            s.electedCh,
            s.settlementPriceWad,
            s.assignableShortCh
        );
        (v.deliveredCh, v.receivedCh, v.slashedUsdc, v.compensatedUsdc) = (
            s.deliveredCh,
            s.receivedCh,
            s.slashedUsdc,
            s.compensatedUsdc
        );
        (v.unclaimedElectedCh, v.postExpiryShortCh, v.tenor) = (s.unclaimedElectedCh, s.postExpiryShortCh, s.tenor);
    }

    /// @notice IFuturesMarket.seriesAccounts: a page of the accounts that ever held `seriesId`.
    function seriesAccounts(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        uint256 offset,
        uint256 limit
    ) external view returns (address[] memory accounts, uint256 total) {
        mapping(uint256 => address) storage list = $.seriesAccountAt[seriesId];
        total = $.series[seriesId].accounts;
        uint256 end = offset + limit < total ? offset + limit : total;
        if (offset >= end) return (new address[](0), total);
        accounts = new address[](end - offset);
        for (uint256 i = offset; i < end; ++i) accounts[i - offset] = list[i];
    }

    /// @notice FuturesMath.nextExpiry (the UTC grid of standard expiries) as a linked call, out of the market's code.
    /// @param tenor 0 daily, 1 weekly, 2 monthly, 3 quarterly.
    /// @param fromSec The expiry is strictly after this.
    /// @return The expiry, unix seconds.
    function nextExpiry(uint256 tenor, uint256 fromSec) external pure returns (uint64) {
        return uint64(FuturesMath.nextExpiry(tenor, fromSec));
    }
}
