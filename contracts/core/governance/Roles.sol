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
    /// @notice May slash provider stake: TaskRegistry, FuturesMarket (delivery failures).
    uint64 internal constant SLASHER = 5;
    /// @notice Keeper-only functions, where a permissionless version is unsafe.
    uint64 internal constant KEEPER = 6;
    /// @notice Markets allowed to open/settle positions in the ClearingHouse.
    uint64 internal constant MARKET = 7;
    /// @notice Clearing modules (LiquidationEngine, ClearingHouse) that move guarantor / insurance capital.
    uint64 internal constant CLEARING = 8;
    /// @notice Modules that report compute usage (task registry → provider registry, emission replenishment).
    uint64 internal constant COMPUTE = 9;
    /// @notice Treasury operations (fee withdrawals to the treasury).
    uint64 internal constant TREASURY = 10;
    /// @notice Pays trading fees into the InsuranceFund (`depositFees`): the ClearingHouse and the SpotMarket. A role of
    ///         its own so fee payers never get CLEARING's power to draw on the fund.
    uint64 internal constant FEE_SOURCE = 11;
    /// @notice Anyone.
    uint64 internal constant PUBLIC = type(uint64).max;
}
