// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC5267} from "@openzeppelin/contracts/interfaces/IERC5267.sol";
import {IProviderRegistryErrors} from "./IProviderRegistryErrors.sol";
import {IProviderRegistryEvents} from "./IProviderRegistryEvents.sol";
import {IProviderRegistryViews} from "./IProviderRegistryViews.sol";

/// @title IProviderRegistry
/// @notice The supply side of CHX: providers register hardware, stake DPS (with an unbonding delay), post benchmark
///         attestations signed by the ATTESTER role (EIP-712), send heartbeats (uptime and capacity samples), build
///         a reputation, and mint CH against verified, staked capacity. Every CH is a delivery liability of the
///         provider that minted it: liability = minted − delivered − bought back, and total CH supply = Σ
///         liabilities (TSK-04).
/// @dev Units: DPS and CH amounts in token wei (18 decimals); performance and capacity PFLOPS WAD (1e18 = 1
///      PFLOPS = 1 GFL); CH rates CH per wall-clock hour, WAD; prices WAD (USDC per CH, USDC per DPS); uptime WAD.
///      Only this registry mints and burns CH, each time moving one provider's liability by the same amount, so
///      CH total supply = Σ provider liabilities (TSK-04) by construction; no separate total is stored.
///
///      Hooks for the task registry (Roles.COMPUTE): `recordTaskOutcome`, `assignRedemption`, `confirmDelivery`,
///      `reportDeliveryFailure`. Slashing for other reasons (lying in a dispute, futures delivery failure) is
///      `slash`, Roles.PROVIDER_SLASHER, with a finder fee. Redemption flow, as the task registry drives it:
///        1. a client pays a task in CH, escrowed by the task registry;
///        2. the task registry picks a provider with outstanding liability (ProviderMatcher, Delivery mode) and
///           calls `assignRedemption(provider, chAmount, deadline)` → assignment id (reserves that much liability);
///        3a. on accepted delivery it transfers `chAmount` CH to this registry and calls `confirmDelivery(id)`:
///            the registry burns that CH and lowers the provider's liability;
///        3b. after the deadline, if not delivered, it calls `reportDeliveryFailure(id, client)`: the provider is
///            slashed DPS worth `chAmount × index price × (1 + penalty)` which goes to the client; the provider's
///            liability stays (its CH is still outstanding) and the task registry returns or re-routes the
///            client's CH.
///      EIP-712 domain: ERC-5267 `eip712Domain()` (OpenZeppelin EIP712Upgradeable; name "CHX ProviderRegistry",
///      version "1").
///      Errors, events and the plain views live in `IProviderRegistryErrors` / `IProviderRegistryEvents` /
///      `IProviderRegistryViews` (inherited: one ABI).
interface IProviderRegistry is IERC5267, IProviderRegistryErrors, IProviderRegistryEvents, IProviderRegistryViews {
    /// @notice Governance parameters.
    /// @param minStakeDps Stake a provider needs to mint and be matched.
    /// @param collateralFactorWad CH of liability one staked DPS may back, WAD (liability ≤ stake × factor).
    /// @param mintHorizonSec Minting horizon: liability ≤ CH rate × horizon.
    /// @param unbondingDelaySec Delay between an unbond request and the withdrawal.
    /// @param attestationValiditySec How long an attestation backs minting and heartbeats.
    /// @param heartbeatIntervalSec Expected heartbeat period; beats closer than half of it are rejected.
    /// @param uptimeWindowSec Tracked time is halved (with up time) once it exceeds this, so uptime favours recent
    ///        history.
    /// @param finderFeeBps Share of a `slash` paid to the finder; the rest is burned.
    /// @param redemptionPenaltyBps Penalty over the index price paid to a client whose redemption failed.
    /// @param dpsPriceWad Governance reference price of DPS in USDC (WAD), converting compensation into DPS.
    struct Params {
        uint96 minStakeDps;
        uint96 collateralFactorWad;
        uint64 mintHorizonSec;
        uint64 unbondingDelaySec;
        uint64 attestationValiditySec;
        uint32 heartbeatIntervalSec;
        uint32 uptimeWindowSec;
        uint16 finderFeeBps;
        uint16 redemptionPenaltyBps;
        uint128 dpsPriceWad;
    }

