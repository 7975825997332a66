// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ICapacityRecorder, IRewardPool} from "../callback/IEmissionHooks.sol";
import {IEmissionErrors} from "./IEmissionErrors.sol";
import {IEmissionEvents} from "./IEmissionEvents.sol";

/// @title IEmission
/// @notice GFL/DPS emission (SPEC section 5, seed 001 sections 3-4): 15-day epochs, per-provider daily capacity
///         samples, median rebalancing of GFL (paged, idempotent, lazy), DPS rewards of
///         `rewardShare × GFL × R_n` per epoch with `R_n = R_0 / 2^n`, halvings at the first of 365 days or a
///         cumulative-GFL span, pull-based O(1) claims, reward-pool replenishment and keeper checkers.
/// @dev Units: GFL and capacities in wei of GFL (1e18 = 1 PetaFLOP); DPS in wei; rates in WAD (DPS wei per
///      1e18 GFL wei per epoch). Cumulative GFL is measured in GFL-epochs (sum over closed epochs of their
///      total GFL). See docs/emission.md.
interface IEmission is ICapacityRecorder, IRewardPool, IEmissionErrors, IEmissionEvents {
    // ------------------------------------------------------------------ structs

    /// @notice Per-epoch record, written when the epoch closes.
    /// @param totalGfl Sum of the providers' GFL for the epoch (the median of each provider's samples).
    /// @param rateWad DPS wei paid per 1e18 GFL wei held for this epoch (blended when a threshold is crossed).
    /// @param halvingsAfter Halving count in force after this epoch's close.
    /// @param closed Whether the epoch is closed.
    struct EpochInfo {
        uint128 totalGfl;
        uint64 rateWad;
        uint16 halvingsAfter;
        bool closed;
    }

    /// @notice A provider's emission state.
    /// @param sampleEpoch Epoch the sample ring currently holds.
    /// @param sampleCount Number of days of `sampleEpoch` with a sample.
    /// @param settled Whether `sampleEpoch`'s result has been applied (GFL set, reward accrued).
    /// @param epochGfl The GFL the ring currently yields (median of the samples, or 0 below the minimum count).
    /// @param gfl The provider's GFL balance as last set by this module.
    /// @param accruedDps Rewards accrued and not yet claimed.
    /// @param claimedDps Rewards claimed over the provider's lifetime.
    struct ProviderInfo {
        uint32 sampleEpoch;
        uint8 sampleCount;
        bool settled;
        uint256 epochGfl;
        uint256 gfl;
        uint256 accruedDps;
        uint256 claimedDps;
    }

    /// @notice Initialisation parameters.
    /// @param gfl The GFL token (this module needs the EMISSION role on it).
    /// @param dps The DPS token (EMISSION role for `mint`).
    /// @param genesisTime Start of epoch 0 (0 = the initialisation block).
    /// @param rewardShareBps Share of GFL paid per epoch (2,000 = 20 %).
    /// @param initialRatioWad R_0, DPS per GFL (1e16 = 1/100).
    /// @param halvingSpanGfl Cumulative GFL-epochs per halving era (0 = time only).
    /// @param minSamples Minimum daily samples in an epoch for a non-zero GFL (1-15).
    /// @param bounty Keeper bounties.
    /// @param keeperShareBps Share of replenished DPS for the keeper budget.
    /// @param keeperBatchSize Providers per batch proposed by the checkers.
    struct InitParams {
        address gfl;
        address dps;
        uint64 genesisTime;
        uint256 rewardShareBps;
        uint256 initialRatioWad;
        uint256 halvingSpanGfl;
        uint256 minSamples;
        BountyConfig bounty;
        uint256 keeperShareBps;
        uint256 keeperBatchSize;
    }

    /// @notice Governance-set keeper bounty parameters (DPS wei, paid from the keeper budget).
    /// @param closeBountyDps Paid to whoever closes a due epoch.
    /// @param perProviderBountyDps Paid per provider actually rebalanced by a batch.
    /// @param maxBountyDps Cap on any single call's bounty.
    struct BountyConfig {
        uint96 closeBountyDps;
        uint96 perProviderBountyDps;
        uint96 maxBountyDps;
    }

    /// @notice Emitted when governance changes keeper parameters.
    /// @param bounty New bounty configuration.
    /// @param keeperShareBps Share of replenishment routed to the keeper budget.
    /// @param keeperBatchSize Batch size the checkers propose.
    event KeeperConfigSet(BountyConfig bounty, uint256 keeperShareBps, uint256 keeperBatchSize);

    // ------------------------------------------------------------------ actions

    /// @notice Closes the open epoch once it is over and pays the caller the close bounty. Permissionless.
    /// @return bountyDps Bounty paid.
    function closeEpoch() external returns (uint256 bountyDps);

