// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Test} from "forge-std/Test.sol";
import {CapacityRings} from "../../contracts/libraries/emission/CapacityRings.sol";

/// @dev One provider's two epoch-parity rings and its tag (what the registry would keep per provider).
contract CapacityRingsHarness {
    uint256[4][2] internal rings;
    uint256 public tag;

    function write(uint256 epoch, uint256 day, uint256 sample, uint256 collectedBelow) external returns (uint8 status) {
        uint256 t;
        (t, status) = CapacityRings.write(rings, tag, epoch, day, sample, collectedBelow);
        tag = t;
    }

    function maskOf(uint256 epoch) external view returns (uint256) {
        return CapacityRings.maskOf(rings, tag, epoch);
    }

    function medianOf(uint256 epoch) external view returns (uint256 med, uint256 count) {
        return CapacityRings.medianOf(rings, tag, epoch);
    }
}

/// @notice Issue 18 item 4, the registry side of "samples off the heartbeat" (docs/emission.md): the epoch-parity
///         rings keep, per epoch, each day's lowest beat (EMI-03), leave skipped days missing, count a provider once
///         per epoch, and never overwrite an epoch not collected yet — against a reference that keeps every sample.
contract CapacityRingsTest is Test {
    CapacityRingsHarness internal h;

    uint8 internal constant UNCHANGED = 0;
    uint8 internal constant WRITTEN = 1;
    uint8 internal constant FIRST = 2;
    uint8 internal constant BLOCKED = 3;

    function setUp() public {
        h = new CapacityRingsHarness();
    }

    /// EMI-03: two beats on one day keep the lower, whatever the order; a later higher beat changes nothing.
    function test_EMI03_twoBeatsOneDay_lowerKept() public {
        assertEq(h.write(0, 0, 500, 0), FIRST, "first sample of epoch 0");
        assertEq(h.write(0, 0, 200, 0), WRITTEN, "lower: written");
        assertEq(h.write(0, 0, 400, 0), UNCHANGED, "higher: unchanged");
        assertEq(h.write(0, 1, 300, 0), WRITTEN, "a new day");
        assertEq(h.write(0, 1, 450, 0), UNCHANGED);
        (uint256 med, uint256 count) = h.medianOf(0);
        assertEq(count, 2);
        assertEq(med, 250, "days 200 and 300: mean of the two middle values");
    }

    /// EMI-03: skipped days are missing, not zero; a zero sample (stake below the minimum) is a sample.
    function test_EMI03_skippedDaysMissing_zeroSamplesCount() public {
        h.write(3, 2, 200, 0);
        h.write(3, 7, 500, 0);
        h.write(3, 13, 400, 0);
        (uint256 med, uint256 count) = h.medianOf(3);
        assertEq(count, 3, "three days sampled, twelve missing");
        assertEq(med, 400);
        h.write(3, 14, 0, 0);
        h.write(3, 12, 0, 0);
        (med, count) = h.medianOf(3);
        assertEq(count, 5, "zero samples are samples");
        assertEq(med, 200);
        assertEq(h.maskOf(3), (1 << 2) | (1 << 7) | (1 << 12) | (1 << 13) | (1 << 14));
    }

    /// A provider is counted once per epoch (the caller's sampled total): only its first sample of an epoch says so.
    function test_firstOfEpoch_onceProviderEpoch() public {
        assertEq(h.write(0, 0, 5, 0), FIRST);
        assertEq(h.write(0, 1, 5, 0), WRITTEN);
        assertEq(h.write(1, 0, 5, 0), FIRST, "epoch 1");
        assertEq(h.write(1, 0, 4, 0), WRITTEN);
        assertEq(h.write(1, 5, 4, 0), WRITTEN);
    }

    /// The previous epoch stays readable for its collector after the provider moves on (its tag archived in its ring).
    function test_previousEpochReadableAfterMovingOn() public {
        for (uint256 d; d < 15; ++d) h.write(0, d, 100 + d, 0);
        h.write(1, 0, 7, 0);
        h.write(1, 14, 9, 0);
        (uint256 med, uint256 count) = h.medianOf(0);
        assertEq(count, 15, "epoch 0 intact, days 12-14 beside the archived tag");
        assertEq(med, 107);
        (med, count) = h.medianOf(1);
        assertEq(count, 2);
        assertEq(med, 8);
        assertEq(h.maskOf(2), 0, "no sample in epoch 2");
    }

    /// A ring still holding an epoch that is not collected is never overwritten (the close would lose a provider):
    /// the beat is refused and the tag kept; once the epoch is collected the ring is reused, and the reused epoch
    /// then reads as empty (collect twice finds nothing).
    function test_ringReuse_blockedUntilCollected() public {
        h.write(0, 3, 50, 0);
        uint256 tagBefore = h.tag();
        // epoch 2 (same parity as 0), epoch 0 not collected (collectedBelow = 0)
        assertEq(h.write(2, 0, 60, 0), BLOCKED);
        assertEq(h.tag(), tagBefore, "tag kept");
        (uint256 med, uint256 count) = h.medianOf(0);
        assertEq(count, 1);
        assertEq(med, 50, "epoch 0 still whole");
        // collected through epoch 1
        assertEq(h.write(2, 0, 60, 2), FIRST);
        assertEq(h.maskOf(0), 0, "epoch 0's ring reused: nothing left to collect");
        (med, count) = h.medianOf(2);
        assertEq(count, 1);
        assertEq(med, 60);
    }

    /// The same through the archive: 0 → 1 → 2, with epoch 0 not collected when epoch 2 starts.
    function test_ringReuse_throughTheArchive_blockedUntilCollected() public {
        h.write(0, 0, 10, 0);
        h.write(1, 0, 20, 0);
        assertEq(h.write(2, 0, 30, 0), BLOCKED, "epoch 0 (archived in ring 0) not collected");
        assertEq(h.write(2, 0, 30, 0), BLOCKED);
        assertEq(h.write(2, 0, 30, 1), FIRST, "epoch 0 collected: ring 0 reused");
        assertEq(h.maskOf(0), 0, "epoch 0 gone after reuse");
        (uint256 med, ) = h.medianOf(1);
        assertEq(med, 20, "epoch 1 archived in ring 1, intact");
        h.write(3, 1, 40, 2);
        (med, ) = h.medianOf(2);
        assertEq(med, 30, "epoch 2 archived in ring 0, readable");
        assertEq(h.maskOf(1), 0, "epoch 1's ring reused by epoch 3");
        assertEq(h.maskOf(0), 0);
    }

    /// A provider whose first sample is in epoch 5 (registered after epoch 4's collection started) has nothing in
    /// epoch 4 or before for a collector to find, and reading an epoch twice reads the same (the collector's own
    /// record, not the ring, stops a second count).
    function test_lateProvider_nothingInEarlierEpochs() public {
        for (uint256 e; e < 6; ++e) assertEq(h.maskOf(e), 0, "no tag yet");
        h.write(5, 3, 70, 4);
        for (uint256 e; e < 5; ++e) assertEq(h.maskOf(e), 0, "nothing before its first epoch");
        (uint256 med1, uint256 n1) = h.medianOf(5);
        (uint256 med2, uint256 n2) = h.medianOf(5);
        assertEq(med1, med2);
        assertEq(n1, n2);
        assertEq(med1, 70);
    }

    /// Only the ring of the new epoch's parity is checked: an uncollected epoch blocks its own ring, not the other.
    function test_blocksOnlyTheRingOfTheEpochParity() public {
        h.write(1, 0, 10, 0);
        assertEq(h.write(3, 0, 10, 0), BLOCKED, "epoch 1 has a sample, not collected");
        assertEq(h.write(2, 0, 10, 0), FIRST, "ring 0 never written");
    }

    /// Fuzz against a reference that keeps every sample: a random walk over epochs (each step 0-3 epochs on, the
    /// keeper always one epoch behind) and days; every epoch still retained reads exactly its days' lowest beats.
    function testFuzz_matchesReference(uint256 seed) public {
        uint256[15][8] memory ref; // [epoch][day] = lowest + 1 (0: missing)
        uint256 epoch;
        for (uint256 i; i < 60; ++i) {
            uint256 r = uint256(keccak256(abi.encode(seed, i)));
            if (r % 7 == 0 && epoch < 7) epoch += 1 + ((r >> 8) % 2);
            if (epoch > 7) epoch = 7;
            uint256 day = (r >> 16) % 15;
            uint256 sample = (r >> 32) % 1000;
            // the keeper has collected every epoch before the previous one
            uint8 status = h.write(epoch, day, sample, epoch == 0 ? 0 : epoch - 1);
            assertTrue(status != BLOCKED, "a collected ring is reusable");
            if (ref[epoch][day] == 0 || sample + 1 < ref[epoch][day]) ref[epoch][day] = sample + 1;
        }
        // the live epoch and the one before it are retained
        for (uint256 e = epoch == 0 ? 0 : epoch - 1; e <= epoch; ++e) {
            uint256 mask;
            uint256[] memory xs = new uint256[](15);
            uint256 n;
            for (uint256 d; d < 15; ++d) {
                if (ref[e][d] != 0) {
                    mask |= 1 << d;
                    xs[n++] = ref[e][d] - 1;
                }
            }
            assertEq(h.maskOf(e), mask, "mask");
            for (uint256 a; a < n; ++a) {
                for (uint256 b; b + 1 < n - a; ++b) if (xs[b] > xs[b + 1]) (xs[b], xs[b + 1]) = (xs[b + 1], xs[b]);
            }
            (uint256 med, uint256 count) = h.medianOf(e);
            assertEq(count, n, "count");
            if (n > 0) assertEq(med, n % 2 == 1 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2, "median");
        }
    }
}
