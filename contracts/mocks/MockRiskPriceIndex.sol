// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IComputePriceOracleErrors} from "../interfaces/oracle/IComputePriceOracleErrors.sol";

/// @title MockRiskPriceIndex
/// @notice Test-only CH index with the reads a market uses (indexPrice for exits, riskPrice for new risk, the round
///         reads of delayed orders), set by anyone: the Solidity perps tests drive the ClearingHouse and the PerpMarket
///         from one price. Every `setPrice` publishes a round timestamped now, so `priceAtRound` proves the round in
///         force like the real oracle. `setStale` makes every read revert like the real oracle with a stale feed.
contract MockRiskPriceIndex {
    struct Round {
        uint128 priceWad;
        uint64 updatedAt;
    }

    uint256 public priceWad;
    bool public stale;
    uint80 public latestRoundId;
    mapping(uint80 roundId => Round) public rounds;

    /// @param priceWad_ Initial price, WAD (round 1, now).
    constructor(uint256 priceWad_) {
        _push(priceWad_);
    }

    /// @notice Sets the price (a new round, timestamped now).
    /// @param priceWad_ Price, WAD.
    function setPrice(uint256 priceWad_) external {
        _push(priceWad_);
    }

    /// @notice Makes every read revert with OracleStalePrice (true) or work again (false).
    /// @param stale_ The flag.
    function setStale(bool stale_) external {
        stale = stale_;
    }

    /// @notice The index.
    /// @return Price, WAD.
    function indexPrice() public view returns (uint256) {
        if (stale) revert IComputePriceOracleErrors.OracleStalePrice(0, 0, block.timestamp);
        return priceWad;
    }

    /// @notice The index for new risk (no extra gates in the mock).
    /// @return Price, WAD.
    function riskPrice() external view returns (uint256) {
        return indexPrice();
    }

    /// @notice The price of the round in force at `time` (checked like ComputePriceOracle.priceAtRound).
    /// @param roundId The round.
    /// @param time Unix seconds, in the past.
    /// @return Price, WAD.
    function priceAtRound(uint80 roundId, uint256 time) external view returns (uint256) {
        if (stale) revert IComputePriceOracleErrors.OracleStalePrice(0, 0, block.timestamp);
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

    /// @notice The new-risk gates at `time` (none in the mock but the stale flag).
    function checkRiskAt(uint256, uint256) external view {
        if (stale) revert IComputePriceOracleErrors.OracleStalePrice(0, 0, block.timestamp);
    }

    /// @notice The round in force at `time` (0 if none).
    /// @param time Unix seconds.
    /// @return roundId The round.
    function roundAt(uint256 time) external view returns (uint80 roundId) {
        for (roundId = latestRoundId; roundId != 0; --roundId) {
            if (rounds[roundId].updatedAt <= time) return roundId;
        }
    }

    function _push(uint256 priceWad_) private {
        priceWad = priceWad_;
        uint80 id = latestRoundId + 1;
        latestRoundId = id;
        rounds[id] = Round(uint128(priceWad_), uint64(block.timestamp));
    }
}
