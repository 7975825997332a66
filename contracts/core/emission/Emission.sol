// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IEmission} from "../../interfaces/IEmission.sol";
import {ICapacityRecorder, IRewardPool} from "../../interfaces/IEmissionHooks.sol";
import {IGFLToken} from "../../interfaces/IGFLToken.sol";
import {IDPSToken} from "../../interfaces/IDPSToken.sol";
import {CapacitySamples} from "../../libraries/CapacitySamples.sol";

/// @title Emission
/// @notice GFL capacity index and DPS rewards (SPEC section 5, seed 001): see IEmission and docs/emission.md.
/// @dev Epoch totals are maintained incrementally on every sample, so closing an epoch (halving checks, reward
///      rate) is O(1); only writing GFL balances is paged. Every user path first closes due epochs lazily, so a
///      provider's pending epoch result can always be applied in O(1) (`_settle`), by a batch or by itself.
contract Emission is ChxUpgradeable, IEmission {
    using SafeERC20 for IERC20;
    using CapacitySamples for uint256[4];

    uint256 internal constant EPOCH = 15 days;
    uint256 internal constant YEAR = 365 days;
    uint256 internal constant WAD = 1e18;
    uint256 internal constant BPS = 10_000;
    /// @dev Past 64 halvings every rate is 0 (R_0 × share < 2^64): nothing more to halve.
    uint256 internal constant MAX_HALVINGS = 64;
    /// @dev Epochs a user path may close on its way (each close is O(1), ≈ 25k gas).
    uint256 internal constant MAX_LAZY_CLOSES = 64;
    /// @dev Epochs one `closeEpochs` call may close: 256 × ≈ 30k ≈ 8M gas.
    uint256 internal constant MAX_CLOSES = 256;
    /// @dev Providers per batch at most: 200 × ≈ 51k (worst case, a first GFL) ≈ 10M gas, far under 16,777,216.
    uint256 internal constant MAX_BATCH = 200;
    uint256 internal constant MAX_SAMPLE_WAD = uint256(type(uint64).max) * CapacitySamples.UNIT;

    uint8 internal constant UPKEEP_CLOSE = 1;
    uint8 internal constant UPKEEP_REBALANCE = 2;

    bytes32 public constant FEATURE_RECORD = keccak256("emission.record");
    bytes32 public constant FEATURE_CLAIM = keccak256("emission.claim");
    bytes32 public constant FEATURE_REPLENISH = keccak256("emission.replenish");

    struct Provider {
        uint32 sampleEpoch;
        uint16 mask;
        bool settled;
        bool listed;
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
        IGFLToken gfl;
        IDPSToken dps;
        uint64 genesisTime;
        uint32 currentEpoch;
        uint16 halvings;
        uint8 minSamples;
        uint8 minSamplesNext;
        uint64 nextTimeHalvingAt;
        uint64 baseRateWad;
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
        uint256 fundedDps;
        uint256 unfundedDps;
        uint256 rebalanceCursor;
        BountyConfig bounty;
        mapping(uint256 epoch => EpochInfo) epochs;
        mapping(address provider => Provider) providers;
        address[] providerList;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.Emission")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant EMISSION_STORAGE_LOCATION =
        0x404a79aa38836b97905b69fae1af4f085be047fdfd4dc0d44c8aa3317c5f7600;

    function _s() private pure returns (EmissionStorage storage $) {
        assembly {
            $.slot := EMISSION_STORAGE_LOCATION
        }
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
        $.nextTimeHalvingAt = uint64(genesis + YEAR);
        _setMinSamples($, p.minSamples);
        $.minSamples = $.minSamplesNext;
        _setHalvingSpan($, p.halvingSpanGfl);
        _setKeeperConfig($, p.bounty, p.keeperShareBps, p.keeperBatchSize);
    }

    // ================================================================== hooks

    /// @inheritdoc ICapacityRecorder
    function recordCapacity(
        address provider,
        uint256 capacityPflopsWad
    ) external restricted whenActive(FEATURE_RECORD) nonReentrant {
        if (capacityPflopsWad > MAX_SAMPLE_WAD) {
            revert EmissionCapacityTooLarge(provider, capacityPflopsWad, MAX_SAMPLE_WAD);
        }
        EmissionStorage storage $ = _s();
        _syncEpochs($, MAX_LAZY_CLOSES, false);
        uint256 epoch = $.currentEpoch;
        Provider storage pr = $.providers[provider];
        if (!pr.listed) {
            pr.listed = true;
            pr.rewardSlotWarm = true;
            pr.sampleEpoch = uint32(epoch);
            $.providerList.push(provider);
        } else if (pr.sampleEpoch != epoch) {
            _settle($, provider, pr, epoch);
            pr.sampleEpoch = uint32(epoch);
            pr.mask = 0;
            pr.settled = false;
            pr.epochGfl = 0;
        }

        uint256 day = (block.timestamp - _epochStart($, epoch)) / 1 days;
        // @dev samples are stored in nano-PetaFLOPs, rounded down (favours the protocol).
        uint256 sample = capacityPflopsWad / CapacitySamples.UNIT;
        (uint256 mask, bool changed, uint256 daySample) = _writeSample(pr, day, sample);
        uint256 newGfl = pr.epochGfl;
        uint256 count;
        EpochInfo storage info = $.epochs[epoch];
        uint256 total = info.totalGfl;
        if (changed) {
            uint256 med;
            (med, count) = pr.samples.median(mask);
            uint256 oldGfl = newGfl;
            newGfl = count >= $.minSamples ? med * CapacitySamples.UNIT : 0;
            if (newGfl != oldGfl) {
                total = total + newGfl - oldGfl;
                info.totalGfl = uint128(total);
                pr.epochGfl = uint96(newGfl);
            }
        } else {
            // A higher reading on a day that already has one changes nothing.
            count = _popcount(mask);
        }
        emit CapacityRecorded(provider, epoch, day, daySample * CapacitySamples.UNIT, count, newGfl, total);
    }

    /// @inheritdoc IRewardPool
    function replenish(uint256 dpsAmount) external restricted whenActive(FEATURE_REPLENISH) nonReentrant {
        if (dpsAmount == 0) revert EmissionInvalidParameter("dpsAmount", 0);
        EmissionStorage storage $ = _s();
        _syncEpochs($, MAX_LAZY_CLOSES, false);
        uint256 pool = $.rewardPoolDps;
        uint256 budget = $.keeperBudgetDps;
        uint256 balance = IERC20(address($.dps)).balanceOf(address(this));
        uint256 unaccounted = balance - pool - budget - $.fundedDps;
        if (unaccounted < dpsAmount) revert EmissionReplenishNotFunded(dpsAmount, unaccounted);
        // @dev keeper share rounds down; the pool keeps the remainder.
        uint256 toKeeper = (dpsAmount * $.keeperShareBps) / BPS;
        uint256 toPool = dpsAmount - toKeeper;
        // @dev GFL equivalent = DPS / (share × R_n): the exact inverse of the rate in force, rounded down so the
        //      counter falls by at most what the returned DPS pays for (docs/emission.md, seed 001 §4.2).
        uint256 rate = _rate($, $.halvings);
        uint256 gflEquivalent = rate == 0 ? 0 : Math.mulDiv(toPool, WAD, rate);
        uint256 cumulative = $.cumulativeGfl;
        if (gflEquivalent > cumulative) gflEquivalent = cumulative;
        cumulative -= gflEquivalent;
        $.cumulativeGfl = cumulative;
        pool += toPool;
        budget += toKeeper;
        $.rewardPoolDps = pool;
        $.keeperBudgetDps = budget;
        $.totalReplenishedDps += dpsAmount;
        emit Replenished(msg.sender, dpsAmount, toPool, toKeeper, gflEquivalent, cumulative, pool, budget);
    }

    // ================================================================== keeper actions

    /// @inheritdoc IEmission
    function closeEpoch() external nonReentrant returns (uint256 bountyDps) {
        EmissionStorage storage $ = _s();
        uint256 epoch = $.currentEpoch;
        uint256 endsAt = _epochStart($, epoch + 1);
        if (block.timestamp < endsAt) revert EmissionEpochNotDue(epoch, endsAt);
        bountyDps = _syncEpochs($, 1, true);
        _fund($);
        _transferBounty($, bountyDps);
    }

    /// @inheritdoc IEmission
    function closeEpochs(uint256 maxEpochs) external nonReentrant returns (uint256 closed) {
        closed = _closeEpochs(maxEpochs);
    }

    /// @inheritdoc IEmission
    function rebalance(uint256 maxProviders) external nonReentrant returns (uint256 rebalanced) {
        rebalanced = _rebalance(maxProviders);
    }

    /// @inheritdoc IEmission
    function rebalanceProvider(address provider) external nonReentrant {
        EmissionStorage storage $ = _s();
        _syncEpochs($, MAX_LAZY_CLOSES, false);
        _settle($, provider, $.providers[provider], $.currentEpoch);
    }

    /// @inheritdoc IEmission
    function claim(address to) external whenActive(FEATURE_CLAIM) nonReentrant returns (uint256 amountDps) {
        if (to == address(0)) revert ChxZeroAddress();
        EmissionStorage storage $ = _s();
        _syncEpochs($, MAX_LAZY_CLOSES, false);
        Provider storage pr = $.providers[msg.sender];
        _settle($, msg.sender, pr, $.currentEpoch);
        amountDps = pr.accruedDps;
        if (amountDps == 0) return 0;
        uint256 claimed = pr.claimedDps + amountDps;
        pr.accruedDps = 0;
        pr.claimedDps = uint120(claimed);
        // Closed epochs' rewards are funded in bulk by keepers; a claim funds them itself only when none did.
        uint256 funded = $.fundedDps;
        if (funded < amountDps) {
            _fund($);
            funded = $.fundedDps;
        }
        $.fundedDps = funded - amountDps;
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
        _setHalvingSpan(_s(), spanGfl);
    }

    /// @inheritdoc IEmission
    function setMinSamples(uint256 minSamples_) external restricted {
        _setMinSamples(_s(), minSamples_);
    }

    /// @inheritdoc IEmission
    function setKeeperConfig(
        BountyConfig calldata bounty,
        uint256 keeperShareBps,
        uint256 keeperBatchSize
    ) external restricted {
        _setKeeperConfig(_s(), bounty, keeperShareBps, keeperBatchSize);
    }

    // ================================================================== checkers

    /// @inheritdoc IEmission
    function checker() external view returns (bool canExec, bytes memory execPayload) {
        (uint8 action, uint256 arg) = _nextUpkeep();
        if (action == UPKEEP_CLOSE) return (true, abi.encodeCall(this.closeEpochs, (arg)));
        if (action == UPKEEP_REBALANCE) return (true, abi.encodeCall(this.rebalance, (arg)));
        return (false, bytes("Emission: nothing to do"));
    }

    /// @inheritdoc IEmission
    function checkUpkeep(bytes calldata) external view returns (bool upkeepNeeded, bytes memory performData) {
        (uint8 action, uint256 arg) = _nextUpkeep();
        upkeepNeeded = action != 0;
        performData = abi.encode(action, arg);
    }

    /// @inheritdoc IEmission
    function performUpkeep(bytes calldata performData) external nonReentrant {
        (uint8 action, uint256 arg) = abi.decode(performData, (uint8, uint256));
        if (action == UPKEEP_CLOSE) _closeEpochs(arg);
        else if (action == UPKEEP_REBALANCE) _rebalance(arg);
        else revert EmissionUnknownUpkeep(action);
    }

    // ================================================================== views

    /// @inheritdoc IEmission
    function currentEpoch() external view returns (uint256) {
        return _s().currentEpoch;
    }

    /// @inheritdoc IEmission
    function epochStart(uint256 epoch) external view returns (uint256) {
        return _epochStart(_s(), epoch);
    }

    /// @inheritdoc IEmission
    function epochDue() public view returns (bool) {
        EmissionStorage storage $ = _s();
        return block.timestamp >= _epochStart($, uint256($.currentEpoch) + 1);
    }

    /// @inheritdoc IEmission
    function epochInfo(uint256 epoch) external view returns (EpochInfo memory) {
        return _s().epochs[epoch];
    }

    /// @inheritdoc IEmission
    function providerInfo(address provider) external view returns (ProviderInfo memory info) {
        Provider storage pr = _s().providers[provider];
        info.sampleEpoch = pr.sampleEpoch;
        info.sampleCount = uint8(_popcount(pr.mask));
        info.settled = pr.settled;
        info.epochGfl = pr.epochGfl;
        info.gfl = pr.gfl;
        info.accruedDps = pr.accruedDps;
        info.claimedDps = pr.claimedDps;
    }

    /// @inheritdoc IEmission
    function samplesOf(
        address provider
    ) external view returns (uint256 epoch, uint256 mask, uint256[15] memory samplesPflopsWad) {
        Provider storage pr = _s().providers[provider];
        epoch = pr.sampleEpoch;
        mask = pr.mask;
        for (uint256 d; d < CapacitySamples.DAYS; ++d) {
            if ((mask >> d) & 1 == 1) samplesPflopsWad[d] = pr.samples.get(d) * CapacitySamples.UNIT;
        }
    }

    /// @inheritdoc IEmission
    function claimable(address provider) external view returns (uint256) {
        EmissionStorage storage $ = _s();
        Provider storage pr = $.providers[provider];
        uint256 amount = pr.accruedDps;
        if (pr.listed && !pr.settled && pr.sampleEpoch < $.currentEpoch) {
            amount += (uint256(pr.epochGfl) * $.epochs[pr.sampleEpoch].rateWad) / WAD;
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
        return _rate(_s(), n);
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
        EmissionStorage storage $ = _s();
        uint256 span = $.halvingSpanGfl;
        if (span == 0) return type(uint256).max;
        uint256 rate = _rate($, $.halvings);
        uint256 progress = _eraProgress($);
        return
            $.boundAccruedDps + Math.mulDiv(rate, (progress > span ? progress : span) + span, WAD, Math.Rounding.Ceil);
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

    // ================================================================== internals: epochs and halvings

    function _epochStart(EmissionStorage storage $, uint256 epoch) private view returns (uint256) {
        return $.genesisTime + epoch * EPOCH;
    }

    /// @dev R_n × share as a WAD rate: base >> n (R_n = R_0 / 2^n, rounded down).
    function _rate(EmissionStorage storage $, uint256 n) private view returns (uint256) {
        return n >= MAX_HALVINGS ? 0 : uint256($.baseRateWad) >> n;
    }

    function _eraProgress(EmissionStorage storage $) private view returns (uint256) {
        uint256 c = $.cumulativeGfl;
        uint256 start = $.eraStartGfl;
        return c > start ? c - start : 0;
    }

    /// @dev Closes due epochs, at most `maxCloses`; when `paid`, each close earns the close bounty (capped per
    ///      call by maxBountyDps and by the keeper budget) which the caller transfers. User paths revert when more
    ///      than `maxCloses` are due, so a sample never lands in the wrong epoch.
    function _syncEpochs(EmissionStorage storage $, uint256 maxCloses, bool paid) private returns (uint256 bounty) {
        uint256 epoch = $.currentEpoch;
        uint256 next = _epochStart($, epoch + 1);
        if (block.timestamp < next) return 0;
        uint256 closes;
        BountyConfig memory cfg = $.bounty;
        uint256 budget = $.keeperBudgetDps;
        while (block.timestamp >= next) {
            if (closes == maxCloses) {
                if (paid) break;
                revert EmissionEpochsBehind(epoch, (block.timestamp - next) / EPOCH + 1);
            }
            uint256 b;
            if (paid) {
                b = cfg.closeBountyDps;
                uint256 room = cfg.maxBountyDps - bounty;
                if (b > room) b = room;
                if (b > budget) b = budget;
                budget -= b;
                bounty += b;
            }
            _closeEpoch($, epoch, next, b);
            ++epoch;
            ++closes;
            next += EPOCH;
        }
        $.currentEpoch = uint32(epoch);
        $.keeperBudgetDps = budget;
        $.rebalanceCursor = 0;
        $.minSamples = $.minSamplesNext;
    }

    /// @dev Fixes epoch `epoch`'s reward rate and applies halvings. A threshold crossed inside the epoch splits its
    ///      GFL: the part up to the threshold earns the old rate, the rest the new one (blended rate, rounded down),
    ///      so every era pays at most rate_n × span (EMI-01). A time halving applies from the next epoch.
    function _closeEpoch(EmissionStorage storage $, uint256 epoch, uint256 endsAt, uint256 bounty) private {
        EpochInfo storage info = $.epochs[epoch];
        uint256 total = info.totalGfl;
        (uint256 weighted, uint256 n) = _applyGfl($, epoch, total, endsAt);
        // @dev blended rate rounds down: Σ rewards ≤ Σ part × rate_n.
        uint256 rateWad = total == 0 ? _rate($, n) : weighted / total;
        info.rateWad = uint64(rateWad);
        info.halvingsAfter = uint16(n);
        info.closed = true;
        $.halvings = uint16(n);
        // @dev the epoch's rewards, rounded down, bound Σ provider rewards (each rounded down); owed until funded.
        uint256 rewards = (total * rateWad) / WAD;
        $.unfundedDps += rewards;
        emit EpochClosed(epoch, total, rateWad, rewards, $.cumulativeGfl, n, msg.sender, bounty);
    }

    /// @dev Adds the epoch's GFL to the cumulative counter, halving at each threshold crossed (and otherwise at
    ///      most once by time). Returns Σ part × rate (GFL wei × WAD) and the halving count after.
    function _applyGfl(
        EmissionStorage storage $,
        uint256 epoch,
        uint256 total,
        uint256 endsAt
    ) private returns (uint256 weighted, uint256 n) {
        n = $.halvings;
        uint256 startN = n;
        uint256 cumulative = $.cumulativeGfl;
        uint256 span = $.halvingSpanGfl;
        while (span > 0 && n < MAX_HALVINGS && cumulative + total >= $.eraStartGfl + span) {
            uint256 threshold = $.eraStartGfl + span;
            uint256 part = threshold > cumulative ? threshold - cumulative : 0;
            weighted += part * _rate($, n);
            cumulative += part;
            total -= part;
            $.cumulativeGfl = cumulative;
            n = _halve($, epoch, n, true, endsAt + YEAR);
        }
        weighted += total * _rate($, n);
        $.cumulativeGfl = cumulative + total;
        if (n == startN && n < MAX_HALVINGS && endsAt >= $.nextTimeHalvingAt) {
            // @dev nominal anchoring: the next time halving is due a year after this one was due (no drift).
            n = _halve($, epoch, n, false, uint256($.nextTimeHalvingAt) + YEAR);
        }
    }

    function _halve(
        EmissionStorage storage $,
        uint256 epoch,
        uint256 n,
        bool byThreshold,
        uint256 nextDueAt
    ) private returns (uint256) {
        uint256 cumulative = $.cumulativeGfl;
        // @dev the bound rounds up: it is an upper bound.
        $.boundAccruedDps += Math.mulDiv(_rate($, n), _eraProgress($), WAD, Math.Rounding.Ceil);
        $.eraStartGfl = cumulative;
        $.nextTimeHalvingAt = uint64(nextDueAt);
        ++n;
        uint256 span = $.halvingSpanGfl;
        emit Halved(
            n,
            epoch,
            byThreshold,
            cumulative,
            span == 0 ? type(uint256).max : cumulative + span,
            nextDueAt,
            _rate($, n)
        );
        return n;
    }

    function _closeEpochs(uint256 maxEpochs) private returns (uint256 closed) {
        EmissionStorage storage $ = _s();
        uint256 epoch = $.currentEpoch;
        uint256 endsAt = _epochStart($, epoch + 1);
        if (block.timestamp < endsAt) revert EmissionEpochNotDue(epoch, endsAt);
        if (maxEpochs == 0) revert EmissionInvalidParameter("maxEpochs", 0);
        uint256 bounty = _syncEpochs($, maxEpochs > MAX_CLOSES ? MAX_CLOSES : maxEpochs, true);
        closed = $.currentEpoch - epoch;
        _fund($);
        _transferBounty($, bounty);
    }

    // ================================================================== internals: providers

    /// @dev Writes day `day`'s sample: the day's lowest attested capacity (capacity guaranteed all day). Returns the
    ///      mask after, whether the ring changed, and the day's sample.
    function _writeSample(
        Provider storage pr,
        uint256 day,
        uint256 sample
    ) private returns (uint256 mask, bool changed, uint256 daySample) {
        mask = pr.mask;
        if ((mask >> day) & 1 == 0) {
            mask |= 1 << day;
            pr.mask = uint16(mask);
            pr.samples.set(day, sample);
            return (mask, true, sample);
        }
        uint256 previous = pr.samples.get(day);
        if (sample >= previous) return (mask, false, previous);
        pr.samples.set(day, sample);
        return (mask, true, sample);
    }

    /// @dev Applies `provider`'s pending epoch result for open epoch `epoch` (all earlier epochs closed):
    ///      accrues the reward of its sample epoch once, sets GFL to that epoch's median when it is the last closed
    ///      epoch, else to 0. Idempotent: a second call changes nothing and returns false.
    function _settle(
        EmissionStorage storage $,
        address provider,
        Provider storage pr,
        uint256 epoch
    ) private returns (bool) {
        uint256 sampleEpoch = pr.sampleEpoch;
        if (!pr.listed || sampleEpoch >= epoch) return false;
        uint256 target = sampleEpoch + 1 == epoch ? pr.epochGfl : 0;
        uint256 reward;
        uint256 accrued = pr.accruedDps;
        if (!pr.settled) {
            // @dev reward rounds down (favours the protocol).
            reward = (uint256(pr.epochGfl) * $.epochs[sampleEpoch].rateWad) / WAD;
            accrued += reward;
            pr.accruedDps = uint128(accrued);
            pr.settled = true;
        } else if (pr.gfl == target) {
            return false;
        }
        if (pr.gfl != target) {
            pr.gfl = uint96(target);
            $.gfl.setBalance(provider, target);
        }
        emit ProviderRebalanced(provider, target == 0 ? epoch - 1 : sampleEpoch, target, reward, accrued);
        return true;
    }

    function _rebalance(uint256 maxProviders) private returns (uint256 rebalanced) {
        if (maxProviders == 0) revert EmissionInvalidParameter("maxProviders", 0);
        EmissionStorage storage $ = _s();
        _syncEpochs($, MAX_LAZY_CLOSES, false);
        uint256 epoch = $.currentEpoch;
        uint256 cursor = $.rebalanceCursor;
        uint256 length = $.providerList.length;
        if (epoch == 0 || cursor >= length) revert EmissionRebalanceComplete(epoch);
        uint256 end = cursor + (maxProviders > MAX_BATCH ? MAX_BATCH : maxProviders);
        if (end > length) end = length;
        for (uint256 i = cursor; i < end; ++i) {
            address provider = $.providerList[i];
            if (_settle($, provider, $.providers[provider], epoch)) ++rebalanced;
        }
        $.rebalanceCursor = end;
        uint256 bounty = _bounty($, rebalanced * $.bounty.perProviderBountyDps);
        emit RebalanceBatch(epoch, cursor, end, rebalanced, msg.sender, bounty);
        _fund($);
        _transferBounty($, bounty);
    }

    /// @dev Funds closed epochs' rewards: the reward pool (replenished DPS) pays first, only the shortfall is
    ///      minted (to this contract), so EMI-01 holds with replenishment. One mint per call, whatever the epochs.
    function _fund(EmissionStorage storage $) private {
        uint256 owed = $.unfundedDps;
        if (owed == 0) return;
        uint256 pool = $.rewardPoolDps;
        uint256 fromPool = owed < pool ? owed : pool;
        uint256 minted = owed - fromPool;
        pool -= fromPool;
        $.rewardPoolDps = pool;
        $.unfundedDps = 0;
        $.fundedDps += owed;
        uint256 totalMinted = $.totalMintedDps + minted;
        $.totalMintedDps = totalMinted;
        emit RewardsFunded(owed, fromPool, minted, pool, totalMinted);
        if (minted > 0) $.dps.mint(address(this), minted);
    }

    /// @dev Caps a bounty by maxBountyDps and the keeper budget and deducts it (transfer separately, after events).
    function _bounty(EmissionStorage storage $, uint256 amount) private returns (uint256) {
        uint256 cap = $.bounty.maxBountyDps;
        if (amount > cap) amount = cap;
        uint256 budget = $.keeperBudgetDps;
        if (amount > budget) amount = budget;
        if (amount > 0) $.keeperBudgetDps = budget - amount;
        return amount;
    }

    function _transferBounty(EmissionStorage storage $, uint256 amount) private {
        if (amount > 0) IERC20(address($.dps)).safeTransfer(msg.sender, amount);
    }

    function _nextUpkeep() private view returns (uint8 action, uint256 arg) {
        EmissionStorage storage $ = _s();
        uint256 epoch = $.currentEpoch;
        uint256 next = _epochStart($, epoch + 1);
        if (block.timestamp >= next) {
            uint256 due = (block.timestamp - next) / EPOCH + 1;
            return (UPKEEP_CLOSE, due > MAX_LAZY_CLOSES ? MAX_LAZY_CLOSES : due);
        }
        if (epoch > 0 && $.rebalanceCursor < $.providerList.length) return (UPKEEP_REBALANCE, $.keeperBatchSize);
        return (0, 0);
    }

    // ================================================================== internals: parameters

    function _setHalvingSpan(EmissionStorage storage $, uint256 spanGfl) private {
        $.halvingSpanGfl = spanGfl;
        emit HalvingSpanSet(spanGfl, spanGfl == 0 ? type(uint256).max : $.eraStartGfl + spanGfl);
    }

    function _setMinSamples(EmissionStorage storage $, uint256 value) private {
        if (value == 0 || value > CapacitySamples.DAYS) revert EmissionInvalidParameter("minSamples", value);
        $.minSamplesNext = uint8(value);
        emit MinSamplesSet(value);
    }

    function _setKeeperConfig(
        EmissionStorage storage $,
        BountyConfig calldata bounty,
        uint256 keeperShareBps,
        uint256 keeperBatchSize
    ) private {
        if (keeperShareBps > 1_000) revert EmissionInvalidParameter("keeperShareBps", keeperShareBps);
        if (keeperBatchSize == 0 || keeperBatchSize > MAX_BATCH) {
            revert EmissionInvalidParameter("keeperBatchSize", keeperBatchSize);
        }
        $.bounty = bounty;
        $.keeperShareBps = uint16(keeperShareBps);
        $.keeperBatchSize = uint16(keeperBatchSize);
        emit KeeperConfigSet(bounty, keeperShareBps, keeperBatchSize);
    }

    function _popcount(uint256 x) private pure returns (uint256 c) {
        while (x != 0) {
            x &= x - 1;
            ++c;
        }
    }
}
