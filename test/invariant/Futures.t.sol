// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IFuturesTypes} from "../../contracts/interfaces/markets/IFuturesTypes.sol";
import {FuturesHandlerSetup} from "./handlers/FuturesHandlerSetup.sol";

/// @notice MKT-04 and MKT-05 as handler-based invariants over the FuturesMarket.
contract FuturesInvariantTest is FuturesHandlerSetup {
    function setUp() public {
        _setUpHandler();
        targetContract(address(handler));
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_MKT04_settledSeriesHaveNoOpenPosition();
        check_MKT04_clearingPositionIsNetOfSeries();
        check_series_bucketsListOpenRecords();
        check_ACC02_openInterestSums();
        check_MKT05_deliveryConservation();
        check_MKT08_deliveryPaymentHeld();
    }

    /// @notice MKT-04: every expired series was settled at its final price with no position left open.
    function check_MKT04_settledSeriesHaveNoOpenPosition() public view {
        uint256 n = handler.finishedCount();
        for (uint256 k; k < n; ++k) {
            uint256 id = handler.finished(k);
            IFuturesTypes.Series memory s = futures.seriesInfo(id);
            assertEq(s.openPositions, 0, "MKT-04 open positions");
            assertEq(s.longOiCh + s.shortOiCh, 0, "MKT-04 open interest");
            for (uint256 i; i < 4; ++i) {
                IFuturesTypes.Position memory p = futures.positionOf(id, traders[i]);
                assertFalse(p.open, "MKT-04 position open");
                assertEq(p.sizeCh, 0, "MKT-04 size");
            }
        }
    }

    /// @notice MKT-04 (and the clearing seam): each account's ClearingHouse position is the net of its series.
    function check_MKT04_clearingPositionIsNetOfSeries() public view {
        for (uint256 i; i < 4; ++i) {
            uint256[] memory ids = futures.accountSeries(traders[i]);
            int256 net;
            for (uint256 k; k < ids.length; ++k) net += futures.positionOf(ids[k], traders[i]).sizeCh;
            assertEq(chouse.positionOf(traders[i], address(futures)).sizeCh, net, "net position");
        }
    }

    /// @notice Issue 19 item 3: the expiry-bucket index lists exactly the account's open records (the live daily,
    ///         the far series, the finished ones), and the ClearingHouse net — read in O(1) from the account
    ///         aggregates by every fill — is their sum, through trades, elections, liquidations and settlements.
    function check_series_bucketsListOpenRecords() public view {
        uint256 n = handler.finishedCount();
        for (uint256 i; i < 4; ++i) {
            uint256 open;
            int256 net;
            uint256[] memory cand = new uint256[](n + 2);
            cand[0] = handler.series();
            cand[1] = handler.far();
            for (uint256 k; k < n; ++k) cand[k + 2] = handler.finished(k);
            for (uint256 k; k < cand.length; ++k) {
                if (k >= 2 && (cand[k] == cand[0] || cand[k] == cand[1])) continue;
                IFuturesTypes.Position memory p = futures.positionOf(cand[k], traders[i]);
                if (p.open) ++open;
                net += p.sizeCh;
            }
            assertEq(futures.accountSeries(traders[i]).length, open, "buckets list the open records");
            assertEq(chouse.positionOf(traders[i], address(futures)).sizeCh, net, "net = sum of legs");
        }
    }

    /// @notice ACC-02: the live series' open interest is the sum of the positions per side.
    function check_ACC02_openInterestSums() public view {
        uint256 id = handler.series();
        uint256 longs;
        uint256 shorts;
        for (uint256 i; i < 4; ++i) {
            int256 sz = futures.positionOf(id, traders[i]).sizeCh;
            if (sz > 0) longs += uint256(sz);
            else shorts += uint256(-sz);
        }
        IFuturesTypes.Series memory s = futures.seriesInfo(id);
        assertEq(s.longOiCh, longs, "long OI");
        assertEq(s.shortOiCh, shorts, "short OI");
    }

    /// @notice MKT-05: CH delivered = CH received per settled series, slashes = compensation, every assigned short
    ///         delivered or was slashed exactly, and the market holds exactly the live escrow.
    function check_MKT05_deliveryConservation() public view {
        assertEq(handler.violationsMKT05(), 0, "MKT-05 per-account delivery rule");
        uint256 n = handler.finishedCount();
        for (uint256 k; k < n; ++k) {
            IFuturesTypes.Series memory s = futures.seriesInfo(handler.finished(k));
            assertEq(s.deliveredCh, s.receivedCh, "MKT-05 CH delivered = received");
        }
        uint256 escrow;
        uint256 id = handler.series();
        for (uint256 i; i < 4; ++i) escrow += futures.positionOf(id, traders[i]).escrowCh;
        assertEq(chToken.balanceOf(address(futures)), escrow, "MKT-05 CH held = live escrow");
    }

    /// The handler's election + withdraw and spread paths are live: an electing long and a spread that nets to zero
    /// withdraw what the margin check allows and the series settles without a violation.
    function test_handlerElectWithdrawSpreadPathsAreLive() public {
        handler.trade(0, 100e18); // trader 0 long the daily
        handler.trade(1, -100e18); // trader 1 short the daily ...
        handler.tradeFar(1, 100e18); // ... and long the far series: nets to zero
        handler.elect(0, 100e18);
        handler.withdrawMax(0);
        handler.withdrawMax(1);
        assertEq(handler.withdrawals(), 2);
        assertEq(chouse.positionOf(traders[1], address(futures)).sizeCh, 0);
        assertGt(chouse.marginState(traders[1]).initialMarginUsdc, 0); // the spread and the bond stay margined
        handler.expireAndSettle();
        assertEq(handler.violationsMKT05() + handler.violationsMKT08(), 0);
        check_MKT08_deliveryPaymentHeld();
    }

    /// @notice MKT-08: an electing long's delivery payment is held from election to settlement — every margin
    ///         computation takes elected × index off its equity (FuturesRisk through the account-risk hook); and no
    ///         withdrawal or election left an account below initial margin, no long got CH into a deficit.
    function check_MKT08_deliveryPaymentHeld() public view {
        assertEq(handler.violationsMKT08(), 0, "MKT-08 observed in calls");
        uint256 price = fIndex.priceWad();
        for (uint256 i; i < 4; ++i) {
            uint256[] memory ids = futures.accountSeries(traders[i]);
            uint256 held;
            for (uint256 k; k < ids.length; ++k) {
                uint256 e = futures.positionOf(ids[k], traders[i]).electedCh;
                held += (e * price + 1e30 - 1) / 1e30;
            }
            (int256 adjustment, , ) = IMarketAccountRiskView(address(futures)).accountRisk(traders[i], price);
            assertEq(adjustment, -int256(held), "MKT-08 payment held");
        }
    }
}

interface IMarketAccountRiskView {
    function accountRisk(address account, uint256 priceWad) external view returns (int256, uint256, uint256);
}