    /// @notice Closes up to `maxEpochs` (at most 256) due epochs (catch-up after a long pause). Permissionless; a
    ///         close bounty per epoch closed, capped per call.
    /// @param maxEpochs Upper bound of epochs to close.
    /// @return closed Number of epochs closed.
    function closeEpochs(uint256 maxEpochs) external returns (uint256 closed);

    /// @notice Rebalances up to `maxProviders` (at most 200) providers from the epoch's cursor for the last closed epoch and
    ///         pays a bounty per provider actually changed. Permissionless; reverts with
    ///         EmissionRebalanceComplete once every provider is done.
    /// @param maxProviders Caller-chosen batch bound.
    /// @return rebalanced Providers whose state changed.
    function rebalance(uint256 maxProviders) external returns (uint256 rebalanced);

    /// @notice Collects up to `maxProviders` (at most 200) providers' samples of the ended open epoch from the sample
    ///         source (the ProviderRegistry's capacity rings, by its list from the collection cursor): each provider
    ///         with samples in it, not collected yet, gets its median as the epoch's GFL, added to the epoch's total;
    ///         the epoch closes once every provider with samples is collected (docs/emission.md "Samples off the
    ///         heartbeat"). Permissionless; pays the per-provider bounty per provider collected; reverts with
    ///         EmissionCollectionComplete when nothing is left to collect.
    /// @param maxProviders Caller-chosen batch bound.
    /// @return collected Providers collected.
    function collect(uint256 maxProviders) external returns (uint256 collected);

    /// @notice Applies any pending epoch result of `provider` (what a batch would do for it). Permissionless.
    /// @param provider The provider.
    function rebalanceProvider(address provider) external;

    /// @notice Claims the caller's accrued rewards (settling its last epoch lazily). O(1): a transfer of rewards
    ///         funded at epoch close (funds them itself when no keeper has).
    /// @param to Recipient.
    /// @return amountDps Paid (0 when nothing is due).
    function claim(address to) external returns (uint256 amountDps);

    /// @notice Adds DPS to the keeper bounty budget (pulled with transferFrom).
    /// @param dpsAmount DPS to add.
    function fundKeeperBudget(uint256 dpsAmount) external;

    // ------------------------------------------------------------------ governance

    /// @notice Sets the cumulative-GFL span after which a halving triggers (0 = time only). ADMIN.
    /// @param spanGfl GFL-epochs (GFL wei) per era.
    function setHalvingSpan(uint256 spanGfl) external;

    /// @notice Sets the minimum daily samples for a non-zero epoch GFL, effective from the next epoch. ADMIN.
    /// @param minSamples 1-15.
    function setMinSamples(uint256 minSamples) external;

    /// @notice Registers the capacity recorder (the ProviderRegistry), whose `recordCapacity` calls pass with one
    ///         SLOAD instead of an AccessManager call; holders of the role mapped to `recordCapacity` still may
    ///         call it. ADMIN role (governance) only; address(0) removes it.
    /// @param recorder The trusted recorder.
    function setTrustedRecorder(address recorder) external;

    /// @notice Sets keeper bounties, the replenishment share routed to the keeper budget and the batch size
    ///         the checkers propose. ADMIN.
    /// @param bounty Bounty configuration.
    /// @param keeperShareBps Share of replenished DPS for the keeper budget (≤ 1,000 = 10 %).
    /// @param keeperBatchSize Providers per proposed batch (1-200).
    function setKeeperConfig(BountyConfig calldata bounty, uint256 keeperShareBps, uint256 keeperBatchSize) external;

    // ------------------------------------------------------------------ keeper checkers

    /// @notice Gelato-style checker: the next action (close or a rebalance batch) as calldata for this contract.
    /// @return canExec True when there is work.
    /// @return execPayload Calldata (`closeEpochs` or `rebalance`), or a reason string when there is none.
    function checker() external view returns (bool canExec, bytes memory execPayload);

    /// @notice Chainlink Automation check.
    /// @param checkData Ignored.
    /// @return upkeepNeeded True when there is work.
    /// @return performData Encoded (action, argument) for `performUpkeep`.
    function checkUpkeep(bytes calldata checkData) external view returns (bool upkeepNeeded, bytes memory performData);

    /// @notice Chainlink Automation perform: runs the action `checkUpkeep` returned (re-validated on chain).
    /// @param performData Encoded (action, argument).
    function performUpkeep(bytes calldata performData) external;

    // ------------------------------------------------------------------ views

    /// @notice The open epoch on record (epochs before it are closed).
    /// @return Epoch index.
    function currentEpoch() external view returns (uint256);

