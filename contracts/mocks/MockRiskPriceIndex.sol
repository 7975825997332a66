// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title MockRiskPriceIndex
/// @notice Test-only CH index with both reads a market uses (indexPrice for exits, riskPrice for new risk), set by
///         anyone: the Solidity perps tests drive the ClearingHouse and the PerpMarket from one price.
contract MockRiskPriceIndex {
    uint256 public priceWad;

    /// @param priceWad_ Initial price, WAD.
    constructor(uint256 priceWad_) {
        priceWad = priceWad_;
    }

    /// @notice Sets the price.
    /// @param priceWad_ Price, WAD.
    function setPrice(uint256 priceWad_) external {
        priceWad = priceWad_;
    }

    /// @notice The index.
    /// @return Price, WAD.
    function indexPrice() external view returns (uint256) {
        return priceWad;
    }

    /// @notice The index for new risk (no extra gates in the mock).
    /// @return Price, WAD.
    function riskPrice() external view returns (uint256) {
        return priceWad;
    }
}
