// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IOptionsMarketTypes} from "../../interfaces/markets/IOptionsMarketTypes.sol";
import {IOptionsMarketErrors} from "../../interfaces/markets/IOptionsMarketErrors.sol";
import {IOptionsMarketEvents} from "../../interfaces/markets/IOptionsMarketEvents.sol";
import {OptionsMarketBase} from "../../core/markets/OptionsMarketBase.sol";
import {SpotMath} from "../SpotMath.sol";
import {OptionsBook} from "./OptionsBook.sol";

/// @title OptionsExercise
/// @notice Exercise of in-the-money futures options into futures positions (holder–writer pairs, cash fallback)
///         and the bounds of the market's parameters (docs/options.md).
/// @dev Internal: runs in the settlement module's frame, i.e. by delegatecall in the market's storage.
library OptionsExercise {
    using SafeCast for uint256;

    /// @notice Upper bound on maker and taker fees (3 % of the premium; OptionsMarketBase.MAX_FEE_BPS).
    uint256 internal constant MAX_FEE_BPS = 300;
    /// @notice Upper bound on the keeper bounty (5 USDC; OptionsMarketBase.MAX_BOUNTY_USDC).
    uint256 internal constant MAX_BOUNTY_USDC = 5e6;

    /// @notice Exercises `holder`'s longs of an in-the-money futures option against the writers from `writerCursor` on,
    ///         at most `maxPairs` pairs. A pair releases the writer's collateral for the size, then opens the futures at
    ///         the strike; when that reverts (margin, series closed) the holder is paid the capped intrinsic value from
    ///         that collateral instead. A pair of an account with itself just nets (collateral released).
    function exerciseFutures(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s,
        OptionsMarketBase.Ctx memory c,
        address holder,
        uint256 maxPairs
    ) internal returns (uint256 used, bool finished) {
        uint256 seriesId = c.seriesId;
        IOptionsMarketTypes.Position memory hp = $.positions[seriesId][holder];
        uint256 n = s.accountCount;
        while (hp.longCh != 0 && used < maxPairs) {
            uint256 wc = s.writerCursor;
            if (wc >= n) break;
            ++used;
            address writer = $.accounts[seriesId][wc];
            // when writer == holder, wp and hp are the same memory position
            IOptionsMarketTypes.Position memory wp = writer == holder ? hp : $.positions[seriesId][writer];
            if (wp.shortCh == 0) {
                s.writerCursor = uint32(wc + 1);
                continue;
            }
            uint256 take = Math.min(hp.longCh, wp.shortCh);
            uint256 portion = OptionsBook.portion(wp, take);
            wp.shortCh -= uint96(take);
            wp.collateralUsdc -= uint64(portion);
            hp.longCh -= uint96(take);
            s.openInterestCh -= uint96(take);
            if (wp.shortCh == 0) s.writerCursor = uint32(wc + 1);
            if (writer != holder) OptionsBook.store($, s, seriesId, writer, wp, false);
            pair($, s, c, holder, writer, take, portion);
        }
        if (used != 0) OptionsBook.store($, s, seriesId, holder, hp, false);
        finished = hp.longCh == 0;
    }

    /// @notice One holder–writer pair: see exerciseFutures. The bounty comes out of the writer's release.
    function pair(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s,
        OptionsMarketBase.Ctx memory c,
        address holder,
        address writer,
        uint256 take,
        uint256 portion
    ) internal {
        OptionsMarketBase.Pair memory pr = OptionsMarketBase.Pair(holder, writer, take, portion, 0, false);
        IClearingHouse ch = $.clearingHouse;
        uint256 bounty;
        if (writer == holder) {
            bounty = Math.min(c.bountyCap, portion);
            if (portion > bounty) ch.settle(writer, (portion - bounty).toInt256());
        } else {
            // @dev portion ≥ take · cap / 1e30 ≥ the cash fallback's payout (see _portion), so this never underflows
            uint256 cashPayout = SpotMath.quoteUsdcDown(take, c.payoffWad);
            bounty = Math.min(c.bountyCap, portion - cashPayout);
            // the writer's collateral goes back first, so it counts towards the futures margin check
            if (portion > bounty) ch.settle(writer, (portion - bounty).toInt256());
            pr.opened = openFutures($, s, c.seriesId, holder, writer, take);
            if (!pr.opened && cashPayout != 0) {
                pr.payoutUsdc = cashPayout;
                ch.settle(writer, -cashPayout.toInt256());
                ch.settle(holder, cashPayout.toInt256());
            }
        }
        s.paidUsdc += uint128(pr.payoutUsdc);
        s.releasedUsdc += uint128(portion - pr.payoutUsdc);
        $.reservedUsdc -= uint128(portion);
        c.bountyUsdc += bounty;
        c.payoutUsdc += pr.payoutUsdc;
        emitExercised(s, c.seriesId, pr);
    }

    /// @notice Emits FuturesExercised with the pair's amounts and the series totals.
    function emitExercised(
        IOptionsMarketTypes.Series storage s,
        uint256 seriesId,
        OptionsMarketBase.Pair memory pr
    ) internal {
        emit IOptionsMarketEvents.FuturesExercised(
            seriesId,
            pr.holder,
            pr.writer,
            pr.take,
            pr.opened,
            pr.payoutUsdc,
            pr.portion - pr.payoutUsdc,
            s.paidUsdc,
            s.releasedUsdc
        );
    }

    /// @notice Opens the futures position at the strike: call holder long / writer short, put holder short / writer
    ///         long. False when the futures market reverts with a reason (margin, series no longer trading).
    function openFutures(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s,
        uint256 seriesId,
        address holder,
        address writer,
        uint256 take
    ) internal returns (bool) {
        address longAcc = holder;
        address shortAcc = writer;
        if (s.kind == IOptionsMarketTypes.OptionKind.Put) (longAcc, shortAcc) = (writer, holder);
        try $.futuresMarket.openFromExercise(s.futuresSeriesId, longAcc, shortAcc, take, s.strikeWad) {
            return true;
        } catch (bytes memory reason) {
            // @dev an empty reason is an out-of-gas (or bare) revert: a keeper must not force cash by starving it
            if (reason.length == 0) revert IOptionsMarketErrors.OptionsExerciseOutOfGas(seriesId);
            return false;
        }
    }

    /// @notice Checks every parameter against its bound and stores them (see IOptionsMarket.setParams).
    function setParams(OptionsMarketBase.OptionsMarketStorage storage $, IOptionsMarketTypes.Params memory p) internal {
        if (p.makerFeeBps > MAX_FEE_BPS) revert IOptionsMarketErrors.OptionsInvalidParam("makerFeeBps", p.makerFeeBps);
        if (p.takerFeeBps > MAX_FEE_BPS) revert IOptionsMarketErrors.OptionsInvalidParam("takerFeeBps", p.takerFeeBps);
        if (p.disputeWindowSec < 10 minutes || p.disputeWindowSec > 3 days) {
            revert IOptionsMarketErrors.OptionsInvalidParam("disputeWindowSec", p.disputeWindowSec);
        }
        if (p.expiryGridSec < 1 hours || p.expiryGridSec > 30 days) {
            revert IOptionsMarketErrors.OptionsInvalidParam("expiryGridSec", p.expiryGridSec);
        }
        if (p.expiryOffsetSec >= p.expiryGridSec)
            revert IOptionsMarketErrors.OptionsInvalidParam("expiryOffsetSec", p.expiryOffsetSec);
        if (p.maxHorizonSec > 400 days || p.maxHorizonSec <= p.minTimeToExpirySec) {
            revert IOptionsMarketErrors.OptionsInvalidParam("maxHorizonSec", p.maxHorizonSec);
        }
        if (p.maxStrikeDeviationBps > SpotMath.BPS) {
            revert IOptionsMarketErrors.OptionsInvalidParam("maxStrikeDeviationBps", p.maxStrikeDeviationBps);
        }
        if (p.callCapBps < 100) revert IOptionsMarketErrors.OptionsInvalidParam("callCapBps", p.callCapBps);
        if (p.maxLiveSeries == 0 || p.maxLiveSeries > 1_000) {
            revert IOptionsMarketErrors.OptionsInvalidParam("maxLiveSeries", p.maxLiveSeries);
        }
        if (p.bountyUsdc > MAX_BOUNTY_USDC) revert IOptionsMarketErrors.OptionsInvalidParam("bountyUsdc", p.bountyUsdc);
        if (p.strikeStepWad == 0) revert IOptionsMarketErrors.OptionsInvalidParam("strikeStepWad", 0);
        if (p.maxCorrectionBps > 5_000)
            revert IOptionsMarketErrors.OptionsInvalidParam("maxCorrectionBps", p.maxCorrectionBps);
        if (p.listingBondPerDayUsdc > 1_000e6) {
            revert IOptionsMarketErrors.OptionsInvalidParam("listingBondPerDayUsdc", p.listingBondPerDayUsdc);
        }
        $.params = p;
        emit IOptionsMarketEvents.ParamsSet(p);
    }
}
