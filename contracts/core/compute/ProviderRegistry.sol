// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {IAccessManager} from "@openzeppelin/contracts/access/manager/IAccessManager.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {Roles} from "../governance/Roles.sol";
import {IProviderRegistry} from "../../interfaces/IProviderRegistry.sol";
import {IComputeStandard} from "../../interfaces/IComputeStandard.sol";
import {ICHToken} from "../../interfaces/ICHToken.sol";
import {IDPSToken} from "../../interfaces/IDPSToken.sol";
import {ICapacityRecorder} from "../../interfaces/IEmissionHooks.sol";
import {IEmission} from "../../interfaces/IEmission.sol";
import {IComputePriceOracle} from "../../interfaces/IComputePriceOracle.sol";

/// @title ProviderRegistry
/// @notice Providers, their stake, attestations, heartbeats, reputation, slashing and CH liability.
/// @dev Per-provider state is packed so the hot paths touch few slots: a heartbeat reads the attestation slot and
///      rewrites the heartbeat slot; a mint reads the attestation and stake slots and rewrites the liability slot.
contract ProviderRegistry is ChxUpgradeable, IProviderRegistry {
    using SafeERC20 for IERC20;

    uint256 internal constant WAD = 1e18;
    uint256 internal constant BPS = 10_000;

    bytes32 internal constant ATTESTATION_TYPEHASH = keccak256(
        "Attestation(address provider,uint16 workloadClass,uint16 standardVersion,uint256 avgPflopsWad,uint256[] factorsWad,uint256 capacityPflopsWad,uint256 powerWattsWad,uint256 nonce,uint256 deadline)"
    );

    bytes32 internal constant DOMAIN_TYPEHASH = keccak256(
        "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
    );
    bytes32 internal constant NAME_HASH = keccak256("CHX ProviderRegistry");
    bytes32 internal constant VERSION_HASH = keccak256("1");

    bytes32 internal constant FEATURE_STAKE = keccak256("registry.stake");
    bytes32 internal constant FEATURE_ATTEST = keccak256("registry.attest");
    bytes32 internal constant FEATURE_HEARTBEAT = keccak256("registry.heartbeat");
    bytes32 internal constant FEATURE_MINT = keccak256("registry.mint");
    bytes32 internal constant FEATURE_REGISTER = keccak256("registry.register");

    uint8 internal constant ASSIGNMENT_OPEN = 1;
    uint8 internal constant ASSIGNMENT_DELIVERED = 2;
    uint8 internal constant ASSIGNMENT_FAILED = 3;

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
        uint32 recordedDay;
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
        // slot 8
        uint40 unbondReadyAt;
        uint32 completed;
        uint32 failed;
        uint32 slashCount;
    }

    /// @custom:storage-location erc7201:chx.storage.ProviderRegistry
    struct ProviderRegistryStorage {
        Params params;
        uint128[4] tierThresholdsDps;
        address ch;
        address dps;
        address standard;
        /// @dev Copy of params.attestationValiditySec packed beside `standard`: attest reads one slot for both.
        uint64 attestationValiditySec;
        address recorder;
        /// @dev The recorder's day boundary (Emission: genesis mod 1 day), packed beside `recorder`.
        uint32 recorderDayOffset;
        address oracle;
        uint256 assignmentCount;
        address[] list;
        mapping(address provider => ProviderData) providers;
        mapping(uint256 id => Assignment) assignments;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.ProviderRegistry")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant PROVIDER_REGISTRY_STORAGE_LOCATION =
        0x57910e868696b19b0f1bc6634dc4c53f36fe0c37f0a005cc52dcb79aa46e4f00;

    function _s() private pure returns (ProviderRegistryStorage storage $) {
        assembly {
            $.slot := PROVIDER_REGISTRY_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param dps DPS token (stake).
    /// @param ch CH token (minted against capacity; this registry must hold Roles.CH_MINTER).
    /// @param standard_ ComputeStandard.
    /// @param p Initial parameters.
    function initialize(
        address authority,
        address dps,
        address ch,
        address standard_,
        Params calldata p
    ) external initializer {
        __ChxUpgradeable_init(authority);
        if (dps == address(0) || ch == address(0) || standard_ == address(0)) revert ChxZeroAddress();
        ProviderRegistryStorage storage $ = _s();
        $.dps = dps;
        $.ch = ch;
        $.standard = standard_;
        _setParams(p);
        _setTierThresholds([uint128(1_000e18), 10_000e18, 50_000e18, 250_000e18]);
    }

    // ─── provider actions ──────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc IProviderRegistry
    function register(
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string calldata hardwareUri
    ) external whenActive(FEATURE_REGISTER) {
        if (workloadMask == 0) revert ProviderNoWorkloads();
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = $.providers[msg.sender];
        if (p.index1 != 0) revert ProviderAlreadyRegistered(msg.sender);
        $.list.push(msg.sender);
        uint256 index = $.list.length - 1;
        p.index1 = uint32(index + 1);
        p.region = region;
        p.registeredAt = uint40(block.timestamp);
        p.workloadMask = workloadMask;
        emit ProviderRegistered(msg.sender, index, region, workloadMask, hardwareHash, hardwareUri);
    }

    /// @inheritdoc IProviderRegistry
    function updateProfile(
        uint16 region,
        uint64 workloadMask,
        bytes32 hardwareHash,
        string calldata hardwareUri
    ) external {
        if (workloadMask == 0) revert ProviderNoWorkloads();
        ProviderData storage p = _registered(msg.sender);
        p.region = region;
        p.workloadMask = workloadMask;
        emit ProviderProfileUpdated(msg.sender, region, workloadMask, hardwareHash, hardwareUri);
    }

    /// @inheritdoc IProviderRegistry
    function setAskPrice(uint128 askPriceWad) external {
        _registered(msg.sender).askPriceWad = askPriceWad;
        emit AskPriceSet(msg.sender, askPriceWad);
    }

    /// @inheritdoc IProviderRegistry
    function stake(uint256 amount) external nonReentrant whenActive(FEATURE_STAKE) {
        if (amount == 0) revert ProviderZeroAmount();
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = _registered(msg.sender);
        uint256 staked = p.stakedDps + amount;
        p.stakedDps = _u128(staked);
        emit Staked(msg.sender, amount, staked, _tier($, staked));
        IERC20($.dps).safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @inheritdoc IProviderRegistry
    function requestUnbond(uint256 amount) external {
        if (amount == 0) revert ProviderZeroAmount();
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = _registered(msg.sender);
        uint256 staked = p.stakedDps;
        uint256 locked = _lockedStake($, p);
        uint256 unlockable = staked > locked ? staked - locked : 0;
        if (amount > unlockable) revert ProviderStakeLocked(msg.sender, amount, unlockable);
        staked -= amount;
        uint256 unbonding = p.unbondingDps + amount;
        uint256 readyAt = block.timestamp + $.params.unbondingDelaySec;
        p.stakedDps = uint128(staked);
        p.unbondingDps = uint128(unbonding);
        p.unbondReadyAt = uint40(readyAt);
        emit UnbondRequested(msg.sender, amount, staked, unbonding, readyAt, _tier($, staked));
    }

    /// @inheritdoc IProviderRegistry
    function withdrawUnbonded() external nonReentrant {
        ProviderData storage p = _registered(msg.sender);
        uint256 amount = p.unbondingDps;
        if (amount == 0) revert ProviderNothingToWithdraw(msg.sender);
        if (block.timestamp < p.unbondReadyAt) revert ProviderUnbondingNotReady(msg.sender, p.unbondReadyAt);
        p.unbondingDps = 0;
        emit Withdrawn(msg.sender, amount, p.stakedDps);
        IERC20(_s().dps).safeTransfer(msg.sender, amount);
    }

    /// @inheritdoc IProviderRegistry
    function attest(Attestation calldata a, bytes calldata signature) external whenActive(FEATURE_ATTEST) {
        if (block.timestamp > a.deadline) revert ProviderAttestationExpired(a.deadline);
        ProviderData storage p = _s().providers[a.provider];
        // A registered provider always has a non-zero workload mask (slot 2, which this call rewrites anyway).
        if (p.workloadMask == 0) revert ProviderNotRegistered(a.provider);
        uint256 nonce = p.attestationNonce;
        if (a.nonce != nonce) revert ProviderBadAttestationNonce(a.provider, nonce, a.nonce);
        if (a.workloadClass >= 64 || (p.workloadMask >> a.workloadClass) & 1 == 0) {
            revert ProviderWorkloadNotDeclared(a.provider, a.workloadClass);
        }
        address signer = _attester(a, signature);
        IComputeStandard.Rating memory r = _rate(a);
        uint256 expiresAt = block.timestamp + _s().attestationValiditySec;
        // Effects: the attestation slot is rewritten whole; the version is stored with the rate, so a later
        // standard version never re-rates it.
        _writeAttestationCore(p, r.chPerHourWad, a.capacityPflopsWad, expiresAt, a.workloadClass, a.standardVersion);
        p.attestationNonce = uint32(nonce + 1);
        p.attestedAt = uint40(block.timestamp);
        p.whPerChWad = r.whPerChWad > type(uint96).max ? type(uint96).max : uint96(r.whPerChWad);
        emit Attested(a.provider, signer, a.workloadClass, nonce, r, a.capacityPflopsWad, expiresAt);
    }

    /// @dev Writes slot 1 of ProviderData (chPerHourWad | capacityPflopsWad | attestationExpiresAt | workloadClass
    ///      | standardVersion, packed from the low bits in declaration order) with one SSTORE instead of five
    ///      read-modify-writes. Callers guarantee the widths (rate and capacity < 2^88, expiry < 2^40).
    function _writeAttestationCore(
        ProviderData storage p,
        uint256 chPerHourWad,
        uint256 capacityPflopsWad,
        uint256 expiresAt,
        uint16 workloadClass,
        uint16 standardVersion
    ) private {
        uint256 packed =
            chPerHourWad |
                (capacityPflopsWad << 88) |
                (expiresAt << 176) |
                (uint256(workloadClass) << 216) |
                (uint256(standardVersion) << 232);
        assembly {
            sstore(add(p.slot, 1), packed)
        }
    }

    /// @dev Recovers the signer (OpenZeppelin ECDSA: rejects malleable s and bad v) and checks it is an ATTESTER.
    function _attester(Attestation calldata a, bytes calldata signature) private view returns (address signer) {
        ECDSA.RecoverError err;
        (signer, err, ) = ECDSA.tryRecoverCalldata(_attestationDigest(a), signature);
        if (err != ECDSA.RecoverError.NoError) revert ProviderInvalidAttester(signer);
        (bool isAttester, ) = IAccessManager(authority()).hasRole(Roles.ATTESTER, signer);
        if (!isAttester) revert ProviderInvalidAttester(signer);
    }

    /// @dev Rates the benchmark with ComputeStandard at the signed version, which must be the latest.
    function _rate(Attestation calldata a) private view returns (IComputeStandard.Rating memory r) {
        r = IComputeStandard(_s().standard).rateBenchmark(
            a.workloadClass,
            a.standardVersion,
            a.avgPflopsWad,
            a.factorsWad,
            a.powerWattsWad
        );
        if (r.latestVersion != a.standardVersion) {
            revert ProviderStaleStandard(a.workloadClass, a.standardVersion, r.latestVersion);
        }
        if (r.chPerHourWad > type(uint88).max || a.capacityPflopsWad > type(uint88).max) {
            revert ProviderValueTooLarge();
        }
    }

    /// @inheritdoc IProviderRegistry
    function heartbeat(uint256 capacityPflopsWad) external whenActive(FEATURE_HEARTBEAT) {
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = $.providers[msg.sender];
        uint256 expiresAt = p.attestationExpiresAt;
        if (expiresAt < block.timestamp) revert ProviderNoValidAttestation(msg.sender, expiresAt);
        uint256 attested = p.capacityPflopsWad;
        uint256 sample = capacityPflopsWad < attested ? capacityPflopsWad : attested;

        uint256 last = p.lastHeartbeat;
        uint256 up = p.upSeconds;
        uint256 tracked = p.trackedSeconds;
        if (last != 0) {
            uint256 interval = $.params.heartbeatIntervalSec;
            uint256 elapsed = block.timestamp - last;
            if (elapsed < interval / 2) revert ProviderHeartbeatTooSoon(msg.sender, last + interval / 2);
            (up, tracked) = _accrue(up, tracked, elapsed, interval, $.params.uptimeWindowSec);
        }
        uint256 previous = p.lastSamplePflopsWad;
        p.lastHeartbeat = uint40(block.timestamp);
        p.upSeconds = uint48(up);
        p.trackedSeconds = uint48(tracked);
        p.lastSamplePflopsWad = uint88(sample);
        // @dev Rounds down: uptime is never overstated.
        emit Heartbeat(msg.sender, sample, up, tracked, tracked == 0 ? 0 : (up * WAD) / tracked);
        address recorder = $.recorder;
        // A failing recorder (Emission paused, mid-rebalance) must not stop heartbeats and so decay uptime: the
        // sample is then lost (only the provider's own GFL suffers) and the failure is logged.
        if (recorder == address(0)) return;
        // @dev Emission keeps the lowest sample of each of its days, so only the first beat of a recorder day and a
        //      beat lower than the one before it can change anything: only those are forwarded (docs/compute.md, Gas).
        uint256 day = (block.timestamp + 1 days - $.recorderDayOffset) / 1 days;
        if (day == p.recordedDay && sample >= previous) return;
        try ICapacityRecorder(recorder).recordCapacity(msg.sender, sample) {
            p.recordedDay = uint32(day);
        } catch {
            emit CapacityRecordFailed(msg.sender, recorder, sample);
        }
    }

    /// @dev Credits an interval: a beat within 1.25 intervals of the previous one credits the whole gap as up
    ///      time; a later beat credits one interval (the machine was up when it last beat) and the rest is down.
    ///      Once tracked time exceeds the window both counters halve, so recent history weighs most.
    function _accrue(
        uint256 up,
        uint256 tracked,
        uint256 elapsed,
        uint256 interval,
        uint256 window
    ) private pure returns (uint256, uint256) {
        up += elapsed <= interval + interval / 4 ? elapsed : interval;
        tracked += elapsed;
        while (tracked > window && window != 0) {
            up /= 2;
            tracked /= 2;
        }
        return (up, tracked);
    }

    /// @inheritdoc IProviderRegistry
    function mintCH(uint256 chAmount, address to) external nonReentrant whenActive(FEATURE_MINT) {
        if (chAmount == 0) revert ProviderZeroAmount();
        if (to == address(0)) revert ChxZeroAddress();
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = $.providers[msg.sender];
        uint256 available = _mintable($, p, msg.sender, true);
        if (chAmount > available) revert ProviderMintCapExceeded(msg.sender, chAmount, available);
        // @dev Fits: liability ≤ stake × factor, both bounded by uint96/uint128 arithmetic.
        uint256 liability = p.liabilityCh + chAmount;
        p.liabilityCh = uint128(liability);
        emit ProviderCHMinted(msg.sender, to, chAmount, liability);
        ICHToken($.ch).mint(to, chAmount);
    }

    /// @inheritdoc IProviderRegistry
    function buyBack(uint256 chAmount) external nonReentrant {
        if (chAmount == 0) revert ProviderZeroAmount();
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = $.providers[msg.sender];
        uint256 liability = p.liabilityCh;
        uint256 free = liability - p.assignedCh;
        if (chAmount > free) revert ProviderBuyBackExceedsLiability(msg.sender, chAmount, free);
        liability -= chAmount;
        uint256 boughtBack = p.boughtBackCh + chAmount;
        p.liabilityCh = uint128(liability);
        p.boughtBackCh = uint128(boughtBack);
        emit CHBoughtBack(msg.sender, chAmount, liability, boughtBack);
        ICHToken($.ch).burn(msg.sender, chAmount);
    }

    // ─── hooks ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc IProviderRegistry
    function recordTaskOutcome(address provider, bool completed) external restricted {
        ProviderData storage p = _registered(provider);
        uint32 c = p.completed;
        uint32 f = p.failed;
        if (completed) p.completed = c = c + 1;
        else p.failed = f = f + 1;
        emit TaskOutcomeRecorded(provider, completed, c, f);
    }

    /// @inheritdoc IProviderRegistry
    function assignRedemption(
        address provider,
        uint256 chAmount,
        uint256 deadline
    ) external restricted returns (uint256 id) {
        if (chAmount == 0) revert ProviderZeroAmount();
        if (deadline <= block.timestamp || deadline > type(uint40).max) revert ProviderBadDeadline(deadline);
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = _registered(provider);
        uint256 assigned = p.assignedCh;
        uint256 available = p.liabilityCh - assigned;
        if (chAmount > available) revert ProviderLiabilityUnavailable(provider, chAmount, available);
        assigned += chAmount;
        p.assignedCh = uint128(assigned);
        uint32 open = p.openAssignments + 1;
        p.openAssignments = open;
        id = ++$.assignmentCount;
        $.assignments[id] = Assignment({
            provider: provider,
            deadline: uint40(deadline),
            status: ASSIGNMENT_OPEN,
            chAmount: uint128(chAmount)
        });
        emit RedemptionAssigned(id, provider, chAmount, deadline, assigned, open);
    }

    function _openAssignment(uint256 id) private view returns (Assignment storage a) {
        a = _s().assignments[id];
        if (a.status != ASSIGNMENT_OPEN) revert ProviderAssignmentNotOpen(id, a.status);
    }

    /// @dev Releases the reservation of a closed assignment.
    function _close(ProviderData storage p, Assignment storage a, uint8 status) private {
        a.status = status;
        p.assignedCh -= a.chAmount;
        p.openAssignments -= 1;
    }

    /// @inheritdoc IProviderRegistry
    function confirmDelivery(uint256 id) external restricted nonReentrant {
        ProviderRegistryStorage storage $ = _s();
        Assignment storage a = _openAssignment(id);
        address provider = a.provider;
        ProviderData storage p = $.providers[provider];
        uint256 amount = a.chAmount;
        _close(p, a, ASSIGNMENT_DELIVERED);
        uint256 liability = p.liabilityCh - amount;
        uint256 delivered = p.deliveredCh + amount;
        p.liabilityCh = uint128(liability);
        p.deliveredCh = uint128(delivered);
        emit DeliveryConfirmed(id, provider, amount, liability, delivered);
        ICHToken($.ch).burn(address(this), amount);
    }

    /// @inheritdoc IProviderRegistry
    function reportDeliveryFailure(
        uint256 id,
        address recipient
    ) external restricted nonReentrant returns (uint256 compensationDps) {
        if (recipient == address(0)) revert ChxZeroAddress();
        ProviderRegistryStorage storage $ = _s();
        Assignment storage a = _openAssignment(id);
        if (block.timestamp <= a.deadline) revert ProviderDeliveryNotLate(id, a.deadline);
        address provider = a.provider;
        ProviderData storage p = $.providers[provider];
        _close(p, a, ASSIGNMENT_FAILED);
        p.failed += 1;
        {
            (uint256 priceWad, uint256 owedUsdWad, uint256 owedDps) = _compensation($, a.chAmount);
            compensationDps = _takeStake(p, owedDps);
            emit DeliveryFailed(id, provider, recipient, a.chAmount, priceWad, owedUsdWad, compensationDps, p.failed);
        }
        _emitSlashed(p, provider, compensationDps, address(0), 0, 0, bytes32(id));
        if (compensationDps != 0) IERC20($.dps).safeTransfer(recipient, compensationDps);
    }

    /// @dev Compensation for `chAmount` undelivered CH: value = amount × index price × (1 + penalty), converted to
    ///      DPS at the governance DPS price. Both steps round up: the client is made whole.
    function _compensation(
        ProviderRegistryStorage storage $,
        uint256 chAmount
    ) private view returns (uint256 priceWad, uint256 owedUsdWad, uint256 owedDps) {
        address oracle = $.oracle;
        if (oracle == address(0)) revert ProviderOracleNotSet();
        priceWad = IComputePriceOracle(oracle).indexPrice();
        owedUsdWad = _divUp(chAmount * priceWad * (BPS + $.params.redemptionPenaltyBps), WAD * BPS);
        owedDps = _divUp(owedUsdWad * WAD, $.params.dpsPriceWad);
    }

    /// @inheritdoc IProviderRegistry
    function slash(
        address provider,
        uint256 amountDps,
        address finder,
        bytes32 reason
    ) external restricted nonReentrant returns (uint256 slashedDps) {
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = _registered(provider);
        slashedDps = _takeStake(p, amountDps);
        // @dev Finder fee rounds down; the burned remainder takes the dust.
        uint256 fee = finder == address(0) ? 0 : (slashedDps * $.params.finderFeeBps) / BPS;
        uint256 burned = slashedDps - fee;
        _emitSlashed(p, provider, slashedDps, finder, fee, burned, reason);
        if (fee != 0) IERC20($.dps).safeTransfer(finder, fee);
        if (burned != 0) IDPSToken($.dps).burn(burned);
    }

    /// @dev Takes up to `amount` from stake, then from unbonding; counts the slash.
    function _takeStake(ProviderData storage p, uint256 amount) private returns (uint256 taken) {
        uint256 staked = p.stakedDps;
        uint256 unbonding = p.unbondingDps;
        uint256 fromStake = amount < staked ? amount : staked;
        uint256 rest = amount - fromStake;
        uint256 fromUnbonding = rest < unbonding ? rest : unbonding;
        taken = fromStake + fromUnbonding;
        p.stakedDps = uint128(staked - fromStake);
        p.unbondingDps = uint128(unbonding - fromUnbonding);
        p.slashedDps += uint128(taken);
        p.slashCount += 1;
    }

    function _emitSlashed(
        ProviderData storage p,
        address provider,
        uint256 slashed,
        address finder,
        uint256 fee,
        uint256 burned,
        bytes32 reason
    ) private {
        emit Slashed(
            provider,
            msg.sender,
            slashed,
            finder,
            fee,
            burned,
            p.stakedDps,
            p.unbondingDps,
            p.slashCount,
            reason
        );
    }

    // ─── governance ────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc IProviderRegistry
    function setParams(Params calldata p) external restricted {
        _setParams(p);
    }

    function _setParams(Params memory p) private {
        if (
            p.collateralFactorWad == 0 ||
            p.heartbeatIntervalSec == 0 ||
            p.uptimeWindowSec < p.heartbeatIntervalSec ||
            p.finderFeeBps > BPS ||
            p.dpsPriceWad == 0 ||
            p.attestationValiditySec == 0 ||
            p.attestationValiditySec > type(uint32).max
        ) revert ProviderInvalidParams();
        ProviderRegistryStorage storage $ = _s();
        $.params = p;
        $.attestationValiditySec = p.attestationValiditySec;
        emit ParamsSet(p);
    }

    /// @inheritdoc IProviderRegistry
    function setTierThresholds(uint128[4] calldata thresholdsDps) external restricted {
        _setTierThresholds(thresholdsDps);
    }

    function _setTierThresholds(uint128[4] memory t) private {
        if (t[0] > t[1] || t[1] > t[2] || t[2] > t[3]) revert ProviderInvalidParams();
        _s().tierThresholdsDps = t;
        emit TierThresholdsSet(t);
    }

    /// @inheritdoc IProviderRegistry
    function setCapacityRecorder(address recorder) external restricted {
        ProviderRegistryStorage storage $ = _s();
        $.recorder = recorder;
        // The recorder's days start at genesis + k days: IEmission.epochStart(0) mod 1 day (0 for a recorder without
        // epochs). Low-level to fit the EIP-170 size limit; uses only the scratch space.
        uint256 offset;
        bytes4 selector = IEmission.epochStart.selector;
        assembly ("memory-safe") {
            mstore(0, selector)
            mstore(4, 0)
            if and(staticcall(gas(), recorder, 0, 36, 0, 32), gt(returndatasize(), 31)) {
                offset := mod(mload(0), 86400)
            }
        }
        $.recorderDayOffset = uint32(offset);
        emit CapacityRecorderSet(recorder);
    }

    /// @inheritdoc IProviderRegistry
    function setPriceOracle(address oracle) external restricted {
        _s().oracle = oracle;
        emit PriceOracleSet(oracle);
    }

    // ─── internals ─────────────────────────────────────────────────────────────────────────────────────────

    /// @dev Division rounding up (checked arithmetic upstream: absurd inputs revert rather than wrap).
    function _divUp(uint256 a, uint256 b) private pure returns (uint256) {
        return a == 0 ? 0 : (a - 1) / b + 1;
    }

    function _u128(uint256 x) private pure returns (uint128) {
        if (x > type(uint128).max) revert ProviderValueTooLarge();
        return uint128(x);
    }

    function _registered(address provider) private view returns (ProviderData storage p) {
        p = _s().providers[provider];
        if (p.index1 == 0) revert ProviderNotRegistered(provider);
    }

    function _tier(ProviderRegistryStorage storage $, uint256 staked) private view returns (uint8 t) {
        uint128[4] memory th = $.tierThresholdsDps;
        while (t < 4 && staked >= th[t]) ++t;
    }

    /// @dev Stake locked by obligations: the collateral behind the liability (rounded up, protocol-favouring) and
    ///      at least the minimum stake while any liability or assignment is open.
    function _lockedStake(ProviderRegistryStorage storage $, ProviderData storage p) private view returns (uint256) {
        uint256 liability = p.liabilityCh;
        if (liability == 0 && p.openAssignments == 0) return 0;
        uint256 collateral = _divUp(liability * WAD, $.params.collateralFactorWad);
        uint256 minStake = $.params.minStakeDps;
        return collateral > minStake ? collateral : minStake;
    }

    /// @dev min(rate × horizon, stake × factor) − liability, both caps rounded down. With `strict`, reverts with
    ///      the reason minting is impossible instead of returning 0.
    function _mintable(
        ProviderRegistryStorage storage $,
        ProviderData storage p,
        address provider,
        bool strict
    ) private view returns (uint256) {
        uint256 expiresAt = p.attestationExpiresAt;
        if (expiresAt < block.timestamp) {
            if (strict) revert ProviderNoValidAttestation(provider, expiresAt);
            return 0;
        }
        uint256 staked = p.stakedDps;
        uint256 minStake = $.params.minStakeDps;
        if (staked < minStake) {
            if (strict) revert ProviderStakeTooLow(provider, minStake, staked);
            return 0;
        }
        uint256 rateCap = (uint256(p.chPerHourWad) * $.params.mintHorizonSec) / 1 hours;
        uint256 collateralCap = (staked * $.params.collateralFactorWad) / WAD;
        uint256 cap = rateCap < collateralCap ? rateCap : collateralCap;
        uint256 liability = p.liabilityCh;
        return cap > liability ? cap - liability : 0;
    }

    function _uptime(ProviderRegistryStorage storage $, ProviderData storage p) private view returns (uint256) {
        uint256 up = p.upSeconds;
        uint256 tracked = p.trackedSeconds;
        uint256 last = p.lastHeartbeat;
        if (last != 0) {
            uint256 interval = $.params.heartbeatIntervalSec;
            uint256 gap = block.timestamp - last;
            // A silent provider's uptime decays in views; a beat within tolerance is not yet due.
            if (gap > interval + interval / 4)
                (up, tracked) = _accrue(up, tracked, gap, interval, $.params.uptimeWindowSec);
        }
        // @dev Rounds down: uptime is never overstated.
        return tracked == 0 ? 0 : (up * WAD) / tracked;
    }

    function _attestationDigest(Attestation calldata a) private view returns (bytes32) {
        return
            MessageHashUtils.toTypedDataHash(
                domainSeparator(),
                keccak256(
                    abi.encode(
                        ATTESTATION_TYPEHASH,
                        a.provider,
                        a.workloadClass,
                        a.standardVersion,
                        a.avgPflopsWad,
                        keccak256(abi.encodePacked(a.factorsWad)),
                        a.capacityPflopsWad,
                        a.powerWattsWad,
                        a.nonce,
                        a.deadline
                    )
                )
            );
    }

    // ─── views ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc IProviderRegistry
    function domainSeparator() public view returns (bytes32) {
        // @dev Computed per call (not cached) so it always binds the live chain id and this proxy's address.
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// @inheritdoc IProviderRegistry
    function providerCount() external view returns (uint256) {
        return _s().list.length;
    }

    /// @inheritdoc IProviderRegistry
    function providerAt(uint256 index) external view returns (address) {
        return _s().list[index];
    }

    /// @inheritdoc IProviderRegistry
    function providersPage(uint256 offset, uint256 limit) external view returns (address[] memory page) {
        address[] storage list = _s().list;
        uint256 n = list.length;
        uint256 end = offset + limit < n ? offset + limit : n;
        if (offset >= end) return new address[](0);
        page = new address[](end - offset);
        for (uint256 i = offset; i < end; ++i) page[i - offset] = list[i];
    }

    /// @inheritdoc IProviderRegistry
    function providerInfo(address provider) external view returns (ProviderInfo memory i) {
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = $.providers[provider];
        if (p.index1 == 0) return i;
        i.registered = true;
        i.index = p.index1 - 1;
        i.region = p.region;
        i.workloadMask = p.workloadMask;
        i.registeredAt = p.registeredAt;
        i.attestationNonce = p.attestationNonce;
        i.askPriceWad = p.askPriceWad;
        i.stakedDps = p.stakedDps;
        i.unbondingDps = p.unbondingDps;
        i.unbondReadyAt = p.unbondReadyAt;
        i.tier = _tier($, p.stakedDps);
        i.workloadClass = p.workloadClass;
        i.standardVersion = p.standardVersion;
        i.chPerHourWad = p.chPerHourWad;
        i.capacityPflopsWad = p.capacityPflopsWad;
        i.attestedAt = p.attestedAt;
        i.attestationExpiresAt = p.attestationExpiresAt;
        IComputeStandard std = IComputeStandard($.standard);
        i.performanceGrade = uint8(std.performanceGrade(p.chPerHourWad));
        i.energyGrade = uint8(std.energyGrade(p.whPerChWad));
        i.whPerChWad = p.whPerChWad;
        i.lastHeartbeat = p.lastHeartbeat;
        i.lastSamplePflopsWad = p.lastSamplePflopsWad;
        i.uptimeWad = _uptime($, p);
        i.reliabilityGrade = uint8(std.reliabilityGrade(i.uptimeWad));
        i.liabilityCh = p.liabilityCh;
        i.mintedCh = p.liabilityCh + p.deliveredCh + p.boughtBackCh;
        i.deliveredCh = p.deliveredCh;
        i.boughtBackCh = p.boughtBackCh;
        i.assignedCh = p.assignedCh;
        i.openAssignments = p.openAssignments;
        i.completed = p.completed;
        i.failed = p.failed;
        i.slashCount = p.slashCount;
        i.slashedDps = p.slashedDps;
        i.mintableCh = _mintable($, p, provider, false);
    }

    /// @inheritdoc IProviderRegistry
    function matchingProfile(address provider) external view returns (MatchingProfile memory m) {
        ProviderRegistryStorage storage $ = _s();
        ProviderData storage p = $.providers[provider];
        m.eligible = p.index1 != 0 && p.attestationExpiresAt >= block.timestamp && p.stakedDps >= $.params.minStakeDps;
        m.region = p.region;
        m.workloadMask = p.workloadMask;
        m.askPriceWad = p.askPriceWad;
        m.uptimeWad = _uptime($, p);
        m.completed = p.completed;
        m.failed = p.failed;
        m.slashCount = p.slashCount;
        m.capacityPflopsWad = p.lastHeartbeat == 0 ? p.capacityPflopsWad : p.lastSamplePflopsWad;
        m.outstandingCh = p.liabilityCh - p.assignedCh;
        m.stakedDps = p.stakedDps;
    }

    /// @inheritdoc IProviderRegistry
    function uptimeWad(address provider) external view returns (uint256) {
        ProviderRegistryStorage storage $ = _s();
        return _uptime($, $.providers[provider]);
    }

    /// @inheritdoc IProviderRegistry
    function tierOf(address provider) external view returns (uint8) {
        ProviderRegistryStorage storage $ = _s();
        return _tier($, $.providers[provider].stakedDps);
    }

    /// @inheritdoc IProviderRegistry
    function mintableCh(address provider) external view returns (uint256) {
        ProviderRegistryStorage storage $ = _s();
        return _mintable($, $.providers[provider], provider, false);
    }

    /// @inheritdoc IProviderRegistry
    function liabilityOf(address provider) external view returns (uint256) {
        return _s().providers[provider].liabilityCh;
    }

    /// @inheritdoc IProviderRegistry
    function attestationNonce(address provider) external view returns (uint256) {
        return _s().providers[provider].attestationNonce;
    }

    /// @inheritdoc IProviderRegistry
    function attestationDigest(Attestation calldata a) external view returns (bytes32) {
        return _attestationDigest(a);
    }

    /// @inheritdoc IProviderRegistry
    function assignment(uint256 id) external view returns (Assignment memory) {
        return _s().assignments[id];
    }

    /// @inheritdoc IProviderRegistry
    function params() external view returns (Params memory) {
        return _s().params;
    }

    /// @inheritdoc IProviderRegistry
    function tierThresholds() external view returns (uint128[4] memory) {
        return _s().tierThresholdsDps;
    }

    /// @inheritdoc IProviderRegistry
    function capacityRecorder() external view returns (address) {
        return _s().recorder;
    }

    /// @inheritdoc IProviderRegistry
    function priceOracle() external view returns (address) {
        return _s().oracle;
    }

    /// @inheritdoc IProviderRegistry
    function standard() external view returns (address) {
        return _s().standard;
    }
}
