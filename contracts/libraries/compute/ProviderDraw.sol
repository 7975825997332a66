// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Checkpoints} from "@openzeppelin/contracts/utils/structs/Checkpoints.sol";
import {IProviderRegistryEvents} from "../../interfaces/compute/IProviderRegistryEvents.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";
import {DrawProfile} from "./DrawProfile.sol";
import {ProviderSampling} from "./ProviderSampling.sol";

/// @title ProviderDraw
/// @notice Records the ProviderRegistry's draw snapshot (TSK-07): a provider's DrawProfile word, checkpointed by
///         block number whenever stake, attestation, a slash or its reputation changes it, the largest draw weight
///         ever recorded (the draws' acceptance reference) and the append-only list of providers that were ever
///         draw-eligible. Internal: inlined into the libraries that change those fields.
/// @dev Reputation (issue 21 item 3, docs/compute.md "Reputation"): a provider earns at most one point per
///      REP_DAY in which it completes a task, up to REP_MAX_POINTS; a failed task costs REP_FAIL_PENALTY points and
///      each slash REP_SLASH_PCT percent of factor. Factor = clamp(100 + points − 10 · slashes, 50, 150) percent. A
///      count of tasks could be bought with a thousand tiny self-paid tasks; a day of service cannot be compressed.
library ProviderDraw {
    using Checkpoints for Checkpoints.Trace208;

    uint256 internal constant REP_DAY = 1 days;
    uint256 internal constant REP_MAX_POINTS = 50;
    uint256 internal constant REP_FAIL_PENALTY = 5;
    uint256 internal constant REP_SLASH_PCT = 10;

    /// @dev Checkpoints `provider`'s current profile (no write when unchanged), raises the recorded reference weight
    ///      (largest stake weight at the neutral factor) when this stake is the heaviest yet, and lists it the first time it is draw-eligible (minimum stake and a
    ///      live attestation).
    function record(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p,
        address provider
    ) internal {
        uint256 staked = p.stakedDps;
        bool minOk = staked >= $.params.minStakeDps;
        uint256 expiresAt = p.attestationExpiresAt;
        uint208 word = DrawProfile.encode(
            expiresAt,
            p.workloadClass,
            p.capacityPflopsWad,
            staked,
            repPct(p.repPoints, p.slashCount),
            minOk
        );
        Checkpoints.Trace208 storage trace = p.drawTrace;
        uint256 prev = trace.length() == 0 ? 0 : trace.latest();
        if (prev != word) {
            trace.push(uint48(block.number), word);
            // @dev A listed provider's draw-list entry follows its weight (not its other fields): a draw rejects a
            //      sample by weight from the entry alone when the weight has not changed since its commit block.
            uint256 i1 = p.drawIndex1;
            uint256 w = DrawProfile.weight(word);
            if (i1 != 0 && w != DrawProfile.weight(prev)) {
                // @dev i1 − 1 < drawList.length (the index was assigned by the push): no bounds read.
                uint256 slot = _entrySlot($, i1 - 1);
                uint256 e = entry(provider, w);
                assembly ("memory-safe") {
                    sstore(slot, e)
                }
            }
        }
        if (minOk) {
            // @dev The reference is the largest stake weight at the neutral factor: a reputation step never writes
            //      it (finalize stays cheap); a bonus above it is truncated, never beyond stake-proportional.
            uint256 w = (staked / 1e18) * DrawProfile.REP_NEUTRAL_PCT;
            if (w > DrawProfile.WEIGHT_CAP) w = DrawProfile.WEIGHT_CAP;
            Checkpoints.Trace208 storage maxW = $.drawMaxWeight;
            if (w > maxW.latest()) maxW.push(uint48(block.number), uint208(w));
        }
        if (p.drawIndex1 == 0 && minOk && expiresAt >= block.timestamp) {
            $.drawList.push(entry(provider, DrawProfile.weight(word)));
            uint256 index = $.drawList.length - 1;
            p.drawIndex1 = uint32(index + 1);
            emit IProviderRegistryEvents.DrawCandidateListed(provider, index);
        }
    }

    /// @dev A draw-list entry: `provider` with draw weight `weight` as of the end of this block (see the store).
    function entry(address provider, uint256 weight) internal view returns (uint256) {
        return uint256(uint160(provider)) | (block.number << 160) | (weight << 208);
    }

    /// @dev A weighted sample batch's fixed inputs (one memory word keeps the loop's stack shallow).
    struct Batch {
        uint256 candidates;
        uint256 atBlock;
        uint256 ref;
        address[] excluded;
    }

    /// @dev The samples of a weighted draw committed at `atBlock` (ProviderSampling.index / accepts over the draw
    ///      list's first `candidates` entries), in order, until `want` distinct providers outside `excluded` are
    ///      accepted: each accepted sample's provider and word as of `atBlock` at its position ((0, 0) elsewhere)
    ///      and the number of samples consumed. A sample rejected by weight reads its entry only when the entry's
    ///      weight is unchanged since `atBlock`; an excluded or repeated provider is skipped before its word is read;
    ///      otherwise the checkpointed word decides (TSK-07: never the live state).
    function weightedSamples(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256[] calldata samples,
        uint256 want,
        Batch memory b
    ) internal view returns (address[] memory providers, uint256[] memory words, uint256 used) {
        providers = new address[](samples.length);
        words = new uint256[](samples.length);
        b.ref = maxWeightAt($, b.atBlock);
        for (uint256 got; used < samples.length && got < want; ++used) {
            (address who, uint256 word) = _take($, b, samples[used], providers, used);
            if (who != address(0)) {
                providers[used] = who;
                words[used] = word;
                ++got;
            }
        }
    }

    /// @dev One sample of `weightedSamples`: (0, 0) when rejected, excluded or already taken in `providers[0..upto)`.
    function _take(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        Batch memory b,
        uint256 h,
        address[] memory providers,
        uint256 upto
    ) private view returns (address who, uint256 word) {
        // @dev index < candidates ≤ drawList.length (the list only grows): no bounds read.
        uint256 slot = _entrySlot($, ProviderSampling.index(h, b.candidates));
        uint256 e;
        assembly ("memory-safe") {
            e := sload(slot)
        }
        uint256 since = uint48(e >> 160);
        bool decided = since != 0 && since <= b.atBlock;
        if (decided && !ProviderSampling.acceptsWeight(h, e >> 208, b.ref)) return (address(0), 0);
        who = address(uint160(e));
        address[] memory ex = b.excluded;
        for (uint256 j; j < ex.length; ++j) if (ex[j] == who) return (address(0), 0);
        for (uint256 j; j < upto; ++j) if (providers[j] == who) return (address(0), 0);
        word = wordAt($.providers[who], b.atBlock);
        if (!decided && !ProviderSampling.accepts(h, word, b.ref)) return (address(0), 0);
    }

    /// @dev `trace`'s value as of the end of block `atBlock`, bounded depth: the latest checkpoint first (two SLOADs,
    ///      whatever the trace's length — what a draw reads unless the value changed after its commit block), the
    ///      search only when it is newer than `atBlock`.
    function _at(Checkpoints.Trace208 storage trace, uint256 atBlock) private view returns (uint256) {
        (bool exists, uint48 key, uint208 value) = trace.latestCheckpoint();
        if (!exists) return 0;
        if (key <= atBlock) return value;
        return trace.upperLookupRecent(uint48(atBlock));
    }

    /// @dev The storage slot of draw-list entry `i` (the caller guarantees i < length).
    function _entrySlot(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256 i
    ) private view returns (uint256 slot) {
        uint256[] storage list = $.drawList;
        assembly ("memory-safe") {
            mstore(0, list.slot)
            slot := add(keccak256(0, 0x20), i)
        }
    }

    /// @dev The reputation factor, percent, of `points` and `slashes` (see the library's @dev).
    function repPct(uint256 points, uint256 slashes) internal pure returns (uint256) {
        uint256 up = DrawProfile.REP_NEUTRAL_PCT + (points < REP_MAX_POINTS ? points : REP_MAX_POINTS);
        uint256 down = slashes * REP_SLASH_PCT;
        if (down + DrawProfile.REP_MIN_PCT >= up) return DrawProfile.REP_MIN_PCT;
        return up - down;
    }

    /// @dev Applies a task outcome to the reputation points; true when the points changed (the word must be
    ///      re-recorded). A completion earns a point only on a new reputation day and below the cap.
    function applyOutcome(ProviderRegistryStore.ProviderData storage p, bool completed) internal returns (bool) {
        uint256 points = p.repPoints;
        if (completed) {
            uint256 day = block.timestamp / REP_DAY + 1; // 1-based: 0 means "never credited"
            if (points >= REP_MAX_POINTS || day <= p.repDay) return false;
            p.repDay = uint16(day);
            p.repPoints = uint16(points + 1);
            return true;
        }
        if (points == 0) return false;
        p.repPoints = uint16(points > REP_FAIL_PENALTY ? points - REP_FAIL_PENALTY : 0);
        return true;
    }

    /// @dev The largest (capped) draw weight recorded as of the end of block `atBlock`: a draw's reference weight.
    function maxWeightAt(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256 atBlock
    ) internal view returns (uint256) {
        return _at($.drawMaxWeight, atBlock);
    }

    /// @dev `provider`'s word as of the end of block `atBlock` (0 before its first record).
    function wordAt(ProviderRegistryStore.ProviderData storage p, uint256 atBlock) internal view returns (uint256) {
        return _at(p.drawTrace, atBlock);
    }
}
