// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../interfaces/markets/IFuturesEvents.sol";
import {FuturesMath} from "../FuturesMath.sol";
import {FuturesLedger} from "./FuturesLedger.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IChxModule} from "../../interfaces/base/IChxModule.sol";

/// @title FuturesTrading
/// @notice FuturesMarket fills (docs/futures.md): a keeper-executed order against the vault at the order round's
///         index plus the skew premium, and the two legs of an option exercise. Books the per-series position, moves
///         the net position at the index in the ClearingHouse and settles the basis in cash. An external library
///         linked into the FuturesMarket and run by delegatecall on its storage; emits the market's events.
library FuturesTrading {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

    /// @dev The ClearingHouse's feature ids (ClearingHouse.FEATURE_NEW_RISK, FEATURE_MARKET).
    bytes32 private constant CLEARING_NEW_RISK = keccak256("clearing.newRisk");
    bytes32 private constant CLEARING_MARKET = keccak256("clearing.market");

    /// @dev A fill against the vault at the order round's index `index` plus the premium of the skew now. New risk
    ///      passes the oracle's new-risk gates for the order's price time (ORC-01); the market checked its pause flag.
    function fill(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address account,
        int256 delta,
        uint256 limitPriceWad,
        uint256 index,
        uint256 priceTime
    ) external returns (uint256 priceWad) {
        IFuturesTypes.SeriesState storage s = FuturesLedger.trading($, seriesId);
        int256 oldSize = $.positions[seriesId][account].sizeCh;
        if (FuturesLedger.isIncrease(oldSize, oldSize + delta)) $.oracle.checkRiskAt(index, priceTime);
        priceWad = priceFor($, s, index, delta, s.expiry - block.timestamp);
        priceWad = _backstop($, s, seriesId, index, delta > 0, priceWad);
        if (limitPriceWad != 0 && (delta > 0 ? priceWad > limitPriceWad : priceWad < limitPriceWad)) {
            revert IFuturesErrors.FuturesSlippage(priceWad, limitPriceWad);
        }
        uint256 fee = feeOf($, FixedPointMath.abs(delta), priceWad);
        applyTrade($, s, seriesId, account, delta, priceWad, index, fee, true);
    }

    /// @dev The trading fee of `sizeCh` at `priceWad`: `feeBps` of the notional, rounded up (owed by the trader).
    function feeOf(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 sizeCh,
        uint256 priceWad
    ) internal view returns (uint256) {
        return (FuturesMath.usdcUp(sizeCh * $.params.feeBps, priceWad) + FuturesLedger.BPS - 1) / FuturesLedger.BPS;
    }

    struct RollVars {
        int256 delta;
        uint256 index;
        uint256 fromPrice;
        uint256 toPrice;
        uint256 feeFrom;
        uint256 feeTo;
        int256 cash;
        uint256 refundCh;
    }

    /// @notice IFuturesMarket.roll (pause flag and size checked by the market): the closing leg in `fromId`, the
    ///         opening leg in `toId` at the risk price plus each series' premium, ONE ClearingHouse call (net size
    ///         unchanged, both fees, both legs' basis cash), ONE margin check (initial, account-risk hook included).
    ///         The opening leg goes first unless the series set is full: a full roll never trips the series bound
    ///         nor releases the account from the ClearingHouse in between.
    function roll(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 fromId,
        uint256 toId,
        uint256 sizeCh
    ) external {
        if (fromId == toId) revert IFuturesErrors.FuturesRollSameSeries(fromId);
        IFuturesTypes.SeriesState storage sf = FuturesLedger.trading($, fromId);
        IFuturesTypes.SeriesState storage st = FuturesLedger.trading($, toId);
        RollVars memory v;
        {
            int256 held = $.positions[fromId][account].sizeCh;
            uint256 heldCh = FixedPointMath.abs(held);
            if (sizeCh > heldCh) revert IFuturesErrors.FuturesRollExceedsPosition(fromId, account, sizeCh, heldCh);
            v.delta = held > 0 ? sizeCh.toInt256() : -sizeCh.toInt256();
        }
        // @dev The opening leg is new risk: the ClearingHouse's new-risk pauses (its trade call below moves no net size,
        //      so it would not check them) and the oracle's gates (ORC-01: riskPrice) apply.
        _clearingGates($);
        v.index = $.oracle.riskPrice();
        v.fromPrice = priceFor($, sf, v.index, -v.delta, sf.expiry - block.timestamp);
        v.toPrice = priceFor($, st, v.index, v.delta, st.expiry - block.timestamp);
        v.feeFrom = feeOf($, sizeCh, v.fromPrice);
        v.feeTo = feeOf($, sizeCh, v.toPrice);
        bool toFirst = FuturesLedger.hasRoom($, account, toId);
        if (toFirst) _rollLeg($, st, toId, account, v.delta, v.toPrice, v.index, v.feeTo, v);
        _rollLeg($, sf, fromId, account, -v.delta, v.fromPrice, v.index, v.feeFrom, v);
        if (!toFirst) _rollLeg($, st, toId, account, v.delta, v.toPrice, v.index, v.feeTo, v);
        _settleRoll($, account, v);
        _emitRolled($, account, fromId, toId, v);
    }

    /// @dev Net size unchanged: nothing is realised at the index and the ClearingHouse checks no margin for it, so
    ///      the one margin check of the roll runs here, after both legs, the fees and the basis cash.
    function _settleRoll(FuturesBase.FuturesMarketStorage storage $, address account, RollVars memory v) private {
        $.clearingHouse.modifyPositionAndSettle(account, 0, v.index, v.feeFrom + v.feeTo, v.cash);
        IClearingHouse.MarginState memory m = $.clearingHouse.marginStateAt(account, v.index);
        if (m.equityUsdc < m.initialMarginUsdc.toInt256()) {
            revert IFuturesErrors.FuturesInsufficientMargin(account, m.initialMarginUsdc, m.equityUsdc);
        }
        if (v.refundCh != 0) $.ch.safeTransfer(account, v.refundCh);
    }

    function _emitRolled(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 fromId,
        uint256 toId,
        RollVars memory v
    ) private {
        emit IFuturesEvents.PositionRolled(
            account,
            fromId,
            toId,
            v.delta,
            v.fromPrice,
            v.toPrice,
            v.feeFrom + v.feeTo,
            $.positions[fromId][account].sizeCh,
            $.positions[toId][account].sizeCh
        );
    }

    /// @dev The ClearingHouse's new-risk gates: its global pause and its freeze of this market (`address(this)` is the
    ///      market: the library runs by delegatecall).
    function _clearingGates(FuturesBase.FuturesMarketStorage storage $) private view {
        IChxModule ch = IChxModule(address($.clearingHouse));
        bytes32 feature = CLEARING_NEW_RISK;
        if (!ch.isFeaturePaused(feature)) {
            feature = keccak256(abi.encode(CLEARING_MARKET, address(this)));
            if (!ch.isFeaturePaused(feature)) return;
        }
        revert IChxModule.ChxFeaturePaused(feature);
    }

    function _rollLeg(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        address account,
        int256 delta,
        uint256 priceWad,
        uint256 index,
        uint256 fee,
        RollVars memory v
    ) private {
        TradeVars memory t = book($, s, seriesId, account, delta, priceWad, index, fee, true);
        v.cash += t.cash;
        v.refundCh += t.refundCh;
    }

    /// @dev IFuturesTypes.Series price for a trade of `delta` at `index`: premium from the mid skew (before + after) / 2.
    function priceFor(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 index,
        int256 delta,
        uint256 ttx
    ) internal view returns (uint256) {
        IFuturesTypes.Params storage pr = $.params;
        int256 skew = int256(uint256(s.longOiCh)) - int256(uint256(s.shortOiCh));
        int256 premium = FuturesMath.premiumWad(
            2 * skew + delta,
            pr.skewScaleCh,
            pr.maxPremiumBps,
            ttx,
            pr.premiumHorizonSec
        );
        return FuturesMath.seriesPrice(index, premium, delta > 0);
    }

    struct TradeVars {
        int256 oldSize;
        int256 newSize;
        int256 realised;
        int256 cash;
        uint256 refundCh;
        bool held;
    }

    /// @dev One fill: the per-series book here, the net position at the index in the ClearingHouse, and the
    ///      difference between the trade price and the index settled in cash.
    function applyTrade(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        address account,
        int256 delta,
        uint256 priceWad,
        uint256 index,
        uint256 fee,
        bool checkCap
    ) internal {
        TradeVars memory v = book($, s, seriesId, account, delta, priceWad, index, fee, checkCap);
        // @dev Settled in the same ClearingHouse call as the trade and before its margin check, so a premium paid
        //      can never leave a risk-increasing trade below initial margin.
        (v.realised, ) = $.clearingHouse.modifyPositionAndSettle(account, delta, index, fee, v.cash);
        FuturesLedger.mirror($, delta, index, v.realised);
        if (v.refundCh != 0) $.ch.safeTransfer(account, v.refundCh);
    }

    /// @dev The per-series book of one fill (size, entry, OI, elections, escrow refund, records, FuturesTraded):
    ///      returns the basis cash owed to the trader, delta × (index − price) rounded toward −∞ (against the
    ///      trader), and the escrowed CH to hand back to a position that is no longer short. No ClearingHouse call.
    function book(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        address account,
        int256 delta,
        uint256 priceWad,
        uint256 index,
        uint256 fee,
        bool checkCap
    ) internal returns (TradeVars memory v) {
        IFuturesTypes.Position storage p = $.positions[seriesId][account];
        v.oldSize = p.sizeCh;
        v.newSize = v.oldSize + delta;
        // @dev A leg not open has empty slots 1 and 2 while its series trades: a new leg touches its slot 0 only.
        v.held = p.open;
        uint256 oldElected = v.held ? p.electedCh : 0;
        p.entryPriceWad = FuturesMath.entryAfter(v.oldSize, p.entryPriceWad, delta, priceWad).toUint120();
        p.sizeCh = v.newSize.toInt120();
        FuturesLedger.moveOi(s, seriesId, v.oldSize, v.newSize, checkCap);
        FuturesLedger.shortCount(s, v.oldSize, v.newSize);
        // Elections follow the long size (locked after the cut-off).
        uint256 elected = v.newSize > int256(oldElected) ? oldElected : (v.newSize > 0 ? uint256(v.newSize) : 0);
        if (elected < oldElected) {
            if (block.timestamp >= FuturesLedger.cutoff($, s.expiry)) {
                revert IFuturesErrors.FuturesElectionLocked(seriesId, account, oldElected, v.newSize);
            }
            s.electedCh -= uint128(oldElected - elected);
            p.electedCh = uint128(elected);
            emit IFuturesEvents.DeliveryElected(seriesId, account, elected, s.electedCh);
        }
        // @dev A held leg that stops being short gets its escrow back, its proof demand cleared; a held long has none
        if (v.held && v.newSize >= 0 && v.oldSize <= 0) {
            v.refundCh = p.escrowCh;
            if (v.refundCh != 0) {
                p.escrowCh = 0;
                emit IFuturesEvents.DeliveryEscrowChanged(seriesId, account, -int256(v.refundCh), 0);
            }
            p.proofDeadline = 0;
        }
        FuturesLedger.syncLeg($, account, v.oldSize, v.newSize, oldElected, elected);
        FuturesLedger.openRecord($, s, seriesId, account, p);
        FuturesLedger.closeRecordIfEmpty($, s, seriesId, account, p);
        _emitTraded(s, p, seriesId, account, Fill(delta, priceWad, index, fee));
        if (priceWad != index) v.cash = FuturesMath.valueDown(delta, index) - FuturesMath.valueUp(delta, priceWad);
    }

    struct Fill {
        int256 delta;
        uint256 priceWad;
        uint256 index;
        uint256 fee;
    }

    function _emitTraded(
        IFuturesTypes.SeriesState storage s,
        IFuturesTypes.Position storage p,
        uint256 seriesId,
        address account,
        Fill memory f
    ) private {
        emit IFuturesEvents.FuturesTraded(
            seriesId,
            account,
            f.delta,
            f.priceWad,
            f.index,
            f.fee,
            p.sizeCh,
            p.entryPriceWad,
            s.longOiCh,
            s.shortOiCh
        );
    }

    /// @notice The two legs of an option exercise (IFuturesExercise.openFromExercise, checked by the market): trader
    ///         against trader at the strike, no fee, no OI cap (the skew and the vault's exposure do not change).
    function exercise(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address longAccount,
        address shortAccount,
        uint256 sizeCh,
        uint256 priceWad
    ) external {
        IFuturesTypes.SeriesState storage s = FuturesLedger.trading($, seriesId);
        uint256 index = $.oracle.riskPrice();
        applyTrade($, s, seriesId, longAccount, sizeCh.toInt256(), priceWad, index, 0, false);
        applyTrade($, s, seriesId, shortAccount, -sizeCh.toInt256(), priceWad, index, 0, false);
    }

    /// @dev The vault as backstop around the curve: its quote is never better for the trader than the month's last
    ///      traded basis carried to the current index, `index × (1 + b × (expiry − now) / (expiry − traded at))` with
    ///      `b = traded price / index then − 1` clamped to ±maxPremiumBps (→ 0 at expiry like the skew premium). A buy
    ///      pays max(skew price, anchored), a sell gets min(…): moving the curve only makes the vault's quotes worse.
    function _backstop(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        uint256 index,
        bool isBuy,
        uint256 skewPrice
    ) internal view returns (uint256) {
        IFuturesTypes.CurvePoint memory c = $.curve[seriesId];
        if (c.priceWad == 0) return skewPrice;
        uint256 anchored = anchoredPrice(c, s.expiry, index, $.params.maxPremiumBps, isBuy);
        return isBuy ? (anchored > skewPrice ? anchored : skewPrice) : (anchored < skewPrice ? anchored : skewPrice);
    }

    /// @dev The curve point's basis carried to `index` now (see `_backstop`), rounded against the trader.
    function anchoredPrice(
        IFuturesTypes.CurvePoint memory c,
        uint64 expiry,
        uint256 index,
        uint256 maxPremiumBps,
        bool isBuy
    ) internal view returns (uint256) {
        int256 cap = int256(maxPremiumBps * 1e14);
        int256 b = int256((uint256(c.priceWad) * FuturesLedger.WAD) / c.indexWad) - int256(FuturesLedger.WAD);
        if (b > cap) b = cap;
        else if (b < -cap) b = -cap;
        // @dev c.time < expiry (trades stop at expiry) and now ≥ c.time, so the factor is in [0, 1]
        b = (b * int256(uint256(expiry) - block.timestamp)) / int256(uint256(expiry) - c.time);
        return FuturesMath.seriesPrice(index, b, isBuy);
    }
}
