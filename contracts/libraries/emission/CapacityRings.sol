// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {CapacitySamples} from "../CapacitySamples.sol";

/// @title CapacityRings
/// @notice The registry side of "samples off the heartbeat" (docs/emission.md, issue 18 item 4): a provider's daily
///         capacity samples kept in two rings by epoch parity (15 × uint64 nano-PFLOPs each, `CapacitySamples`
///         packing), so a beat writes one ring word and a keeper collects the epoch after its end. Not wired yet:
///         the building block, tested on its own (test/libraries/CapacityRings.t.sol).
/// @dev Tag (32 bits, kept by the caller in its heartbeat slot): bits 0-15 `epoch + 1` of the provider's latest
///      sampled epoch (0: none yet), bits 16-30 that epoch's day mask. When the provider's first sample of a later
///      epoch arrives, the old tag is archived in bits 192-223 of word 3 of its own ring (word 3 holds days 12-14 in
///      bits 0-191), so the collector of an epoch finds its mask either in the live tag or in the archive, and the
///      beat on a new day writes only the day's ring word (the tag rides in a slot the beat writes anyway).
///      Rules (EMI-03): a day's sample is its lowest beat; a day without a beat stays missing (not zero); a ring
///      holding an epoch not collected yet is never overwritten (`BLOCKED`: the caller pushes it or drops the beat).
library CapacityRings {
    using CapacitySamples for uint256[4];

    uint8 internal constant UNCHANGED = 0;
    uint8 internal constant WRITTEN = 1;
    /// @dev Written, and the provider's first sample of the epoch: the caller counts it in the epoch's sampled total.
    uint8 internal constant FIRST_OF_EPOCH = 2;
    /// @dev Refused: the ring of the epoch's parity still holds an older epoch with samples that is not collected.
    uint8 internal constant BLOCKED = 3;

    uint256 private constant ARCHIVE_SHIFT = 192;
    uint256 private constant TAG_MASK = 0xffffffff;

    /// @notice The epoch (`epoch + 1`, 0: none) and day mask a tag holds.
    function unpack(uint256 tag) internal pure returns (uint256 epochPlusOne, uint256 mask) {
        return (tag & 0xffff, (tag >> 16) & 0x7fff);
    }

    /// @notice Writes day `day` (0-14) of `epoch` (< 65535) with `sample` (stored units, < 2^64): the day's lowest
    ///         beat. `collectedBelow`: every epoch below it is collected (its ring may be reused). Returns the tag
    ///         after and the outcome (UNCHANGED, WRITTEN, FIRST_OF_EPOCH or BLOCKED; the tag is unchanged when
    ///         BLOCKED).
    function write(
        uint256[4][2] storage rings,
        uint256 tag,
        uint256 epoch,
        uint256 day,
        uint256 sample,
        uint256 collectedBelow
    ) internal returns (uint256, uint8) {
        (uint256 tagEpoch1, uint256 mask) = unpack(tag);
        uint256[4] storage ring = rings[epoch & 1];
        if (tagEpoch1 == epoch + 1) {
            if ((mask >> day) & 1 == 0) {
                ring.set(day, sample);
                return (tag | (1 << (16 + day)), WRITTEN);
            }
            if (sample >= ring.get(day)) return (tag, UNCHANGED);
            ring.set(day, sample);
            return (tag, WRITTEN);
        }
        // @dev the first sample of `epoch`: the ring of its parity may still hold an older epoch (the live tag's,
        //      when of the same parity, else the one archived there); it is reused only once that one is collected.
        if (tagEpoch1 != 0 && (tagEpoch1 - 1) & 1 == epoch & 1) {
            if (mask != 0 && tagEpoch1 - 1 >= collectedBelow) return (tag, BLOCKED);
        } else {
            (uint256 oldEpoch1, uint256 oldMask) = unpack(ring[3] >> ARCHIVE_SHIFT);
            if (oldEpoch1 != 0 && oldMask != 0 && oldEpoch1 - 1 >= collectedBelow) return (tag, BLOCKED);
            // the live tag's epoch (the other parity) keeps its mask for its collector
            if (tagEpoch1 != 0) _archive(rings[(tagEpoch1 - 1) & 1], tag);
        }
        ring.set(day, sample);
        return ((epoch + 1) | (1 << (16 + day)), FIRST_OF_EPOCH);
    }

    /// @notice The day mask of `epoch` for a provider (0: no sample in it, or its ring was reused after collection).
    function maskOf(uint256[4][2] storage rings, uint256 tag, uint256 epoch) internal view returns (uint256) {
        (uint256 tagEpoch1, uint256 mask) = unpack(tag);
        if (tagEpoch1 == epoch + 1) return mask;
        // @dev none yet, only earlier epochs, or a later epoch of the same parity that reused the ring
        if (tagEpoch1 < epoch + 1 || (tagEpoch1 - 1 - epoch) & 1 == 0) return 0;
        // a later epoch of the other parity: the ring of `epoch` names in its archive the last epoch written in it
        (uint256 oldEpoch1, uint256 oldMask) = unpack(rings[epoch & 1][3] >> ARCHIVE_SHIFT);
        return oldEpoch1 == epoch + 1 ? oldMask : 0;
    }

    /// @notice Median and sample count of `epoch` (stored units; EMI-03's rule, `CapacitySamples.median`).
    function medianOf(
        uint256[4][2] storage rings,
        uint256 tag,
        uint256 epoch
    ) internal view returns (uint256 med, uint256 count) {
        uint256 mask = maskOf(rings, tag, epoch);
        if (mask == 0) return (0, 0);
        return rings[epoch & 1].median(mask);
    }

    function _archive(uint256[4] storage ring, uint256 tag) private {
        ring[3] = (ring[3] & ~(TAG_MASK << ARCHIVE_SHIFT)) | ((tag & TAG_MASK) << ARCHIVE_SHIFT);
    }
}
