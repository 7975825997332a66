// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Checkpoints} from "@openzeppelin/contracts/utils/structs/Checkpoints.sol";
import {IProviderRegistryEvents} from "../../interfaces/compute/IProviderRegistryEvents.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";
import {DrawProfile} from "./DrawProfile.sol";

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
        if (trace.length() == 0 ? word != 0 : trace.latest() != word) trace.push(uint48(block.number), word);
        if (minOk) {
            // @dev The reference is the largest stake weight at the neutral factor: a reputation step never writes
            //      it (finalize stays cheap); a bonus above it is truncated, never beyond stake-proportional.
            uint256 w = (staked / 1e18) * DrawProfile.REP_NEUTRAL_PCT;
            if (w > DrawProfile.WEIGHT_CAP) w = DrawProfile.WEIGHT_CAP;
            Checkpoints.Trace208 storage maxW = $.drawMaxWeight;
            if (w > maxW.latest()) maxW.push(uint48(block.number), uint208(w));
        }
        if (p.drawIndex1 == 0 && minOk && expiresAt >= block.timestamp) {
            $.drawList.push(provider);
            uint256 index = $.drawList.length - 1;
            p.drawIndex1 = uint32(index + 1);
            emit IProviderRegistryEvents.DrawCandidateListed(provider, index);
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
        return $.drawMaxWeight.upperLookupRecent(uint48(atBlock));
    }

    /// @dev `provider`'s word as of the end of block `atBlock` (0 before its first record).
    function wordAt(ProviderRegistryStore.ProviderData storage p, uint256 atBlock) internal view returns (uint256) {
        return p.drawTrace.upperLookupRecent(uint48(atBlock));
    }
}