    /// @notice A benchmark attestation, signed by an ATTESTER (council or oracle) over EIP-712 (SEC-03).
    /// @param provider The provider rated.
    /// @param workloadClass Workload class benchmarked (must be declared by the provider).
    /// @param standardVersion ComputeStandard version the benchmark was rated against (must be the latest).
    /// @param avgPflopsWad Measured average performance FLOPS_avg, PFLOPS WAD.
    /// @param factorsWad Normalised performance factors P_k,i, WAD.
    /// @param capacityPflopsWad Capacity the provider contributes, PFLOPS WAD (caps heartbeat samples).
    /// @param powerWattsWad Average power draw during the benchmark, watts WAD (energy grade).
    /// @param nonce The provider's next attestation nonce (`attestationNonce(provider)`).
    /// @param deadline Signature expiry timestamp.
    struct Attestation {
        address provider;
        uint16 workloadClass;
        uint16 standardVersion;
        uint256 avgPflopsWad;
        uint256[] factorsWad;
        uint256 capacityPflopsWad;
        uint256 powerWattsWad;
        uint256 nonce;
        uint256 deadline;
    }

    /// @notice Everything known about a provider (one read for UIs and tasks).
    struct ProviderInfo {
        bool registered;
        uint32 index;
        uint16 region;
        uint64 workloadMask;
        uint40 registeredAt;
        uint32 attestationNonce;
        uint128 askPriceWad;
        uint128 stakedDps;
        uint128 unbondingDps;
        uint40 unbondReadyAt;
        uint8 tier;
        uint16 workloadClass;
        uint16 standardVersion;
        uint88 chPerHourWad;
        uint88 capacityPflopsWad;
        uint40 attestedAt;
        uint40 attestationExpiresAt;
        uint8 performanceGrade;
        uint8 energyGrade;
        uint8 reliabilityGrade;
        uint128 whPerChWad;
        uint40 lastHeartbeat;
        uint128 lastSamplePflopsWad;
        uint256 uptimeWad;
        uint128 liabilityCh;
        uint128 mintedCh;
        uint128 deliveredCh;
        uint128 boughtBackCh;
        uint128 assignedCh;
        uint32 openAssignments;
        uint32 completed;
        uint32 failed;
        uint32 slashCount;
        uint128 slashedDps;
        uint256 mintableCh;
        uint128 dutyLockedDps;
    }

    /// @notice The compact profile the matcher scores.
    struct MatchingProfile {
        bool eligible;
        uint16 region;
        uint64 workloadMask;
        uint128 askPriceWad;
        uint256 uptimeWad;
        uint32 completed;
        uint32 failed;
        uint32 slashCount;
        uint128 capacityPflopsWad;
        uint128 outstandingCh;
        uint128 stakedDps;
        /// @dev The workload class of the live attestation (what the provider proved, not what it declares).
        uint16 workloadClass;
    }

    /// @notice A redemption assigned to a provider.
    /// @param provider Provider that must deliver.
    /// @param deadline Delivery deadline.
    /// @param status 0 none, 1 open, 2 delivered, 3 failed, 4 released (task ended without a verdict).
    /// @param chAmount CH to deliver.
    struct Assignment {
        address provider;
        uint40 deadline;
        uint8 status;
        uint128 chAmount;
    }

    // ─── events ────────────────────────────────────────────────────────────────────────────────────────────

    /// @notice Emitted when parameters change.
    /// @param params The new parameters.
    event ParamsSet(Params params);

    // ─── provider actions ──────────────────────────────────────────────────────────────────────────────────

    /// @notice Registers the caller as a provider and appends it to the enumerable list.
    /// @param region Region / availability-zone code (governance-published code table; 0 = unspecified).
    /// @param workloadMask Bit k set = workload class k (k < 64) offered; non-zero.
    /// @param hardwareHash Content hash of the hardware description.
    /// @param hardwareUri URI of the description (event only).
    function register(uint16 region, uint64 workloadMask, bytes32 hardwareHash, string calldata hardwareUri) external;

    /// @notice Updates the caller's region, workload classes and hardware description.
    /// @param region Region code.
    /// @param workloadMask Workload mask (non-zero).
    /// @param hardwareHash Description hash.
    /// @param hardwareUri Description URI (event only).
    function updateProfile(
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string calldata hardwareUri
    ) external;

    /// @notice Sets the caller's ask price, USDC per CH (WAD), used by matching against client budgets.
    /// @param askPriceWad Price.
    function setAskPrice(uint128 askPriceWad) external;

    /// @notice Stakes `amount` DPS (pulled with transferFrom). Feature "registry.stake".
    /// @param amount DPS.
    function stake(uint256 amount) external;

