// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {FuturesSolBase} from "../helpers/FuturesSolBase.sol";
import {IFuturesMarket} from "../../contracts/interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../contracts/interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../contracts/interfaces/markets/IFuturesEvents.sol";
import {IChxModule} from "../../contracts/interfaces/base/IChxModule.sol";

/// @notice The listed curve (issue 19 item 2): standard Monthly and Quarterly series listed by anyone up to twelve
///         months ahead (`listStandardSeriesAt`), Daily and Weekly only at their next expiry, and the keeper checker
///         keeping `keeperListingMonths` monthly expiries listed. The clock starts at Wed 2026-01-14 12:00 UTC.
contract FuturesCurveTest is FuturesSolBase {
    address internal anyone = makeAddr("anyone");
    uint64 internal constant JAN_14_2026_NOON = 1_768_392_000;
    uint64 internal constant FEB_1_2026 = 1_769_904_000;
    uint64 internal constant APR_1_2026 = 1_775_001_600;
    uint64 internal constant JAN_1_2027 = 1_798_761_600;
    uint64 internal constant FEB_1_2027 = 1_801_440_000;

    function setUp() public {
        vm.warp(JAN_14_2026_NOON);
        _deployFutures();
    }

    function _listAt(IFuturesTypes.Tenor tenor, uint64 e) internal returns (uint256) {
        vm.prank(anyone);
        return futures.listStandardSeriesAt(tenor, e);
    }

    /// Twelve monthly expiries, Feb 2026 … Jan 2027, listed by anyone; the thirteenth (Feb 2027) is past the
    /// 366-day horizon.
    function test_anyoneListsTwelveMonthlySeriesAhead_notAThirteenth() public {
        for (uint256 k; k < 12; ++k) {
            uint64 e = _month(k);
            uint256 sid = _listAt(IFuturesTypes.Tenor.Monthly, e);
            IFuturesTypes.Series memory s = futures.seriesInfo(sid);
            assertEq(s.expiry, e);
            assertEq(uint8(s.tenor), uint8(IFuturesTypes.Tenor.Monthly));
            assertTrue(futures.isStandardSeries(sid));
        }
        assertEq(futures.seriesInfo(12).expiry, JAN_1_2027);
        uint64 latest = uint64(block.timestamp + 366 days);
        vm.expectRevert(
            abi.encodeWithSelector(
                IFuturesErrors.FuturesExpiryNotStandard.selector,
                uint8(IFuturesTypes.Tenor.Monthly),
                FEB_1_2027,
                latest
            )
        );
        _listAt(IFuturesTypes.Tenor.Monthly, FEB_1_2027);
    }

    function test_listStandardSeriesAt_refusesOffGridDuplicatesCustomAndFarDailies() public {
        uint64 latest = uint64(block.timestamp + 366 days);
        // off the monthly grid (the 2nd of a month)
        vm.expectRevert(
            abi.encodeWithSelector(
                IFuturesErrors.FuturesExpiryNotStandard.selector,
                uint8(IFuturesTypes.Tenor.Monthly),
                FEB_1_2026 + 1 days,
                latest
            )
        );
        _listAt(IFuturesTypes.Tenor.Monthly, FEB_1_2026 + 1 days);
        // 1 Feb is monthly, not quarterly
        vm.expectRevert(
            abi.encodeWithSelector(
                IFuturesErrors.FuturesExpiryNotStandard.selector,
                uint8(IFuturesTypes.Tenor.Quarterly),
                FEB_1_2026,
                latest
            )
        );
        _listAt(IFuturesTypes.Tenor.Quarterly, FEB_1_2026);
        // 1 Apr is both: the series listed first serves both tenors
        uint256 q = _listAt(IFuturesTypes.Tenor.Quarterly, APR_1_2026);
        vm.expectRevert(abi.encodeWithSelector(IFuturesErrors.FuturesSeriesExists.selector, APR_1_2026, q));
        _listAt(IFuturesTypes.Tenor.Monthly, APR_1_2026);
        // dailies and weeklies: only their next expiry
        uint64 nextDay = futures.nextStandardExpiry(IFuturesTypes.Tenor.Daily);
        vm.expectRevert(
            abi.encodeWithSelector(
                IFuturesErrors.FuturesExpiryNotStandard.selector,
                uint8(IFuturesTypes.Tenor.Daily),
                nextDay + 1 days,
                nextDay
            )
        );
        _listAt(IFuturesTypes.Tenor.Daily, nextDay + 1 days);
        _listAt(IFuturesTypes.Tenor.Daily, nextDay);
        vm.expectRevert(IFuturesErrors.FuturesInvalidParams.selector);
        _listAt(IFuturesTypes.Tenor.Custom, FEB_1_2026);
        // in the past or inside the listing lead
        vm.expectRevert(
            abi.encodeWithSelector(
                IFuturesErrors.FuturesInvalidExpiry.selector,
                uint64(1_767_225_600),
                uint64(block.timestamp + 1 hours)
            )
        );
        _listAt(IFuturesTypes.Tenor.Monthly, 1_767_225_600); // 1 Jan 2026
        // a governance series is not standard
        uint256 custom = futures.listSeries(uint64(block.timestamp + 3 days), 0);
        assertFalse(futures.isStandardSeries(custom));
        assertFalse(futures.isStandardSeries(999));
        // paused listing
        bytes32 feature = keccak256("futures.list");
        _grantGuardianPause(feature);
        vm.expectRevert(abi.encodeWithSelector(IChxModule.ChxFeaturePaused.selector, feature));
        _listAt(IFuturesTypes.Tenor.Monthly, FEB_1_2026);
    }

    /// The keeper keeps `keeperListingMonths` monthly series listed: its checker returns the nearest unlisted one,
    /// and nothing once they are listed, when listing is paused or when no live-series slot is free.
    function test_keeperListsMonthlySeriesWhenDue() public {
        (bool canExec, ) = futures.checker();
        assertFalse(canExec, "off by default");
        vm.expectRevert(IFuturesErrors.FuturesInvalidParams.selector);
        futures.setKeeperListingMonths(13);
        vm.expectEmit(address(futures));
        emit IFuturesEvents.KeeperListingMonthsSet(3);
        futures.setKeeperListingMonths(3);
        assertEq(futures.keeperListingMonths(), 3);
        uint64[3] memory want = [_month(0), _month(1), _month(2)];
        // someone lists March first: the keeper fills the gap around it
        _listAt(IFuturesTypes.Tenor.Monthly, want[1]);
        uint256 listed;
        for (uint256 k; k < 5; ++k) {
            bytes memory payload;
            (canExec, payload) = futures.checker();
            if (!canExec) break;
            (bool ok, ) = address(futures).call(payload);
            assertTrue(ok, "payload runs");
            ++listed;
        }
        assertEq(listed, 2);
        // performUpkeep dispatches orders and expiry work only: checkUpkeep never proposes a listing
        futures.setKeeperListingMonths(12);
        (canExec, ) = futures.checker();
        assertTrue(canExec, "checker lists");
        bytes memory perform;
        (canExec, perform) = futures.checkUpkeep("");
        assertFalse(canExec, "checkUpkeep does not");
        assertEq(perform.length, 0);
        futures.setKeeperListingMonths(3);
        for (uint256 k; k < 3; ++k) assertTrue(_listedAt(want[k]));
        // a month later the window moved (February expired and was settled): the fourth month is due
        vm.warp(FEB_1_2026 + 1 days);
        uint256 feb = _seriesAt(want[0]);
        futures.fixSettlementPrice(feb);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(feb);
        bytes memory due;
        (canExec, due) = futures.checker();
        assertTrue(canExec);
        assertEq(due, abi.encodeCall(IFuturesMarket.listStandardSeriesAt, (IFuturesTypes.Tenor.Monthly, _month(3))));
        bytes32 feature = keccak256("futures.list");
        _grantGuardianPause(feature);
        (canExec, ) = futures.checker();
        assertFalse(canExec, "paused");
        IChxModule(address(futures)).unpauseFeature(feature);
        // no live slot free
        IFuturesTypes.Params memory p = futures.params();
        (, uint256 live) = futures.seriesCount();
        p.maxLiveSeries = uint8(live);
        futures.setParams(p);
        (canExec, ) = futures.checker();
        assertFalse(canExec, "no slot");
    }

    function _listedAt(uint64 e) internal view returns (bool) {
        return _seriesAt(e) != 0;
    }

    function _seriesAt(uint64 e) internal view returns (uint256) {
        (uint256 n, ) = futures.seriesCount();
        for (uint256 k = 1; k <= n; ++k) if (futures.seriesInfo(k).expiry == e) return k;
        return 0;
    }

    function _grantGuardianPause(bytes32 feature) internal {
        IChxModule(address(futures)).pauseFeature(feature);
    }

    /// 1 Feb 2026 … 1 Feb 2027, 00:00 UTC (k = 0 … 12).
    function _month(uint256 k) internal pure returns (uint64) {
        uint32[13] memory d = [
            uint32(1_769_904_000),
            1_772_323_200,
            1_775_001_600,
            1_777_593_600,
            1_780_272_000,
            1_782_864_000,
            1_785_542_400,
            1_788_220_800,
            1_790_812_800,
            1_793_491_200,
            1_796_083_200,
            1_798_761_600,
            1_801_440_000
        ];
        return d[k];
    }
}
