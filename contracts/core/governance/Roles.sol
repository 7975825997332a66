// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title Roles
/// @notice The one role table of the CHX protocol, as AccessManager role ids.
/// @dev Role 0 is AccessManager's ADMIN_ROLE: held by the TimelockController (governance). Every function
///      that is not mapped to another role defaults to ADMIN_ROLE, so new functions are admin-only
///      until governance maps them. PUBLIC_ROLE (type(uint64).max) marks permissionless functions.
library Roles {
    /// @notice Governance: the TimelockController (and, on local networks only, the bootstrap deployer).
    uint64 internal constant ADMIN = 0;
    /// @notice May pause features (never unpause, never move funds).
    uint64 internal constant GUARDIAN = 1;
    /// @notice Signs benchmark attestations and heartbeats (the council or an oracle).
    uint64 internal constant ATTESTER = 2;
    /// @notice Mints and burns CH: the ProviderRegistry.
    uint64 internal constant CH_MINTER = 3;
    /// @notice Mints DPS rewards and mints/burns GFL: the Emission module.
    uint64 internal constant EMISSION = 4;
    /// @notice May slash provider stake (`ProviderRegistry.slash`): the TaskRegistry (the side found wrong, a missed
    ///         deadline).
    uint64 internal constant PROVIDER_SLASHER = 5;
    /// @notice Keeper-only functions, where a permissionless version is unsafe.
    uint64 internal constant KEEPER = 6;
    /// @notice Markets allowed to open/settle positions in the ClearingHouse.
    uint64 internal constant MARKET = 7;
    /// @notice Clearing modules (LiquidationEngine, ClearingHouse) that move guarantor / insurance capital.
    uint64 internal constant CLEARING = 8;
    /// @notice The task registry's hooks into the ProviderRegistry (`recordTaskOutcome`, `assignRedemption`,
    ///         `confirmDelivery`, `reportDeliveryFailure`, `releaseRedemption`): the TaskRegistry.
    uint64 internal constant COMPUTE = 9;
    /// @notice Treasury operations (fee withdrawals to the treasury).
    uint64 internal constant TREASURY = 10;
    /// @notice Pays trading fees into the InsuranceFund (`depositFees`): the ClearingHouse and the SpotMarket. A role of
    ///         its own so fee payers never get CLEARING's power to draw on the fund.
    uint64 internal constant FEE_SOURCE = 11;
    /// @notice May slash a guarantor's DPS insurance stake (`GuarantorPool.slashDps`). Declared so that power is not
    ///         shared with PROVIDER_SLASHER; granted to no contract (governance grants it when a slasher exists).
    uint64 internal constant GUARANTOR_SLASHER = 12;
    /// @notice Records capacity samples in Emission (`recordCapacity`): the ProviderRegistry only, so no other
    ///         module can write any provider's capacity (and so its GFL and rewards).
    uint64 internal constant CAPACITY_RECORDER = 13;
    /// @notice Returns compute payments to the reward pool (`Emission.replenish`): the TaskRegistry.
    uint64 internal constant REWARD_SOURCE = 14;
    /// @notice Locks and releases provider stake for open duties (`ProviderRegistry.lockStake` / `releaseStake`,
    ///         TSK-08): the TaskRegistry (executors, councils) and StreamTasks (subscriptions).
    uint64 internal constant STAKE_LOCKER = 15;
    /// @notice Anyone.
    uint64 internal constant PUBLIC = type(uint64).max;
}
