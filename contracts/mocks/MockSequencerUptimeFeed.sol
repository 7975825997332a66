// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {AggregatorV3Interface} from "@chainlink/contracts/src/v0.8/shared/interfaces/AggregatorV3Interface.sol";

/// @title MockSequencerUptimeFeed
/// @notice Test-only L2 sequencer-uptime feed in Chainlink's shape: answer 0 = up, 1 = down; `startedAt` is when
///         the status last changed. Never deployed to a real network.
contract MockSequencerUptimeFeed is AggregatorV3Interface {
    int256 public status;
    uint256 public statusSince;
    uint80 public roundId;

    /// @param up Initial status.
    /// @param sinceSec When that status began (0 = an uninitialised feed).
    constructor(bool up, uint256 sinceSec) {
        _set(up, sinceSec);
    }

    /// @notice Sets the status as of now.
    /// @param up True when the sequencer is up.
    function setStatus(bool up) external {
        _set(up, block.timestamp);
    }

    /// @notice Sets the status as of an explicit time.
    /// @param up True when the sequencer is up.
    /// @param sinceSec When the status began.
    function setStatusSince(bool up, uint256 sinceSec) external {
        _set(up, sinceSec);
    }

    /// @inheritdoc AggregatorV3Interface
    function decimals() external pure override returns (uint8) {
        return 0;
    }

    /// @inheritdoc AggregatorV3Interface
    function description() external pure override returns (string memory) {
        return "L2 sequencer uptime (mock)";
    }

    /// @inheritdoc AggregatorV3Interface
    function version() external pure override returns (uint256) {
        return 1;
    }

    /// @inheritdoc AggregatorV3Interface
    function getRoundData(uint80) external view override returns (uint80, int256, uint256, uint256, uint80) {
        return (roundId, status, statusSince, statusSince, roundId);
    }

    /// @inheritdoc AggregatorV3Interface
    function latestRoundData() external view override returns (uint80, int256, uint256, uint256, uint80) {
        return (roundId, status, statusSince, statusSince, roundId);
    }

    function _set(bool up, uint256 sinceSec) private {
        roundId += 1;
        status = up ? int256(0) : int256(1);
        statusSince = sinceSec;
    }
}
