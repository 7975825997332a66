// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IComputeStandard} from "./IComputeStandard.sol";

/// @title IProviderRegistryEvents
/// @notice The events of IProviderRegistry (inherited by it; same selectors and topics). Code that reverts or emits
///         them names this interface: `IProviderRegistryEvents.X`.
interface IProviderRegistryEvents {
    /// @notice Emitted when a provider registers.
    /// @param provider The provider.
    /// @param index Its position in the enumerable list (0-based).
    /// @param region Region / availability-zone code.
    /// @param workloadMask Bit k set = workload class k offered.
    /// @param hardwareHash Content hash of the hardware description.
    /// @param hardwareUri Where the description lives.
    event ProviderRegistered(
        address indexed provider,
        uint256 index,
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string hardwareUri
    );
    /// @notice Emitted when a provider changes its profile.
    /// @param provider The provider.
    /// @param region New region code.
    /// @param workloadMask New workload mask.
    /// @param hardwareHash New hardware description hash.
    /// @param hardwareUri New description URI.
    event ProviderProfileUpdated(
        address indexed provider,
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string hardwareUri
    );
    /// @notice Emitted when a provider sets its ask price.
    /// @param provider The provider.
    /// @param askPriceWad USDC per CH, WAD.
    event AskPriceSet(address indexed provider, uint128 askPriceWad);
    /// @notice Emitted on stake.
    /// @param provider The provider.
    /// @param amount DPS staked.
    /// @param stakedDps Stake after.
    /// @param tier Tier after.
    event Staked(address indexed provider, uint256 amount, uint256 stakedDps, uint8 tier);
    /// @notice Emitted on an unbond request.
    /// @param provider The provider.
    /// @param amount DPS moved to unbonding.
    /// @param stakedDps Stake after.
    /// @param unbondingDps Unbonding after.
    /// @param readyAt When the whole unbonding amount becomes withdrawable.
    /// @param tier Tier after.
    event UnbondRequested(
        address indexed provider,
        uint256 amount,
        uint256 stakedDps,
        uint256 unbondingDps,
        uint256 readyAt,
        uint8 tier
    );
    /// @notice Emitted when unbonded stake is withdrawn.
    /// @param provider The provider.
    /// @param amount DPS withdrawn.
    /// @param stakedDps Stake after (unchanged).
    event Withdrawn(address indexed provider, uint256 amount, uint256 stakedDps);
    /// @notice Emitted when an attestation is accepted.
    /// @param provider The provider.
    /// @param attester The signer.
    /// @param workloadClass The class.
    /// @param nonce The nonce consumed.
    /// @param rating The rating stored: `latestVersion` is the standard version it was rated against (always the
    ///        latest at that moment), then corrected PFLOPS, CH per hour and Wh per CH.
    /// @param capacityPflopsWad Attested capacity.
    /// @param expiresAt Attestation expiry.
    event Attested(
        address indexed provider,
        address indexed attester,
        uint16 workloadClass,
        uint256 nonce,
        IComputeStandard.Rating rating,
        uint256 capacityPflopsWad,
        uint256 expiresAt
    );
    /// @notice Emitted on every heartbeat.
    /// @param provider The provider.
    /// @param samplePflopsWad Capacity sample recorded (reported, capped at the attested capacity).
    /// @param upSeconds Credited up time in the window after this beat.
    /// @param trackedSeconds Tracked time in the window after this beat.
    /// @param uptimeWad Uptime after this beat, WAD.
    event Heartbeat(
        address indexed provider,
        uint256 samplePflopsWad,
        uint256 upSeconds,
        uint256 trackedSeconds,
        uint256 uptimeWad
    );
    /// @notice Emitted when the capacity recorder reverted on a heartbeat (the heartbeat itself still counts).
    /// @param provider The provider.
    /// @param recorder The recorder that reverted.
    /// @param samplePflopsWad The sample that was not recorded.
    event CapacityRecordFailed(address indexed provider, address recorder, uint256 samplePflopsWad);
    /// @notice Emitted when a provider mints CH.
    /// @param provider The provider (liable).
    /// @param to Recipient of the CH.
    /// @param amount CH minted.
    /// @param liabilityCh Provider liability after. (CH supply after is in CHToken's CHMinted, same transaction.)
    event ProviderCHMinted(address indexed provider, address indexed to, uint256 amount, uint256 liabilityCh);
    /// @notice Emitted when a provider burns its own CH to reduce liability.
    /// @param provider The provider.
    /// @param amount CH burned.
    /// @param liabilityCh Liability after.
    /// @param boughtBackCh Cumulative bought back after.
    event CHBoughtBack(address indexed provider, uint256 amount, uint256 liabilityCh, uint256 boughtBackCh);
    /// @notice Emitted when a provider's reputation points change (issue 21 item 3; docs/compute.md "Reputation").
    /// @param provider The provider.
    /// @param points Reputation points after.
    /// @param repPct Reputation factor after, percent (its draw weight is stake × this / 100).
    event ReputationChanged(address indexed provider, uint256 points, uint256 repPct);
    /// @notice Emitted when the task registry records a task outcome.
    /// @param provider The provider.
    /// @param completed True for completed, false for failed.
    /// @param completedCount Completed after.
    /// @param failedCount Failed after.
    event TaskOutcomeRecorded(address indexed provider, bool completed, uint32 completedCount, uint32 failedCount);
    /// @notice Emitted when stake is slashed.
    /// @param provider The provider.
    /// @param by The slashing module.
    /// @param slashedDps DPS taken (≤ requested).
    /// @param finder Finder paid a fee (zero: none).
    /// @param finderFeeDps DPS paid to the finder.
    /// @param burnedDps DPS burned.
    /// @param stakedDps Stake after.
    /// @param unbondingDps Unbonding after.
    /// @param slashCount Slash count after.
    /// @param reason Hash of the reason (dispute id, delivery id…).
    event Slashed(
        address indexed provider,
        address indexed by,
        uint256 slashedDps,
        address finder,
        uint256 finderFeeDps,
        uint256 burnedDps,
        uint256 stakedDps,
        uint256 unbondingDps,
        uint32 slashCount,
        bytes32 reason
    );
    /// @notice Emitted when a redemption is assigned.
    /// @param assignmentId The id.
    /// @param provider The provider.
    /// @param chAmount CH to deliver.
    /// @param deadline Delivery deadline.
    /// @param assignedCh Provider's reserved liability after.
    /// @param openAssignments Provider's open assignments after.
    event RedemptionAssigned(
        uint256 indexed assignmentId,
        address indexed provider,
        uint256 chAmount,
        uint256 deadline,
        uint256 assignedCh,
        uint32 openAssignments
    );
    /// @notice Emitted when a delivery is accepted and its CH burned.
    /// @param assignmentId The id.
    /// @param provider The provider.
    /// @param chAmount CH burned.
    /// @param liabilityCh Liability after.
    /// @param deliveredCh Cumulative delivered after.
    event DeliveryConfirmed(
        uint256 indexed assignmentId,
        address indexed provider,
        uint256 chAmount,
        uint256 liabilityCh,
        uint256 deliveredCh
    );
    /// @notice Emitted when a provider failed to deliver an assigned redemption.
    /// @param assignmentId The id.
    /// @param provider The provider.
    /// @param recipient Compensated client.
    /// @param chAmount CH not delivered.
    /// @param indexPriceWad Oracle price used, USDC per CH.
    /// @param compensationUsdWad Value owed, USDC WAD (price × amount × (1 + penalty), rounded up).
    /// @param compensationDps DPS slashed and paid to the recipient (capped by stake).
    /// @param failedCount Failed count after.
    event DeliveryFailed(
        uint256 indexed assignmentId,
        address indexed provider,
        address indexed recipient,
        uint256 chAmount,
        uint256 indexPriceWad,
        uint256 compensationUsdWad,
        uint256 compensationDps,
        uint32 failedCount
    );
    /// @notice Emitted when tier stake thresholds change.
    /// @param thresholdsDps Stake needed for tiers 1..4 (Low, Medium, High, Ultra); below the first is Entry (0).
    event TierThresholdsSet(uint128[4] thresholdsDps);
    /// @notice Emitted when governance names the trusted TaskRegistry (see `setTrustedTaskRegistry`).
    /// @param previous The one before (zero: none).
    /// @param tasks The new one (zero: none).
    event TrustedTaskRegistrySet(address previous, address tasks);
    /// @notice Emitted when the capacity recorder (Emission) changes.
    /// @param recorder New recorder (zero: heartbeats record nothing).
    event CapacityRecorderSet(address recorder);
    /// @notice Emitted when the CH price oracle changes.
    /// @param oracle New oracle.
    event PriceOracleSet(address oracle);
    /// @notice Emitted when an assignment is released without delivery or penalty (its task ended undecided).
    /// @param assignmentId The assignment.
    /// @param provider The provider.
    /// @param chAmount CH no longer reserved.
    /// @param assignedCh The provider's reserved liability after.
    /// @param openAssignments Its open assignments after.
    event RedemptionReleased(
        uint256 indexed assignmentId,
        address indexed provider,
        uint256 chAmount,
        uint256 assignedCh,
        uint32 openAssignments
    );
    /// @notice Emitted when a provider first becomes draw-eligible (minimum stake and a live attestation) and joins
    ///         the append-only list that council draws sample (TSK-07).
    /// @param provider The provider.
    /// @param index Its index in the draw list.
    event DrawCandidateListed(address indexed provider, uint256 index);
    /// @notice Emitted when a duty (executor, council seat, stream subscription) locks stake (TSK-08).
    /// @param provider The provider.
    /// @param by The module holding the duty (TaskRegistry, StreamTasks).
    /// @param amountDps DPS locked for this duty.
    /// @param lockedDps The provider's duty-locked DPS after.
    event StakeLocked(address indexed provider, address indexed by, uint256 amountDps, uint256 lockedDps);
    /// @notice Emitted when a duty ends and releases its lock.
    /// @param provider The provider.
    /// @param by The module that held the duty.
    /// @param amountDps DPS released.
    /// @param lockedDps The provider's duty-locked DPS after.
    event StakeReleased(address indexed provider, address indexed by, uint256 amountDps, uint256 lockedDps);
}
