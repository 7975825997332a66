// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Checkpoints} from "@openzeppelin/contracts/utils/structs/Checkpoints.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";

/// @title ProviderRegistryStore
/// @notice The ProviderRegistry's ERC-7201 namespace and the per-provider record, shared by the registry and the
///         libraries that hold its mechanisms (`contracts/libraries/compute/`): stake, attestation, redemption.
/// @dev Per-provider state is packed so the hot paths touch few slots: a heartbeat reads the attestation slot and
///      rewrites the heartbeat slot; a mint reads the attestation and stake slots and rewrites the liability slot.
abstract contract ProviderRegistryStore {
    /// @dev Slot layout is deliberate (see contract @dev); fields are append-only.
    struct ProviderData {
        // slot 0 — identity (written at registration)
        uint32 index1;
        uint16 region;
        uint40 registeredAt;
        uint32 openAssignments;
        uint128 askPriceWad;
        // slot 1 — attestation core (read by heartbeat and mint)
        uint88 chPerHourWad;
        uint88 capacityPflopsWad;
        uint40 attestationExpiresAt;
        uint16 workloadClass;
        uint16 standardVersion;
        // slot 2 — profile and attestation detail (non-zero from registration: cheap first attestation)
        uint64 workloadMask;
        uint32 attestationNonce;
        uint40 attestedAt;
        uint96 whPerChWad;
        // slot 3 — heartbeat
        uint40 lastHeartbeat;
        uint48 upSeconds;
        uint48 trackedSeconds;
        uint88 lastSamplePflopsWad;
        /// @dev Issue 18 item 4: the capacity-ring tag (`CapacityRings`): `epoch + 1` of the provider's latest
        ///      sampled recorder epoch and its day mask, in the slot every beat writes anyway.
        uint32 sampleTag;
        // slot 4 — stake and liability together: a mint reads and writes this one slot
        uint128 stakedDps;
        uint128 liabilityCh;
        // slot 5
        uint128 unbondingDps;
        uint128 assignedCh;
        // slot 6 — TSK-04: minted = liability + delivered + boughtBack (derived, not stored)
        uint128 deliveredCh;
        uint128 boughtBackCh;
        // slot 7
        uint128 slashedDps;
        uint40 unbondReadyAt;
        // slot 8 — duties, outcomes and the draw index together: a lock, a release and an outcome touch one slot,
        // never zero once the provider is draw-listed (a first lock or a first completion writes no fresh slot)
        /// @dev TSK-08: Σ DPS locked by open duties (executor, council, stream).
        uint96 dutyLockedDps;
        uint32 slashCount;
        /// @dev TSK-07: 1-based index in `drawList` (0: never eligible yet; non-zero implies registered).
        uint32 drawIndex1;
        uint32 completed;
        uint32 failed;
        /// @dev Issue 21 item 3: reputation points (≤ ProviderDraw.REP_MAX_POINTS; one per reputation day with a
        ///      completed task, −REP_FAIL_PENALTY per failure) and the 1-based day index of the last point.
        uint16 repPoints;
        uint16 repDay;
        // slot 9 — TSK-07: DrawProfile words by block number (what a draw committed at a block reads)
        Checkpoints.Trace208 drawTrace;
    }

    /// @custom:storage-location erc7201:chx.storage.ProviderRegistry
    struct ProviderRegistryStorage {
        IProviderRegistry.Params params;
        uint128[4] tierThresholdsDps;
        address ch;
        address dps;
        address standard;
        /// @dev Copy of params.attestationValiditySec packed beside `standard`: attest reads one slot for both.
        uint64 attestationValiditySec;
        address recorder;
        /// @dev The recorder's genesis (Emission: `epochStart(0)`; 0 for a recorder without epochs), packed beside
        ///      `recorder`: a beat derives the recorder's epoch and day from it.
        uint32 recorderGenesis;
        /// @dev Copies of params.heartbeatIntervalSec and params.uptimeWindowSec packed beside `recorder`: a heartbeat
        ///      reads one slot for the recorder, its day boundary and its own timing.
        uint32 heartbeatIntervalSec;
        uint32 uptimeWindowSec;
        address oracle;
        uint256 assignmentCount;
        address[] list;
        mapping(address provider => ProviderData) providers;
        mapping(uint256 id => IProviderRegistry.Assignment) assignments;
        /// @dev TSK-07: append-only list of providers that were ever draw-eligible (min stake and a live
        ///      attestation); draws sample indices below the length at their commit block. Entry: the provider (bits
        ///      0..159), the block of its last draw-weight change (160..207; 0: unknown) and that weight (208..255), so
        ///      a sample a draw rejects by weight reads this one slot (ProviderDraw.entry, issue 21 drawCouncil gas).
        uint256[] drawList;
        /// @dev Issue 21 item 3: the largest (capped) stake weight at the neutral reputation factor ever recorded, by
        ///      block number: a draw committed at block B accepts a sampled entry with probability
        ///      min(weight, ref) / ref, ref this value as of B.
        Checkpoints.Trace208 drawMaxWeight;
        /// @dev The TaskRegistry governance named (`setTrustedTaskRegistry`): its duty and outcome hooks pass with one
        ///      SLOAD instead of the AccessManager call (issue 18 gas; Emission's trusted-recorder pattern).
        address trustedTaskRegistry;
        /// @dev Issue 18 item 4 (docs/emission.md "Samples off the heartbeat"): each provider's daily capacity
        ///      samples, two rings by recorder-epoch parity (`CapacityRings`), collected by Emission after the epoch.
        mapping(address provider => uint256[4][2]) capacityRings;
        /// @dev Providers with at least one sample in a recorder epoch (final when the epoch ends): Emission closes
        ///      the epoch once it has collected that many (or visited every provider).
        mapping(uint256 epoch => uint256) sampledCount;
        /// @dev Cached from the recorder (`IEmission.currentEpoch`): every epoch below it is collected, so a ring
        ///      holding one may be reused. Refreshed only when a beat finds a ring blocked.
        uint32 collectedBelow;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.ProviderRegistry")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant PROVIDER_REGISTRY_STORAGE_LOCATION =
        0x57910e868696b19b0f1bc6634dc4c53f36fe0c37f0a005cc52dcb79aa46e4f00;

    uint256 internal constant WAD = 1e18;
    uint256 internal constant BPS = 10_000;

    uint8 internal constant ASSIGNMENT_OPEN = 1;
    uint8 internal constant ASSIGNMENT_DELIVERED = 2;
    uint8 internal constant ASSIGNMENT_FAILED = 3;

    function _s() internal pure returns (ProviderRegistryStorage storage $) {
        assembly {
            $.slot := PROVIDER_REGISTRY_STORAGE_LOCATION
        }
    }
}
