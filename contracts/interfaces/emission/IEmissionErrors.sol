// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IEmissionErrors
/// @notice The Emission module's custom errors (part of IEmission; selectors unchanged by the split).
interface IEmissionErrors {
    /// @notice Thrown when closing an epoch that is not over yet.
    /// @param epoch The open epoch.
    /// @param endsAt Timestamp when it may be closed.
    error EmissionEpochNotDue(uint256 epoch, uint256 endsAt);

    /// @notice Thrown when a user path finds more due epochs than it may close in one call.
    /// @param currentEpoch The open epoch on record.
    /// @param dueEpochs How many epochs are due; call `closeEpochs` first.
    error EmissionEpochsBehind(uint256 currentEpoch, uint256 dueEpochs);

    /// @notice Thrown when a rebalance batch finds nothing left to do for the current epoch.
    /// @param epoch The open epoch (the batch would rebalance for `epoch − 1`).
    error EmissionRebalanceComplete(uint256 epoch);

    /// @notice Thrown when a capacity sample does not fit the 64-bit nano-PetaFLOP sample ring.
    /// @param provider The provider.
    /// @param capacityPflopsWad The sample.
    /// @param maxPflopsWad The largest accepted sample.
    error EmissionCapacityTooLarge(address provider, uint256 capacityPflopsWad, uint256 maxPflopsWad);

    /// @notice Thrown when `replenish` is called before the DPS was transferred in.
    /// @param dpsAmount DPS claimed to be returned.
    /// @param unaccountedDps DPS the module holds beyond its pool and keeper budget.
    error EmissionReplenishNotFunded(uint256 dpsAmount, uint256 unaccountedDps);

    /// @notice Thrown when a parameter is out of range.
    /// @param name The parameter.
    /// @param value The rejected value.
    error EmissionInvalidParameter(bytes32 name, uint256 value);

    /// @notice Thrown by `performUpkeep` when the payload names no action.
    /// @param action The unknown action byte.
    error EmissionUnknownUpkeep(uint8 action);

    /// @notice The ended epoch still waits for its capacity collection (`collect`): it cannot close, and a sample for
    ///         a later epoch cannot be recorded yet.
    /// @param epoch The ended, uncollected epoch.
    error EmissionCollectionPending(uint256 epoch);

    /// @notice Nothing left to collect for the ended epoch (or it has not ended, or there is no sample source).
    /// @param epoch The open epoch.
    error EmissionCollectionComplete(uint256 epoch);
}
