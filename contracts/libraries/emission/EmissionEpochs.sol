// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IEmission} from "../../interfaces/emission/IEmission.sol";
import {IEmissionErrors} from "../../interfaces/emission/IEmissionErrors.sol";
import {IEmissionEvents} from "../../interfaces/emission/IEmissionEvents.sol";
import {EmissionStore} from "../../core/emission/EmissionStore.sol";
import {CapacitySamples} from "../CapacitySamples.sol";
import {EmissionCollect} from "./EmissionCollect.sol";

/// @title EmissionEpochs
/// @notice Epochs and halvings of the Emission module (SPEC section 5, seed 001 §3-4) on a pointer to its storage:
///         lazy epoch closes, the reward rate R_n × share, cumulative-GFL and yearly halvings, the emission bound.
/// @dev Epoch totals are maintained incrementally on every sample (the open epoch's in storage word 2), so closing an
///      epoch is O(1).
library EmissionEpochs {
    uint256 internal constant EPOCH = 15 days;
    uint256 internal constant YEAR = 365 days;
    uint256 internal constant WAD = 1e18;
    /// @dev Past 64 halvings every rate is 0 (R_0 × share < 2^64): nothing more to halve.
    uint256 internal constant MAX_HALVINGS = 64;

    /// @notice Start timestamp of `epoch`.
    function start(EmissionStore.EmissionStorage storage $, uint256 epoch) internal view returns (uint256) {
        return $.genesisTime + epoch * EPOCH;
    }

    /// @notice R_n × share as a WAD rate: base >> n (R_n = R_0 / 2^n, rounded down).
    function rate(EmissionStore.EmissionStorage storage $, uint256 n) internal view returns (uint256) {
        return n >= MAX_HALVINGS ? 0 : uint256($.baseRateWad) >> n;
    }

    /// @notice Cumulative GFL-epochs since the current era started.
    function eraProgress(EmissionStore.EmissionStorage storage $) internal view returns (uint256) {
        uint256 c = $.cumulativeGfl;
        uint256 s = $.eraStartGfl;
        return c > s ? c - s : 0;
    }

    /// @notice Upper bound of all rewards ever accrued (rounded up): closed eras plus the current era's worst case.
    function bound(EmissionStore.EmissionStorage storage $) internal view returns (uint256) {
        uint256 span = $.halvingSpanGfl;
        if (span == 0) return type(uint256).max;
        uint256 progress = eraProgress($);
        return
            $.boundAccruedDps +
            Math.mulDiv(rate($, $.halvings), (progress > span ? progress : span) + span, WAD, Math.Rounding.Ceil);
    }

    /// @notice Closes due epochs, at most `maxCloses`; when `paid`, each close earns the close bounty (capped per
    ///         call by maxBountyDps and by the keeper budget) which the caller transfers. User paths revert when more
    ///         than `maxCloses` are due, so a sample never lands in the wrong epoch. Stops (without reverting) at an
    ///         ended epoch whose samples are not collected yet (`EmissionCollect.pending`). A paid sync is only run by
    ///         `closeEpochs` once it found the open epoch's collection complete: it does not ask the source again.
    function sync(
        EmissionStore.EmissionStorage storage $,
        uint256 maxCloses,
        bool paid
    ) internal returns (uint256 bounty) {
        uint256 epoch = $.currentEpoch;
        uint256 next = start($, epoch + 1);
        if (block.timestamp < next) return 0;
        uint256 closes;
        IEmission.BountyConfig memory cfg = $.bounty;
        uint256 budget = $.keeperBudgetDps;
        // @dev only the open epoch can hold samples: the later epochs this sync closes are empty.
        uint256 total = uint256($.openTotalGfl) * CapacitySamples.UNIT;
        address source = $.sampleSource;
        while (block.timestamp >= next) {
            // @dev issue 18 item 4: an ended epoch closes only once its providers' samples are collected (the open
            //      one: as many as the source counts, or every provider visited; a later one: none to collect).
            if (source != address(0)) {
                if (
                    closes == 0
                        ? !paid && EmissionCollect.pending($, epoch)
                        : EmissionCollect.sampled(source, epoch) > 0
                ) {
                    break;
                }
            }
            if (closes == maxCloses) {
                if (paid) break;
                revert IEmissionErrors.EmissionEpochsBehind(epoch, (block.timestamp - next) / EPOCH + 1);
            }
            uint256 b;
            if (paid) {
                b = cfg.closeBountyDps;
                uint256 room = cfg.maxBountyDps - bounty;
                if (b > room) b = room;
                if (b > budget) b = budget;
                budget -= b;
                bounty += b;
            }
            _close($, epoch, next, b, total);
            total = 0;
            ++epoch;
            ++closes;
            next += EPOCH;
        }
        // @dev nothing closed (a paid call with maxCloses = 0): the open epoch, its total and the cursor stay.
        if (closes == 0) return 0;
        $.currentEpoch = uint32(epoch);
        $.keeperBudgetDps = budget;
        $.rebalanceCursor = 0;
        $.minSamples = $.minSamplesNext;
        $.openTotalGfl = 0;
        if (source != address(0)) {
            $.collectCursor = 0;
            $.collectedCount = 0;
            $.collectDone = false;
        }
    }

    /// @dev Fixes epoch `epoch`'s reward rate and applies halvings. A threshold crossed inside the epoch splits its
    ///      GFL: the part up to the threshold earns the old rate, the rest the new one (blended rate, rounded down),
    ///      so every era pays at most rate_n × span (EMI-01). A time halving applies from the next epoch.
    function _close(
        EmissionStore.EmissionStorage storage $,
        uint256 epoch,
        uint256 endsAt,
        uint256 bounty,
        uint256 total
    ) private {
        IEmission.EpochInfo storage info = $.epochs[epoch];
        info.totalGfl = uint128(total);
        (uint256 weighted, uint256 n) = _applyGfl($, epoch, total, endsAt);
        // @dev blended rate rounds down: Σ rewards ≤ Σ part × rate_n.
        uint256 rateWad = total == 0 ? rate($, n) : weighted / total;
        info.rateWad = uint64(rateWad);
        info.halvingsAfter = uint16(n);
        info.closed = true;
        $.halvings = uint16(n);
        // @dev the epoch's rewards, rounded down, bound Σ provider rewards (each rounded down); owed until funded.
        uint256 rewards = (total * rateWad) / WAD;
        $.unfundedDps += rewards;
        emit IEmissionEvents.EpochClosed(epoch, total, rateWad, rewards, $.cumulativeGfl, n, msg.sender, bounty);
    }

    /// @dev Adds the epoch's GFL to the cumulative counter, halving at each threshold crossed (and otherwise at
    ///      most once by time). Returns Σ part × rate (GFL wei × WAD) and the halving count after.
    function _applyGfl(
        EmissionStore.EmissionStorage storage $,
        uint256 epoch,
        uint256 total,
        uint256 endsAt
    ) private returns (uint256 weighted, uint256 n) {
        n = $.halvings;
        uint256 startN = n;
        uint256 cumulative = $.cumulativeGfl;
        uint256 span = $.halvingSpanGfl;
        while (span > 0 && n < MAX_HALVINGS && cumulative + total >= $.eraStartGfl + span) {
            uint256 threshold = $.eraStartGfl + span;
            uint256 part = threshold > cumulative ? threshold - cumulative : 0;
            weighted += part * rate($, n);
            cumulative += part;
            total -= part;
            $.cumulativeGfl = cumulative;
            n = _halve($, epoch, n, true, endsAt + YEAR);
        }
        weighted += total * rate($, n);
        $.cumulativeGfl = cumulative + total;
        if (n == startN && n < MAX_HALVINGS && endsAt >= $.nextTimeHalvingAt) {
            // @dev nominal anchoring: the next time halving is due a year after this one was due (no drift).
            n = _halve($, epoch, n, false, uint256($.nextTimeHalvingAt) + YEAR);
        }
    }

    function _halve(
        EmissionStore.EmissionStorage storage $,
        uint256 epoch,
        uint256 n,
        bool byThreshold,
        uint256 nextDueAt
    ) private returns (uint256) {
        uint256 cumulative = $.cumulativeGfl;
        // @dev the bound rounds up: it is an upper bound.
        $.boundAccruedDps += Math.mulDiv(rate($, n), eraProgress($), WAD, Math.Rounding.Ceil);
        $.eraStartGfl = cumulative;
        $.nextTimeHalvingAt = uint64(nextDueAt);
        ++n;
        uint256 span = $.halvingSpanGfl;
        emit IEmissionEvents.Halved(
            n,
            epoch,
            byThreshold,
            cumulative,
            span == 0 ? type(uint256).max : cumulative + span,
            nextDueAt,
            rate($, n)
        );
        return n;
    }

    /// @notice Sets the cumulative-GFL span of a halving era (0 = time halvings only).
    function setHalvingSpan(EmissionStore.EmissionStorage storage $, uint256 spanGfl) internal {
        $.halvingSpanGfl = spanGfl;
        emit IEmissionEvents.HalvingSpanSet(spanGfl, spanGfl == 0 ? type(uint256).max : $.eraStartGfl + spanGfl);
    }
}
