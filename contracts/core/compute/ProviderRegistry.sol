// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryViews} from "../../interfaces/compute/IProviderRegistryViews.sol";
import {ProviderRegistryStore} from "./ProviderRegistryStore.sol";
import {ProviderStake} from "../../libraries/compute/ProviderStake.sol";
import {ProviderAttestation} from "../../libraries/compute/ProviderAttestation.sol";
import {EIP712Upgradeable} from "@openzeppelin/contracts-upgradeable/utils/cryptography/EIP712Upgradeable.sol";
import {ProviderRedemption} from "../../libraries/compute/ProviderRedemption.sol";
import {ProviderViews} from "../../libraries/compute/ProviderViews.sol";
import {ProviderProfile} from "../../libraries/compute/ProviderProfile.sol";

/// @title ProviderRegistry
/// @notice Providers, their stake, attestations, heartbeats, reputation, slashing and CH liability.
/// @dev Entry contract: access control, pauses and the hot paths (heartbeat, mint, outcomes, draw reads); the
///      mechanisms live in linked libraries working on this contract's storage (`ProviderStake`,
///      `ProviderAttestation`, `ProviderRedemption`, `ProviderProfile`, `ProviderViews`). Storage:
///      `ProviderRegistryStore`.
contract ProviderRegistry is ChxUpgradeable, EIP712Upgradeable, ProviderRegistryStore, IProviderRegistry {
    bytes32 internal constant FEATURE_STAKE = keccak256("registry.stake");
    bytes32 internal constant FEATURE_ATTEST = keccak256("registry.attest");
    bytes32 internal constant FEATURE_HEARTBEAT = keccak256("registry.heartbeat");
    bytes32 internal constant FEATURE_MINT = keccak256("registry.mint");
    bytes32 internal constant FEATURE_REGISTER = keccak256("registry.register");
    /// @dev The EIP-712 domain name and version of attestations (ERC-5267 `eip712Domain()`; the SDK reads them there).
    string internal constant EIP712_NAME = "CHX ProviderRegistry";
    string internal constant EIP712_VERSION = "1";

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param dps DPS token (stake).
    /// @param ch CH token (minted against capacity; this registry must hold Roles.CH_MINTER).
    /// @param standard_ ComputeStandard.
    /// @param p Initial parameters.
    /// @custom:oz-upgrades-unsafe-allow missing-initializer-call
    function initialize(
        address authority,
        address dps,
        address ch,
        address standard_,
        Params calldata p
    ) external initializer {
        __ChxUpgradeable_init(authority);
        // @dev No `__EIP712_init`: the domain name and version are the constant overrides below, so the strings it
        //      would store are never read (ERC-5267 `eip712Domain()` and every digest use the overrides; runtime size).
        if (dps == address(0) || ch == address(0) || standard_ == address(0)) revert ChxZeroAddress();
        ProviderRegistryStorage storage $ = _s();
        $.dps = dps;
        $.ch = ch;
        $.standard = standard_;
        ProviderProfile.setParams($, p);
        ProviderProfile.setTierThresholds($, [uint128(1_000e18), 10_000e18, 50_000e18, 250_000e18]);
    }

    // ─── provider actions ──────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc IProviderRegistry
    function register(
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string calldata hardwareUri
    ) external whenActive(FEATURE_REGISTER) {
        ProviderProfile.register(_s(), region, workloadMask, hardwareHash, hardwareUri);
    }

    /// @inheritdoc IProviderRegistry
    function updateProfile(
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string calldata hardwareUri
    ) external {
        ProviderProfile.updateProfile(_s(), region, workloadMask, hardwareHash, hardwareUri);
    }

    /// @inheritdoc IProviderRegistry
    function setAskPrice(uint128 askPriceWad) external {
        ProviderProfile.setAskPrice(_s(), askPriceWad);
    }

    /// @inheritdoc IProviderRegistry
    function stake(uint256 amount) external nonReentrant whenActive(FEATURE_STAKE) {
        if (amount == 0) revert ProviderZeroAmount();
        ProviderStake.stake(_s(), _registered(msg.sender), amount);
    }

    /// @inheritdoc IProviderRegistry
    function requestUnbond(uint256 amount) external {
        if (amount == 0) revert ProviderZeroAmount();
        ProviderStake.requestUnbond(_s(), _registered(msg.sender), amount);
    }

    /// @inheritdoc IProviderRegistry
    function withdrawUnbonded() external nonReentrant {
        ProviderStake.withdrawUnbonded(_s(), _registered(msg.sender));
    }

    /// @inheritdoc IProviderRegistry
    function attest(Attestation calldata a, bytes calldata signature) external whenActive(FEATURE_ATTEST) {
        ProviderAttestation.attest(_s(), a, signature, authority(), _domainSeparatorV4());
    }

    /// @inheritdoc IProviderRegistry
    function heartbeat(uint256 capacityPflopsWad) external whenActive(FEATURE_HEARTBEAT) {
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = $.providers[msg.sender];
        uint256 expiresAt = p.attestationExpiresAt;
        if (expiresAt < block.timestamp) revert ProviderNoValidAttestation(msg.sender, expiresAt);
        uint256 attested = p.capacityPflopsWad;
        uint256 sample = capacityPflopsWad < attested ? capacityPflopsWad : attested;
        // @dev Item 18: capacity no stake backs earns no GFL/DPS (Emission keeps the day's lowest sample).
        if (p.stakedDps < $.params.minStakeDps) sample = 0;

        uint256 last = p.lastHeartbeat;
        uint256 up = p.upSeconds;
        uint256 tracked = p.trackedSeconds;
        if (last != 0) {
            uint256 interval = $.heartbeatIntervalSec;
            uint256 elapsed = block.timestamp - last;
            if (elapsed < interval / 2) revert ProviderHeartbeatTooSoon(msg.sender, last + interval / 2);
            (up, tracked) = ProviderViews.accrue(up, tracked, elapsed, interval, $.uptimeWindowSec);
        }
        uint256 previous = p.lastSamplePflopsWad;
        p.lastHeartbeat = uint40(block.timestamp);
        p.upSeconds = uint48(up);
        p.trackedSeconds = uint48(tracked);
        p.lastSamplePflopsWad = uint88(sample);
        // @dev Rounds down: uptime is never overstated.
        emit Heartbeat(msg.sender, sample, up, tracked, tracked == 0 ? 0 : (up * WAD) / tracked);
        address recorder = $.recorder;
        if (recorder == address(0)) return;
        // @dev Issue 18 item 4: the day's sample stays here (a ring by recorder-epoch parity); Emission collects it
        //      after the epoch (docs/emission.md "Samples off the heartbeat"). Only the first beat of a recorder day
        //      and a beat lower than the one before it can change the day's (lowest) sample: only those write.
        uint256 since = block.timestamp - $.recorderGenesis;
        uint256 epoch = since / 15 days;
        uint256 day = (since % 15 days) / 1 days;
        uint256 tag = p.sampleTag;
        if (tag & 0xffff == epoch + 1 && (tag >> (16 + day)) & 1 == 1 && sample >= previous) return;
        ProviderProfile.recordSample($, msg.sender, epoch, day, sample);
    }

    /// @inheritdoc IProviderRegistry
    function mintCH(uint256 chAmount, address to) external nonReentrant whenActive(FEATURE_MINT) {
        if (chAmount == 0) revert ProviderZeroAmount();
        if (to == address(0)) revert ChxZeroAddress();
        ProviderRedemption.mint(_s(), chAmount, to);
    }

    /// @inheritdoc IProviderRegistry
    function buyBack(uint256 chAmount) external nonReentrant {
        ProviderProfile.buyBack(_s(), chAmount);
    }

    // ─── hooks ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @dev The trusted task registry governance named passes with one SLOAD; anyone else goes through AccessManager
    ///      exactly as `restricted` (the hooks' roles still decide for every other caller).
    modifier onlyTasks() {
        if (msg.sender != _s().trustedTaskRegistry) _checkCanCall(msg.sender, msg.data);
        _;
    }

    /// @inheritdoc IProviderRegistry
    function recordTaskOutcome(address provider, bool completed) external onlyTasks {
        ProviderData storage p = _s().providers[provider];
        // @dev A draw-listed provider is registered (`drawIndex1` shares the outcome's slot): the identity slot is
        //      read only for a provider never listed, as in `ProviderStake.lock` (finalize −2.1k, issue 18).
        if (p.drawIndex1 == 0) _registered(provider);
        ProviderStake.recordOutcome(_s(), p, provider, completed);
    }

    /// @inheritdoc IProviderRegistry
    function assignRedemption(
        address provider,
        uint256 chAmount,
        uint256 deadline
    ) external restricted returns (uint256 id) {
        return ProviderRedemption.assign(_s(), provider, chAmount, deadline);
    }

    /// @inheritdoc IProviderRegistry
    function confirmDelivery(uint256 id) external restricted nonReentrant {
        ProviderRedemption.confirm(_s(), id);
    }

    /// @inheritdoc IProviderRegistry
    function releaseRedemption(uint256 id) external restricted {
        ProviderRedemption.releaseAssignment(_s(), id);
    }

    /// @inheritdoc IProviderRegistry
    function reportDeliveryFailure(
        uint256 id,
        address recipient
    ) external restricted nonReentrant returns (uint256 compensationDps) {
        if (recipient == address(0)) revert ChxZeroAddress();
        return ProviderRedemption.fail(_s(), id, recipient);
    }

    /// @inheritdoc IProviderRegistry
    function slash(
        address provider,
        uint256 amountDps,
        address finder,
        bytes32 reason
    ) external restricted nonReentrant returns (uint256 slashedDps) {
        (slashedDps, ) = _slash(provider, amountDps, finder, address(0), reason);
    }

    /// @inheritdoc IProviderRegistry
    function slashTo(
        address provider,
        uint256 amountDps,
        address finder,
        address recipient,
        bytes32 reason
    ) external restricted nonReentrant returns (uint256 slashedDps, uint256 paidDps) {
        if (recipient == address(0)) revert ChxZeroAddress();
        return _slash(provider, amountDps, finder, recipient, reason);
    }

    /// @dev One call site of the linked slash for both entry points (runtime size).
    function _slash(
        address provider,
        uint256 amountDps,
        address finder,
        address recipient,
        bytes32 reason
    ) private returns (uint256, uint256) {
        return ProviderStake.slash(_s(), _registered(provider), provider, amountDps, finder, recipient, reason);
    }

    /// @inheritdoc IProviderRegistry
    function refreshDrawProfile(address provider) external {
        ProviderStake.refreshDraw(_s(), _registered(provider), provider);
    }

    /// @inheritdoc IProviderRegistry
    function lockStake(address[] calldata providers, uint256 amountDps) external onlyTasks {
        ProviderStake.lock(_s(), providers, amountDps);
    }

    /// @inheritdoc IProviderRegistry
    function releaseStake(address[] calldata providers, uint256 amountDps) external onlyTasks {
        ProviderStake.release(_s(), providers, amountDps);
    }

    // ─── governance ────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc IProviderRegistry
    function setParams(Params calldata p) external restricted {
        ProviderProfile.setParams(_s(), p);
    }

    /// @inheritdoc IProviderRegistry
    function setTierThresholds(uint128[4] calldata thresholdsDps) external restricted {
        ProviderProfile.setTierThresholds(_s(), thresholdsDps);
    }

    /// @inheritdoc IProviderRegistry
    function setCapacityRecorder(address recorder) external restricted {
        ProviderProfile.setCapacityRecorder(_s(), recorder);
    }

    /// @inheritdoc IProviderRegistry
    function setTrustedTaskRegistry(address tasks) external restricted {
        ProviderRegistryStorage storage $ = _s();
        emit TrustedTaskRegistrySet($.trustedTaskRegistry, tasks);
        $.trustedTaskRegistry = tasks;
    }

    /// @inheritdoc IProviderRegistry
    function setPriceOracle(address oracle) external restricted {
        ProviderProfile.setPriceOracle(_s(), oracle);
    }

    // ─── internals ─────────────────────────────────────────────────────────────────────────────────────────

    /// @dev The domain name as a constant: an attestation's digest then reads no storage for it (OpenZeppelin's
    ///      documented override; nothing stores the strings).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Name() internal pure override returns (string memory) {
        return EIP712_NAME;
    }

    /// @dev The domain version as a constant (see `_EIP712Name`).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Version() internal pure override returns (string memory) {
        return EIP712_VERSION;
    }

    function _registered(address provider) private view returns (ProviderData storage p) {
        p = _s().providers[provider];
        if (p.index1 == 0) revert ProviderNotRegistered(provider);
    }

    // ─── views ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc IProviderRegistryViews
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @inheritdoc IProviderRegistryViews
    function drawCount() external view returns (uint256) {
        return _s().drawList.length;
    }

    /// @inheritdoc IProviderRegistryViews
    function drawSample(
        uint256[] calldata indices,
        uint256 atBlock
    ) external view returns (address[] memory, uint256[] memory, uint256) {
        return ProviderViews.drawSample(_s(), indices, atBlock);
    }

    /// @inheritdoc IProviderRegistryViews
    function drawSampleWeighted(
        uint256[] calldata samples,
        uint256 candidates,
        uint256 atBlock,
        uint256 want,
        address[] calldata excluded
    ) external view returns (address[] memory, uint256[] memory, uint256) {
        return ProviderViews.drawSampleWeighted(_s(), samples, candidates, atBlock, want, excluded);
    }

    /// @inheritdoc IProviderRegistryViews
    function drawProfilesAt(
        address[] calldata providers,
        uint256 atBlock
    ) external view returns (uint256[] memory words) {
        return ProviderViews.drawProfilesAt(_s(), providers, atBlock);
    }

    /// @inheritdoc IProviderRegistryViews
    function providerCount() external view returns (uint256) {
        return _s().list.length;
    }

    /// @inheritdoc IProviderRegistryViews
    function providerAt(uint256 index) external view returns (address) {
        return _s().list[index];
    }

    /// @inheritdoc IProviderRegistryViews
    function providersPage(uint256 offset, uint256 limit) external view returns (address[] memory) {
        return ProviderViews.page(_s(), offset, limit);
    }

    /// @inheritdoc IProviderRegistry
    function providerInfo(address provider) external view returns (ProviderInfo memory) {
        return ProviderViews.info(_s(), provider);
    }

    /// @inheritdoc IProviderRegistry
    function matchingProfile(address provider) external view returns (MatchingProfile memory) {
        return ProviderViews.matchingProfile(_s(), provider);
    }

    /// @inheritdoc IProviderRegistryViews
    function uptimeWad(address provider) external view returns (uint256) {
        return ProviderViews.uptimeOf(_s(), provider);
    }

    /// @inheritdoc IProviderRegistryViews
    function tierOf(address provider) external view returns (uint8) {
        return ProviderViews.tierOf(_s(), provider);
    }

    /// @inheritdoc IProviderRegistryViews
    function mintableCh(address provider) external view returns (uint256) {
        return ProviderViews.mintableOf(_s(), provider);
    }

    /// @inheritdoc IProviderRegistryViews
    function liabilityOf(address provider) external view returns (uint256) {
        return _s().providers[provider].liabilityCh;
    }

    /// @inheritdoc IProviderRegistryViews
    function attestationNonce(address provider) external view returns (uint256) {
        return _s().providers[provider].attestationNonce;
    }

    /// @inheritdoc IProviderRegistry
    function attestationDigest(Attestation calldata a) external view returns (bytes32) {
        return ProviderAttestation.attestationDigest(a, _domainSeparatorV4());
    }

    /// @inheritdoc IProviderRegistry
    function assignment(uint256 id) external view returns (Assignment memory) {
        return _s().assignments[id];
    }

    /// @inheritdoc IProviderRegistry
    function params() external view returns (Params memory) {
        return _s().params;
    }

    /// @inheritdoc IProviderRegistryViews
    function tierThresholds() external view returns (uint128[4] memory) {
        return _s().tierThresholdsDps;
    }

    /// @inheritdoc IProviderRegistryViews
    function capacityRecorder() external view returns (address) {
        return _s().recorder;
    }

    /// @inheritdoc IProviderRegistryViews
    function capacitySamplesAt(uint256 from, uint256 count, uint256 epoch) external view returns (uint256[] memory) {
        return ProviderViews.capacitySamplesAt(_s(), from, count, epoch);
    }

    /// @inheritdoc IProviderRegistryViews
    function sampledCount(uint256 epoch) external view returns (uint256) {
        return _s().sampledCount[epoch];
    }

    /// @inheritdoc IProviderRegistryViews
    function trustedTaskRegistry() external view returns (address) {
        return _s().trustedTaskRegistry;
    }

    /// @inheritdoc IProviderRegistryViews
    function priceOracle() external view returns (address) {
        return _s().oracle;
    }

    /// @inheritdoc IProviderRegistryViews
    function standard() external view returns (address) {
        return _s().standard;
    }
}
