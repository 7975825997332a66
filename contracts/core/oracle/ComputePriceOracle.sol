// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AggregatorV3Interface} from "@chainlink/contracts/src/v0.8/shared/interfaces/AggregatorV3Interface.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IComputePriceOracle} from "../../interfaces/oracle/IComputePriceOracle.sol";
import {ISpotPriceSource} from "../../interfaces/callback/ISpotPriceSource.sol";

/// @title ComputePriceOracle
/// @notice The CH index in USDC (WAD) from a Chainlink feed, validated for staleness, sign, round completeness,
///         governance bounds and L2 sequencer uptime, with a spot-TWAP deviation gate on new risk (SPEC section 8).
/// @dev Stateless reads: a price is a function of the feed's latest round, `block.timestamp` and configuration,
///      none of which changes inside a transaction unless the feed itself is updated in it. `pinIndexPrice` closes
///      that last gap with a transient-storage cache (ORC-02).
contract ComputePriceOracle is ChxUpgradeable, IComputePriceOracle {
    /// @notice Feature id the guardian pauses to block every risk-increasing read (closing stays open).
    bytes32 public constant RISK_FEATURE = keccak256("oracle.risk");
    /// @notice Rounds `roundAt` walks back from the latest at most.
    uint256 public constant MAX_ROUND_LOOKBACK = 32;

    /// @dev Sequencer-uptime feed answer meaning "down" (Chainlink L2 sequencer feeds: 0 = up, 1 = down).
    int256 private constant SEQUENCER_DOWN = 1;
    uint256 private constant BPS = 10_000;
    uint256 private constant WAD_DECIMALS = 18;

    /// @dev Transient slot of the pinned price: keccak256("chx.transient.ComputePriceOracle.pinnedPrice") - 1.
    ///      Cleared by the EVM at the end of every transaction (EIP-1153).
    bytes32 private constant PINNED_PRICE_SLOT = 0xeaa1179bfefc69b8ca6464a912f4997b07229b3c45b39a59bc03969e7c6134fd;

    /// @dev The feed's configuration and, in the same word, whether the sequencer feed and the spot source are known to
    ///      be unset: every price read loads this word anyway, so a deployment without a sequencer feed (L1) or without
    ///      a spot source skips those cold slots. Fail-safe: the flags only skip what the setters saw cleared; a word
    ///      written by an older implementation reads false and every slot is read as before.
    struct FeedWord {
        address feed;
        uint32 heartbeatSec;
        uint8 decimals;
        bool noSequencer;
        bool noSpotSource;
    }

    /// @custom:storage-location erc7201:chx.storage.ComputePriceOracle
    struct ComputePriceOracleStorage {
        FeedWord feed;
        SequencerConfig sequencer;
        DeviationConfig deviation;
        uint128 minPriceWad;
        uint128 maxPriceWad;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.ComputePriceOracle")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant COMPUTE_PRICE_ORACLE_STORAGE_LOCATION =
        0x542db62239ede27da56685d11a03fc14db201e010e39ff8dff85aeee5f11b100;

    function _getStorage() private pure returns (ComputePriceOracleStorage storage $) {
        assembly {
            $.slot := COMPUTE_PRICE_ORACLE_STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param feed The primary CH/USDC AggregatorV3 feed.
    /// @param heartbeatSec The feed's heartbeat, seconds.
    /// @param minPriceWad Lower price bound, WAD.
    /// @param maxPriceWad Upper price bound, WAD.
    /// @param sequencerFeed The L2 sequencer-uptime feed, or the zero address on L1.
    /// @param gracePeriodSec Grace period after the sequencer comes back up, seconds.
    function initialize(
        address authority,
        address feed,
        uint32 heartbeatSec,
        uint256 minPriceWad,
        uint256 maxPriceWad,
        address sequencerFeed,
        uint32 gracePeriodSec
    ) external initializer {
        __ChxUpgradeable_init(authority);
        _setFeed(feed, heartbeatSec);
        _setPriceBounds(minPriceWad, maxPriceWad);
        _setSequencerFeed(sequencerFeed, gracePeriodSec);
        _getStorage().feed.noSpotSource = true; // no spot source until setSpotSource
    }

    // ------------------------------------------------------------------ reads

    /// @inheritdoc IComputePriceOracle
    function indexPrice() external view returns (uint256 priceWad) {
        priceWad = _pinned();
        if (priceWad == 0) priceWad = _validatedPrice();
    }

    /// @inheritdoc IComputePriceOracle
    function riskPrice() external view returns (uint256 priceWad) {
        _requireActive(RISK_FEATURE);
        priceWad = _pinned();
        if (priceWad == 0) priceWad = _validatedPrice();
        _checkRiskGates(priceWad, block.timestamp);
    }

    /// @inheritdoc IComputePriceOracle
    function priceAtRound(uint80 roundId, uint256 time) external view returns (uint256 priceWad) {
        ComputePriceOracleStorage storage $ = _getStorage();
        FeedWord memory cfg = $.feed;
        if (!cfg.noSequencer) _checkSequencerUp($.sequencer.feed);
        if (cfg.feed == address(0)) revert OracleFeedNotSet();
        AggregatorV3Interface feed = AggregatorV3Interface(cfg.feed);
        if (time >= block.timestamp) revert OracleRoundNotInForce(roundId, 0, time);
        (int256 answer, uint256 updatedAt) = _round(feed, roundId);
        if (updatedAt > time) revert OracleRoundNotInForce(roundId, updatedAt, time);
        (uint80 latestId, , , , ) = feed.latestRoundData();
        if (latestId != roundId) {
            // @dev a later round exists: the next one must have come after `time` (a missing next round, e.g. at a
            //      phase change, cannot be shown to be later: refused)
            (, uint256 nextAt) = _round(feed, roundId + 1);
            if (nextAt <= time) revert OracleRoundNotInForce(roundId, nextAt, time);
        }
        if (time - updatedAt > cfg.heartbeatSec) revert OracleStalePrice(updatedAt, cfg.heartbeatSec, time);
        priceWad = _toWad(answer, cfg.decimals);
        (uint256 lo, uint256 hi) = ($.minPriceWad, $.maxPriceWad);
        if (priceWad < lo || priceWad > hi) revert OraclePriceOutOfBounds(priceWad, lo, hi);
    }

    /// @inheritdoc IComputePriceOracle
    function checkRiskAt(uint256 priceWad, uint256 time) external view {
        _requireActive(RISK_FEATURE);
        _checkRiskGates(priceWad, time);
    }

    /// @inheritdoc IComputePriceOracle
    function roundAt(uint256 time) external view returns (uint80 roundId) {
        address feed = _getStorage().feed.feed;
        if (feed == address(0)) return 0;
        uint256 updatedAt;
        (roundId, , , updatedAt, ) = AggregatorV3Interface(feed).latestRoundData();
        for (uint256 i; i < MAX_ROUND_LOOKBACK && roundId > 1; ++i) {
            if (updatedAt <= time) return roundId;
            --roundId;
            try AggregatorV3Interface(feed).getRoundData(roundId) returns (
                uint80,
                int256,
                uint256,
                uint256 at,
                uint80
            ) {
                updatedAt = at;
            } catch {
                return 0;
            }
        }
        return updatedAt <= time && updatedAt != 0 ? roundId : 0;
    }

    /// @inheritdoc IComputePriceOracle
    function riskIncreaseAllowed() external view returns (bool allowed, bytes4 reason) {
        try this.riskPrice() returns (uint256) {
            return (true, bytes4(0));
        } catch (bytes memory err) {
            return (false, err.length >= 4 ? bytes4(err) : bytes4(0));
        }
    }

    /// @inheritdoc IComputePriceOracle
    function pinIndexPrice() external returns (uint256 priceWad) {
        priceWad = _pinned();
        if (priceWad != 0) return priceWad;
        priceWad = _validatedPrice();
        assembly {
            tstore(PINNED_PRICE_SLOT, priceWad)
        }
        emit OraclePricePinned(priceWad, msg.sender);
    }

    /// @inheritdoc IComputePriceOracle
    function latestRound() external view returns (uint80 roundId, int256 answer, uint256 updatedAt) {
        address feed = _getStorage().feed.feed;
        if (feed == address(0)) revert OracleFeedNotSet();
        (roundId, answer, , updatedAt, ) = AggregatorV3Interface(feed).latestRoundData();
    }

    /// @inheritdoc IComputePriceOracle
    function toWad(int256 answer, uint8 feedDecimals) external pure returns (uint256 priceWad) {
        return _toWad(answer, feedDecimals);
    }

    /// @inheritdoc IComputePriceOracle
    function feedConfig() external view returns (FeedConfig memory) {
        FeedWord memory w = _getStorage().feed;
        return FeedConfig({feed: w.feed, heartbeatSec: w.heartbeatSec, decimals: w.decimals});
    }

    /// @inheritdoc IComputePriceOracle
    function sequencerConfig() external view returns (SequencerConfig memory) {
        return _getStorage().sequencer;
    }

    /// @inheritdoc IComputePriceOracle
    function deviationConfig() external view returns (DeviationConfig memory) {
        return _getStorage().deviation;
    }

    /// @inheritdoc IComputePriceOracle
    function priceBounds() external view returns (uint256 minPriceWad, uint256 maxPriceWad) {
        ComputePriceOracleStorage storage $ = _getStorage();
        return ($.minPriceWad, $.maxPriceWad);
    }

    // ------------------------------------------------------------------ governance

    /// @inheritdoc IComputePriceOracle
    function setFeed(address feed, uint32 heartbeatSec) external restricted {
        _setFeed(feed, heartbeatSec);
    }

    /// @inheritdoc IComputePriceOracle
    function setPriceBounds(uint256 minPriceWad, uint256 maxPriceWad) external restricted {
        _setPriceBounds(minPriceWad, maxPriceWad);
    }

    /// @inheritdoc IComputePriceOracle
    function setSequencerFeed(address feed, uint32 gracePeriodSec) external restricted {
        _setSequencerFeed(feed, gracePeriodSec);
    }

    /// @inheritdoc IComputePriceOracle
    function setSpotSource(address source, uint32 windowSec, uint16 maxDeviationBps) external restricted {
        if (source != address(0)) {
            if (windowSec == 0) revert OracleInvalidConfig("windowSec");
            if (maxDeviationBps == 0 || maxDeviationBps > BPS) revert OracleInvalidConfig("maxDeviationBps");
        }
        ComputePriceOracleStorage storage $ = _getStorage();
        $.feed.noSpotSource = source == address(0);
        $.deviation = DeviationConfig({source: source, windowSec: windowSec, maxDeviationBps: maxDeviationBps});
        emit OracleSpotSourceSet(source, windowSec, maxDeviationBps);
    }

    // ------------------------------------------------------------------ internals

    function _setFeed(address feed, uint32 heartbeatSec) private {
        if (feed == address(0)) revert ChxZeroAddress();
        if (heartbeatSec == 0) revert OracleInvalidConfig("heartbeatSec");
        uint8 decimals = AggregatorV3Interface(feed).decimals();
        if (decimals > 36) revert OracleInvalidConfig("decimals");
        FeedWord storage w = _getStorage().feed;
        (w.feed, w.heartbeatSec, w.decimals) = (feed, heartbeatSec, decimals);
        emit OracleFeedSet(feed, heartbeatSec, decimals);
    }

    function _setSequencerFeed(address feed, uint32 gracePeriodSec) private {
        ComputePriceOracleStorage storage $ = _getStorage();
        $.feed.noSequencer = feed == address(0);
        $.sequencer = SequencerConfig({feed: feed, gracePeriodSec: gracePeriodSec});
        emit OracleSequencerFeedSet(feed, gracePeriodSec);
    }

    function _setPriceBounds(uint256 minPriceWad, uint256 maxPriceWad) private {
        if (minPriceWad == 0 || maxPriceWad <= minPriceWad || maxPriceWad > type(uint128).max) {
            revert OracleInvalidConfig("bounds");
        }
        ComputePriceOracleStorage storage $ = _getStorage();
        // Both bounds share one storage slot: one cold read on every price read.
        $.minPriceWad = uint128(minPriceWad);
        $.maxPriceWad = uint128(maxPriceWad);
        emit OracleBoundsSet(minPriceWad, maxPriceWad);
    }

    function _pinned() private view returns (uint256 priceWad) {
        assembly {
            priceWad := tload(PINNED_PRICE_SLOT)
        }
    }

    /// @dev The checks that make a price trustworthy at all (ORC-01): sequencer up, round complete and recent,
    ///      answer positive, converted price inside the bounds.
    function _validatedPrice() private view returns (uint256 priceWad) {
        ComputePriceOracleStorage storage $ = _getStorage();
        FeedWord memory cfg = $.feed;
        if (!cfg.noSequencer) _checkSequencerUp($.sequencer.feed);
        if (cfg.feed == address(0)) revert OracleFeedNotSet();
        (uint80 roundId, int256 answer, , uint256 updatedAt, uint80 answeredInRound) = AggregatorV3Interface(cfg.feed)
            .latestRoundData();
        if (updatedAt == 0 || answeredInRound < roundId || updatedAt > block.timestamp) {
            revert OracleRoundIncomplete(roundId, answeredInRound, updatedAt);
        }
        if (block.timestamp - updatedAt > cfg.heartbeatSec) {
            revert OracleStalePrice(updatedAt, cfg.heartbeatSec, block.timestamp);
        }
        if (answer <= 0) revert OracleNonPositivePrice(answer);
        priceWad = _toWad(answer, cfg.decimals);
        (uint256 lo, uint256 hi) = ($.minPriceWad, $.maxPriceWad);
        if (priceWad < lo || priceWad > hi) revert OraclePriceOutOfBounds(priceWad, lo, hi);
    }

    function _checkSequencerUp(address sequencerFeed) private view {
        if (sequencerFeed == address(0)) return;
        (, int256 answer, uint256 startedAt, , ) = AggregatorV3Interface(sequencerFeed).latestRoundData();
        // startedAt == 0: the feed is not initialised yet (Arbitrum) — no evidence the sequencer is up.
        if (answer == SEQUENCER_DOWN || startedAt == 0) revert OracleSequencerDown(startedAt);
    }

    /// @dev A complete round of `feed`: its answer and update time (reverts OracleRoundNotInForce when the feed has
    ///      no such round, OracleRoundIncomplete when it is not complete).
    function _round(AggregatorV3Interface feed, uint80 roundId) private view returns (int256 answer, uint256 at) {
        uint80 answeredIn;
        try feed.getRoundData(roundId) returns (uint80, int256 a, uint256, uint256 u, uint80 inRound) {
            (answer, at, answeredIn) = (a, u, inRound);
        } catch {
            revert OracleRoundNotInForce(roundId, 0, 0);
        }
        if (at == 0 || answeredIn < roundId) revert OracleRoundIncomplete(roundId, answeredIn, at);
    }

    /// @dev The gates on NEW risk only: sequencer grace period (the sequencer up since before `time` − grace) and spot
    ///      deviation (against the TWAP now).
    function _checkRiskGates(uint256 indexWad, uint256 time) private view {
        ComputePriceOracleStorage storage $ = _getStorage();
        FeedWord memory cfg = $.feed;
        SequencerConfig memory seq;
        if (!cfg.noSequencer) seq = $.sequencer;
        if (seq.feed != address(0)) {
            (, , uint256 startedAt, , ) = AggregatorV3Interface(seq.feed).latestRoundData();
            uint256 graceEnds = startedAt + seq.gracePeriodSec;
            // Up for exactly the grace period is still inside it: new risk from graceEnds + 1.
            if (time <= graceEnds) revert OracleSequencerGracePeriod(startedAt, graceEnds);
        }
        if (cfg.noSpotSource) return;
        DeviationConfig memory dev = $.deviation;
        if (dev.source == address(0)) return;
        uint256 spotWad;
        uint256 observedSince;
        try ISpotPriceSource(dev.source).twapPrice(dev.windowSec) returns (uint256 p, uint256 since) {
            (spotWad, observedSince) = (p, since);
        } catch {
            revert OracleSpotSourceUnavailable(dev.source);
        }
        // An empty or immature TWAP (less history than the window) is not comparable: no check (docs/oracle.md).
        if (spotWad == 0 || observedSince > block.timestamp || block.timestamp - observedSince < dev.windowSec) return;
        uint256 diff = spotWad > indexWad ? spotWad - indexWad : indexWad - spotWad;
        // Rounded up: a divergence just over the bound is never rounded back inside it.
        uint256 deviationBps = (diff * BPS + indexWad - 1) / indexWad;
        if (deviationBps > dev.maxDeviationBps) {
            revert OracleDeviationTooHigh(indexWad, spotWad, deviationBps, dev.maxDeviationBps);
        }
    }

    /// @dev THE one decimal conversion of the oracle: a positive feed answer with `feedDecimals` to WAD.
    ///      More than 18 decimals rounds down (the bounds check follows, so a truncated price cannot slip through
    ///      as zero: the minimum bound is > 0).
    function _toWad(int256 answer, uint8 feedDecimals) private pure returns (uint256) {
        if (answer <= 0) revert OracleNonPositivePrice(answer);
        uint256 raw = uint256(answer);
        if (feedDecimals <= WAD_DECIMALS) return raw * 10 ** (WAD_DECIMALS - feedDecimals);
        return raw / 10 ** (feedDecimals - WAD_DECIMALS);
    }
}
