// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IEmissionErrors} from "../../interfaces/emission/IEmissionErrors.sol";
import {IEmissionEvents} from "../../interfaces/emission/IEmissionEvents.sol";
import {EmissionStore} from "../../core/emission/EmissionStore.sol";
import {CapacitySamples} from "../CapacitySamples.sol";
import {EmissionEpochs} from "./EmissionEpochs.sol";
import {EmissionRewards} from "./EmissionRewards.sol";

/// @title EmissionSamples
/// @notice Capacity samples of the Emission module on a pointer to its storage: one sample per day of the open
///         epoch (the day's lowest attested capacity), the provider's running median as its epoch GFL and the
///         epoch's GFL total kept in step, so closing an epoch never loops over providers.
library EmissionSamples {
    using CapacitySamples for uint256[4];

    /// @notice Records `capacityPflopsWad` (≤ the 64-bit sample range, checked by the module) for `provider` in the
    ///         open epoch; the caller has closed every due epoch first.
    function record(EmissionStore.EmissionStorage storage $, address provider, uint256 capacityPflopsWad) internal {
        uint256 epoch = $.currentEpoch;
        EmissionStore.Provider storage pr = $.providers[provider];
        if (!pr.listed) {
            pr.listed = true;
            pr.rewardSlotWarm = true;
            pr.sampleEpoch = uint32(epoch);
            $.providerList.push(provider);
        } else if (pr.sampleEpoch != epoch) {
            EmissionRewards.settle($, provider, pr, epoch);
            pr.sampleEpoch = uint32(epoch);
            pr.mask = 0;
            pr.settled = false;
            pr.epochGfl = 0;
        }

        uint256 day = (block.timestamp - EmissionEpochs.start($, epoch)) / 1 days;
        // @dev samples are stored in nano-PetaFLOPs, rounded down (favours the protocol).
        uint256 sample = capacityPflopsWad / CapacitySamples.UNIT;
        (uint256 mask, bool changed, uint256 daySample) = _write(pr, day, sample);
        // @dev the epoch GFL and the open total stay in stored units (nano-PFLOPs); GFL wei only in the event.
        uint256 newGfl = pr.epochGfl;
        uint256 count;
        // @dev the open epoch's total lives in word 2 (read by the recorder check already).
        uint256 total = $.openTotalGfl;
        if (changed) {
            uint256 med;
            (med, count) = pr.samples.median(mask);
            uint256 oldGfl = newGfl;
            newGfl = count >= $.minSamples ? med : 0;
            if (newGfl != oldGfl) {
                total = total + newGfl - oldGfl;
                $.openTotalGfl = SafeCast.toUint80(total);
                pr.epochGfl = uint96(newGfl);
            }
        } else {
            // A higher reading on a day that already has one changes nothing.
            count = popcount(mask);
        }
        // @dev unchecked: samples < 2^64 and the total < 2^80 stored units, × 1e9 far below 2^256.
        unchecked {
            emit IEmissionEvents.CapacityRecorded(
                provider,
                epoch,
                day,
                daySample * CapacitySamples.UNIT,
                count,
                newGfl * CapacitySamples.UNIT,
                total * CapacitySamples.UNIT
            );
        }
    }

    /// @dev Writes day `day`'s sample: the day's lowest attested capacity (capacity guaranteed all day). Returns the
    ///      mask after, whether the ring changed, and the day's sample.
    function _write(
        EmissionStore.Provider storage pr,
        uint256 day,
        uint256 sample
    ) private returns (uint256 mask, bool changed, uint256 daySample) {
        mask = pr.mask;
        if ((mask >> day) & 1 == 0) {
            mask |= 1 << day;
            pr.mask = uint16(mask);
            pr.samples.set(day, sample);
            return (mask, true, sample);
        }
        uint256 previous = pr.samples.get(day);
        if (sample >= previous) return (mask, false, previous);
        pr.samples.set(day, sample);
        return (mask, true, sample);
    }

    /// @notice Number of set bits of `x` (days with a sample).
    function popcount(uint256 x) internal pure returns (uint256 c) {
        while (x != 0) {
            x &= x - 1;
            ++c;
        }
    }

    /// @notice Sets the minimum daily sample count (1-15) for a non-zero GFL, in force from the next epoch.
    function setMinSamples(EmissionStore.EmissionStorage storage $, uint256 value) internal {
        if (value == 0 || value > CapacitySamples.DAYS) {
            revert IEmissionErrors.EmissionInvalidParameter("minSamples", value);
        }
        $.minSamplesNext = uint8(value);
        emit IEmissionEvents.MinSamplesSet(value);
    }
}
