// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IEmissionErrors} from "../../interfaces/emission/IEmissionErrors.sol";
import {IEmissionEvents} from "../../interfaces/emission/IEmissionEvents.sol";
import {IProviderRegistryViews} from "../../interfaces/compute/IProviderRegistryViews.sol";
import {EmissionStore} from "../../core/emission/EmissionStore.sol";
import {CapacitySamples} from "../CapacitySamples.sol";
import {EmissionEpochs} from "./EmissionEpochs.sol";
import {EmissionRewards} from "./EmissionRewards.sol";
import {EmissionSamples} from "./EmissionSamples.sol";

/// @title EmissionCollect
/// @notice The collecting phase of an ended epoch (issue 18 item 4, docs/emission.md "Samples off the heartbeat"):
///         the providers' daily samples stay in the sample source's rings (the ProviderRegistry) during the epoch;
///         after its end a keeper-paged `collect` reads them by the source's list and sets each provider's epoch GFL
///         (its median, 0 below `minSamples`) and the epoch total, so the close runs on the exact total (EMI-01,
///         EMI-04) and never loops over providers in one transaction.
library EmissionCollect {
    uint256 private constant MASK64 = 0xffffffffffffffff;
    /// @dev Providers per collection batch at most (each ≈ 25k gas: its ring in the source's view, the median, its
    ///      record here): 200 × 25k = 5M gas.
    uint256 internal constant MAX_BATCH = 200;

    /// @notice Providers of the sample source `source` (never zero: both callers check it) with samples in `epoch`.
    function sampled(address source, uint256 epoch) internal view returns (uint256) {
        return IProviderRegistryViews(source).sampledCount(epoch);
    }

    /// @notice Whether the ended open epoch `epoch` still waits for providers to be collected: the source counts
    ///         more providers with samples than were collected, and the cursor has not visited the whole list.
    function pending(EmissionStore.EmissionStorage storage $, uint256 epoch) internal view returns (bool) {
        address source = $.sampleSource;
        if (source == address(0) || $.collectDone) return false;
        return sampled(source, epoch) > $.collectedCount;
    }

    /// @notice Collects up to `maxProviders` (at most MAX_BATCH) providers of the ended open epoch from the cursor:
    ///         one call to the source, whose page header carries its count (no separate `pending` read). Returns the
    ///         providers collected and whether the collection is still pending after the batch (what `pending` would
    ///         answer now: a close decides on it without asking the source again). Reverts
    ///         EmissionCollectionComplete when nothing is pending (racing keepers).
    function collect(
        EmissionStore.EmissionStorage storage $,
        uint256 maxProviders
    ) internal returns (uint256 collected, bool left) {
        uint256 epoch = $.currentEpoch;
        address source = $.sampleSource;
        uint256 cursor = $.collectCursor;
        uint256 count = $.collectedCount;
        uint256[] memory words;
        bool due = block.timestamp >= EmissionEpochs.start($, epoch + 1) && source != address(0) && !$.collectDone;
        if (due) {
            words = IProviderRegistryViews(source).capacitySamplesAt(
                cursor,
                maxProviders > MAX_BATCH ? MAX_BATCH : maxProviders,
                epoch
            );
            // @dev words[1] is the source's count of providers with samples (final: the epoch has ended).
            due = words[1] > count;
        }
        if (!due) revert IEmissionErrors.EmissionCollectionComplete(epoch);
        uint256 n = (words.length - 2) / 2;
        for (uint256 i; i < n; ++i) {
            if (_collect($, words[2 + 2 * i], words[3 + 2 * i], epoch)) ++collected;
        }
        count += collected;
        cursor += n;
        $.collectedCount = uint32(count);
        $.collectCursor = uint32(cursor);
        bool done = cursor >= words[0];
        if (done) $.collectDone = true;
        left = !done && words[1] > count;
    }

    /// @dev One provider's epoch result from its two source words (provider and mask; median and last day's sample,
    ///      stored units). A provider already on `epoch` (collected, or recorded directly) is skipped: no double
    ///      count. Its previous epoch's result is applied first, exactly as a sample of a new epoch did.
    function _collect(
        EmissionStore.EmissionStorage storage $,
        uint256 id,
        uint256 word,
        uint256 epoch
    ) private returns (bool) {
        uint256 mask = (id >> 160) & 0x7fff;
        if (mask == 0) return false;
        address provider = address(uint160(id));
        EmissionStore.Provider storage pr = $.providers[provider];
        if (!pr.listed) {
            pr.listed = true;
            pr.rewardSlotWarm = true;
            $.providerList.push(provider);
        } else {
            if (pr.sampleEpoch >= epoch) return false;
            EmissionRewards.settle($, provider, pr, epoch);
        }
        uint256 gfl = EmissionSamples.popcount(mask) >= $.minSamples ? word & MASK64 : 0;
        pr.sampleEpoch = uint32(epoch);
        pr.mask = uint16(mask);
        pr.settled = false;
        pr.epochGfl = uint96(gfl);
        uint256 total = $.openTotalGfl + gfl;
        $.openTotalGfl = SafeCast.toUint80(total);
        _recorded(provider, epoch, mask, word, gfl, total);
        return true;
    }

    /// @dev `CapacityRecorded` of a collected provider: the day is its last sampled day, with that day's sample.
    function _recorded(
        address provider,
        uint256 epoch,
        uint256 mask,
        uint256 word,
        uint256 gfl,
        uint256 total
    ) private {
        uint256 lastDay = 14;
        while ((mask >> lastDay) & 1 == 0) --lastDay;
        // @dev unchecked: samples < 2^64 and the total < 2^80 stored units, × 1e9 far below 2^256.
        unchecked {
            emit IEmissionEvents.CapacityRecorded(
                provider,
                epoch,
                lastDay,
                ((word >> 64) & MASK64) * CapacitySamples.UNIT,
                EmissionSamples.popcount(mask),
                gfl * CapacitySamples.UNIT,
                total * CapacitySamples.UNIT
            );
        }
    }
}
