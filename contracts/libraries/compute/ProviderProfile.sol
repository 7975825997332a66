// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryErrors} from "../../interfaces/compute/IProviderRegistryErrors.sol";
import {IProviderRegistryEvents} from "../../interfaces/compute/IProviderRegistryEvents.sol";
import {ICHToken} from "../../interfaces/tokens/ICHToken.sol";
import {IEmission} from "../../interfaces/emission/IEmission.sol";
import {ICapacityRecorder} from "../../interfaces/callback/IEmissionHooks.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";
import {CapacitySamples} from "../CapacitySamples.sol";
import {CapacityRings} from "../emission/CapacityRings.sol";

/// @title ProviderProfile
/// @notice The ProviderRegistry's cold paths: registration, profile and ask price, CH buy-back bookkeeping and
///         governance parameters. Linked as an external library (delegatecall: the registry's storage and
///         `msg.sender`); the registry keeps access control, pauses, the reentrancy guard and the recorder switch.
library ProviderProfile {
    uint256 private constant BPS = 10_000;

    /// @notice Registers the caller (reverts when already registered).
    function register(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string calldata hardwareUri
    ) external {
        if (workloadMask == 0) revert IProviderRegistryErrors.ProviderNoWorkloads();
        ProviderRegistryStore.ProviderData storage p = $.providers[msg.sender];
        if (p.index1 != 0) revert IProviderRegistryErrors.ProviderAlreadyRegistered(msg.sender);
        $.list.push(msg.sender);
        uint256 index = $.list.length - 1;
        p.index1 = uint32(index + 1);
        p.region = region;
        p.registeredAt = uint40(block.timestamp);
        p.workloadMask = workloadMask;
        emit IProviderRegistryEvents.ProviderRegistered(
            msg.sender,
            index,
            region,
            workloadMask,
            hardwareHash,
            hardwareUri
        );
    }

    /// @notice Updates the caller's region, workloads and hardware description.
    function updateProfile(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string calldata hardwareUri
    ) external {
        if (workloadMask == 0) revert IProviderRegistryErrors.ProviderNoWorkloads();
        ProviderRegistryStore.ProviderData storage p = registered($, msg.sender);
        p.region = region;
        p.workloadMask = workloadMask;
        emit IProviderRegistryEvents.ProviderProfileUpdated(
            msg.sender,
            region,
            workloadMask,
            hardwareHash,
            hardwareUri
        );
    }

    /// @notice Sets the caller's ask price.
    function setAskPrice(ProviderRegistryStore.ProviderRegistryStorage storage $, uint128 askPriceWad) external {
        registered($, msg.sender).askPriceWad = askPriceWad;
        emit IProviderRegistryEvents.AskPriceSet(msg.sender, askPriceWad);
    }

    /// @notice Sets the capacity recorder and its genesis: the recorder's epochs (15 days) and days start at
    ///         IEmission.epochStart(0) (0 for a recorder without epochs; a failing read counts as 0), and attaches
    ///         this registry to it as the sample source it collects from (a zero-provider `recordCapacity`).
    function setCapacityRecorder(ProviderRegistryStore.ProviderRegistryStorage storage $, address recorder) external {
        uint256 genesis;
        (bool ok, bytes memory ret) = recorder.staticcall(abi.encodeCall(IEmission.epochStart, (0)));
        if (ok && ret.length >= 32) genesis = abi.decode(ret, (uint256));
        if (genesis > block.timestamp) genesis = 0;
        $.recorder = recorder;
        $.recorderGenesis = uint32(genesis);
        $.collectedBelow = 0;
        // @dev Emission collects the samples from here: the registry names itself its sample source, a zero-provider
        //      `recordCapacity` (allowed to a capacity recorder); whatever the outcome (a recorder without sources).
        if (recorder != address(0)) {
            (ok, ) = recorder.call(abi.encodeCall(ICapacityRecorder.recordCapacity, (address(0), 0)));
        }
        emit IProviderRegistryEvents.CapacityRecorderSet(recorder);
    }

    /// @notice Writes the heartbeat sample `sampleWad` of `provider` as day `day` of recorder epoch `epoch` into its
    ///         capacity ring (`CapacityRings`: the day's lowest beat; counted in `sampledCount` on its first sample
    ///         of the epoch). A ring still holding an older epoch Emission has not collected yet is kept and this
    ///         beat's sample dropped and logged (`CapacityRecordFailed`), so the collection never loses a sample.
    function recordSample(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider,
        uint256 epoch,
        uint256 day,
        uint256 sampleWad
    ) external {
        ProviderRegistryStore.ProviderData storage p = $.providers[provider];
        // @dev the usual beat (same epoch) never needs the collected epoch: it is read only when a ring is blocked.
        (uint256 next, uint8 outcome) = _write($, provider, epoch, day, sampleWad, 0);
        if (outcome == CapacityRings.BLOCKED) (next, outcome) = _unblock($, provider, epoch, day, sampleWad);
        if (outcome == CapacityRings.BLOCKED) return;
        if (outcome == CapacityRings.FIRST_OF_EPOCH) ++$.sampledCount[epoch];
        if (outcome != CapacityRings.UNCHANGED) p.sampleTag = uint32(next);
    }

    /// @dev `CapacityRings.write` of the provider's rings and tag; the sample in stored units (nano-PFLOPs, rounded
    ///      down: favours the protocol; < 2^64 since a beat's sample is a uint88 of wei).
    function _write(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider,
        uint256 epoch,
        uint256 day,
        uint256 sampleWad,
        uint256 collectedBelow
    ) private returns (uint256, uint8) {
        return
            CapacityRings.write(
                $.capacityRings[provider],
                $.providers[provider].sampleTag,
                epoch,
                day,
                sampleWad / CapacitySamples.UNIT,
                collectedBelow
            );
    }

    /// @dev A blocked ring (it holds an older epoch with samples): retry with the cached collected epoch, then with
    ///      Emission's (its open epoch: every epoch below it is closed); still blocked (Emission behind: the keeper's
    ///      collection of that epoch has not completed) → the beat's sample is dropped and logged, the ring kept.
    function _unblock(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider,
        uint256 epoch,
        uint256 day,
        uint256 sampleWad
    ) private returns (uint256 next, uint8 outcome) {
        (next, outcome) = _write($, provider, epoch, day, sampleWad, $.collectedBelow);
        if (outcome != CapacityRings.BLOCKED) return (next, outcome);
        address recorder = $.recorder;
        (bool ok, bytes memory ret) = recorder.staticcall(abi.encodeCall(IEmission.currentEpoch, ()));
        if (ok && ret.length >= 32) {
            uint256 below = abi.decode(ret, (uint256));
            $.collectedBelow = uint32(below);
            (next, outcome) = _write($, provider, epoch, day, sampleWad, below);
        }
        if (outcome == CapacityRings.BLOCKED) {
            emit IProviderRegistryEvents.CapacityRecordFailed(provider, recorder, sampleWad);
        }
    }

    /// @notice Sets the CH price oracle (redemption compensation).
    function setPriceOracle(ProviderRegistryStore.ProviderRegistryStorage storage $, address oracle) external {
        $.oracle = oracle;
        emit IProviderRegistryEvents.PriceOracleSet(oracle);
    }

    /// @notice Lowers the caller's free liability by `chAmount` and burns that much of its CH.
    function buyBack(ProviderRegistryStore.ProviderRegistryStorage storage $, uint256 chAmount) external {
        if (chAmount == 0) revert IProviderRegistryErrors.ProviderZeroAmount();
        ProviderRegistryStore.ProviderData storage p = $.providers[msg.sender];
        uint256 liability = p.liabilityCh;
        uint256 free = liability - p.assignedCh;
        if (chAmount > free) revert IProviderRegistryErrors.ProviderBuyBackExceedsLiability(msg.sender, chAmount, free);
        liability -= chAmount;
        uint256 boughtBack = p.boughtBackCh + chAmount;
        p.liabilityCh = uint128(liability);
        p.boughtBackCh = uint128(boughtBack);
        emit IProviderRegistryEvents.CHBoughtBack(msg.sender, chAmount, liability, boughtBack);
        ICHToken($.ch).burn(msg.sender, chAmount);
    }

    /// @notice Validates and stores the parameters (and the heartbeat's packed copies).
    function setParams(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        IProviderRegistry.Params calldata p
    ) external {
        if (
            p.collateralFactorWad == 0 ||
            p.heartbeatIntervalSec == 0 ||
            p.uptimeWindowSec < p.heartbeatIntervalSec ||
            p.finderFeeBps > BPS ||
            p.dpsPriceWad == 0 ||
            p.attestationValiditySec == 0 ||
            p.attestationValiditySec > type(uint32).max
        ) revert IProviderRegistryErrors.ProviderInvalidParams();
        $.params = p;
        $.attestationValiditySec = p.attestationValiditySec;
        $.heartbeatIntervalSec = p.heartbeatIntervalSec;
        $.uptimeWindowSec = p.uptimeWindowSec;
        emit IProviderRegistry.ParamsSet(p);
    }

    /// @notice Validates (ascending) and stores the tier thresholds.
    function setTierThresholds(ProviderRegistryStore.ProviderRegistryStorage storage $, uint128[4] memory t) external {
        if (t[0] > t[1] || t[1] > t[2] || t[2] > t[3]) revert IProviderRegistryErrors.ProviderInvalidParams();
        $.tierThresholdsDps = t;
        emit IProviderRegistryEvents.TierThresholdsSet(t);
    }

    /// @dev The registered record of `provider` (reverts when not registered).
    function registered(
        ProviderRegistryStore.ProviderRegistryStorage storage $,
        address provider
    ) internal view returns (ProviderRegistryStore.ProviderData storage p) {
        p = $.providers[provider];
        if (p.index1 == 0) revert IProviderRegistryErrors.ProviderNotRegistered(provider);
    }
}
