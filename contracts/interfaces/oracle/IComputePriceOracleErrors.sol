// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IComputePriceOracleErrors
/// @notice The errors of the CH index oracle (IComputePriceOracle inherits them; selectors unchanged).
interface IComputePriceOracleErrors {
    /// @notice Thrown when no primary feed is configured.
    error OracleFeedNotSet();

    /// @notice Thrown when the latest round is older than the feed's heartbeat.
    /// @param updatedAt The round's update timestamp.
    /// @param heartbeatSec The configured heartbeat.
    /// @param nowSec The current block timestamp.
    error OracleStalePrice(uint256 updatedAt, uint256 heartbeatSec, uint256 nowSec);

    /// @notice Thrown when the feed answers zero or a negative price.
    /// @param answer The raw feed answer.
    error OracleNonPositivePrice(int256 answer);

    /// @notice Thrown when the latest round is incomplete: never updated, answered in an earlier round, or
    ///         timestamped in the future.
    /// @param roundId The round id.
    /// @param answeredInRound The round the answer was computed in.
    /// @param updatedAt The round's update timestamp.
    error OracleRoundIncomplete(uint80 roundId, uint80 answeredInRound, uint256 updatedAt);

    /// @notice Thrown when the converted price lies outside the governance bounds.
    /// @param priceWad The price, WAD.
    /// @param minPriceWad The lower bound, WAD.
    /// @param maxPriceWad The upper bound, WAD.
    error OraclePriceOutOfBounds(uint256 priceWad, uint256 minPriceWad, uint256 maxPriceWad);

    /// @notice Thrown when the L2 sequencer is reported down (or its feed is not initialised).
    /// @param statusSinceSec When the sequencer feed's status last changed (0 when not initialised).
    error OracleSequencerDown(uint256 statusSinceSec);

    /// @notice Thrown by risk-increasing reads while the sequencer is back up but inside its grace period.
    /// @param upSinceSec When the sequencer came back up.
    /// @param graceEndsSec When new risk will be allowed again.
    error OracleSequencerGracePeriod(uint256 upSinceSec, uint256 graceEndsSec);

    /// @notice Thrown by risk-increasing reads when the index and the spot TWAP diverge beyond the bound.
    /// @param indexPriceWad The Chainlink index, WAD.
    /// @param spotPriceWad The spot TWAP, WAD.
    /// @param deviationBps The divergence |index − spot| / index, bps (rounded up).
    /// @param maxDeviationBps The configured bound.
    error OracleDeviationTooHigh(
        uint256 indexPriceWad,
        uint256 spotPriceWad,
        uint256 deviationBps,
        uint256 maxDeviationBps
    );

    /// @notice Thrown by risk-increasing reads when the registered spot source reverts.
    /// @param source The spot source.
    error OracleSpotSourceUnavailable(address source);

    /// @notice Thrown by the round reads when `roundId` is not the round in force at `time`: it was published after
    ///         `time`, a later round was already published by then, or that cannot be shown (a round missing, a feed
    ///         phase change), or `time` is not in the past.
    /// @param roundId The round asked for.
    /// @param boundaryAt The round's own timestamp (> time), the next round's (≤ time), or 0.
    /// @param time The time asked for.
    error OracleRoundNotInForce(uint80 roundId, uint256 boundaryAt, uint256 time);

    /// @notice Thrown when a configuration value is invalid.
    /// @param what The parameter name.
    error OracleInvalidConfig(string what);
}
