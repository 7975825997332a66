// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {EmissionStore} from "../../../contracts/core/emission/EmissionStore.sol";
import {EmissionEpochs} from "../../../contracts/libraries/emission/EmissionEpochs.sol";
import {CapacitySamples} from "../../../contracts/libraries/CapacitySamples.sol";

/// @dev Runs EmissionEpochs on a bare EmissionStore namespace (no module, no tokens).
contract EmissionEpochsHarness is EmissionStore {
    function init(uint64 baseRateWad, uint256 spanGfl) external {
        EmissionStorage storage $ = _s();
        $.baseRateWad = baseRateWad;
        $.genesisTime = uint64(block.timestamp);
        $.nextTimeHalvingAt = uint64(block.timestamp + EmissionEpochs.YEAR);
        $.halvingSpanGfl = spanGfl;
    }

    /// @dev The open epoch's running total (word 2, in stored units: totals are sums of nano-PFLOPs samples).
    function setTotal(uint256 e, uint128 totalGfl) external {
        EmissionStorage storage $ = _s();
        require(e == $.currentEpoch && totalGfl % CapacitySamples.UNIT == 0, "open epoch, whole units");
        $.openTotalGfl = uint80(totalGfl / CapacitySamples.UNIT);
    }

    function sync(uint256 maxCloses) external {
        EmissionEpochs.sync(_s(), maxCloses, false);
    }

    /// @dev The keeper path (paid closes), capped at `maxCloses` (0: close nothing).
    function syncPaid(uint256 maxCloses) external returns (uint256) {
        return EmissionEpochs.sync(_s(), maxCloses, true);
    }

    function setCursorAndMinSamples(uint256 cursor, uint8 current, uint8 next) external {
        EmissionStorage storage $ = _s();
        $.rebalanceCursor = cursor;
        $.minSamples = current;
        $.minSamplesNext = next;
    }

    /// @dev The open epoch's total (stored units), the rebalance cursor and the minimum sample count in force.
    function openState() external view returns (uint256 openTotal, uint256 cursor, uint256 minSamples) {
        EmissionStorage storage $ = _s();
        return ($.openTotalGfl, $.rebalanceCursor, $.minSamples);
    }

    function start(uint256 e) external view returns (uint256) {
        return EmissionEpochs.start(_s(), e);
    }

    function epochRecord(uint256 e) external view returns (uint256 rateWad, uint256 halvingsAfter, uint256 unfunded) {
        EmissionStorage storage $ = _s();
        return ($.epochs[e].rateWad, $.epochs[e].halvingsAfter, $.unfundedDps);
    }

    function state() external view returns (uint256 currentEpoch, uint256 halvings, uint256 cumulative) {
        EmissionStorage storage $ = _s();
        return ($.currentEpoch, $.halvings, $.cumulativeGfl);
    }
}

