// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IEmission} from "../../interfaces/emission/IEmission.sol";
import {IGFLToken} from "../../interfaces/tokens/IGFLToken.sol";
import {IDPSToken} from "../../interfaces/tokens/IDPSToken.sol";

/// @title EmissionStore
/// @notice The Emission module's ERC-7201 namespace and per-provider record, shared by the module and the
///         libraries that hold its mechanisms (`contracts/libraries/emission/`): epochs and halvings, rewards.
/// @dev The first words are packed by path: a claim reads word 0 (GFL token, funded reserve) and word 1 (DPS token,
///      genesis, open epoch); a heartbeat reads word 1 and word 2 (trusted recorder, minimum sample count, the open
///      epoch's GFL total). The
///      funded reserve (rewards of closed epochs not yet claimed) is 96-bit: 7.9e10 DPS, far above any supply the
///      halving schedule allows (docs/emission.md); funding beyond it reverts (SafeCast) instead of wrapping.
abstract contract EmissionStore {
    /// @dev Two words and the sample ring: word 0 is the sample state and GFL, word 1 the rewards.
    struct Provider {
        uint32 sampleEpoch;
        uint16 mask;
        bool settled;
        bool listed;
        /// @dev The sample epoch's GFL (the running median) in stored units (nano-PFLOPs, ×1e9 for GFL wei), like
        ///      the samples and the open total: a sample does no unit round trip.
        uint96 epochGfl;
        uint96 gfl;
        uint128 accruedDps;
        uint120 claimedDps;
        /// @dev set when listed so the reward slot is never zero again: the first settle then writes a non-zero
        ///      slot (2.9k) instead of a zero one (20k), which keeps a first rebalance near the steady cost.
        bool rewardSlotWarm;
        uint256[4] samples;
    }

    /// @custom:storage-location erc7201:chx.storage.Emission
    struct EmissionStorage {
        // word 0: a claim reads the token and the funded reserve together
        IGFLToken gfl;
        uint96 fundedDps;
        // word 1: every path (epoch sync) and the DPS transfers
        IDPSToken dps;
        uint64 genesisTime;
        uint32 currentEpoch;
        // word 2: a heartbeat (trusted recorder, minimum sample count, the open epoch's GFL total)
        address trustedRecorder;
        uint8 minSamples;
        uint8 minSamplesNext;
        /// @dev The open epoch's GFL total (Σ of the providers' running medians) in stored units (nano-PFLOPs, ×1e9
        ///      for GFL wei): kept in the word every sample reads anyway, moved into `epochs[e].totalGfl` at the close.
        ///      2^80 units = 1.2e15 PFLOPS, 1e8 × any plausible network; beyond it a sample reverts (SafeCast).
        uint80 openTotalGfl;
        // word 3: rates and halvings (closes, replenishment)
        uint64 baseRateWad;
        uint16 halvings;
        uint64 nextTimeHalvingAt;
        uint16 keeperShareBps;
        uint16 keeperBatchSize;
        uint256 cumulativeGfl;
        uint256 eraStartGfl;
        uint256 halvingSpanGfl;
        uint256 boundAccruedDps;
        uint256 rewardPoolDps;
        uint256 keeperBudgetDps;
        uint256 totalMintedDps;
        uint256 totalReplenishedDps;
        uint256 unfundedDps;
        uint256 rebalanceCursor;
        IEmission.BountyConfig bounty;
        mapping(uint256 epoch => IEmission.EpochInfo) epochs;
        mapping(address provider => Provider) providers;
        address[] providerList;
        // one word: the sample source and the open epoch's collection (read by every sync of a due epoch)
        /// @dev Issue 18 item 4: the capacity recorder whose rings Emission collects after each epoch (the
        ///      ProviderRegistry, by a zero-provider `recordCapacity`); zero: samples arrive through `recordCapacity`.
        address sampleSource;
        /// @dev Next index of the source's provider list the collection batch reads (reset at each close).
        uint32 collectCursor;
        /// @dev Providers collected for the open epoch (reset at each close).
        uint32 collectedCount;
        /// @dev The cursor passed the end of the source's list: every provider was visited.
        bool collectDone;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.Emission")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant EMISSION_STORAGE_LOCATION =
        0x404a79aa38836b97905b69fae1af4f085be047fdfd4dc0d44c8aa3317c5f7600;

    function _s() internal pure returns (EmissionStorage storage $) {
        assembly {
            $.slot := EMISSION_STORAGE_LOCATION
        }
    }
}
