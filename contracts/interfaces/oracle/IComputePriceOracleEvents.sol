// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IComputePriceOracleEvents
/// @notice The events of the CH index oracle (IComputePriceOracle inherits them; topics unchanged).
interface IComputePriceOracleEvents {
    /// @notice Emitted when the primary feed changes.
    /// @param feed The new feed.
    /// @param heartbeatSec The new heartbeat.
    /// @param decimals The feed's decimals.
    event OracleFeedSet(address indexed feed, uint32 heartbeatSec, uint8 decimals);

    /// @notice Emitted when the price bounds change.
    /// @param minPriceWad The new lower bound, WAD.
    /// @param maxPriceWad The new upper bound, WAD.
    event OracleBoundsSet(uint256 minPriceWad, uint256 maxPriceWad);

    /// @notice Emitted when the sequencer-uptime feed or its grace period changes.
    /// @param feed The new sequencer feed (zero = none).
    /// @param gracePeriodSec The new grace period.
    event OracleSequencerFeedSet(address indexed feed, uint32 gracePeriodSec);

    /// @notice Emitted when the secondary spot source or its deviation bound changes.
    /// @param source The new spot source (zero = check disabled).
    /// @param windowSec The TWAP window.
    /// @param maxDeviationBps The deviation bound.
    event OracleSpotSourceSet(address indexed source, uint32 windowSec, uint16 maxDeviationBps);

    /// @notice Emitted when a transaction pins the index price (once per transaction).
    /// @param priceWad The pinned price, WAD.
    /// @param pinnedBy The caller.
    event OraclePricePinned(uint256 priceWad, address indexed pinnedBy);
}
