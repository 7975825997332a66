// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryErrors} from "../../interfaces/compute/IProviderRegistryErrors.sol";
import {IComputeStandard} from "../../interfaces/compute/IComputeStandard.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";
import {ProviderStake} from "./ProviderStake.sol";
import {ProviderDraw} from "./ProviderDraw.sol";
import {CapacitySamples} from "../CapacitySamples.sol";
import {CapacityRings} from "../emission/CapacityRings.sol";

/// @title ProviderViews
/// @notice The ProviderRegistry's derived figures — uptime (decayed while silent), mintable CH — and the full
///         `providerInfo` record. `info` is linked as an external library (it is large and read-only); the
///         internal helpers are shared with the registry's heartbeat and mint paths.
library ProviderViews {
    using CapacitySamples for uint256[4];

    uint256 private constant WAD = 1e18;

    /// @notice Emission's collection page (IProviderRegistryViews.capacitySamplesAt): the list's length, the epoch's
    ///         sampled count, then two words per provider of the page (provider and mask; median and last sample).
    function capacitySamplesAt(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256 from,
        uint256 count,
        uint256 epoch
    ) external view returns (uint256[] memory words) {
        address[] storage all = $.list;
        uint256 length = all.length;
        uint256 end = from + count < length ? from + count : length;
        uint256 n = from < end ? end - from : 0;
        words = new uint256[](2 + 2 * n);
        words[0] = length;
        words[1] = $.sampledCount[epoch];
        for (uint256 i; i < n; ++i) {
            address p = all[from + i];
            uint256[4][2] storage rings = $.capacityRings[p];
            uint256 mask = CapacityRings.maskOf(rings, $.providers[p].sampleTag, epoch);
            words[2 + 2 * i] = uint256(uint160(p)) | (mask << 160);
            if (mask == 0) continue;
            uint256[4] storage ring = rings[epoch & 1];
            (uint256 med, ) = ring.median(mask);
            uint256 lastDay = 14;
            while ((mask >> lastDay) & 1 == 0) --lastDay;
            words[3 + 2 * i] = med | (ring.get(lastDay) << 64);
        }
    }

    /// @notice Up to `limit` registered providers from `offset` (empty past the end).
    function page(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256 offset,
        uint256 limit
    ) external view returns (address[] memory list) {
        address[] storage all = $.list;
        uint256 n = all.length;
        uint256 end = offset + limit < n ? offset + limit : n;
        if (offset >= end) return new address[](0);
        list = new address[](end - offset);
        for (uint256 i = offset; i < end; ++i) list[i - offset] = all[i];
    }

    /// @notice DrawProfile words of `providers` as of the end of block `atBlock` (TSK-07).
    function drawProfilesAt(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address[] calldata providers,
        uint256 atBlock
    ) external view returns (uint256[] memory words) {
        words = new uint256[](providers.length);
        for (uint256 i; i < providers.length; ++i) words[i] = ProviderDraw.wordAt($.providers[providers[i]], atBlock);
    }

    /// @notice The draw list's entries at `indices` with their DrawProfile words as of the end of block `atBlock`
    ///         and the reference weight then (TSK-07). External so the registry's runtime carries no checkpoint reader.
    function drawSample(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256[] calldata indices,
        uint256 atBlock
    ) external view returns (address[] memory providers, uint256[] memory words, uint256 weightRef) {
        uint256 n = indices.length;
        providers = new address[](n);
        words = new uint256[](n);
        for (uint256 i; i < n; ++i) {
            address who = address(uint160($.drawList[indices[i]]));
            providers[i] = who;
            words[i] = ProviderDraw.wordAt($.providers[who], atBlock);
        }
        weightRef = ProviderDraw.maxWeightAt($, atBlock);
    }

    /// @notice The accepted samples of a weighted draw batch (`ProviderDraw.weightedSamples`; TSK-07).
    function drawSampleWeighted(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint256[] calldata samples,
        uint256 candidates,
        uint256 atBlock,
        uint256 want,
        address[] calldata excluded
    ) external view returns (address[] memory, uint256[] memory, uint256) {
        return ProviderDraw.weightedSamples($, samples, want, ProviderDraw.Batch(candidates, atBlock, 0, excluded));
    }

    /// @notice The live matching profile of `provider` (executor scoring).
    function matchingProfile(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider
    ) external view returns (IProviderRegistry.MatchingProfile memory m) {
        ProviderRegistryStore.ProviderData storage p = $.providers[provider];
        m.eligible = p.index1 != 0 && p.attestationExpiresAt >= block.timestamp && p.stakedDps >= $.params.minStakeDps;
        m.region = p.region;
        m.workloadMask = p.workloadMask;
        m.askPriceWad = p.askPriceWad;
        m.uptimeWad = uptime($, p);
        m.completed = p.completed;
        m.failed = p.failed;
        m.slashCount = p.slashCount;
        m.capacityPflopsWad = p.lastHeartbeat == 0 ? p.capacityPflopsWad : p.lastSamplePflopsWad;
        m.outstandingCh = p.liabilityCh - p.assignedCh;
        m.stakedDps = p.stakedDps;
        m.workloadClass = p.workloadClass;
    }

    /// @notice `provider`'s uptime, WAD (decayed while silent).
    function uptimeOf(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider
    ) external view returns (uint256) {
        return uptime($, $.providers[provider]);
    }

    /// @notice `provider`'s stake tier (0..4).
    function tierOf(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider
    ) external view returns (uint8) {
        return ProviderStake.tier($, $.providers[provider].stakedDps);
    }

    /// @notice CH `provider` may mint now.
    function mintableOf(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider
    ) external view returns (uint256) {
        return mintable($, $.providers[provider], provider, false);
    }

    /// @notice Everything known about `provider` (zero record when not registered).
    function info(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider
    ) external view returns (IProviderRegistry.ProviderInfo memory i) {
        ProviderRegistryStore.ProviderData storage p = $.providers[provider];
        if (p.index1 == 0) return i;
        i.registered = true;
        i.index = p.index1 - 1;
        i.region = p.region;
        i.workloadMask = p.workloadMask;
        i.registeredAt = p.registeredAt;
        i.attestationNonce = p.attestationNonce;
        i.askPriceWad = p.askPriceWad;
        i.stakedDps = p.stakedDps;
        i.unbondingDps = p.unbondingDps;
        i.unbondReadyAt = p.unbondReadyAt;
        i.tier = ProviderStake.tier($, p.stakedDps);
        i.workloadClass = p.workloadClass;
        i.standardVersion = p.standardVersion;
        i.chPerHourWad = p.chPerHourWad;
        i.capacityPflopsWad = p.capacityPflopsWad;
        i.attestedAt = p.attestedAt;
        i.attestationExpiresAt = p.attestationExpiresAt;
        IComputeStandard std = IComputeStandard($.standard);
        i.performanceGrade = uint8(std.performanceGrade(p.chPerHourWad));
        i.energyGrade = uint8(std.energyGrade(p.whPerChWad));
        i.whPerChWad = p.whPerChWad;
        i.lastHeartbeat = p.lastHeartbeat;
        i.lastSamplePflopsWad = p.lastSamplePflopsWad;
        i.uptimeWad = uptime($, p);
        i.reliabilityGrade = uint8(std.reliabilityGrade(i.uptimeWad));
        i.liabilityCh = p.liabilityCh;
        i.mintedCh = p.liabilityCh + p.deliveredCh + p.boughtBackCh;
        i.deliveredCh = p.deliveredCh;
        i.boughtBackCh = p.boughtBackCh;
        i.assignedCh = p.assignedCh;
        i.openAssignments = p.openAssignments;
        i.completed = p.completed;
        i.failed = p.failed;
        i.slashCount = p.slashCount;
        i.slashedDps = p.slashedDps;
        i.mintableCh = mintable($, p, provider, false);
        i.dutyLockedDps = p.dutyLockedDps;
    }

    /// @dev Credits an interval: a beat within 1.25 intervals of the previous one credits the whole gap as up
    ///      time; a later beat credits one interval (the machine was up when it last beat) and the rest is down.
    ///      Once tracked time exceeds the window both counters halve, so recent history weighs most.
    function accrue(
        uint256 up,
        uint256 tracked,
        uint256 elapsed,
        uint256 interval,
        uint256 window
    ) internal pure returns (uint256, uint256) {
        up += elapsed <= interval + interval / 4 ? elapsed : interval;
        tracked += elapsed;
        while (tracked > window && window != 0) {
            up /= 2;
            tracked /= 2;
        }
        return (up, tracked);
    }

    /// @dev Uptime WAD, decayed in views while the provider is silent; rounds down (never overstated).
    function uptime(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p
    ) internal view returns (uint256) {
        uint256 up = p.upSeconds;
        uint256 tracked = p.trackedSeconds;
        uint256 last = p.lastHeartbeat;
        if (last != 0) {
            uint256 interval = $.params.heartbeatIntervalSec;
            uint256 gap = block.timestamp - last;
            // A silent provider's uptime decays in views; a beat within tolerance is not yet due.
            if (gap > interval + interval / 4)
                (up, tracked) = accrue(up, tracked, gap, interval, $.params.uptimeWindowSec);
        }
        // @dev Rounds down: uptime is never overstated.
        return tracked == 0 ? 0 : (up * WAD) / tracked;
    }

    /// @dev min(rate × horizon, stake × factor) − liability, both caps rounded down. With `strict`, reverts with
    ///      the reason minting is impossible instead of returning 0.
    function mintable(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        ProviderRegistryStore.ProviderData storage p,
        address provider,
        bool strict
    ) internal view returns (uint256) {
        uint256 expiresAt = p.attestationExpiresAt;
        if (expiresAt < block.timestamp) {
            if (strict) revert IProviderRegistryErrors.ProviderNoValidAttestation(provider, expiresAt);
            return 0;
        }
        uint256 staked = p.stakedDps;
        uint256 minStake = $.params.minStakeDps;
        if (staked < minStake) {
            if (strict) revert IProviderRegistryErrors.ProviderStakeTooLow(provider, minStake, staked);
            return 0;
        }
        uint256 rateCap = (uint256(p.chPerHourWad) * $.params.mintHorizonSec) / 1 hours;
        uint256 collateralCap = (staked * $.params.collateralFactorWad) / WAD;
        uint256 cap = rateCap < collateralCap ? rateCap : collateralCap;
        uint256 liability = p.liabilityCh;
        return cap > liability ? cap - liability : 0;
    }
}