    /// @notice Moves `amount` of stake to unbonding; the whole unbonding balance becomes withdrawable
    ///         `unbondingDelaySec` after this call. Stays open when features are paused (exit).
    /// @dev Locked stake = max(liability / collateral factor (rounded up), min stake if any liability or open
    ///      assignment) + the duty locks (TSK-08: each open executor, council or stream duty locks the DPS its
    ///      fault may slash). A provider with no liability, assignment or duty may unbond everything.
    /// @param amount DPS.
    function requestUnbond(uint256 amount) external;

    /// @notice Withdraws the unbonding balance once ready. Stays open when features are paused.
    /// @dev Duty locks not covered by the remaining stake (after a slash) stay in unbonding, still slashable
    ///      (TSK-08); reverts ProviderStakeLocked when nothing is withdrawable.
    function withdrawUnbonded() external;

    /// @notice Accepts an ATTESTER-signed benchmark attestation (anyone may submit it). Feature "registry.attest".
    /// @dev Rates it with ComputeStandard at the signed (latest) version and stores the result with its version:
    ///      later versions never re-rate it. Replay-safe: EIP-712 domain (chain id, this contract), per-provider
    ///      sequential nonce, deadline, OpenZeppelin ECDSA (rejects malleable signatures).
    /// @param a The attestation.
    /// @param signature 65-byte ECDSA signature of the EIP-712 digest.
    function attest(Attestation calldata a, bytes calldata signature) external;

    /// @notice Heartbeat of the caller: updates uptime and records a capacity sample (reported capacity capped at
    ///         the attested one) with the capacity recorder (Emission), if set. Feature "registry.heartbeat".
    /// @dev If the recorder reverts, the heartbeat still succeeds and emits CapacityRecordFailed. Below the minimum
    ///      stake the sample is 0 (issue 17 item 18): uptime still counts, but unbonded capacity earns nothing.
    /// @param capacityPflopsWad Capacity currently available, PFLOPS WAD.
    function heartbeat(uint256 capacityPflopsWad) external;

    /// @notice Mints CH against the caller's verified, staked, unsold capacity. Feature "registry.mint".
    /// @dev Cap: min(chPerHour × horizon / 1 h, stake × collateral factor) − liability (both rounded down).
    /// @param chAmount CH to mint.
    /// @param to Recipient.
    function mintCH(uint256 chAmount, address to) external;

    /// @notice Burns `chAmount` of the caller's own CH, lowering its liability (buy-back). Always open.
    /// @param chAmount CH to burn (≤ liability not reserved by open redemptions).
    function buyBack(uint256 chAmount) external;

    // ─── hooks for the task registry (Roles.COMPUTE) and slashers (Roles.PROVIDER_SLASHER) ────────────────

    /// @notice Records a task outcome in the provider's reputation. Roles.COMPUTE (task registry) only.
    /// @param provider The executor.
    /// @param completed True when the task was completed and accepted; false when it failed.
    function recordTaskOutcome(address provider, bool completed) external;

    /// @notice Reserves `chAmount` of `provider`'s outstanding liability for a redemption. Roles.COMPUTE only.
    /// @dev Requires liability − already reserved ≥ chAmount; the provider's stake stays locked while any
    ///      assignment is open.
    /// @param provider The delivering provider.
    /// @param chAmount CH to deliver.
    /// @param deadline Delivery deadline (future timestamp).
    /// @return assignmentId The new assignment id (1-based).
    function assignRedemption(
        address provider,
        uint256 chAmount,
        uint256 deadline
    ) external returns (uint256 assignmentId);

    /// @notice Accepts delivery of an open assignment: burns `chAmount` CH held by this registry (the caller
    ///         transfers it first) and lowers the provider's liability. Roles.COMPUTE only.
    /// @param assignmentId The assignment.
    function confirmDelivery(uint256 assignmentId) external;

    /// @notice Releases an open assignment without delivery or penalty: its task ended with no verdict (a dispute
    ///         left undecided, TSK-05), so nothing is proven against the provider. The reservation is freed; the
    ///         liability is unchanged (the client keeps its CH). Roles.COMPUTE only.
    /// @param assignmentId The assignment.
    function releaseRedemption(uint256 assignmentId) external;

    /// @notice Reports that an assigned provider missed its deadline: slashes DPS worth
    ///         chAmount × index price × (1 + penalty) (capped by its stake) to `recipient`. Roles.COMPUTE only.
    /// @dev Reverts before the deadline (TSK-03). Liability is unchanged: the CH is still outstanding.
    /// @param assignmentId The assignment.
    /// @param recipient The client to compensate.
    /// @return compensationDps DPS paid to the recipient.
    function reportDeliveryFailure(uint256 assignmentId, address recipient) external returns (uint256 compensationDps);

