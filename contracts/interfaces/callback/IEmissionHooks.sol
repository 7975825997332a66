// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ICapacityRecorder
/// @notice What the ProviderRegistry tells the Emission module on every attested heartbeat: the provider's
///         current capacity, sampled into the epoch's median (SPEC section 5).
interface ICapacityRecorder {
    /// @notice Records a capacity sample for `provider` in the current epoch. COMPUTE role (the registry) only.
    ///         `provider` zero: names the caller the sample source whose capacity rings Emission collects after each
    ///         epoch (issue 18 item 4; the ProviderRegistry calls it when its recorder is set).
    /// @param provider The provider (zero: attach the caller as the sample source).
    /// @param capacityPflopsWad Attested capacity in PetaFLOPs, WAD (1e18 = 1 PFLOPS = 1 GFL).
    function recordCapacity(address provider, uint256 capacityPflopsWad) external;
}

/// @title IRewardPool
/// @notice Reward-pool replenishment (seed 001 section 4.2): DPS paid for compute flows partly back to the pool.
interface IRewardPool {
    /// @notice Returns `dpsAmount` (already transferred to the Emission module by the caller) to the reward
    ///         pool and lowers the cumulative-GFL counter by its GFL equivalent. COMPUTE role only.
    /// @param dpsAmount DPS returned to the pool.
    function replenish(uint256 dpsAmount) external;
}
