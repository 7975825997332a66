// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../interfaces/markets/IFuturesEvents.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {IComputePriceOracleErrors} from "../../interfaces/oracle/IComputePriceOracleErrors.sol";
import {FuturesLedger} from "./FuturesLedger.sol";

/// @title FuturesFixing
/// @notice Fixing an expired FuturesMarket series' settlement price (docs/futures.md "Settlement TWAP" and "Stale
///         window fallback"): the index TWAP over the hour before expiry from proven rounds, or — when a round in
///         force in that hour was stale — the first round published after expiry, from FALLBACK_DELAY_SEC after
///         expiry. An external library linked into the FuturesDelivery module and run by delegatecall on the
///         FuturesMarket proxy's storage; its internal views serve the market's hints and keeper checker.
library FuturesFixing {
    using SafeCast for uint256;

    /// @notice The settlement TWAP window: the index is averaged over [expiry − TWAP_WINDOW_SEC, expiry).
    uint256 internal constant TWAP_WINDOW_SEC = 1 hours;
    /// @notice Most feed rounds one fixing reads (two oracle reads each; bounds its gas).
    uint256 internal constant MAX_TWAP_ROUNDS = 48;

    /// @notice Fixes an expired series' settlement price from the index TWAP over the window anchored at expiry
    ///         (`twap`, verified hints), disputable until `finalAt`, and credits the caller the keeper bounty; emits
    ///         SettlementTwap and SettlementPriceProposed.
    function fixPrice(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        uint80 firstRoundId,
        uint64[] memory changeTimes
    ) public returns (uint256 priceWad) {
        (IFuturesTypes.SeriesState storage s, uint64 expiry) = _unfixed($, seriesId);
        priceWad = twap($.oracle, expiry, firstRoundId, changeTimes);
        emit IFuturesEvents.SettlementTwap(
            seriesId,
            uint64(expiry - TWAP_WINDOW_SEC),
            expiry,
            firstRoundId,
            changeTimes.length + 1,
            priceWad
        );
        _propose($, s, seriesId, priceWad);
    }

    /// @notice IFuturesMarket.fixSettlementPrice: `fixPrice` with the hints found on chain (`twapHints`).
    function fixPriceFound(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId
    ) external returns (uint256 priceWad) {
        uint64 expiry = FuturesLedger.existing($, seriesId).expiry;
        if (block.timestamp < expiry) revert IFuturesErrors.FuturesSeriesNotExpired(seriesId, expiry);
        (uint80 first, uint64[] memory changes) = twapHints($.oracle, expiry);
        if (first == 0) revert IFuturesErrors.FuturesTwapHintsUnavailable(seriesId);
        return fixPrice($, seriesId, first, changes);
    }

    /// @notice IFuturesMarket.settlementTwapHints: `twapHints` for an existing series.
    function hints(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId
    ) external view returns (uint80, uint64[] memory) {
        return twapHints($.oracle, FuturesLedger.existing($, seriesId).expiry);
    }

    /// @notice The time-weighted index over [expiry − TWAP_WINDOW_SEC, expiry) from the consecutive rounds `first`,
    ///         `first` + 1, … whose publication times inside the window are `changes` (docs/futures.md "Settlement
    ///         TWAP"). Segment i runs from a = (window start or changes[i − 1]) to b = (changes[i] or the expiry); its
    ///         round must be in force at a and at b − 1 (`priceAtRound`: published at or before, the next one after,
    ///         not stale, inside the bounds), so consecutive segments meet exactly at the next round's publication
    ///         and no round of the window is left out. A zero-length segment (two rounds published in the same
    ///         second) weighs nothing and is not read: its neighbours' checks prove its time. Rounded down.
    function twap(
        IComputePriceOracle oracle,
        uint256 expiry,
        uint80 first,
        uint64[] memory changes
    ) internal view returns (uint256) {
        uint256 n = changes.length + 1;
        if (first == 0 || n > MAX_TWAP_ROUNDS)
            revert IFuturesErrors.FuturesTwapRounds(first == 0 ? 0 : n, MAX_TWAP_ROUNDS);
        uint256 start = expiry - TWAP_WINDOW_SEC;
        uint256 a = start;
        uint256 acc;
        for (uint256 i; i < n; ++i) {
            uint256 b = i < n - 1 ? changes[i] : expiry;
            // @dev the first and the last segment last a positive time (their rounds are read); inner ones ≥ 0
            if (b < a || b > expiry || (b == a && (i == 0 || i == n - 1))) {
                revert IFuturesErrors.FuturesTwapChangeTime(i, b, start, expiry);
            }
            if (b == a) continue;
            uint80 round = first + uint80(i);
            uint256 p = oracle.priceAtRound(round, a);
            if (b - 1 != a) oracle.priceAtRound(round, b - 1);
            acc += p * (b - a);
            a = b;
        }
        return acc / TWAP_WINDOW_SEC;
    }

    /// @notice IFuturesMarket.settlementTwapHints: the round in force at the window start (`roundAt`) and each later
    ///         round's publication time, found by bisection on `roundAt` (a view for keepers; ≤ MAX_TWAP_ROUNDS).
    ///         `first` = 0 when the oracle cannot find the window's rounds.
    function twapHints(
        IComputePriceOracle oracle,
        uint256 expiry
    ) internal view returns (uint80 first, uint64[] memory changes) {
        uint256 start = expiry - TWAP_WINDOW_SEC;
        first = oracle.roundAt(start);
        uint80 last = oracle.roundAt(expiry - 1);
        if (first == 0 || last < first || last - first >= MAX_TWAP_ROUNDS) return (0, changes);
        changes = new uint64[](last - first);
        uint256 lo = start + 1;
        for (uint256 i; i < changes.length; ++i) {
            uint256 r = uint256(first) + i + 1;
            uint256 hi = expiry - 1;
            while (lo < hi) {
                uint256 mid = (lo + hi) / 2;
                if (oracle.roundAt(mid) >= r) hi = mid;
                else lo = mid + 1;
            }
            changes[i] = uint64(lo);
        }
    }

    /// @notice The fallback waits this long after expiry (keepers fix a TWAP first; a stale window is final by then).
    uint256 internal constant FALLBACK_DELAY_SEC = 6 hours;
    /// @notice The fallback round must be in force and fresh within this long after expiry.
    uint256 internal constant FALLBACK_MAX_LAG_SEC = 1 days;

    /// @notice IFuturesMarket.fixSettlementPriceFallback: from FALLBACK_DELAY_SEC after expiry, when `staleRound` was
    ///         in force and stale at `staleAt` inside the window (so no TWAP can pass: the segment holding `staleAt`
    ///         must read that round at or after it), the price is that of `round`, the first round published at or
    ///         after expiry (its predecessor in force at expiry − 1), validated at `roundTime` (in force, fresh,
    ///         inside the bounds, ≤ expiry + FALLBACK_MAX_LAG_SEC). Neither argument choice changes the price.
    function fixPriceFallback(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        uint80 staleRound,
        uint64 staleAt,
        uint80 round,
        uint64 roundTime
    ) public returns (uint256 priceWad) {
        (IFuturesTypes.SeriesState storage s, uint64 expiry) = _unfixed($, seriesId);
        uint256 due = uint256(expiry) + FALLBACK_DELAY_SEC;
        if (block.timestamp < due) revert IFuturesErrors.FuturesFallbackNotDue(seriesId, due);
        IComputePriceOracle oracle = $.oracle;
        if (staleAt < expiry - TWAP_WINDOW_SEC || staleAt >= expiry || _read(oracle, staleRound, staleAt) != 1) {
            revert IFuturesErrors.FuturesFallbackNotStale(seriesId, staleRound, staleAt);
        }
        if (round < 2 || _read(oracle, round - 1, expiry - 1) == 2 || roundTime > expiry + FALLBACK_MAX_LAG_SEC) {
            revert IFuturesErrors.FuturesFallbackRound(seriesId, round, roundTime);
        }
        priceWad = oracle.priceAtRound(round, roundTime);
        emit IFuturesEvents.SettlementFallback(seriesId, staleRound, staleAt, round, priceWad);
        _propose($, s, seriesId, priceWad);
    }

    /// @dev `priceAtRound(round, time)`: 0 when it passes, 1 when it reverts OracleStalePrice (the round is in force
    ///      at `time`: that check comes first), 2 on any other revert.
    function _read(IComputePriceOracle oracle, uint80 round, uint256 time) private view returns (uint256) {
        try oracle.priceAtRound(round, time) returns (uint256) {
            return 0;
        } catch (bytes memory err) {
            return err.length >= 4 && bytes4(err) == IComputePriceOracleErrors.OracleStalePrice.selector ? 1 : 2;
        }
    }

    /// @notice For the keeper checker: the first round of the window's TWAP hints (`twapHints`) that is stale at its
    ///         segment's end, and that time (`fixPriceFallback`'s proof); (0, 0) when none is.
    function staleHint(
        IComputePriceOracle oracle,
        uint256 expiry,
        uint80 first,
        uint64[] memory changes
    ) internal view returns (uint80 staleRound, uint64 staleAt) {
        for (uint256 i; i <= changes.length; ++i) {
            uint256 end = (i < changes.length ? changes[i] : expiry) - 1;
            if (_read(oracle, first + uint80(i), end) == 1) return (first + uint80(i), uint64(end));
        }
    }

    /// @notice For the keeper checker: the first round published at or after expiry and its publication time, found
    ///         by bisection on `roundAt` within FALLBACK_MAX_LAG_SEC; (0, 0) while none is (or beyond the look-back).
    function roundAfter(IComputePriceOracle oracle, uint256 expiry) internal view returns (uint80, uint64) {
        uint80 prev = oracle.roundAt(expiry - 1);
        uint256 lo = expiry;
        uint256 hi = block.timestamp - 1;
        if (hi > expiry + FALLBACK_MAX_LAG_SEC) hi = expiry + FALLBACK_MAX_LAG_SEC;
        if (prev == 0 || hi < lo || oracle.roundAt(hi) <= prev) return (0, 0);
        while (lo < hi) {
            uint256 mid = (lo + hi) / 2;
            if (oracle.roundAt(mid) > prev) hi = mid;
            else lo = mid + 1;
        }
        return (prev + 1, uint64(lo));
    }

    /// @dev The series, expired and not fixed yet.
    function _unfixed(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId
    ) private view returns (IFuturesTypes.SeriesState storage s, uint64 expiry) {
        s = FuturesLedger.existing($, seriesId);
        expiry = s.expiry;
        if (block.timestamp < expiry) revert IFuturesErrors.FuturesSeriesNotExpired(seriesId, expiry);
        if (s.finalAt != 0) revert IFuturesErrors.FuturesAlreadyDone(seriesId, address(0));
    }

    /// @dev Records a fixed price (disputable until finalAt), the series' assignable shorts, one live series less,
    ///      and credits the caller the keeper bounty; emits SettlementPriceProposed.
    function _propose(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        uint256 priceWad
    ) private {
        uint64 finalAt = uint64(block.timestamp) + $.params.disputeWindowSec;
        s.settlementPriceWad = priceWad.toUint128();
        s.finalAt = uint256(finalAt).toUint40();
        uint256 assignable = uint256(s.shortOiCh) + s.postExpiryShortCh;
        s.assignableShortCh = assignable.toUint128();
        uint256 live = $.liveSeries - 1;
        $.liveSeries = uint64(live);
        uint256 bounty = $.params.keeperBountyUsdc;
        emit IFuturesEvents.SettlementPriceProposed(seriesId, priceWad, finalAt, assignable, msg.sender, bounty, live);
        FuturesLedger.creditBounty($, msg.sender, bounty);
    }
}
