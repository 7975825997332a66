// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SeriesLadderBase} from "./SeriesLadderBase.sol";
import {FuturesOrderSteps} from "../../helpers/FuturesOrderSteps.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../../contracts/interfaces/markets/IFuturesErrors.sol";

/// @notice Issue 19 item 3: any number of series per account at bounded gas. The account aggregates
///         (FuturesLedger.AccountBook) and the expiry buckets against a leg-by-leg reference (the pre-issue-19 walk,
///         with the documented far-short bond rule): 24 series held, one liquidated, one expiring among 24, rolls
///         across many, a second account's fills, and a fuzz of random fills and elections (aggregate == Σ legs).
contract SeriesAggregatesTest is SeriesLadderBase {
    /// The ladder: alternately long 10 and short 5 in all 24 series.
    function _ladder(address who) internal {
        for (uint256 k; k < N; ++k) _trade(who, ids[k], k % 2 == 0 ? int256(10e18) : -5e18);
    }

    function _assertExact(address who) internal view {
        int256 net;
        uint256 open;
        for (uint256 k; k < ids.length; ++k) {
            IFuturesTypes.Position memory p = futures.positionOf(ids[k], who);
            net += p.sizeCh;
            if (p.open) ++open;
        }
        assertEq(chouse.positionOf(who, address(futures)).sizeCh, net, "net = sum of legs");
        assertEq(futures.accountSeries(who).length, open, "records listed");
        _assertRiskExact(who);
    }

    /// 24 open series per account, more than the old bound of 4: listed, netted and margined exactly.
    function test_24Series_openAndMarginedExactly() public {
        _ladder(alice);
        assertEq(futures.accountSeries(alice).length, N);
        assertEq(chouse.positionOf(alice, address(futures)).sizeCh, 12 * 10e18 - 12 * 5e18);
        _assertExact(alice);
        (, uint256 im, ) = _risk(alice);
        assertGt(im, 0, "the 60 CH of calendar spreads are margined");
    }

    /// A ninth series in one 28-day expiry bucket is refused: the bound is per bucket, not per account.
    function test_ninthSeriesInOneBucket_refused() public {
        futures.setParams(_paramsLive(32));
        // ids[19] and ids[20] (14 days apart) share a bucket or ids[20] and ids[21] do; seven more listed there
        uint256 k0 =
            futures.seriesInfo(ids[19]).expiry / BUCKET == futures.seriesInfo(ids[20]).expiry / BUCKET ? 19 : 20;
        uint256 start = (futures.seriesInfo(ids[k0]).expiry / BUCKET) * BUCKET;
        uint256[] memory same = new uint256[](9);
        same[0] = ids[k0];
        same[1] = ids[k0 + 1];
        for (uint256 k = 2; k < 9; ++k) same[k] = futures.listSeries(uint64(start + k * 1 hours), 0);
        for (uint256 k; k < 8; ++k) _trade(bob, same[k], 1e18);
        (bool ok, bytes memory why) = FuturesOrderSteps.trade(futures, bob, same[8], 1e18, 0);
        assertFalse(ok);
        assertEq(why, abi.encodeWithSelector(IFuturesErrors.FuturesTooManySeries.selector, bob, 8));
        assertEq(futures.accountSeries(bob).length, 8);
    }

    /// An account holding 24 series is liquidated: the legs follow the net, the calendar spreads close by the same
    /// fraction, and the aggregates stay Σ legs.
    function test_24Series_liquidated_aggregatesStayExact() public {
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 60e6);
        for (uint256 k; k < N; ++k) _trade(carol, ids[k], k % 3 == 2 ? -1e18 : int256(2e18));
        _assertExact(carol);
        _setPrice((PRICE0 * 80) / 100);
        liq.liquidate(carol);
        int256 net;
        for (uint256 k; k < N; ++k) net += futures.positionOf(ids[k], carol).sizeCh;
        assertEq(chouse.positionOf(carol, address(futures)).sizeCh, net, "net = sum of legs after");
        assertLt(net, 24e18, "reduced");
        _setPrice(PRICE0);
        _assertExact(carol);
    }

    /// A series expiring while held among 24: fixed, finalised, one leg settled; the other 23 and the aggregates
    /// stay exact at every step (the expired leg is valued at its fixed price, walked one by one).
    function test_seriesExpiringAmong24_settleOne_aggregatesStayExact() public {
        _ladder(alice);
        _trade(alice, ids[0], 5e18); // 15 long in the first
        vm.warp(futures.seriesInfo(ids[0]).expiry);
        _setPrice(PRICE0);
        futures.fixSettlementPrice(ids[0]);
        _assertExact(alice);
        vm.warp(block.timestamp + 1 hours);
        futures.finalizeSettlement(ids[0]);
        futures.settlePosition(ids[0], alice);
        assertEq(futures.accountSeries(alice).length, N - 1);
        assertEq(futures.positionOf(ids[0], alice).sizeCh, 0);
        _assertExact(alice);
    }

    /// Rolls across many series (each leg into the next, one after the other): records, net and margin stay exact.
    function test_rollAcrossManySeries_staysExact() public {
        _trade(alice, ids[0], 40e18);
        for (uint256 k; k + 1 < 12; ++k) {
            vm.prank(alice);
            futures.roll(ids[k], ids[k + 1], 40e18 - k * 3e18);
            _assertExact(alice);
        }
        assertEq(futures.accountSeries(alice).length, 11);
    }

    /// A second account's fills in the same series never move the first account's aggregates or margin.
    function test_secondAccountFills_neverTouchTheFirst() public {
        _ladder(alice);
        (int256 adj0, uint256 im0, uint256 mm0) = _risk(alice);
        int256 net0 = chouse.positionOf(alice, address(futures)).sizeCh;
        for (uint256 k; k < N; k += 3) _trade(bob, ids[k], k % 2 == 0 ? -int256(7e18) : int256(4e18));
        (int256 adj1, uint256 im1, uint256 mm1) = _risk(alice);
        assertEq(adj1, adj0);
        assertEq(im1, im0);
        assertEq(mm1, mm0);
        assertEq(chouse.positionOf(alice, address(futures)).sizeCh, net0);
        _assertExact(alice);
        _assertExact(bob);
    }

    /// Aggregate == Σ legs: random fills of two accounts over the 24 series, elections and closes, then the risk
    /// hook against the leg-by-leg walk for both.
    function testFuzz_aggregatesEqualSumOfLegs(uint256 seed) public {
        for (uint256 step; step < 14; ++step) {
            uint256 r = uint256(keccak256(abi.encode(seed, step)));
            address who = r & 1 == 0 ? alice : bob;
            uint256 sid = ids[(r >> 8) % N];
            uint256 op = (r >> 16) % 5;
            int256 held = futures.positionOf(sid, who).sizeCh;
            if (op == 4 && held > 0) {
                vm.prank(who);
                futures.electDelivery(sid, uint256(int256(held)) / 2);
            } else if (op == 3 && held != 0) {
                FuturesOrderSteps.mustClose(futures, who, sid);
            } else {
                int256 size = int256(((r >> 24) % 20) + 1) * 1e18;
                _trade(who, sid, op % 2 == 0 ? size : -size);
            }
        }
        _assertExact(alice);
        _assertExact(bob);
    }
}
