// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {FuturesMath} from "../FuturesMath.sol";
import {FuturesLedger} from "./FuturesLedger.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";

/// @title FuturesLiquidation
/// @notice Maps a ClearingHouse liquidation of a FuturesMarket account's net position onto its series legs
///         (ILiquidatableMarket.onPositionLiquidated, docs/futures.md). An external library linked into the
///         FuturesDelivery module and run by delegatecall on the FuturesMarket proxy's storage.
library FuturesLiquidation {
    /// @dev The account's legs in ascending expiry bucket, the ones this call touched, and its cursor state.
    struct Walk {
        uint256[] ids;
        bool[] touched;
        address account;
        uint256 priceWad;
    }

    /// @notice ILiquidatableMarket.onPositionLiquidated on the market whose storage is `$` (the caller has checked
    ///         the ClearingHouse called).
    /// @dev Maps the net reduction onto the account's legs that have the position's sign: live series nearest
    ///      expiry bucket first, expired-unsettled series last (their delivery obligation is kept: `deliveryBaseCh`),
    ///      and stops as soon as the reduction is placed. Then closes the same fraction of its calendar spreads —
    ///      long and short live legs in equal amounts, nearest bucket first — which the net position hides: all of
    ///      them when the net is zero (Δ = 0, the ClearingHouse holds the account). Pairs leave the net, the
    ///      ClearingHouse and the vault's exposure unchanged. Net and spread sides come from the account aggregates
    ///      (FuturesLedger.AccountBook); the walk reads one slot per bucket held and the legs up to the last one it
    ///      reduces, so its cost is O(buckets + legs reduced). Never reverts for the ClearingHouse.
    function onLiquidated(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc
    ) external {
        FuturesLedger.mirror($, sizeDeltaCh, priceWad, realisedPnlUsdc);
        Walk memory w;
        w.ids = FuturesLedger.heldSeries($, account);
        w.touched = new bool[](w.ids.length);
        w.account = account;
        w.priceWad = priceWad;
        uint256 netBefore = FixedPointMath.abs(FuturesLedger.netSize($, account));
        uint256 deltaAbs = FixedPointMath.abs(sizeDeltaCh);
        _reduceSide($, w, deltaAbs, sizeDeltaCh > 0, false);
        _closeSpreads($, w, deltaAbs, netBefore);
        for (uint256 i; i < w.ids.length; ++i) {
            if (!w.touched[i]) continue;
            uint256 id = w.ids[i];
            FuturesLedger.closeRecordIfEmpty($, $.series[id], id, account, $.positions[id][account]);
        }
    }

    /// @dev Closes the fraction Δ / net (all with a zero net) of the account's matched live legs, both sides.
    function _closeSpreads(
        FuturesBase.FuturesMarketStorage storage $,
        Walk memory w,
        uint256 deltaAbs,
        uint256 netBefore
    ) private {
        (uint256 longs, uint256 shorts) = FuturesLedger.liveSums($, w.account);
        uint256 pairs = longs < shorts ? longs : shorts;
        // @dev The fraction rounds up: a liquidation never leaves more risk than asked.
        if (netBefore != 0 && deltaAbs < netBefore) pairs = Math.mulDiv(pairs, deltaAbs, netBefore, Math.Rounding.Ceil);
        if (pairs == 0) return;
        _reduceSide($, w, pairs, false, true);
        _reduceSide($, w, pairs, true, true);
    }

    /// @dev Reduces the account's legs of one sign (`deltaLong`: the legs are short) by `amountCh` in total: first
    ///      the unexpired legs in ascending bucket order, then the expired ones (never a price-fixed one with
    ///      `liveOnly`); stops once placed.
    function _reduceSide(
        FuturesBase.FuturesMarketStorage storage $,
        Walk memory w,
        uint256 amountCh,
        bool deltaLong,
        bool liveOnly
    ) private {
        for (uint256 pass; pass < 2 && amountCh != 0; ++pass) {
            for (uint256 i; i < w.ids.length && amountCh != 0; ++i) {
                uint256 id = w.ids[i];
                int256 sz = $.positions[id][w.account].sizeCh;
                if (sz == 0 || (sz > 0) == deltaLong) continue;
                IFuturesTypes.SeriesState storage s = $.series[id];
                if ((block.timestamp >= s.expiry) != (pass == 1)) continue;
                if (liveOnly && s.finalAt != 0) continue;
                w.touched[i] = true;
                amountCh -= _liquidateLeg($, s, id, w, amountCh, deltaLong, sz);
            }
        }
    }

    function _liquidateLeg(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 id,
        Walk memory w,
        uint256 remaining,
        bool deltaLong,
        int256 size
    ) private returns (uint256 take) {
        IFuturesTypes.Position storage p = $.positions[id][w.account];
        uint256 legAbs = FixedPointMath.abs(size);
        take = legAbs < remaining ? legAbs : remaining;
        int256 legDelta = deltaLong ? int256(take) : -int256(take);
        uint256 priceWad = w.priceWad;
        FuturesLedger.reduceLeg($, s, id, w.account, p, legDelta, priceWad, IFuturesTypes.ReduceReason.Liquidation);
        // A leg whose settlement price is fixed settles at that price, not at the moving index (issue 17 item 23):
        // the ClearingHouse closed it at the index, so the difference is owed to the account, rounded against it.
        if (s.finalAt != 0) {
            int256 correction =
                FuturesMath.valueDown(legDelta, priceWad) - FuturesMath.valueUp(legDelta, s.settlementPriceWad);
            FuturesLedger.addLiquidationCash($, w.account, correction);
            $.totalLiquidationCashUsdc += correction;
        }
    }
}
