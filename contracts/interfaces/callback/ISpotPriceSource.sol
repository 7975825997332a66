// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ISpotPriceSource
/// @notice A secondary CH price the oracle compares its Chainlink index with (SPEC section 8): the spot market's
///         time-weighted average price. The oracle layer only defines this interface; the spot market (a higher
///         layer) implements it and governance registers it in the oracle (SPEC section 13: no upward import).
interface ISpotPriceSource {
    /// @notice The time-weighted average spot price over the last `windowSec` seconds.
    /// @param windowSec The averaging window the caller asks for, in seconds.
    /// @return priceWad The TWAP in USDC per CH, WAD (1e18 = 1 USDC per CH); 0 when there is no trade to average.
    /// @return observedSinceSec The unix timestamp (seconds) of the oldest observation the source holds. When
    ///         `block.timestamp - observedSinceSec < windowSec` the TWAP covers less than the window asked for
    ///         and the oracle treats it as immature (not comparable).
    function twapPrice(uint32 windowSec) external view returns (uint256 priceWad, uint256 observedSinceSec);
}