/// @notice EmissionEpochs against a reference written from the rule (seed 001 §4, docs/emission.md): an epoch's
///         GFL is cut at every multiple of the span; each piece earns `base >> n` of the era it falls in; the epoch's
///         rate is the blend Σ piece × rate / total rounded down; reaching a threshold exactly halves.
contract EmissionEpochsLibTest is Test {
    EmissionEpochsHarness internal h;

    function setUp() public {
        h = new EmissionEpochsHarness();
    }

    /// @dev Reference for one epoch: returns (weighted, halvings after, cumulative after).
    function _reference(
        uint256 base,
        uint256 span,
        uint256 total,
        uint256 c,
        uint256 n
    ) internal pure returns (uint256 weighted, uint256, uint256) {
        uint256 remaining = total;
        while (remaining > 0 && n < 64) {
            uint256 boundary = (c / span + 1) * span;
            uint256 seg = remaining < boundary - c ? remaining : boundary - c;
            weighted += seg * (base >> n);
            c += seg;
            remaining -= seg;
            if (c == boundary) ++n;
        }
        return (weighted, n, c + remaining);
    }

    function testFuzz_sync_matchesReferenceBlend(uint64 baseSeed, uint64 spanSeed, uint256 seed) public {
        uint256 base = bound(baseSeed, 1e6, 1e18);
        uint256 span = bound(spanSeed, 1, 1e6) * 1e18;
        h.init(uint64(base), span);
        uint256 c;
        uint256 n;
        uint256 owed;
        for (uint256 e; e < 20; ++e) {
            // Totals are sums of samples in nano-PFLOPs: whole multiples of 1e9 GFL wei.
            uint256 total = ((uint256(keccak256(abi.encode(seed, e))) % (3 * span)) / 1e9) * 1e9;
            if (e % 5 == 4) total = 0;
            h.setTotal(e, uint128(total));
            vm.warp(h.start(e + 1));
            h.sync(64);
            uint256 weighted;
            (weighted, n, c) = _reference(base, span, total, c, n);
            uint256 rate = total == 0 ? (n < 64 ? base >> n : 0) : weighted / total;
            owed += (total * rate) / 1e18;
            (uint256 rateWad, uint256 halvingsAfter, uint256 unfunded) = h.epochRecord(e);
            assertEq(rateWad, rate, "blended rate");
            assertEq(halvingsAfter, n, "halvings after");
            assertEq(unfunded, owed, "rewards owed");
            (uint256 current, uint256 halvings, uint256 cumulative) = h.state();
            assertEq(current, e + 1);
            assertEq(halvings, n);
            assertEq(cumulative, c, "cumulative GFL-epochs");
        }
    }

    function test_sync_userPathRevertsWhenTooFarBehind() public {
        h.init(2e15, 0);
        vm.warp(h.start(3));
        vm.expectRevert();
        h.sync(2);
        h.sync(3);
        (uint256 current, , ) = h.state();
        assertEq(current, 3);
    }

    function test_sync_timeHalvingAfterAYear() public {
        h.init(2e15, 0);
        vm.warp(h.start(25)); // epoch 24 ends at day 375 ≥ 365
        h.sync(64);
        (, uint256 halvings, ) = h.state();
        assertEq(halvings, 1);
        (uint256 rateWad, , ) = h.epochRecord(24);
        assertEq(rateWad, 1e15, "an empty epoch records the rate in force after its close");
    }

    /// EMI-03 (review of g35): a sync that closes nothing — nothing due, or a paid call capped at 0 closes — keeps the
    /// open epoch's running total (and the rebalance cursor, the minimum sample count in force): only a close moves
    /// them. Before the fix a paid sync with maxCloses = 0 on a due epoch zeroed the open total, dropping every
    /// sample of the epoch from its close.
    function test_sync_closingNothing_keepsTheOpenTotal() public {
        h.init(2e15, 0);
        h.setTotal(0, 7e18);
        h.setCursorAndMinSamples(3, 8, 5);
        // nothing due
        h.sync(64);
        assertEq(h.syncPaid(0), 0);
        (uint256 openTotal, uint256 cursor, uint256 minSamples) = h.openState();
        assertEq(openTotal, 7e9, "nothing due: the open total is kept");
        assertEq(cursor, 3);
        assertEq(minSamples, 8);
        // due, but a paid call capped at 0 closes nothing
        vm.warp(h.start(1));
        assertEq(h.syncPaid(0), 0);
        (uint256 current, , ) = h.state();
        assertEq(current, 0, "nothing closed");
        (openTotal, cursor, minSamples) = h.openState();
        assertEq(openTotal, 7e9, "maxCloses = 0: the open total is kept");
        assertEq(cursor, 3, "the cursor is kept");
        assertEq(minSamples, 8, "the next minimum applies only from a close");
        // the close then runs on the kept total
        h.syncPaid(1);
        (openTotal, cursor, minSamples) = h.openState();
        assertEq(openTotal, 0);
        assertEq(cursor, 0);
        assertEq(minSamples, 5);
        (uint256 rateWad, , uint256 unfunded) = h.epochRecord(0);
        assertEq(unfunded, (7e18 * rateWad) / 1e18, "epoch 0 closed on its samples");
    }
}
