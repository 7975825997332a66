// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {SpotTwap} from "../../contracts/libraries/SpotTwap.sol";

/// @notice SpotTwap against a reference that keeps every fill in memory: the cumulative is Σ price × seconds of the
///         price in force, observations are the first fill of each interval (the last CAPACITY kept), and the TWAP
///         runs from the newest observation at or before now − window (else the oldest kept) to now, rounded down.
contract SpotTwapTest is Test {
    SpotTwap.State internal s;

    uint256 internal constant T0 = 1_700_000_000;

    struct Fill {
        uint256 t;
        uint256 p;
    }

    /// @dev Σ price·seconds up to `t` over `fills` (ascending times; the last fill of a second is in force after it).
    function _refCumulative(Fill[] memory fills, uint256 n, uint256 t) internal pure returns (uint256 c) {
        for (uint256 i; i < n; ++i) {
            if (fills[i].t >= t) break;
            uint256 end = i + 1 < n && fills[i + 1].t < t ? fills[i + 1].t : t;
            c += fills[i].p * (end - fills[i].t);
        }
    }

    function _refTwap(
        Fill[] memory fills,
        uint256 n,
        uint256 interval,
        uint256 windowSec,
        uint256 nowSec
    ) internal pure returns (uint256) {
        // observation times: first fill, then any fill at least `interval` after the previous observation
        uint256[] memory obs = new uint256[](n);
        uint256 k;
        for (uint256 i; i < n; ++i) {
            if (k == 0 || fills[i].t >= obs[k - 1] + interval) obs[k++] = fills[i].t;
        }
        uint256 first = k > SpotTwap.CAPACITY ? k - SpotTwap.CAPACITY : 0;
        uint256 target = nowSec > windowSec ? nowSec - windowSec : 0;
        uint256 start = obs[first];
        for (uint256 j = first; j < k; ++j) if (obs[j] <= target) start = obs[j];
        if (start == nowSec) return fills[n - 1].p;
        return (_refCumulative(fills, n, nowSec) - _refCumulative(fills, n, start)) / (nowSec - start);
    }

    function _run(uint256 seed, uint256 n, uint256 interval, uint256 maxGap) internal returns (Fill[] memory fills) {
        fills = new Fill[](n);
        uint256 t = T0;
        for (uint256 i; i < n; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, i)));
            if (i > 0) t += r % (maxGap + 1);
            uint256 p = 1 + ((r >> 128) % 1e24);
            vm.warp(t);
            s.intervalSec = uint32(interval);
            SpotTwap.record(s, p);
            fills[i] = Fill(t, p);
        }
    }

    function testFuzz_twap_matchesReference(
        uint256 seed,
        uint256 n,
        uint256 interval,
        uint256 window,
        uint256 tail
    ) public {
        n = bound(n, 1, 30);
        interval = bound(interval, 1, 1 hours);
        window = bound(window, 0, 2 days);
        tail = bound(tail, 0, 1 days);
        Fill[] memory fills = _run(seed, n, interval, 2 hours);
        uint256 nowSec = fills[n - 1].t + tail;
        vm.warp(nowSec);
        (uint256 twap, ) = SpotTwap.twap(s, window);
        assertEq(twap, _refTwap(fills, n, interval, window, nowSec));
        assertEq(SpotTwap.cumulativeNow(s), _refCumulative(fills, n, nowSec));
    }

    /// @dev More fills than the ring holds: the oldest observations are overwritten and a long window starts at the
    ///      oldest one kept.
    function testFuzz_twap_ringWraps(uint256 seed, uint256 window) public {
        uint256 n = SpotTwap.CAPACITY + 40;
        window = bound(window, 0, 30 days);
        Fill[] memory fills = _run(seed, n, 60, 300);
        uint256 nowSec = fills[n - 1].t + 1;
        vm.warp(nowSec);
        (uint256 twap, ) = SpotTwap.twap(s, window);
        assertEq(twap, _refTwap(fills, n, 60, window, nowSec));
    }

    /// @dev A constant price has that price as its TWAP over any window.
    function testFuzz_twap_constantPrice(uint256 price, uint256 gap, uint256 window) public {
        price = bound(price, 1, SpotTwap.MAX_PRICE_WAD);
        gap = bound(gap, 1, 1 days);
        window = bound(window, 0, 10 days);
        vm.warp(T0);
        s.intervalSec = uint32(600);
        SpotTwap.record(s, price);
        vm.warp(T0 + gap);
        s.intervalSec = uint32(600);
        SpotTwap.record(s, price);
        vm.warp(T0 + 2 * gap);
        (uint256 twap, ) = SpotTwap.twap(s, window);
        assertEq(twap, price);
    }

    function test_twap_empty_isZero() public {
        vm.warp(T0);
        (uint256 twap, uint256 oldest) = SpotTwap.twap(s, 1 hours);
        assertEq(twap, 0);
        assertEq(oldest, T0);
    }

    function test_twap_sameSecondAsOnlyObservation_isLastPrice() public {
        vm.warp(T0);
        s.intervalSec = uint32(600);
        SpotTwap.record(s, 5e18);
        s.intervalSec = uint32(600);
        SpotTwap.record(s, 7e18); // same second: no new observation, price replaced
        (uint256 twap, ) = SpotTwap.twap(s, 0);
        assertEq(twap, 7e18);
    }

    function test_twap_worked() public {
        // 10 for 100 s, then 20 for 300 s: TWAP over the whole span = (1000 + 6000) / 400 = 17.5
        vm.warp(T0);
        s.intervalSec = uint32(1);
        SpotTwap.record(s, 10e18);
        vm.warp(T0 + 100);
        s.intervalSec = uint32(1);
        SpotTwap.record(s, 20e18);
        vm.warp(T0 + 400);
        (uint256 twap, uint256 oldest) = SpotTwap.twap(s, 1 days);
        assertEq(twap, 17.5e18);
        assertEq(oldest, T0);
        // window 300 s: starts at the observation at T0 + 100
        (twap, ) = SpotTwap.twap(s, 300);
        assertEq(twap, 20e18);
    }
}
