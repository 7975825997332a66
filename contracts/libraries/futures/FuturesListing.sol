// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {FuturesRisk} from "../../core/markets/futures/FuturesRisk.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesMarket} from "../../interfaces/markets/IFuturesMarket.sol";
import {IFuturesErrors} from "../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../interfaces/markets/IFuturesEvents.sol";
import {FuturesLedger} from "./FuturesLedger.sol";
import {FuturesMath} from "../FuturesMath.sol";

/// @title FuturesListing
/// @notice FuturesMarket series listing (governance's custom expiries and the permissionless standard tenors) and
///         parameter validation (docs/futures.md). An external library linked into the FuturesMarket and run by
///         delegatecall on its storage; emits the market's events.
library FuturesListing {
    using SafeCast for uint256;

    /// @notice IFuturesMarket.nextStandardExpiry: the next grid expiry of `tenor` at least the listing lead from now.
    function nextStandardExpiry(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Tenor tenor
    ) public view returns (uint64) {
        if (tenor == IFuturesTypes.Tenor.Custom) revert IFuturesErrors.FuturesInvalidParams();
        return FuturesRisk.nextExpiry(uint256(tenor), block.timestamp + $.params.minListingLeadSec);
    }

    /// @notice IFuturesMarket.listStandardSeriesAt: lists `expiry` if it is on `tenor`'s UTC grid and within the
    ///         tenor's listing horizon (`latestStandardExpiry`); `list` checks the lead time, duplicates and the
    ///         live-series bound.
    function listStandardAt(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Tenor tenor,
        uint64 expiry
    ) external returns (uint256) {
        uint64 latest = latestStandardExpiry($, tenor);
        uint64 earliest = uint64(block.timestamp) + $.params.minListingLeadSec;
        if (expiry < earliest) revert IFuturesErrors.FuturesInvalidExpiry(expiry, earliest);
        if (expiry > latest || FuturesMath.nextExpiry(uint256(tenor), expiry - 1) != expiry) {
            revert IFuturesErrors.FuturesExpiryNotStandard(uint8(tenor), expiry, latest);
        }
        return list($, expiry, tenor, 0);
    }

    /// @notice The furthest expiry `tenor` may be listed at now: Monthly and Quarterly up to
    ///         FuturesLedger.STANDARD_HORIZON_SEC ahead (a hedger's twelve months), Daily and Weekly their next one.
    function latestStandardExpiry(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Tenor tenor
    ) public view returns (uint64) {
        if (tenor == IFuturesTypes.Tenor.Monthly || tenor == IFuturesTypes.Tenor.Quarterly) {
            return uint64(block.timestamp + FuturesLedger.STANDARD_HORIZON_SEC);
        }
        return nextStandardExpiry($, tenor);
    }

    /// @notice IFuturesMarket.setKeeperListingMonths: how many monthly expiries ahead the keeper checker keeps listed.
    function setKeeperListingMonths(FuturesBase.FuturesMarketStorage storage $, uint256 months) external {
        if (months > FuturesLedger.MAX_KEEPER_LISTING_MONTHS) revert IFuturesErrors.FuturesInvalidParams();
        $.keeperListingMonths = uint8(months);
        emit IFuturesEvents.KeeperListingMonthsSet(months);
    }

    /// @notice The keeper's listing work (last in `checker`): the nearest monthly expiry among the next
    ///         `keeperListingMonths` (from now + minListingLeadSec) that is not listed yet, while a live-series slot
    ///         is free and listing is not paused; empty otherwise.
    /// @return payload `listStandardSeriesAt(Monthly, expiry)` calldata, or empty.
    function listingWork(
        FuturesBase.FuturesMarketStorage storage $,
        bool listingPaused
    ) external view returns (bytes memory payload) {
        uint256 months = $.keeperListingMonths;
        if (months == 0 || listingPaused || $.liveSeries >= $.params.maxLiveSeries) return payload;
        uint256 e = block.timestamp + $.params.minListingLeadSec - 1;
        uint256 horizon = block.timestamp + FuturesLedger.STANDARD_HORIZON_SEC;
        for (uint256 i = 0; i < months; ++i) {
            e = FuturesMath.nextExpiry(uint256(IFuturesTypes.Tenor.Monthly), e);
            if (e > horizon) break;
            if ($.seriesByExpiry[uint64(e)] == 0) {
                return abi.encodeCall(IFuturesMarket.listStandardSeriesAt, (IFuturesTypes.Tenor.Monthly, uint64(e)));
            }
        }
    }

    /// @notice Lists a series expiring at `expiry` (IFuturesMarket.listSeries / listStandardSeries; the market checked
    ///         the caller or the pause flag). `oiCapCh` 0 = the default cap.
    /// @return id The new series id (sequential from 1).
    function list(
        FuturesBase.FuturesMarketStorage storage $,
        uint64 expiry,
        IFuturesTypes.Tenor tenor,
        uint256 oiCapCh
    ) public returns (uint256 id) {
        uint64 earliest = uint64(block.timestamp) + $.params.minListingLeadSec;
        if (expiry < earliest) revert IFuturesErrors.FuturesInvalidExpiry(expiry, earliest);
        uint256 existing = $.seriesByExpiry[expiry];
        if (existing != 0) revert IFuturesErrors.FuturesSeriesExists(expiry, existing);
        uint256 live = $.liveSeries + 1;
        if (live > $.params.maxLiveSeries) revert IFuturesErrors.FuturesTooManyLiveSeries($.params.maxLiveSeries);
        id = uint256($.seriesCount) + 1;
        $.seriesCount = uint64(id);
        $.liveSeries = uint64(live);
        $.seriesByExpiry[expiry] = id;
        IFuturesTypes.SeriesState storage s = $.series[id];
        s.expiry = uint256(expiry).toUint40();
        // @dev the open-interest word is written here (tenor and the listing mark), so the series' first trade
        //      updates it (2,900) instead of creating it (20,000): the lister pays the fresh slot once per series
        (s.tenor, s.listed) = (tenor, true);
        uint256 cap = oiCapCh == 0 ? $.params.defaultOiCapCh : oiCapCh;
        s.oiCapCh = cap.toUint128();
        emit IFuturesEvents.SeriesListed(id, expiry, FuturesLedger.cutoff($, expiry), tenor, cap, msg.sender, live);
    }

    /// @notice Validates and stores the market parameters (IFuturesMarket.setParams and `initialize`).
    function setParams(FuturesBase.FuturesMarketStorage storage $, IFuturesTypes.Params calldata p) external {
        if (
            p.feeBps > 100 ||
            p.penaltyBps > 5_000 ||
            p.maxPremiumBps >= 5_000 ||
            p.maxCorrectionBps > 5_000 ||
            p.vaultReserveBps > FuturesLedger.BPS ||
            p.maxLiveSeries == 0 ||
            p.maxLiveSeries > FuturesLedger.SERIES_SCAN ||
            p.disputeWindowSec == 0 ||
            p.deliveryWindowSec == 0 ||
            p.proofWindowSec == 0 ||
            p.keeperBountyUsdc > 100e6 ||
            p.skewScaleCh == 0 ||
            p.premiumHorizonSec == 0 ||
            p.minOrderDelaySec == 0 ||
            p.maxOrderDelaySec <= p.minOrderDelaySec ||
            p.executionFeeUsdc > 50e6
        ) revert IFuturesErrors.FuturesInvalidParams();
        $.params = p;
        emit IFuturesEvents.ParamsSet(p);
    }

    /// @notice IFuturesMarket.setSeriesOiCap (the market checked the caller).
    function setSeriesOiCap(FuturesBase.FuturesMarketStorage storage $, uint256 seriesId, uint256 oiCapCh) external {
        FuturesLedger.existing($, seriesId).oiCapCh = oiCapCh.toUint128();
        emit IFuturesEvents.SeriesOiCapSet(seriesId, oiCapCh);
    }

    /// @notice IFuturesMarket.listStandardSeries: the next grid expiry of `tenor` (the market checked the pause flag).
    function listStandard(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.Tenor tenor
    ) external returns (uint256) {
        return list($, nextStandardExpiry($, tenor), tenor, 0);
    }
}
