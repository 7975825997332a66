// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IComputePriceOracleErrors} from "../interfaces/oracle/IComputePriceOracleErrors.sol";

/// @title MockFuturesIndex
/// @notice Test-only CH index with the reads a market uses (`indexPrice` for exits and settlement, `riskPrice` for
///         new risk, the round reads of delayed orders), settable. Every `setPrice` publishes a round timestamped
///         now, so `priceAtRound` proves the round in force like the real oracle. Never deployed to a real network.
contract MockFuturesIndex {
    struct Round {
        uint128 priceWad;
        uint64 updatedAt;
    }

    /// @notice The latest round.
    uint80 public latestRoundId;
    /// @notice Published rounds.
    mapping(uint80 roundId => Round) public rounds;

    /// @notice The price, USDC per CH WAD.
    uint256 public priceWad;

    /// @notice Whether riskPrice reverts (a grace period, a spot deviation or the guardian's risk pause).
    bool public riskBlocked;

    /// @notice Thrown by riskPrice while new risk is blocked.
    error MockRiskBlocked();

    /// @param priceWad_ Initial price.
    constructor(uint256 priceWad_) {
        _push(priceWad_);
    }

    /// @notice Sets the price.
    /// @param priceWad_ New price.
    function setPrice(uint256 priceWad_) external {
        _push(priceWad_);
    }

    function _push(uint256 priceWad_) private {
        priceWad = priceWad_;
        uint80 id = latestRoundId + 1;
        latestRoundId = id;
        rounds[id] = Round(uint128(priceWad_), uint64(block.timestamp));
    }

    /// @notice The price of the round in force at `time` (checked like ComputePriceOracle.priceAtRound).
    /// @param roundId The round.
    /// @param time Unix seconds, in the past.
    /// @return Price, WAD.
    function priceAtRound(uint80 roundId, uint256 time) external view returns (uint256) {
        Round memory r = rounds[roundId];
        if (time >= block.timestamp || r.updatedAt == 0 || r.updatedAt > time) {
            revert IComputePriceOracleErrors.OracleRoundNotInForce(roundId, r.updatedAt, time);
        }
        Round memory next = rounds[roundId + 1];
        if (next.updatedAt != 0 && next.updatedAt <= time) {
            revert IComputePriceOracleErrors.OracleRoundNotInForce(roundId, next.updatedAt, time);
        }
        return r.priceWad;
    }

    /// @notice The new-risk gates for a price in force at a time: reverts while blocked.
    function checkRiskAt(uint256, uint256) external view {
        if (riskBlocked) revert MockRiskBlocked();
    }

    /// @notice The round in force at `time` (0 if none).
    /// @param time Unix seconds.
    /// @return roundId The round.
    function roundAt(uint256 time) external view returns (uint80 roundId) {
        for (roundId = latestRoundId; roundId != 0; --roundId) {
            if (rounds[roundId].updatedAt <= time) return roundId;
        }
    }

    /// @notice The index.
    /// @return The price.
    function indexPrice() external view returns (uint256) {
        return priceWad;
    }

    /// @notice Blocks riskPrice (or not), as the real oracle's new-risk gates do.
    /// @param blocked True to revert with MockRiskBlocked.
    function setRiskBlocked(bool blocked) external {
        riskBlocked = blocked;
    }

    /// @notice The index for new risk: reverts while blocked.
    /// @return The price.
    function riskPrice() external view returns (uint256) {
        if (riskBlocked) revert MockRiskBlocked();
        return priceWad;
    }
}