    /// @notice Start timestamp of `epoch`.
    /// @param epoch Epoch index.
    /// @return Timestamp.
    function epochStart(uint256 epoch) external view returns (uint256);

    /// @notice Whether the open epoch may be closed.
    /// @return True when due.
    function epochDue() external view returns (bool);

    /// @notice The record of `epoch` (totalGfl is the running total while it is open).
    /// @param epoch Epoch index.
    /// @return The epoch record.
    function epochInfo(uint256 epoch) external view returns (EpochInfo memory);

    /// @notice A provider's state.
    /// @param provider The provider.
    /// @return The state.
    function providerInfo(address provider) external view returns (ProviderInfo memory);

    /// @notice A provider's daily samples for its sample epoch (0 where the day has none; see `sampleMask`).
    /// @param provider The provider.
    /// @return epoch The epoch of the samples.
    /// @return mask Bit d set when day d has a sample.
    /// @return samplesPflopsWad The 15 daily samples.
    function samplesOf(
        address provider
    ) external view returns (uint256 epoch, uint256 mask, uint256[15] memory samplesPflopsWad);

    /// @notice Rewards `provider` could claim now (including a settled-on-claim epoch).
    /// @param provider The provider.
    /// @return DPS wei.
    function claimable(address provider) external view returns (uint256);

    /// @notice Number of providers that ever recorded a sample.
    /// @return Count.
    function providerCount() external view returns (uint256);

    /// @notice The provider at `index` in the rebalance order.
    /// @param index Index.
    /// @return Provider address.
    function providerAt(uint256 index) external view returns (address);

    /// @notice Rebalance cursor for the open epoch and the number of providers to page through.
    /// @return cursor Next index a batch processes.
    /// @return total Providers in the set.
    function rebalanceProgress() external view returns (uint256 cursor, uint256 total);

    /// @notice Halving count in force.
    /// @return Count.
    function halvings() external view returns (uint256);

    /// @notice Per-epoch reward rate after `n` halvings: `rewardShare × R_0 / 2^n` (WAD).
    /// @param n Halving count.
    /// @return DPS wei per 1e18 GFL wei per epoch.
    function rewardRateWad(uint256 n) external view returns (uint256);

    /// @notice Cumulative-GFL counter (net of replenishment) and the value that triggers the next halving.
    /// @return cumulativeGfl Counter.
    /// @return nextThresholdGfl Next threshold (type(uint256).max when time-only).
    /// @return nextTimeHalvingAt Timestamp from which a time halving applies at the next epoch close.
    function halvingState()
        external
        view
        returns (uint256 cumulativeGfl, uint256 nextThresholdGfl, uint256 nextTimeHalvingAt);

    /// @notice The geometric bound on DPS this module can ever accrue, and so mint, under the current span:
    ///         `Σ_{k<n} rate_k × progress_k + Σ offsets + rate_n × max(span, progress_n) + rate_n × span` (EMI-01),
    ///         where progress_k is the net cumulative GFL of era k, each offset is a replenishment's
    ///         `rate × gflEquivalent` and `Σ_{k>n} rate_k ≤ rate_n`. type(uint256).max when span is 0 (time-only
    ///         halvings bound emission per year, not in total).
    /// @return DPS wei.
    function emissionBound() external view returns (uint256);

    /// @notice Pool and accounting totals.
    /// @return rewardPoolDps DPS held for rewards (replenished, not yet paid).
    /// @return keeperBudgetDps DPS held for keeper bounties.
    /// @return totalMintedDps DPS ever minted by this module.
    /// @return totalReplenishedDps DPS ever replenished.
    function pools()
        external
        view
        returns (uint256 rewardPoolDps, uint256 keeperBudgetDps, uint256 totalMintedDps, uint256 totalReplenishedDps);

    /// @notice Rewards held for claims (funded) and owed by closed epochs but not yet funded.
    /// @return fundedDps DPS held for claims.
    /// @return unfundedDps DPS to fund (pool first, then mint) at the next keeper call or claim.
    function rewardReserves() external view returns (uint256 fundedDps, uint256 unfundedDps);

    /// @notice Keeper parameters.
    /// @return bounty Bounty configuration.
    /// @return keeperShareBps Replenishment share for the keeper budget.
    /// @return keeperBatchSize Batch size the checkers propose.
    function keeperConfig()
        external
        view
        returns (BountyConfig memory bounty, uint256 keeperShareBps, uint256 keeperBatchSize);

    /// @notice Minimum daily samples for a non-zero GFL in the open epoch, and the value for the next epoch.
    /// @return current In force.
    /// @return next From the next epoch.
    function minSamples() external view returns (uint256 current, uint256 next);

    /// @notice The capacity recorder governance registered (address(0): none).
    /// @return The trusted recorder.
    function trustedRecorder() external view returns (address);
}
