// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IComputePriceOracleErrors} from "./IComputePriceOracleErrors.sol";
import {IComputePriceOracleEvents} from "./IComputePriceOracleEvents.sol";

/// @title IComputePriceOracle
/// @notice The CH index price in USDC, as every module reads it (SPEC section 8). Implemented by
///         ComputePriceOracle: a Chainlink AggregatorV3 feed with a heartbeat, governance price bounds, an optional
///         L2 sequencer-uptime feed with a grace period, and a deviation check against a secondary spot TWAP.
/// @dev Two reads, two purposes. `indexPrice()` is the valid price: it reverts when the price itself cannot be
///      trusted (stale, non-positive, incomplete round, out of bounds, sequencer down) and is what closing,
///      settlement and liquidation use. `riskPrice()` adds the checks that only gate NEW risk (sequencer grace
///      period, spot deviation, the guardian's "oracle.risk" pause): markets call it for every risk-increasing
///      action (ORC-01). ORC-02: within one transaction every read returns the same price (see `pinIndexPrice`).
interface IComputePriceOracle is IComputePriceOracleErrors, IComputePriceOracleEvents {
    /// @notice Configuration of the primary Chainlink feed.
    /// @param feed The AggregatorV3Interface address (USDC per CH).
    /// @param heartbeatSec A round older than this many seconds is stale.
    /// @param decimals The feed's decimals, read once by the constructor (the one place decimals are converted).
    struct FeedConfig {
        address feed;
        uint32 heartbeatSec;
        uint8 decimals;
    }

    /// @notice Configuration of the optional L2 sequencer-uptime feed.
    /// @param feed The Chainlink sequencer-uptime feed (answer 0 = up, 1 = down); zero address on L1.
    /// @param gracePeriodSec After the sequencer comes back up, new risk stays blocked this many seconds.
    struct SequencerConfig {
        address feed;
        uint32 gracePeriodSec;
    }

    /// @notice Configuration of the deviation check against the secondary spot source.
    /// @param source The ISpotPriceSource (the spot market's TWAP); zero address disables the check.
    /// @param windowSec The TWAP window asked for.
    /// @param maxDeviationBps New risk is blocked when |index − spot| / index exceeds this.
    struct DeviationConfig {
        address source;
        uint32 windowSec;
        uint16 maxDeviationBps;
    }

    /// @notice The configuration an implementation is built with (its constructor argument).
    /// @param feed The primary AggregatorV3 feed (USDC per CH); its decimals are read by the constructor.
    /// @param heartbeatSec A round older than this many seconds is stale (> 0).
    /// @param minPriceWad Lower price bound, WAD (> 0).
    /// @param maxPriceWad Upper price bound, WAD (> min, ≤ 2^128 − 1).
    /// @param sequencerFeed The L2 sequencer-uptime feed; zero address on L1.
    /// @param gracePeriodSec After the sequencer comes back up, new risk stays blocked this many seconds.
    /// @param spotSource The ISpotPriceSource for the deviation check; zero address disables it.
    /// @param spotWindowSec The TWAP window asked for (> 0 with a source).
    /// @param maxDeviationBps The deviation bound, bps (1..10,000 with a source).
    struct Config {
        address feed;
        uint32 heartbeatSec;
        uint256 minPriceWad;
        uint256 maxPriceWad;
        address sequencerFeed;
        uint32 gracePeriodSec;
        address spotSource;
        uint32 spotWindowSec;
        uint16 maxDeviationBps;
    }

    /// @notice The validated CH index price: USDC per CH, WAD (1e18 = 1 USDC per CH). Reverts with a typed
    ///         error when the price is stale, non-positive, out of bounds, or the sequencer is down (ORC-01).
    /// @dev Usable for closing, settlement and liquidation even while new risk is blocked (grace period, spot
    ///      deviation, guardian pause): those gates do not make the index itself wrong, and blocking exits would
    ///      trap users (SEC-05). Returns the pinned price when this transaction pinned one (ORC-02).
    /// @return priceWad Price, WAD.
    function indexPrice() external view returns (uint256 priceWad);

