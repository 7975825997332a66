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
    /// @notice ILiquidatableMarket.onPositionLiquidated on the market whose storage is `$` (the caller has checked
    ///         the ClearingHouse called).
    /// @dev Maps the net reduction onto the account's legs that have the position's sign: live series nearest
    ///      expiry first, expired-unsettled series last (their delivery obligation is kept: `deliveryBaseCh`). Then
    ///      closes the same fraction of its calendar spreads — long and short live legs in equal amounts, nearest
    ///      expiry first — which the net position hides: all of them when the net is zero (Δ = 0, the ClearingHouse
    ///      holds the account). Pairs leave the net, the ClearingHouse and the vault's exposure unchanged. Bounded by
    ///      MAX_SERIES_PER_ACCOUNT; never reverts for the ClearingHouse.
    function onLiquidated(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc
    ) external {
        FuturesLedger.mirror($, sizeDeltaCh, priceWad, realisedPnlUsdc);
        uint256[] memory ids = $.accountSeriesSet[account].toArray();
        uint256 netBefore = FixedPointMath.abs(FuturesLedger.netSize($, account));
        uint256 deltaAbs = FixedPointMath.abs(sizeDeltaCh);
        _reduceSide($, ids, account, deltaAbs, sizeDeltaCh > 0, priceWad, false);
        _closeSpreads($, ids, account, deltaAbs, netBefore, priceWad);
        for (uint256 i; i < ids.length; ++i) {
            FuturesLedger.closeRecordIfEmpty($, $.series[ids[i]], ids[i], account, $.positions[ids[i]][account]);
        }
    }

    /// @dev Closes the fraction Δ / net (all with a zero net) of the account's matched live legs, both sides.
    function _closeSpreads(
        FuturesBase.FuturesMarketStorage storage $,
        uint256[] memory ids,
        address account,
        uint256 deltaAbs,
        uint256 netBefore,
        uint256 priceWad
    ) private {
        uint256 pairs = _matchedLive($, ids, account);
        // @dev The fraction rounds up: a liquidation never leaves more risk than asked.
        if (netBefore != 0 && deltaAbs < netBefore) pairs = Math.mulDiv(pairs, deltaAbs, netBefore, Math.Rounding.Ceil);
        if (pairs == 0) return;
        _reduceSide($, ids, account, pairs, false, priceWad, true);
        _reduceSide($, ids, account, pairs, true, priceWad, true);
    }

    /// @dev Reduces the account's legs of one sign (`deltaLong`: the legs are short) by `amountCh` in total.
    function _reduceSide(
        FuturesBase.FuturesMarketStorage storage $,
        uint256[] memory ids,
        address account,
        uint256 amountCh,
        bool deltaLong,
        uint256 priceWad,
        bool liveOnly
    ) private {
        bool[] memory done = new bool[](ids.length);
        while (amountCh != 0) {
            uint256 best = _pickLeg($, ids, done, account, deltaLong, liveOnly);
            if (best == type(uint256).max) break;
            done[best] = true;
            amountCh -= _liquidateLeg($, ids[best], account, amountCh, deltaLong, priceWad);
        }
    }

    /// @dev min(Σ long, Σ |short|) over the account's legs whose settlement price is not fixed.
    function _matchedLive(
        FuturesBase.FuturesMarketStorage storage $,
        uint256[] memory ids,
        address account
    ) private view returns (uint256) {
        uint256 longCh;
        uint256 shortCh;
        for (uint256 i; i < ids.length; ++i) {
            if ($.series[ids[i]].finalAt != 0) continue;
            int256 sz = $.positions[ids[i]][account].sizeCh;
            if (sz > 0) longCh += uint256(sz);
            else shortCh += uint256(-sz);
        }
        return longCh < shortCh ? longCh : shortCh;
    }

    /// @dev The next leg to reduce: opposite sign to the delta, earliest live expiry first, expired legs last (none
    ///      whose settlement price is fixed with `liveOnly`).
    function _pickLeg(
        FuturesBase.FuturesMarketStorage storage $,
        uint256[] memory ids,
        bool[] memory done,
        address account,
        bool deltaLong,
        bool liveOnly
    ) private view returns (uint256 best) {
        best = type(uint256).max;
        uint256 bestKey = type(uint256).max;
        for (uint256 i; i < ids.length; ++i) {
            if (done[i]) continue;
            int256 sz = $.positions[ids[i]][account].sizeCh;
            if (sz == 0 || (sz > 0) == deltaLong) continue;
            IFuturesTypes.Series storage s = $.series[ids[i]];
            if (liveOnly && s.finalAt != 0) continue;
            uint256 expiry = s.expiry;
            uint256 key = expiry <= block.timestamp ? (uint256(1) << 128) + expiry : expiry;
            if (key < bestKey) {
                bestKey = key;
                best = i;
            }
        }
    }

    function _liquidateLeg(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 id,
        address account,
        uint256 remaining,
        bool deltaLong,
        uint256 priceWad
    ) private returns (uint256 take) {
        IFuturesTypes.Position storage p = $.positions[id][account];
        uint256 legAbs = FixedPointMath.abs(p.sizeCh);
        take = legAbs < remaining ? legAbs : remaining;
        int256 legDelta = deltaLong ? int256(take) : -int256(take);
        IFuturesTypes.Series storage s = $.series[id];
        FuturesLedger.reduceLeg(s, id, account, p, legDelta, priceWad, IFuturesTypes.ReduceReason.Liquidation);
        // A leg whose settlement price is fixed settles at that price, not at the moving index (issue 17 item 23):
        // the ClearingHouse closed it at the index, so the difference is owed to the account, rounded against it.
        if (s.finalAt != 0) {
            int256 correction =
                FuturesMath.valueDown(legDelta, priceWad) - FuturesMath.valueUp(legDelta, s.settlementPriceWad);
            $.liquidationCashUsdc[account] += correction;
            $.totalLiquidationCashUsdc += correction;
        }
    }
}
