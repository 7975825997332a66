// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IEmissionEvents
/// @notice The Emission module's events (part of IEmission; the keeper-config event, which carries a struct,
///         stays in IEmission with the struct).
interface IEmissionEvents {
    /// @notice Emitted when a capacity sample is recorded.
    /// @param provider The provider.
    /// @param epoch The epoch sampled.
    /// @param day Day of the epoch (0-14).
    /// @param daySamplePflopsWad The day's sample after this heartbeat (the day's minimum).
    /// @param sampleCount Days of this epoch with a sample.
    /// @param epochGfl The provider's median GFL for the epoch so far.
    /// @param epochTotalGfl Sum of all providers' median GFL for the epoch so far.
    event CapacityRecorded(
        address indexed provider,
        uint256 indexed epoch,
        uint256 day,
        uint256 daySamplePflopsWad,
        uint256 sampleCount,
        uint256 epochGfl,
        uint256 epochTotalGfl
    );

    /// @notice Emitted when an epoch closes.
    /// @param epoch The closed epoch.
    /// @param totalGfl The epoch's total GFL.
    /// @param rateWad Reward rate of the epoch (DPS wei per 1e18 GFL wei).
    /// @param rewardsDps Upper bound of the epoch's rewards (`totalGfl × rateWad`).
    /// @param cumulativeGfl Cumulative GFL counter after the close.
    /// @param halvings Halving count after the close.
    /// @param closedBy The caller (or the user path that closed it lazily).
    /// @param bountyDps Bounty paid to `closedBy`.
    event EpochClosed(
        uint256 indexed epoch,
        uint256 totalGfl,
        uint256 rateWad,
        uint256 rewardsDps,
        uint256 cumulativeGfl,
        uint256 halvings,
        address indexed closedBy,
        uint256 bountyDps
    );

    /// @notice Emitted when the reward ratio halves.
    /// @param halvings Halving count after this halving.
    /// @param epoch The epoch whose close applied it.
    /// @param byThreshold True when the cumulative-GFL span triggered it, false when 365 days did.
    /// @param cumulativeGfl Cumulative GFL counter at the halving.
    /// @param nextThresholdGfl Cumulative GFL that triggers the next halving.
    /// @param nextDueAt Timestamp from which the next time-triggered halving may apply.
    /// @param newRateWad The per-epoch reward rate after the halving.
    event Halved(
        uint256 indexed halvings,
        uint256 indexed epoch,
        bool byThreshold,
        uint256 cumulativeGfl,
        uint256 nextThresholdGfl,
        uint256 nextDueAt,
        uint256 newRateWad
    );

    /// @notice Emitted when a provider's epoch result is applied (GFL set, reward accrued).
    /// @param provider The provider.
    /// @param epoch The epoch rebalanced for.
    /// @param gfl The provider's GFL balance after.
    /// @param rewardDps Reward accrued for `epoch`.
    /// @param accruedDps The provider's unclaimed rewards after.
    event ProviderRebalanced(
        address indexed provider,
        uint256 indexed epoch,
        uint256 gfl,
        uint256 rewardDps,
        uint256 accruedDps
    );

    /// @notice Emitted after each collection batch of an ended epoch (`collect`, or the batch a close runs first):
    ///         the providers whose samples were collected and the per-provider bounty paid from the keeper budget.
    /// @param epoch The ended epoch being collected.
    /// @param collected Providers collected in this batch.
    /// @param keeper The caller.
    /// @param bountyDps Bounty paid (out of the keeper budget).
    event CollectionBatch(uint256 indexed epoch, uint256 collected, address indexed keeper, uint256 bountyDps);

    /// @notice Emitted after each rebalance batch.
    /// @param epoch The open epoch (providers are rebalanced for `epoch − 1`).
    /// @param fromIndex First provider index processed.
    /// @param toIndex One past the last index processed (the new cursor).
    /// @param rebalanced Providers whose state changed.
    /// @param keeper The caller.
    /// @param bountyDps Bounty paid.
    event RebalanceBatch(
        uint256 indexed epoch,
        uint256 fromIndex,
        uint256 toIndex,
        uint256 rebalanced,
        address indexed keeper,
        uint256 bountyDps
    );

    /// @notice Emitted when a provider claims (paid from rewards already funded).
    /// @param provider The provider.
    /// @param to Recipient.
    /// @param amountDps Paid.
    /// @param claimedDps The provider's lifetime claims after.
    event RewardsClaimed(address indexed provider, address indexed to, uint256 amountDps, uint256 claimedDps);

    /// @notice Emitted when closed epochs' rewards are funded: the reward pool pays first, the rest is minted.
    /// @param rewardsDps Rewards funded (Σ of the epochs' `rewardsDps` since the last funding).
    /// @param fromPoolDps Part taken from the reward pool.
    /// @param mintedDps Part newly minted to this module.
    /// @param rewardPoolDps Reward pool after.
    /// @param totalMintedDps DPS ever minted by this module after.
    event RewardsFunded(
        uint256 rewardsDps,
        uint256 fromPoolDps,
        uint256 mintedDps,
        uint256 rewardPoolDps,
        uint256 totalMintedDps
    );

    /// @notice Emitted on reward-pool replenishment.
    /// @param by The caller (task registry).
    /// @param dpsAmount DPS returned.
    /// @param toPoolDps Part added to the reward pool.
    /// @param toKeeperDps Part added to the keeper budget.
    /// @param gflEquivalent Cumulative-GFL reduction (GFL-epochs, GFL wei).
    /// @param cumulativeGfl Counter after.
    /// @param rewardPoolDps Reward pool after.
    /// @param keeperBudgetDps Keeper budget after.
    /// @param emissionBoundDps `emissionBound()` after (EMI-01: raised by the offset GFL's DPS value).
    event Replenished(
        address indexed by,
        uint256 dpsAmount,
        uint256 toPoolDps,
        uint256 toKeeperDps,
        uint256 gflEquivalent,
        uint256 cumulativeGfl,
        uint256 rewardPoolDps,
        uint256 keeperBudgetDps,
        uint256 emissionBoundDps
    );

    /// @notice Emitted when someone funds the keeper budget directly.
    /// @param by Funder.
    /// @param dpsAmount DPS added.
    /// @param keeperBudgetDps Keeper budget after.
    event KeeperBudgetFunded(address indexed by, uint256 dpsAmount, uint256 keeperBudgetDps);

    /// @notice Emitted when governance changes the cumulative-GFL span of a halving era.
    /// @param spanGfl New span (0 = time-only halvings).
    /// @param nextThresholdGfl Cumulative GFL that now triggers the next halving.
    event HalvingSpanSet(uint256 spanGfl, uint256 nextThresholdGfl);

    /// @notice Emitted when governance changes the minimum sample count (effective from the next epoch).
    /// @param minSamples New minimum.
    event MinSamplesSet(uint256 minSamples);

    /// @notice Emitted when governance registers the trusted capacity recorder.
    /// @param previousRecorder Recorder before (address(0): none).
    /// @param newRecorder Recorder after.
    event TrustedRecorderSet(address indexed previousRecorder, address indexed newRecorder);
}
