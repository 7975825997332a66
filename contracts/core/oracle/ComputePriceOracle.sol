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
///      that last gap with a transient-storage cache (ORC-02). The configuration is immutable in the implementation
///      (docs/oracle.md "Configuration by upgrade"): no price read loads a configuration slot; governance changes it
///      by upgrading the proxy to an implementation built with the new configuration (`upgradeToAndCall` with
///      `announceConfig`, which emits the configuration events from the proxy).
/// @custom:oz-upgrades-unsafe-allow constructor state-variable-immutable
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

    // The configuration (validated by the constructor). The proxy holds no configuration slot.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    address private immutable FEED;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint32 private immutable HEARTBEAT_SEC;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint8 private immutable FEED_DECIMALS;
    /// @dev 10^|18 − FEED_DECIMALS|, computed once: `_feedToWad` multiplies (≤ 18 decimals) or divides by it.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint256 private immutable WAD_SCALE;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint256 private immutable MIN_PRICE_WAD;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint256 private immutable MAX_PRICE_WAD;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    address private immutable SEQUENCER_FEED;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint32 private immutable GRACE_PERIOD_SEC;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    address private immutable SPOT_SOURCE;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint32 private immutable SPOT_WINDOW_SEC;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint16 private immutable MAX_DEVIATION_BPS;

    /// @notice Builds an implementation with configuration `c` (validated here, as the setters did before): a
    ///         non-zero feed of at most 36 decimals (read from it) with a heartbeat > 0; bounds 0 < min < max ≤
    ///         2^128 − 1; a spot source, when set, with a window > 0 and a bound of 1..10,000 bps.
    /// @param c The configuration.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(Config memory c) {
        if (c.feed == address(0)) revert ChxZeroAddress();
        if (c.heartbeatSec == 0) revert OracleInvalidConfig("heartbeatSec");
        uint8 decimals = AggregatorV3Interface(c.feed).decimals();
        if (decimals > 36) revert OracleInvalidConfig("decimals");
        if (c.minPriceWad == 0 || c.maxPriceWad <= c.minPriceWad || c.maxPriceWad > type(uint128).max) {
            revert OracleInvalidConfig("bounds");
        }
        if (c.spotSource != address(0)) {
            if (c.spotWindowSec == 0) revert OracleInvalidConfig("windowSec");
            if (c.maxDeviationBps == 0 || c.maxDeviationBps > BPS) revert OracleInvalidConfig("maxDeviationBps");
        }
        (FEED, HEARTBEAT_SEC, FEED_DECIMALS) = (c.feed, c.heartbeatSec, decimals);
        WAD_SCALE = uint256(10) ** (decimals <= WAD_DECIMALS ? WAD_DECIMALS - decimals : decimals - WAD_DECIMALS);
        (MIN_PRICE_WAD, MAX_PRICE_WAD) = (c.minPriceWad, c.maxPriceWad);
        (SEQUENCER_FEED, GRACE_PERIOD_SEC) = (c.sequencerFeed, c.gracePeriodSec);
        (SPOT_SOURCE, SPOT_WINDOW_SEC, MAX_DEVIATION_BPS) = (c.spotSource, c.spotWindowSec, c.maxDeviationBps);
    }

    /// @notice Initialises the proxy and announces the implementation's configuration (the configuration events).
    /// @param authority The protocol AccessManager.
    function initialize(address authority) external initializer {
        __ChxUpgradeable_init(authority);
        _announce();
    }

    /// @inheritdoc IComputePriceOracle
    function announceConfig() external restricted {
        _announce();
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
        _checkSequencerUp();
        AggregatorV3Interface feed = AggregatorV3Interface(FEED);
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
        if (time - updatedAt > HEARTBEAT_SEC) revert OracleStalePrice(updatedAt, HEARTBEAT_SEC, time);
        priceWad = _inBounds(_toWad(answer, FEED_DECIMALS));
    }

    /// @inheritdoc IComputePriceOracle
    function checkRiskAt(uint256 priceWad, uint256 time) external view {
        _requireActive(RISK_FEATURE);
        _checkRiskGates(priceWad, time);
    }

    /// @inheritdoc IComputePriceOracle
    function roundAt(uint256 time) external view returns (uint80 roundId) {
        address feed = FEED;
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
        (roundId, answer, , updatedAt, ) = AggregatorV3Interface(FEED).latestRoundData();
    }

    /// @inheritdoc IComputePriceOracle
    function toWad(int256 answer, uint8 feedDecimals) external pure returns (uint256 priceWad) {
        return _toWad(answer, feedDecimals);
    }

    /// @inheritdoc IComputePriceOracle
    function config() external view returns (Config memory) {
        return _config();
    }

    /// @inheritdoc IComputePriceOracle
    function feedConfig() external view returns (FeedConfig memory) {
        return FeedConfig({feed: FEED, heartbeatSec: HEARTBEAT_SEC, decimals: FEED_DECIMALS});
    }

    /// @inheritdoc IComputePriceOracle
    function sequencerConfig() external view returns (SequencerConfig memory) {
        return SequencerConfig({feed: SEQUENCER_FEED, gracePeriodSec: GRACE_PERIOD_SEC});
    }

    /// @inheritdoc IComputePriceOracle
    function deviationConfig() external view returns (DeviationConfig memory) {
        return DeviationConfig({source: SPOT_SOURCE, windowSec: SPOT_WINDOW_SEC, maxDeviationBps: MAX_DEVIATION_BPS});
    }

    /// @inheritdoc IComputePriceOracle
    function priceBounds() external view returns (uint256 minPriceWad, uint256 maxPriceWad) {
        return (MIN_PRICE_WAD, MAX_PRICE_WAD);
    }

    // ------------------------------------------------------------------ internals

    function _config() private view returns (Config memory) {
        return
            Config({
                feed: FEED,
                heartbeatSec: HEARTBEAT_SEC,
                minPriceWad: MIN_PRICE_WAD,
                maxPriceWad: MAX_PRICE_WAD,
                sequencerFeed: SEQUENCER_FEED,
                gracePeriodSec: GRACE_PERIOD_SEC,
                spotSource: SPOT_SOURCE,
                spotWindowSec: SPOT_WINDOW_SEC,
                maxDeviationBps: MAX_DEVIATION_BPS
            });
    }

    /// @dev The configuration events, emitted by the proxy (initialize, or the upgrade's `announceConfig` call).
    function _announce() private {
        emit OracleFeedSet(FEED, HEARTBEAT_SEC, FEED_DECIMALS);
        emit OracleBoundsSet(MIN_PRICE_WAD, MAX_PRICE_WAD);
        emit OracleSequencerFeedSet(SEQUENCER_FEED, GRACE_PERIOD_SEC);
        emit OracleSpotSourceSet(SPOT_SOURCE, SPOT_WINDOW_SEC, MAX_DEVIATION_BPS);
    }

    function _pinned() private view returns (uint256 priceWad) {
        assembly {
            priceWad := tload(PINNED_PRICE_SLOT)
        }
    }

    /// @dev The checks that make a price trustworthy at all (ORC-01): sequencer up, round complete and recent,
    ///      answer positive, converted price inside the bounds.
    function _validatedPrice() private view returns (uint256 priceWad) {
        _checkSequencerUp();
        (uint80 roundId, int256 answer, , uint256 updatedAt, uint80 answeredInRound) = AggregatorV3Interface(FEED)
            .latestRoundData();
        if (updatedAt == 0 || answeredInRound < roundId || updatedAt > block.timestamp) {
            revert OracleRoundIncomplete(roundId, answeredInRound, updatedAt);
        }
        if (block.timestamp - updatedAt > HEARTBEAT_SEC) {
            revert OracleStalePrice(updatedAt, HEARTBEAT_SEC, block.timestamp);
        }
        if (answer <= 0) revert OracleNonPositivePrice(answer);
        priceWad = _inBounds(_feedToWad(answer));
    }

    /// @dev `_toWad(answer, FEED_DECIMALS)` for an answer already checked > 0, with the power of ten from the
    ///      constructor: the same value (rounded down above 18 decimals; a checked product below).
    function _feedToWad(int256 answer) private view returns (uint256) {
        return FEED_DECIMALS <= WAD_DECIMALS ? uint256(answer) * WAD_SCALE : uint256(answer) / WAD_SCALE;
    }

    /// @dev `priceWad` when inside the governance bounds, else OraclePriceOutOfBounds.
    function _inBounds(uint256 priceWad) private view returns (uint256) {
        if (priceWad < MIN_PRICE_WAD || priceWad > MAX_PRICE_WAD) {
            revert OraclePriceOutOfBounds(priceWad, MIN_PRICE_WAD, MAX_PRICE_WAD);
        }
        return priceWad;
    }

    function _checkSequencerUp() private view {
        address sequencerFeed = SEQUENCER_FEED;
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
        address sequencerFeed = SEQUENCER_FEED;
        if (sequencerFeed != address(0)) {
            (, , uint256 startedAt, , ) = AggregatorV3Interface(sequencerFeed).latestRoundData();
            uint256 graceEnds = startedAt + GRACE_PERIOD_SEC;
            // Up for exactly the grace period is still inside it: new risk from graceEnds + 1.
            if (time <= graceEnds) revert OracleSequencerGracePeriod(startedAt, graceEnds);
        }
        address source = SPOT_SOURCE;
        if (source == address(0)) return;
        uint256 window = SPOT_WINDOW_SEC;
        uint256 spotWad;
        uint256 observedSince;
        try ISpotPriceSource(source).twapPrice(uint32(window)) returns (uint256 p, uint256 since) {
            (spotWad, observedSince) = (p, since);
        } catch {
            revert OracleSpotSourceUnavailable(source);
        }
        // An empty or immature TWAP (less history than the window) is not comparable: no check (docs/oracle.md).
        if (spotWad == 0 || observedSince > block.timestamp || block.timestamp - observedSince < window) return;
        uint256 diff = spotWad > indexWad ? spotWad - indexWad : indexWad - spotWad;
        // Rounded up: a divergence just over the bound is never rounded back inside it.
        uint256 deviationBps = (diff * BPS + indexWad - 1) / indexWad;
        if (deviationBps > MAX_DEVIATION_BPS) {
            revert OracleDeviationTooHigh(indexWad, spotWad, deviationBps, MAX_DEVIATION_BPS);
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
