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

/// @title FuturesTrading
/// @notice FuturesMarket fills (docs/futures.md): a keeper-executed order against the vault at the order round's
///         index plus the skew premium, and the two legs of an option exercise. Books the per-series position, moves
///         the net position at the index in the ClearingHouse and settles the basis in cash. An external library
///         linked into the FuturesMarket and run by delegatecall on its storage; emits the market's events.
library FuturesTrading {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

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
        IFuturesTypes.Series storage s = FuturesLedger.trading($, seriesId);
        int256 oldSize = $.positions[seriesId][account].sizeCh;
        if (FuturesLedger.isIncrease(oldSize, oldSize + delta)) {
            $.oracle.checkRiskAt(index, priceTime);
        }
        priceWad = priceFor($, s, index, delta, s.expiry - block.timestamp);
        if (limitPriceWad != 0 && (delta > 0 ? priceWad > limitPriceWad : priceWad < limitPriceWad)) {
            revert IFuturesErrors.FuturesSlippage(priceWad, limitPriceWad);
        }
        // @dev The fee rounds up (owed by the trader).
        uint256 fee =
            (FuturesMath.usdcUp(FixedPointMath.abs(delta) * $.params.feeBps, priceWad) + FuturesLedger.BPS - 1) /
                FuturesLedger.BPS;
        applyTrade($, s, seriesId, account, delta, priceWad, index, fee, true);
    }

    /// @dev IFuturesTypes.Series price for a trade of `delta` at `index`: premium from the mid skew (before + after) / 2.
    function priceFor(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Series storage s,
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
    }

    /// @dev One fill: the per-series book here, the net position at the index in the ClearingHouse, and the
    ///      difference between the trade price and the index settled in cash.
    function applyTrade(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Series storage s,
        uint256 seriesId,
        address account,
        int256 delta,
        uint256 priceWad,
        uint256 index,
        uint256 fee,
        bool checkCap
    ) internal {
        IFuturesTypes.Position storage p = $.positions[seriesId][account];
        TradeVars memory v;
        v.oldSize = p.sizeCh;
        v.newSize = v.oldSize + delta;
        p.entryPriceWad = FuturesMath.entryAfter(v.oldSize, p.entryPriceWad, delta, priceWad).toUint128();
        p.sizeCh = v.newSize.toInt128();
        FuturesLedger.moveOi(s, seriesId, v.oldSize, v.newSize, checkCap);
        FuturesLedger.shortCount(s, v.oldSize, v.newSize);
        // Elections follow the long size (locked after the cut-off).
        uint256 longSize = v.newSize > 0 ? uint256(v.newSize) : 0;
        if (p.electedCh > longSize) {
            if (block.timestamp >= FuturesLedger.cutoff($, s.expiry)) {
                revert IFuturesErrors.FuturesElectionLocked(seriesId, account, p.electedCh, v.newSize);
            }
            s.electedCh -= p.electedCh - uint128(longSize);
            p.electedCh = uint128(longSize);
            emit IFuturesEvents.DeliveryElected(seriesId, account, longSize, s.electedCh);
        }
        // A position that is no longer short gets its escrow back and its proof demand cleared.
        if (v.newSize >= 0) {
            v.refundCh = p.escrowCh;
            if (v.refundCh != 0) {
                p.escrowCh = 0;
                emit IFuturesEvents.DeliveryEscrowChanged(seriesId, account, -int256(v.refundCh), 0);
            }
            p.proofDeadline = 0;
        }
        FuturesLedger.openRecord($, s, seriesId, account, p);
        FuturesLedger.closeRecordIfEmpty($, s, seriesId, account, p);
        _emitTraded(s, p, seriesId, account, Fill(delta, priceWad, index, fee));
        // @dev The basis, credited to the trader: delta × (index − price), rounded toward −∞ (against the trader).
        //      Settled in the same ClearingHouse call as the trade and before its margin check, so a premium paid
        //      can never leave a risk-increasing trade below initial margin.
        if (priceWad != index) v.cash = FuturesMath.valueDown(delta, index) - FuturesMath.valueUp(delta, priceWad);
        (v.realised, ) = $.clearingHouse.modifyPositionAndSettle(account, delta, index, fee, v.cash);
        FuturesLedger.mirror($, delta, index, v.realised);
        if (v.refundCh != 0) $.ch.safeTransfer(account, v.refundCh);
    }

    struct Fill {
        int256 delta;
        uint256 priceWad;
        uint256 index;
        uint256 fee;
    }

    function _emitTraded(
        IFuturesTypes.Series storage s,
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
        IFuturesTypes.Series storage s = FuturesLedger.trading($, seriesId);
        uint256 index = $.oracle.riskPrice();
        int256 size = sizeCh.toInt256();
        applyTrade($, s, seriesId, longAccount, size, priceWad, index, 0, false);
        applyTrade($, s, seriesId, shortAccount, -size, priceWad, index, 0, false);
    }
}
