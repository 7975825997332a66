// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AggregatorV3Interface} from "@chainlink/contracts/src/v0.8/shared/interfaces/AggregatorV3Interface.sol";

/// @title MockAggregatorV3
/// @notice Test-only Chainlink feed: anyone sets the answer and the round fields (also serves as an L2
///         sequencer-uptime feed: answer 0 = up, 1 = down, startedAt = when the status changed). Never deployed
///         to a real network.
contract MockAggregatorV3 is AggregatorV3Interface {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
        uint80 answeredInRound;
    }

    uint8 public immutable override decimals;
    string public override description;
    uint80 public latestRoundId;
    mapping(uint80 roundId => Round round) private _rounds;

    /// @notice Thrown by getRoundData for a round that was never written.
    /// @param roundId The round asked for.
    error MockAggregatorNoRound(uint80 roundId);

    /// @param decimals_ Answer decimals.
    /// @param description_ Feed description.
    /// @param initialAnswer First answer (round 1, timestamped now); 0 leaves the feed without rounds.
    constructor(uint8 decimals_, string memory description_, int256 initialAnswer) {
        decimals = decimals_;
        description = description_;
        if (initialAnswer != 0) _push(initialAnswer, block.timestamp, block.timestamp);
    }

    /// @notice Publishes a new round with `answer`, started and updated now.
    /// @param answer The new answer.
    function setAnswer(int256 answer) external {
        _push(answer, block.timestamp, block.timestamp);
    }

    /// @notice Publishes a new round with explicit timestamps (stale, future or incomplete rounds in tests).
    /// @param answer The answer.
    /// @param startedAt Round start.
    /// @param updatedAt Round update.
    function setRound(int256 answer, uint256 startedAt, uint256 updatedAt) external {
        _push(answer, startedAt, updatedAt);
    }

    /// @notice Publishes a new round whose answer was computed in an earlier round (an incomplete round).
    /// @param answer The answer.
    /// @param answeredInRound The round the answer comes from (< the new round id).
    function setIncompleteRound(int256 answer, uint80 answeredInRound) external {
        _push(answer, block.timestamp, block.timestamp);
        _rounds[latestRoundId].answeredInRound = answeredInRound;
    }

    /// @inheritdoc AggregatorV3Interface
    function version() external pure override returns (uint256) {
        return 4;
    }

    /// @inheritdoc AggregatorV3Interface
    function getRoundData(uint80 roundId) external view override returns (uint80, int256, uint256, uint256, uint80) {
        Round memory r = _rounds[roundId];
        if (r.updatedAt == 0 && r.startedAt == 0) revert MockAggregatorNoRound(roundId);
        return (roundId, r.answer, r.startedAt, r.updatedAt, r.answeredInRound);
    }

    /// @inheritdoc AggregatorV3Interface
    function latestRoundData() external view override returns (uint80, int256, uint256, uint256, uint80) {
        uint80 id = latestRoundId;
        Round memory r = _rounds[id];
        return (id, r.answer, r.startedAt, r.updatedAt, r.answeredInRound);
    }

    function _push(int256 answer, uint256 startedAt, uint256 updatedAt) private {
        uint80 id = latestRoundId + 1;
        latestRoundId = id;
        _rounds[id] = Round({answer: answer, startedAt: startedAt, updatedAt: updatedAt, answeredInRound: id});
    }
}
