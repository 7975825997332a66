// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {FuturesRisk} from "../../core/markets/futures/FuturesRisk.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../interfaces/markets/IFuturesEvents.sol";
import {FuturesLedger} from "./FuturesLedger.sol";

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

    /// @notice Lists a series expiring at `expiry` (IFuturesMarket.listSeries / listStandardSeries; the market checked
    ///         the caller or the pause flag). `oiCapCh` 0 = the default cap.
    /// @return id The new series id (sequential from 1).
    function list(
        FuturesBase.FuturesMarketStorage storage $,
        uint64 expiry,
        IFuturesTypes.Tenor tenor,
        uint256 oiCapCh
    ) external returns (uint256 id) {
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
        IFuturesTypes.Series storage s = $.series[id];
        s.expiry = expiry;
        s.tenor = tenor;
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
}