    /// @notice Slashes up to `amountDps` of stake (staked first, then unbonding). Roles.PROVIDER_SLASHER only.
    ///         `finderFeeBps` of the slashed amount goes to `finder` (if non-zero); the rest is burned.
    /// @param provider The provider.
    /// @param amountDps DPS to slash.
    /// @param finder Who reported the fault (zero for none).
    /// @param reason Hash identifying the fault (dispute id, delivery id).
    /// @return slashedDps DPS actually slashed.
    function slash(
        address provider,
        uint256 amountDps,
        address finder,
        bytes32 reason
    ) external returns (uint256 slashedDps);

    /// @notice As `slash`, but the slashed DPS net of the finder fee goes to `recipient` (the party the fault harmed)
    ///         instead of being burned (issue 19: a failing futures short's slash makes the long whole first).
    ///         Roles.PROVIDER_SLASHER only.
    /// @param provider The provider.
    /// @param amountDps DPS to slash.
    /// @param finder Who reported the fault (zero for none).
    /// @param recipient Who receives the slash net of the finder fee (non-zero).
    /// @param reason Hash identifying the fault.
    /// @return slashedDps DPS actually slashed.
    /// @return paidDps DPS paid to `recipient` (slashed − finder fee).
    function slashTo(
        address provider,
        uint256 amountDps,
        address finder,
        address recipient,
        bytes32 reason
    ) external returns (uint256 slashedDps, uint256 paidDps);

    /// @notice Re-records `provider`'s draw profile from its current state (e.g. after governance changed the
    ///         minimum stake). Permissionless: it only writes the present, never a past block's profile (TSK-07).
    /// @param provider A registered provider.
    function refreshDrawProfile(address provider) external;

    /// @notice Locks `amountDps` of each provider's stake for a duty it just took (TSK-08): unbonding cannot take
    ///         it until `releaseStake`. Never reverts for lack of stake (slashes take what is there).
    ///         Roles.STAKE_LOCKER (TaskRegistry, StreamTasks) only.
    /// @param providers The providers (each registered).
    /// @param amountDps DPS per provider.
    function lockStake(address[] calldata providers, uint256 amountDps) external;

    /// @notice Releases a lock taken with `lockStake` when the duty ends (saturating: an ending path never
    ///         reverts). Roles.STAKE_LOCKER only.
    /// @param providers The providers.
    /// @param amountDps DPS per provider.
    function releaseStake(address[] calldata providers, uint256 amountDps) external;

    // ─── governance ────────────────────────────────────────────────────────────────────────────────────────

    /// @notice Sets the parameters. ADMIN only.
    /// @param p New parameters.
    function setParams(Params calldata p) external;

    /// @notice Sets the stake thresholds of tiers 1..4 (non-decreasing). ADMIN only.
    /// @param thresholdsDps Thresholds, DPS.
    function setTierThresholds(uint128[4] calldata thresholdsDps) external;

    /// @notice Names the TaskRegistry whose `lockStake`, `releaseStake` and `recordTaskOutcome` calls skip the
    ///         AccessManager check (one SLOAD instead; issue 18 gas). Zero: every caller goes through AccessManager.
    ///         Revoking the TaskRegistry's roles must be paired with clearing this. ADMIN only.
    /// @param tasks The TaskRegistry (or zero).
    function setTrustedTaskRegistry(address tasks) external;

    /// @notice Sets the capacity recorder (Emission); zero disables recording. ADMIN only.
    /// @param recorder ICapacityRecorder.
    function setCapacityRecorder(address recorder) external;

    /// @notice Sets the CH index oracle used for redemption compensation. ADMIN only.
    /// @param oracle IComputePriceOracle.
    function setPriceOracle(address oracle) external;

    // ─── views ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @notice Full record of a provider.
    /// @param provider The provider.
    /// @return info The record (zero struct when not registered).
    function providerInfo(address provider) external view returns (ProviderInfo memory info);

    /// @notice Profile the matcher scores (eligible = registered, min stake, live attestation).
    /// @param provider The provider.
    /// @return The profile.
    function matchingProfile(address provider) external view returns (MatchingProfile memory);

    /// @notice EIP-712 digest an attester signs for `a`.
    /// @param a The attestation.
    /// @return The digest.
    function attestationDigest(Attestation calldata a) external view returns (bytes32);

    /// @notice An assignment.
    /// @param assignmentId The id.
    /// @return The assignment.
    function assignment(uint256 assignmentId) external view returns (Assignment memory);

    /// @notice Current parameters.
    /// @return The parameters.
    function params() external view returns (Params memory);
}
