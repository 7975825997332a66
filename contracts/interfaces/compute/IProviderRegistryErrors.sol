// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IProviderRegistryErrors
/// @notice The errors of IProviderRegistry (inherited by it; same selectors and topics). Code that reverts or emits
///         them names this interface: `IProviderRegistryErrors.X`.
interface IProviderRegistryErrors {
    /// @notice Thrown when an address registers twice.
    /// @param provider The provider.
    error ProviderAlreadyRegistered(address provider);
    /// @notice Thrown when an action needs a registered provider.
    /// @param provider The address.
    error ProviderNotRegistered(address provider);
    /// @notice Thrown when a registration or profile declares no workload class.
    error ProviderNoWorkloads();
    /// @notice Thrown when an amount of zero is passed.
    error ProviderZeroAmount();
    /// @notice Thrown when stake is below the minimum for attesting, minting or being matched.
    /// @param provider The provider.
    /// @param required Minimum stake, DPS.
    /// @param staked Current stake, DPS.
    error ProviderStakeTooLow(address provider, uint256 required, uint256 staked);
    /// @notice Thrown when an unbond request exceeds what obligations leave unlocked.
    /// @param provider The provider.
    /// @param requested DPS requested.
    /// @param unlockable DPS that may be unbonded now.
    error ProviderStakeLocked(address provider, uint256 requested, uint256 unlockable);
    /// @notice Thrown when withdrawing before the unbonding delay has passed.
    /// @param provider The provider.
    /// @param readyAt When the unbonding stake becomes withdrawable.
    error ProviderUnbondingNotReady(address provider, uint256 readyAt);
    /// @notice Thrown when there is no unbonding stake to withdraw.
    /// @param provider The provider.
    error ProviderNothingToWithdraw(address provider);
    /// @notice Thrown when an attestation's signature deadline has passed.
    /// @param deadline The signed deadline.
    error ProviderAttestationExpired(uint256 deadline);
    /// @notice Thrown when an attestation carries a nonce other than the provider's next one (replay).
    /// @param provider The provider.
    /// @param expected The next nonce.
    /// @param given The signed nonce.
    error ProviderBadAttestationNonce(address provider, uint256 expected, uint256 given);
    /// @notice Thrown when an attestation's signer does not hold the ATTESTER role (or the signature is invalid).
    /// @param signer The recovered signer.
    error ProviderInvalidAttester(address signer);
    /// @notice Thrown when an attestation is rated against a standard version that is not the latest.
    /// @param workloadClass The class.
    /// @param given The signed version.
    /// @param latest The latest version.
    error ProviderStaleStandard(uint16 workloadClass, uint16 given, uint16 latest);
    /// @notice Thrown when an attestation names a workload class the provider did not declare.
    /// @param provider The provider.
    /// @param workloadClass The class.
    error ProviderWorkloadNotDeclared(address provider, uint16 workloadClass);
    /// @notice Thrown when an attested value does not fit its packed slot.
    error ProviderValueTooLarge();
    /// @notice Thrown when heartbeats or minting need a live attestation.
    /// @param provider The provider.
    /// @param expiresAt Expiry of the latest attestation (0 when none).
    error ProviderNoValidAttestation(address provider, uint256 expiresAt);
    /// @notice Thrown when a heartbeat comes less than half an interval after the previous one.
    /// @param provider The provider.
    /// @param nextAllowedAt Earliest timestamp of the next heartbeat.
    error ProviderHeartbeatTooSoon(address provider, uint256 nextAllowedAt);
    /// @notice Thrown when a mint exceeds min(rate × horizon, stake × collateral factor) − liability.
    /// @param provider The provider.
    /// @param requested CH requested.
    /// @param available CH mintable now.
    error ProviderMintCapExceeded(address provider, uint256 requested, uint256 available);
    /// @notice Thrown when a buy-back exceeds the provider's unassigned liability.
    /// @param provider The provider.
    /// @param amount CH offered.
    /// @param available Liability not reserved by open redemptions.
    error ProviderBuyBackExceedsLiability(address provider, uint256 amount, uint256 available);
    /// @notice Thrown when a redemption is assigned beyond the provider's unreserved liability.
    /// @param provider The provider.
    /// @param requested CH to assign.
    /// @param available Liability not yet reserved.
    error ProviderLiabilityUnavailable(address provider, uint256 requested, uint256 available);
    /// @notice Thrown when an assignment id is unknown or no longer open.
    /// @param assignmentId The id.
    /// @param status Its status (0 none, 2 delivered, 3 failed).
    error ProviderAssignmentNotOpen(uint256 assignmentId, uint8 status);
    /// @notice Thrown when a delivery failure is reported before the deadline (TSK-03).
    /// @param assignmentId The id.
    /// @param deadline The delivery deadline.
    error ProviderDeliveryNotLate(uint256 assignmentId, uint256 deadline);
    /// @notice Thrown when an assignment deadline is not in the future.
    /// @param deadline The deadline given.
    error ProviderBadDeadline(uint256 deadline);
    /// @notice Thrown when the price oracle is needed but not set.
    error ProviderOracleNotSet();
    /// @notice Thrown when parameters are out of range.
    error ProviderInvalidParams();
}
