// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IEmission} from "../../interfaces/emission/IEmission.sol";
import {ICapacityRecorder, IRewardPool} from "../../interfaces/callback/IEmissionHooks.sol";
import {IGFLToken} from "../../interfaces/tokens/IGFLToken.sol";
import {IDPSToken} from "../../interfaces/tokens/IDPSToken.sol";
import {CapacitySamples} from "../../libraries/CapacitySamples.sol";
import {EmissionEpochs} from "../../libraries/emission/EmissionEpochs.sol";
import {EmissionRewards} from "../../libraries/emission/EmissionRewards.sol";
import {EmissionKeepers} from "../../libraries/emission/EmissionKeepers.sol";
import {EmissionSamples} from "../../libraries/emission/EmissionSamples.sol";
import {EmissionStore} from "./EmissionStore.sol";

/// @title Emission
/// @notice GFL capacity index and DPS rewards (SPEC section 5, seed 001): see IEmission and docs/emission.md.
/// @dev Epoch totals are maintained incrementally on every sample, so closing an epoch (halving checks, reward
///      rate) is O(1); only writing GFL balances is paged. Every user path first closes due epochs lazily, so a
///      provider's pending epoch result can always be applied in O(1) (`EmissionRewards.settle`), by a batch or by
///      itself. Mechanisms live in `contracts/libraries/emission/` (epochs and halvings, samples, rewards).
contract Emission is ChxUpgradeable, EmissionStore, IEmission {
    using SafeERC20 for IERC20;
    using CapacitySamples for uint256[4];

    uint256 internal constant WAD = 1e18;
    uint256 internal constant BPS = 10_000;
    uint256 internal constant MAX_SAMPLE_WAD = uint256(type(uint64).max) * CapacitySamples.UNIT;

    /// @notice Pause flag of capacity recording (the ProviderRegistry's heartbeat samples).
    bytes32 public constant FEATURE_RECORD = keccak256("emission.record");
    /// @notice Pause flag of reward claims.
    bytes32 public constant FEATURE_CLAIM = keccak256("emission.claim");
    /// @notice Pause flag of reward-pool replenishment.
    bytes32 public constant FEATURE_REPLENISH = keccak256("emission.replenish");

    /// @dev The trusted recorder governance registered passes with one SLOAD (word 2, which the sample reads anyway);
    ///      anyone else goes through AccessManager exactly as `restricted`.
    modifier onlyRecorder() {
        if (msg.sender != _s().trustedRecorder) _checkCanCall(msg.sender, msg.data);
        _;
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param p Parameters (see IEmission.InitParams).
    function initialize(address authority, InitParams calldata p) external initializer {
        __ChxUpgradeable_init(authority);
        if (p.gfl == address(0) || p.dps == address(0)) revert ChxZeroAddress();
        if (p.rewardShareBps == 0 || p.rewardShareBps > BPS)
            revert EmissionInvalidParameter("rewardShareBps", p.rewardShareBps);
        uint256 base = (p.rewardShareBps * p.initialRatioWad) / BPS;
        if (base == 0 || base > type(uint64).max) revert EmissionInvalidParameter("initialRatioWad", p.initialRatioWad);
        uint64 genesis = p.genesisTime == 0 ? uint64(block.timestamp) : p.genesisTime;
        if (genesis > block.timestamp) revert EmissionInvalidParameter("genesisTime", genesis);
        EmissionStorage storage $ = _s();
        $.gfl = IGFLToken(p.gfl);
        $.dps = IDPSToken(p.dps);
        $.genesisTime = genesis;
        $.baseRateWad = uint64(base);
        $.nextTimeHalvingAt = uint64(genesis + EmissionEpochs.YEAR);
        EmissionSamples.setMinSamples($, p.minSamples);
        $.minSamples = $.minSamplesNext;
        EmissionEpochs.setHalvingSpan($, p.halvingSpanGfl);
        EmissionKeepers.setConfig($, p.bounty, p.keeperShareBps, p.keeperBatchSize);
    }

    // ================================================================== hooks

    /// @inheritdoc ICapacityRecorder
    function recordCapacity(
        address provider,
        uint256 capacityPflopsWad
    ) external onlyRecorder whenActive(FEATURE_RECORD) nonReentrant {
        if (capacityPflopsWad > MAX_SAMPLE_WAD) {
            revert EmissionCapacityTooLarge(provider, capacityPflopsWad, MAX_SAMPLE_WAD);
        }
        EmissionStorage storage $ = _s();
        // @dev issue 18 item 4: a zero provider names the caller (a capacity recorder) the sample source Emission
        //      collects ended epochs from (the ProviderRegistry, when its recorder is set).
        if (provider == address(0)) {
            $.sampleSource = msg.sender;
            return;
        }
        EmissionEpochs.sync($, EmissionKeepers.MAX_LAZY_CLOSES, false);
        uint256 epoch = $.currentEpoch;
        if (block.timestamp >= EmissionEpochs.start($, epoch + 1)) revert EmissionCollectionPending(epoch);
        EmissionSamples.record($, provider, capacityPflopsWad);
    }

    /// @inheritdoc IRewardPool
    function replenish(uint256 dpsAmount) external restricted whenActive(FEATURE_REPLENISH) nonReentrant {
        if (dpsAmount == 0) revert EmissionInvalidParameter("dpsAmount", 0);
        EmissionStorage storage $ = _s();
        EmissionEpochs.sync($, EmissionKeepers.MAX_LAZY_CLOSES, false);
        EmissionRewards.replenish($, dpsAmount);
    }

    // ================================================================== keeper actions

    /// @inheritdoc IEmission
    function closeEpoch() external nonReentrant returns (uint256 bountyDps) {
        (, bountyDps) = EmissionKeepers.closeEpochs(_s(), 1);
    }

    /// @inheritdoc IEmission
    function closeEpochs(uint256 maxEpochs) external nonReentrant returns (uint256 closed) {
        (closed, ) = EmissionKeepers.closeEpochs(_s(), maxEpochs);
    }

    /// @inheritdoc IEmission
    function collect(uint256 maxProviders) external nonReentrant returns (uint256 collected) {
        collected = EmissionKeepers.collect(_s(), maxProviders);
    }

    /// @inheritdoc IEmission
    function rebalance(uint256 maxProviders) external nonReentrant returns (uint256 rebalanced) {
        rebalanced = EmissionKeepers.rebalance(_s(), maxProviders);
    }

    /// @inheritdoc IEmission
    function rebalanceProvider(address provider) external nonReentrant {
        EmissionStorage storage $ = _s();
        EmissionEpochs.sync($, EmissionKeepers.MAX_LAZY_CLOSES, false);
        EmissionRewards.settle($, provider, $.providers[provider], $.currentEpoch);
    }

    /// @inheritdoc IEmission
    function claim(address to) external whenActive(FEATURE_CLAIM) nonReentrant returns (uint256 amountDps) {
        if (to == address(0)) revert ChxZeroAddress();
        EmissionStorage storage $ = _s();
        EmissionEpochs.sync($, EmissionKeepers.MAX_LAZY_CLOSES, false);
        EmissionStore.Provider storage pr = $.providers[msg.sender];
        // @dev the claim accrues the pending reward only; the GFL balance follows at the rebalance or the next
        //      heartbeat (a token write the DPS claim does not need: docs/emission.md "Rewards and claims")
        amountDps = EmissionRewards.accrueReward($, msg.sender, pr, $.currentEpoch);
        if (amountDps == 0) return 0;
        uint256 claimed = pr.claimedDps + amountDps;
        pr.accruedDps = 0;
        pr.claimedDps = uint120(claimed);
        // Closed epochs' rewards are funded in bulk by keepers; a claim funds them itself only when none did.
        uint256 funded = $.fundedDps;
        if (funded < amountDps) {
            EmissionRewards.fund($);
            funded = $.fundedDps;
        }
        $.fundedDps = uint96(funded - amountDps);
        emit RewardsClaimed(msg.sender, to, amountDps, claimed);
        IERC20(address($.dps)).safeTransfer(to, amountDps);
    }

    /// @inheritdoc IEmission
    function fundKeeperBudget(uint256 dpsAmount) external nonReentrant {
        EmissionStorage storage $ = _s();
        uint256 budget = $.keeperBudgetDps + dpsAmount;
        $.keeperBudgetDps = budget;
        emit KeeperBudgetFunded(msg.sender, dpsAmount, budget);
        IERC20(address($.dps)).safeTransferFrom(msg.sender, address(this), dpsAmount);
    }

    // ================================================================== governance

    /// @inheritdoc IEmission
    function setHalvingSpan(uint256 spanGfl) external restricted {
        EmissionEpochs.setHalvingSpan(_s(), spanGfl);
    }

    /// @inheritdoc IEmission
    function setMinSamples(uint256 minSamples_) external restricted {
        EmissionSamples.setMinSamples(_s(), minSamples_);
    }

    /// @inheritdoc IEmission
    function setTrustedRecorder(address recorder) external restricted {
        EmissionStorage storage $ = _s();
        address previous = $.trustedRecorder;
        $.trustedRecorder = recorder;
        emit TrustedRecorderSet(previous, recorder);
    }

    /// @inheritdoc IEmission
    function setKeeperConfig(
        BountyConfig calldata bounty,
        uint256 keeperShareBps,
        uint256 keeperBatchSize
    ) external restricted {
        EmissionKeepers.setConfig(_s(), bounty, keeperShareBps, keeperBatchSize);
    }

    // ================================================================== checkers

    /// @inheritdoc IEmission
    function checker() external view returns (bool canExec, bytes memory execPayload) {
        (uint8 action, uint256 arg) = EmissionKeepers.nextUpkeep(_s());
        if (action == 0) return (false, "");
        // @dev one encoding for the three actions (each takes one uint256): the bytes of abi.encodeCall.
        bytes4 selector =
            action == EmissionKeepers.UPKEEP_CLOSE
                ? this.closeEpochs.selector
                : action == EmissionKeepers.UPKEEP_REBALANCE
                    ? this.rebalance.selector
                    : this.collect.selector;
        return (true, abi.encodeWithSelector(selector, arg));
    }

    /// @inheritdoc IEmission
    function checkUpkeep(bytes calldata) external view returns (bool upkeepNeeded, bytes memory performData) {
        (uint8 action, uint256 arg) = EmissionKeepers.nextUpkeep(_s());
        upkeepNeeded = action != 0;
        performData = abi.encode(action, arg);
    }

    /// @inheritdoc IEmission
    function performUpkeep(bytes calldata performData) external nonReentrant {
        (uint8 action, uint256 arg) = abi.decode(performData, (uint8, uint256));
        if (action == EmissionKeepers.UPKEEP_CLOSE) EmissionKeepers.closeEpochs(_s(), arg);
        else if (action == EmissionKeepers.UPKEEP_REBALANCE) EmissionKeepers.rebalance(_s(), arg);
        else if (action == EmissionKeepers.UPKEEP_COLLECT) EmissionKeepers.collect(_s(), arg);
        else revert EmissionUnknownUpkeep(action);
    }

    // ================================================================== views

    /// @inheritdoc IEmission
    function currentEpoch() external view returns (uint256) {
        return _s().currentEpoch;
    }

    /// @inheritdoc IEmission
    function epochStart(uint256 epoch) external view returns (uint256) {
        return EmissionEpochs.start(_s(), epoch);
    }

    /// @inheritdoc IEmission
    function epochDue() public view returns (bool) {
        EmissionStorage storage $ = _s();
        return block.timestamp >= EmissionEpochs.start($, uint256($.currentEpoch) + 1);
    }

    /// @inheritdoc IEmission
    function epochInfo(uint256 epoch) external view returns (EpochInfo memory info) {
        EmissionStorage storage $ = _s();
        info = $.epochs[epoch];
        // @dev the open epoch's running total is kept in word 2 until its close.
        if (epoch == $.currentEpoch) info.totalGfl = uint128(uint256($.openTotalGfl) * CapacitySamples.UNIT);
    }

    /// @inheritdoc IEmission
    function providerInfo(address provider) external view returns (ProviderInfo memory info) {
        EmissionStore.Provider storage pr = _s().providers[provider];
        info.sampleEpoch = pr.sampleEpoch;
        info.sampleCount = uint8(EmissionSamples.popcount(pr.mask));
        info.settled = pr.settled;
        info.epochGfl = uint256(pr.epochGfl) * CapacitySamples.UNIT;
        info.gfl = pr.gfl;
        info.accruedDps = pr.accruedDps;
        info.claimedDps = pr.claimedDps;
    }

    /// @inheritdoc IEmission
    function samplesOf(
        address provider
    ) external view returns (uint256 epoch, uint256 mask, uint256[15] memory samplesPflopsWad) {
        EmissionStore.Provider storage pr = _s().providers[provider];
        epoch = pr.sampleEpoch;
        mask = pr.mask;
        for (uint256 d; d < CapacitySamples.DAYS; ++d) {
            if ((mask >> d) & 1 == 1) samplesPflopsWad[d] = pr.samples.get(d) * CapacitySamples.UNIT;
        }
    }

    /// @inheritdoc IEmission
    function claimable(address provider) external view returns (uint256) {
        EmissionStorage storage $ = _s();
        EmissionStore.Provider storage pr = $.providers[provider];
        uint256 amount = pr.accruedDps;
        if (pr.listed && !pr.settled && pr.sampleEpoch < $.currentEpoch) {
            amount += EmissionRewards.epochReward(pr.epochGfl, $.epochs[pr.sampleEpoch].rateWad);
        }
        return amount;
    }

    /// @inheritdoc IEmission
    function providerCount() external view returns (uint256) {
        return _s().providerList.length;
    }

    /// @inheritdoc IEmission
    function providerAt(uint256 index) external view returns (address) {
        return _s().providerList[index];
    }

    /// @inheritdoc IEmission
    function rebalanceProgress() external view returns (uint256 cursor, uint256 total) {
        EmissionStorage storage $ = _s();
        return ($.rebalanceCursor, $.providerList.length);
    }

    /// @inheritdoc IEmission
    function halvings() external view returns (uint256) {
        return _s().halvings;
    }

    /// @inheritdoc IEmission
    function rewardRateWad(uint256 n) external view returns (uint256) {
        return EmissionEpochs.rate(_s(), n);
    }

    /// @inheritdoc IEmission
    function halvingState()
        external
        view
        returns (uint256 cumulativeGfl, uint256 nextThresholdGfl, uint256 nextTimeHalvingAt)
    {
        EmissionStorage storage $ = _s();
        cumulativeGfl = $.cumulativeGfl;
        nextThresholdGfl = $.halvingSpanGfl == 0 ? type(uint256).max : $.eraStartGfl + $.halvingSpanGfl;
        nextTimeHalvingAt = $.nextTimeHalvingAt;
    }

    /// @inheritdoc IEmission
    function emissionBound() external view returns (uint256) {
        return EmissionEpochs.bound(_s());
    }

    /// @inheritdoc IEmission
    function pools()
        external
        view
        returns (uint256 rewardPoolDps, uint256 keeperBudgetDps, uint256 totalMintedDps, uint256 totalReplenishedDps)
    {
        EmissionStorage storage $ = _s();
        return ($.rewardPoolDps, $.keeperBudgetDps, $.totalMintedDps, $.totalReplenishedDps);
    }

    /// @inheritdoc IEmission
    function rewardReserves() external view returns (uint256 fundedDps, uint256 unfundedDps) {
        EmissionStorage storage $ = _s();
        return ($.fundedDps, $.unfundedDps);
    }

    /// @inheritdoc IEmission
    function keeperConfig()
        external
        view
        returns (BountyConfig memory bounty, uint256 keeperShareBps, uint256 keeperBatchSize)
    {
        EmissionStorage storage $ = _s();
        return ($.bounty, $.keeperShareBps, $.keeperBatchSize);
    }

    /// @inheritdoc IEmission
    function minSamples() external view returns (uint256 current, uint256 next) {
        EmissionStorage storage $ = _s();
        return ($.minSamples, $.minSamplesNext);
    }

    /// @inheritdoc IEmission
    function trustedRecorder() external view returns (address) {
        return _s().trustedRecorder;
    }
}
