// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title MockFuturesIndex
/// @notice Test-only CH index with both reads a market uses (`indexPrice` for exits and settlement, `riskPrice` for
///         new risk), settable. Never deployed to a real network.
contract MockFuturesIndex {
    /// @notice The price, USDC per CH WAD.
    uint256 public priceWad;

    /// @param priceWad_ Initial price.
    constructor(uint256 priceWad_) {
        priceWad = priceWad_;
    }

    /// @notice Sets the price.
    /// @param priceWad_ New price.
    function setPrice(uint256 priceWad_) external {
        priceWad = priceWad_;
    }

    /// @notice The index.
    /// @return The price.
    function indexPrice() external view returns (uint256) {
        return priceWad;
    }

    /// @notice The index for new risk (no extra gate in this mock).
    /// @return The price.
    function riskPrice() external view returns (uint256) {
        return priceWad;
    }
}
