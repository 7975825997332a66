// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IComputePriceOracle
/// @notice The CH index price in USDC, as every module reads it (SPEC section 8). The clearing issue implements
///         it as ComputePriceOracle (Chainlink feeds, staleness, bounds, sequencer, spot-TWAP deviation).
interface IComputePriceOracle {
    /// @notice The validated CH index price: USDC per CH, WAD (1e18 = 1 USDC per CH). Reverts with a typed
    ///         error when the price is stale, non-positive, out of bounds, or the sequencer is down (ORC-01).
    /// @return priceWad Price, WAD.
    function indexPrice() external view returns (uint256 priceWad);
}