    /// @notice The index price for a risk-increasing action: `indexPrice()` plus the checks that gate new risk —
    ///         not inside the sequencer grace period, within the deviation bound from the spot TWAP, and the
    ///         "oracle.risk" feature not paused. Markets call this for every open / increase (ORC-01).
    /// @return priceWad Price, WAD.
    function riskPrice() external view returns (uint256 priceWad);

    /// @notice Whether a risk-increasing action would pass right now, without reverting.
    /// @return allowed True when `riskPrice()` would succeed.
    /// @return reason The selector of the error `riskPrice()` would revert with (0 when allowed).
    function riskIncreaseAllowed() external view returns (bool allowed, bytes4 reason);

    /// @notice Reads and validates the index, then caches it in transient storage for the rest of the
    ///         transaction: every later `indexPrice()` / `riskPrice()` in the same transaction returns this value,
    ///         even if the feed is updated meanwhile (ORC-02). Idempotent; permissionless.
    /// @return priceWad The pinned price, WAD.
    function pinIndexPrice() external returns (uint256 priceWad);

    /// @notice The validated index of the feed round in force at a past `time` — the price a delayed order fills at
    ///         (IPerpMarket): the round must be complete, published at or before `time`, and the last such round
    ///         (the next one absent or published after `time`), with `time` < now; the price must not have been stale
    ///         at `time` (heartbeat), be positive and inside the bounds, and the sequencer must be up now (ORC-01).
    ///         Neither a trader nor an executor can choose the price: only one round passes for a given `time`.
    /// @param roundId The round (`roundAt(time)` finds it).
    /// @param time Unix seconds, in the past.
    /// @return priceWad Price, WAD.
    function priceAtRound(uint80 roundId, uint256 time) external view returns (uint256 priceWad);

    /// @notice The gates on new risk for a price in force at `time` (the "oracle.risk" pause, the sequencer up for
    ///         longer than the grace period at `time`, the spot-TWAP deviation now): reverts with their errors.
    /// @param priceWad The price (from `priceAtRound`).
    /// @param time Unix seconds the price was in force.
    function checkRiskAt(uint256 priceWad, uint256 time) external view;

    /// @notice The feed round in force at `time` (the latest round published at or before it), looking back at most
    ///         MAX_ROUND_LOOKBACK rounds from the latest; 0 when not found (a keeper then waits or lets it expire).
    /// @param time Unix seconds.
    /// @return roundId The round id, or 0.
    function roundAt(uint256 time) external view returns (uint80 roundId);

    /// @notice Emits the configuration events (OracleFeedSet, OracleBoundsSet, OracleSequencerFeedSet,
    ///         OracleSpotSourceSet) for the configuration the proxy now runs. The configuration is immutable in the
    ///         implementation: governance changes it by `upgradeToAndCall(newImplementation, announceConfig())`.
    function announceConfig() external;

    /// @notice The whole configuration (immutable in the implementation).
    /// @return The feed, heartbeat, bounds, sequencer feed, grace period and deviation check.
    function config() external view returns (Config memory);

    /// @notice The primary feed configuration.
    /// @return The feed, heartbeat and decimals.
    function feedConfig() external view returns (FeedConfig memory);

    /// @notice The sequencer-uptime feed configuration.
    /// @return The feed and grace period.
    function sequencerConfig() external view returns (SequencerConfig memory);

    /// @notice The deviation-check configuration.
    /// @return The source, window and bound.
    function deviationConfig() external view returns (DeviationConfig memory);

    /// @notice The governance price bounds.
    /// @return minPriceWad Lower bound, WAD.
    /// @return maxPriceWad Upper bound, WAD.
    function priceBounds() external view returns (uint256 minPriceWad, uint256 maxPriceWad);

    /// @notice The latest feed round, unvalidated, for monitoring (tasks, keepers).
    /// @return roundId The round id.
    /// @return answer The raw answer in feed decimals.
    /// @return updatedAt The round timestamp.
    function latestRound() external view returns (uint80 roundId, int256 answer, uint256 updatedAt);

    /// @notice Converts a raw feed answer in `feedDecimals` to WAD (the oracle's one decimal conversion).
    /// @param answer The raw answer (> 0).
    /// @param feedDecimals The feed's decimals.
    /// @return priceWad The price, WAD (rounded down when the feed has more than 18 decimals).
    function toWad(int256 answer, uint8 feedDecimals) external pure returns (uint256 priceWad);
}
