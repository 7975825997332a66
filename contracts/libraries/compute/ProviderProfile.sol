// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryErrors} from "../../interfaces/compute/IProviderRegistryErrors.sol";
import {IProviderRegistryEvents} from "../../interfaces/compute/IProviderRegistryEvents.sol";
import {ICHToken} from "../../interfaces/tokens/ICHToken.sol";
import {IEmission} from "../../interfaces/emission/IEmission.sol";
import {ProviderRegistryStore} from "../../core/compute/ProviderRegistryStore.sol";

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

    /// @notice Sets the capacity recorder and its day boundary: the recorder's days start at genesis + k days,
    ///         IEmission.epochStart(0) mod 1 day (0 for a recorder without epochs; a failing read counts as 0).
    function setCapacityRecorder(ProviderRegistryStore.ProviderRegistryStorage storage $, address recorder) external {
        uint256 offset;
        (bool ok, bytes memory ret) = recorder.staticcall(abi.encodeCall(IEmission.epochStart, (0)));
        if (ok && ret.length >= 32) offset = abi.decode(ret, (uint256)) % 1 days;
        $.recorder = recorder;
        $.recorderDayOffset = uint32(offset);
        emit IProviderRegistryEvents.CapacityRecorderSet(recorder);
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
