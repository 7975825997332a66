// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IOptionsMarket} from "../../interfaces/markets/IOptionsMarket.sol";
import {IOptionsMarketTypes} from "../../interfaces/markets/IOptionsMarketTypes.sol";
import {IOptionsMarketErrors} from "../../interfaces/markets/IOptionsMarketErrors.sol";
import {IOptionsMarketEvents} from "../../interfaces/markets/IOptionsMarketEvents.sol";
import {IFuturesExercise} from "../../interfaces/markets/IFuturesExercise.sol";
import {IFuturesMarket} from "../../interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {OptionsMarketBase} from "../../core/markets/OptionsMarketBase.sol";
import {SpotMath} from "../SpotMath.sol";
import {OptionsFunds} from "./OptionsFunds.sol";
import {OptionsBook} from "./OptionsBook.sol";

/// @title OptionsListing
/// @notice The options market's series listing (by governance, or permissionless on the standard grid with a
///         listing bond) and its keeper checker (docs/options.md). External library functions, run by delegatecall
///         in the market's storage (linked at deployment; docs/upgrades.md): access control, reentrancy and pause
///         checks stay on the market's entry points.
library OptionsListing {
    using SafeCast for uint256;

    /// @notice Pending series the checker scans at most (OptionsMarketBase.CHECKER_SCAN).
    uint256 internal constant CHECKER_SCAN = 128;
    /// @notice Page sizes the checker proposes: accounts (cash) and pairs (futures).
    uint256 internal constant CASH_PAGE = 100;
    uint256 internal constant FUTURES_PAGE = 20;
    /// @notice Options on standard futures series: the strike step is the index grid's step divided by this
    ///         (0.05 USDC with the default 0.5: 2.5 % of a 2 USDC forward; docs/options.md "Options on futures").
    uint256 internal constant FUTURES_STEP_DIVISOR = 10;
    /// @notice A futures series' last trade is its forward for this long; later its quoted mid is (seconds).
    uint256 internal constant CURVE_POINT_MAX_AGE = 1 days;

    /// @notice See IOptionsMarket.listSeries (ADMIN: checked by the market).
    function listSeries(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.SeriesParams calldata p
    ) external returns (uint256 seriesId) {
        uint64 futuresId;
        if (p.onFutures) {
            IFuturesExercise fm = $.futuresMarket;
            if (address(fm) == address(0)) revert IOptionsMarketErrors.OptionsFuturesMarketNotSet();
            (uint64 futuresExpiry, bool trading) = fm.seriesExpiry(p.futuresSeriesId);
            if (!trading || futuresExpiry < p.expiry) {
                revert IOptionsMarketErrors.OptionsInvalidFuturesSeries(p.futuresSeriesId, futuresExpiry, p.expiry);
            }
            futuresId = p.futuresSeriesId;
        }
        IOptionsMarketTypes.SeriesParams memory q = p;
        q.futuresSeriesId = futuresId;
        if (p.kind == IOptionsMarketTypes.OptionKind.Put) q.capWad = p.strikeWad;
        seriesId = list($, q);
    }

    /// @notice See IOptionsMarket.listStandardSeries (reentrancy and pause: checked by the market).
    function listStandardSeries(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.OptionKind kind,
        uint128 strikeWad,
        uint64 expiry
    ) external returns (uint256 seriesId) {
        IOptionsMarketTypes.Params memory pr = $.params;
        _checkGrid($, pr, expiry);
        _checkStrike(strikeWad, $.oracle.indexPrice(), pr.strikeStepWad, pr.maxStrikeDeviationBps);
        return _listStandard($, pr, kind, strikeWad, expiry, 0);
    }

    /// @notice See IOptionsMarket.listStandardFuturesSeries (reentrancy and pause: checked by the market). The
    ///         strike grid is centred on the futures series' forward (its last trade within CURVE_POINT_MAX_AGE, else
    ///         its quoted mid), with the finer futures step; the series must still trade a dispute window after the
    ///         option's expiry (its exercise opens futures positions then).
    function listStandardFuturesSeries(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.OptionKind kind,
        uint128 strikeWad,
        uint64 expiry,
        uint64 futuresSeriesId
    ) external returns (uint256 seriesId) {
        IFuturesExercise fm = $.futuresMarket;
        if (address(fm) == address(0)) revert IOptionsMarketErrors.OptionsFuturesMarketNotSet();
        IOptionsMarketTypes.Params memory pr = $.params;
        (uint64 futuresExpiry, bool trading) = fm.seriesExpiry(futuresSeriesId);
        if (
            futuresSeriesId == 0 ||
            !trading ||
            futuresExpiry < uint256(expiry) + pr.disputeWindowSec ||
            !fm.isStandardSeries(futuresSeriesId)
        ) revert IOptionsMarketErrors.OptionsInvalidFuturesSeries(futuresSeriesId, futuresExpiry, expiry);
        _checkGrid($, pr, expiry);
        uint256 step = pr.strikeStepWad / FUTURES_STEP_DIVISOR;
        _checkStrike(strikeWad, forwardOf(fm, futuresSeriesId), step == 0 ? 1 : step, pr.maxStrikeDeviationBps);
        return _listStandard($, pr, kind, strikeWad, expiry, futuresSeriesId);
    }

    /// @notice The forward a futures option's strike grid is centred on: the series' last trader-against-trader
    ///         trade (its curve point) while at most CURVE_POINT_MAX_AGE old, else the market's quoted mid.
    function forwardOf(IFuturesExercise fm, uint256 futuresSeriesId) internal view returns (uint256) {
        IFuturesTypes.CurvePoint memory c = IFuturesMarket(address(fm)).curvePoint(futuresSeriesId);
        if (c.priceWad != 0 && block.timestamp <= uint256(c.time) + CURVE_POINT_MAX_AGE) return c.priceWad;
        (uint256 mid, , ) = IFuturesMarket(address(fm)).quote(futuresSeriesId, 0);
        return mid;
    }

    /// @dev The permissionless expiry rule and the live-series cap.
    function _checkGrid(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Params memory pr,
        uint64 expiry
    ) private view {
        if ($.liveSeries >= pr.maxLiveSeries)
            revert IOptionsMarketErrors.OptionsTooManyLiveSeries($.liveSeries, pr.maxLiveSeries);
        if (
            expiry < block.timestamp + pr.minTimeToExpirySec ||
            expiry > block.timestamp + pr.maxHorizonSec ||
            expiry % pr.expiryGridSec != pr.expiryOffsetSec
        ) revert IOptionsMarketErrors.OptionsInvalidExpiry(expiry);
    }

    /// @dev The strike rule: a positive multiple of `step` within `maxDevBps` of `centre` (the index, or the
    ///      futures' forward).
    function _checkStrike(uint256 strikeWad, uint256 centre, uint256 step, uint256 maxDevBps) private pure {
        uint256 dist = strikeWad > centre ? strikeWad - centre : centre - strikeWad;
        if (strikeWad == 0 || strikeWad % step != 0 || dist * SpotMath.BPS > centre * maxDevBps) {
            revert IOptionsMarketErrors.OptionsStrikeNotListable(strikeWad, centre, step);
        }
    }

    /// @dev The permissionless listing (cap, bond) once the grid and strike rules passed; `futuresId` 0 = cash.
    function _listStandard(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Params memory pr,
        IOptionsMarketTypes.OptionKind kind,
        uint128 strikeWad,
        uint64 expiry,
        uint64 futuresId
    ) private returns (uint256 seriesId) {
        // @dev the call cap rounds down: a smaller cap only lowers the writer's collateral and the holder's maximum
        uint128 cap =
            kind == IOptionsMarketTypes.OptionKind.Call
                ? SpotMath.bpsDown(strikeWad, pr.callCapBps).toUint128()
                : strikeWad;
        seriesId = list($, IOptionsMarketTypes.SeriesParams(kind, futuresId != 0, futuresId, expiry, strikeWad, cap));
        // @dev the bond: per started day to expiry, so holding a slot costs in proportion to how long it is held
        uint256 bond = pr.listingBondPerDayUsdc * Math.ceilDiv(expiry - block.timestamp, 1 days);
        IOptionsMarketTypes.Series storage s = $.series[seriesId];
        s.lister = msg.sender;
        s.listedAt = uint32(block.timestamp);
        if (bond != 0) {
            s.listingBondUsdc = bond.toUint64();
            $.reservedUsdc += uint128(bond);
            OptionsFunds.move($, msg.sender, -bond.toInt256());
        }
    }

    /// @notice See IKeeperChecker.checker: the first due work item among the first CHECKER_SCAN pending series.
    function checker(
        OptionsMarketBase.OptionsMarketStorage storage $
    ) external view returns (bool canExec, bytes memory execPayload) {
        uint256[] storage pend = $.pending;
        uint256 n = Math.min(pend.length, CHECKER_SCAN);
        for (uint256 i = 0; i < n; ++i) {
            uint256 id = pend[i];
            IOptionsMarketTypes.Series storage s = $.series[id];
            if (block.timestamp < s.expiry) continue;
            uint256 fixedAt = s.priceFixedAt;
            if (fixedAt == 0) {
                try $.oracle.indexPrice() returns (uint256) {
                    return (true, abi.encodeCall(IOptionsMarket.fixSettlementPrice, (id)));
                } catch {
                    continue;
                }
            }
            if (block.timestamp < OptionsBook.disputeEnd($, s)) continue;
            uint256 page = s.onFutures ? FUTURES_PAGE : CASH_PAGE;
            return (true, abi.encodeCall(IOptionsMarket.settleSeries, (id, page)));
        }
    }

    function list(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.SeriesParams memory p
    ) private returns (uint256 id) {
        if (p.strikeWad == 0 || p.capWad == 0) revert IOptionsMarketErrors.OptionsInvalidStrike(p.strikeWad, p.capWad);
        if (p.expiry <= block.timestamp) revert IOptionsMarketErrors.OptionsInvalidExpiry(p.expiry);
        {
            bytes32 key = keccak256(abi.encode(p));
            uint256 existing = $.seriesByKey[key];
            if (existing != 0) revert IOptionsMarketErrors.OptionsSeriesExists(existing);
            id = ++$.seriesCount;
            $.seriesByKey[key] = id;
        }
        IOptionsMarketTypes.Series storage s = $.series[id];
        s.expiry = p.expiry;
        s.kind = p.kind;
        s.onFutures = p.onFutures;
        s.futuresSeriesId = p.futuresSeriesId;
        s.strikeWad = p.strikeWad;
        s.capWad = p.capWad;
        $.pending.push(id);
        s.pendingIndex = uint32($.pending.length);
        uint256 live = ++$.liveSeries;
        emit IOptionsMarketEvents.SeriesListed(
            id,
            p.kind,
            p.onFutures,
            p.futuresSeriesId,
            p.expiry,
            p.strikeWad,
            p.capWad,
            msg.sender,
            live
        );
    }
}
