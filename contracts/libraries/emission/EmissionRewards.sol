// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IEmissionErrors} from "../../interfaces/emission/IEmissionErrors.sol";
import {IEmissionEvents} from "../../interfaces/emission/IEmissionEvents.sol";
import {EmissionStore} from "../../core/emission/EmissionStore.sol";
import {CapacitySamples} from "../CapacitySamples.sol";
import {EmissionEpochs} from "./EmissionEpochs.sol";

/// @title EmissionRewards
/// @notice Reward accounting of the Emission module on a pointer to its storage: a provider's pending epoch
///         result (GFL balance and DPS reward, applied once, O(1)), funding of closed epochs' rewards (pool first,
///         then one mint) and keeper bounties.
library EmissionRewards {
    uint256 internal constant WAD = 1e18;

    /// @notice Applies `provider`'s pending epoch result for open epoch `epoch` (all earlier epochs closed):
    ///         accrues the reward of its sample epoch once, sets GFL to that epoch's median when it is the last
    ///         closed epoch, else to 0. Idempotent: a second call changes nothing and returns false.
    function settle(
        EmissionStore.EmissionStorage storage $,
        address provider,
        EmissionStore.Provider storage pr,
        uint256 epoch
    ) internal returns (bool) {
        uint256 sampleEpoch = pr.sampleEpoch;
        if (!pr.listed || sampleEpoch >= epoch) return false;
        // @dev epochGfl is in stored units (nano-PFLOPs): GFL wei = × UNIT.
        uint256 gflStored = pr.epochGfl;
        uint256 epochGfl;
        unchecked {
            epochGfl = gflStored * CapacitySamples.UNIT; // < 2^96 × 1e9
        }
        uint256 target = sampleEpoch + 1 == epoch ? epochGfl : 0;
        uint256 reward;
        uint256 accrued = pr.accruedDps;
        if (!pr.settled) {
            reward = epochReward(gflStored, $.epochs[sampleEpoch].rateWad);
            accrued += reward;
            pr.accruedDps = uint128(accrued);
            pr.settled = true;
        } else if (pr.gfl == target) {
            return false;
        }
        if (pr.gfl != target) {
            pr.gfl = uint96(target);
            $.gfl.setBalance(provider, target);
        }
        emit IEmissionEvents.ProviderRebalanced(
            provider,
            target == 0 ? epoch - 1 : sampleEpoch,
            target,
            reward,
            accrued
        );
        return true;
    }

    /// @notice The reward half of `settle`, for a claim: accrues `provider`'s pending epoch reward once (its sample
    ///         epoch is then settled) and leaves its GFL balance to the rebalance batch, its next heartbeat or
    ///         `rebalanceProvider` — `settle` still applies a GFL that is off its target after the reward was accrued
    ///         (docs/emission.md "Rewards and claims"). Returns the provider's accrued DPS after.
    function accrueReward(
        EmissionStore.EmissionStorage storage $,
        address provider,
        EmissionStore.Provider storage pr,
        uint256 epoch
    ) internal returns (uint256 accrued) {
        accrued = pr.accruedDps;
        uint256 sampleEpoch = pr.sampleEpoch;
        if (!pr.listed || sampleEpoch >= epoch || pr.settled) return accrued;
        uint256 reward = epochReward(pr.epochGfl, $.epochs[sampleEpoch].rateWad);
        accrued += reward;
        pr.accruedDps = uint128(accrued);
        pr.settled = true;
        emit IEmissionEvents.ProviderRebalanced(provider, sampleEpoch, pr.gfl, reward, accrued);
    }

    /// @notice A provider's reward for one closed epoch: `epochGfl` (stored units, nano-PFLOPs) × UNIT × the epoch's
    ///         rate / WAD, rounded down (favours the protocol). The one formula `settle`, `accrueReward` and the
    ///         module's `claimable` view share.
    function epochReward(uint256 epochGflStored, uint256 rateWad) internal pure returns (uint256) {
        unchecked {
            // < 2^96 stored units × 2^64 (rateWad is a uint64): no overflow. × UNIT / WAD = / (WAD / UNIT), exactly.
            return (epochGflStored * rateWad) / (WAD / CapacitySamples.UNIT);
        }
    }

    /// @notice Funds closed epochs' rewards: the reward pool (replenished DPS) pays first, only the shortfall is
    ///         minted (to this contract), so EMI-01 holds with replenishment. One mint per call, whatever the epochs.
    function fund(EmissionStore.EmissionStorage storage $) internal {
        uint256 owed = $.unfundedDps;
        if (owed == 0) return;
        uint256 pool = $.rewardPoolDps;
        uint256 fromPool = owed < pool ? owed : pool;
        uint256 minted = owed - fromPool;
        pool -= fromPool;
        $.rewardPoolDps = pool;
        $.unfundedDps = 0;
        $.fundedDps = SafeCast.toUint96(uint256($.fundedDps) + owed);
        uint256 totalMinted = $.totalMintedDps + minted;
        $.totalMintedDps = totalMinted;
        emit IEmissionEvents.RewardsFunded(owed, fromPool, minted, pool, totalMinted);
        if (minted > 0) $.dps.mint(address(this), minted);
    }

    /// @notice Caps a bounty by maxBountyDps and the keeper budget and deducts it (the caller transfers it).
    function bounty(EmissionStore.EmissionStorage storage $, uint256 amount) internal returns (uint256) {
        uint256 cap = $.bounty.maxBountyDps;
        if (amount > cap) amount = cap;
        uint256 budget = $.keeperBudgetDps;
        if (amount > budget) amount = budget;
        if (amount > 0) $.keeperBudgetDps = budget - amount;
        return amount;
    }

    /// @notice Books `dpsAmount` DPS (already transferred in) to the reward pool and keeper budget and lowers the
    ///         cumulative-GFL counter by the pool part's GFL equivalent, whose DPS value the emission bound keeps.
    function replenish(EmissionStore.EmissionStorage storage $, uint256 dpsAmount) internal {
        uint256 pool = $.rewardPoolDps;
        uint256 budget = $.keeperBudgetDps;
        {
            uint256 unaccounted = IERC20(address($.dps)).balanceOf(address(this)) - pool - budget - $.fundedDps;
            if (unaccounted < dpsAmount) revert IEmissionErrors.EmissionReplenishNotFunded(dpsAmount, unaccounted);
        }
        // @dev keeper share rounds down; the pool keeps the remainder.
        uint256 toKeeper = (dpsAmount * $.keeperShareBps) / 10_000;
        uint256 toPool = dpsAmount - toKeeper;
        uint256 gflEquivalent;
        {
            uint256 cumulative = $.cumulativeGfl;
            // @dev GFL equivalent = DPS / (share × R_n): the exact inverse of the rate in force, rounded down so the
            //      counter falls by at most what the returned DPS pays for (docs/emission.md, seed 001 §4.2).
            uint256 rate = EmissionEpochs.rate($, $.halvings);
            gflEquivalent = rate == 0 ? 0 : Math.mulDiv(toPool, WAD, rate);
            if (gflEquivalent > cumulative) gflEquivalent = cumulative;
            $.cumulativeGfl = cumulative - gflEquivalent;
            // @dev EMI-01: the offset GFL-epochs were accrued (and may already be minted) and will be paid again from
            //      the pool; keep their value in the bound, rounded up, so it never falls below the rewards ever
            //      accrued.
            $.boundAccruedDps += Math.mulDiv(rate, gflEquivalent, WAD, Math.Rounding.Ceil);
        }
        $.rewardPoolDps = pool + toPool;
        $.keeperBudgetDps = budget + toKeeper;
        $.totalReplenishedDps += dpsAmount;
        _emitReplenished($, dpsAmount, toPool, toKeeper, gflEquivalent);
    }

    /// @dev Emits Replenished with the post-state read back from storage (warm slots): the event's nine fields do not
    ///      fit the stack beside replenish's locals.
    function _emitReplenished(
        EmissionStore.EmissionStorage storage $,
        uint256 dpsAmount,
        uint256 toPool,
        uint256 toKeeper,
        uint256 gflEquivalent
    ) private {
        emit IEmissionEvents.Replenished(
            msg.sender,
            dpsAmount,
            toPool,
            toKeeper,
            gflEquivalent,
            $.cumulativeGfl,
            $.rewardPoolDps,
            $.keeperBudgetDps,
            EmissionEpochs.bound($)
        );
    }
}
