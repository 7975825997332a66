// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title MockPriceIndex
/// @notice Test-only CH index price with a settable price: the `indexPrice()` read of IComputePriceOracle, which is
///         all the compute layer uses. Never deployed to a real network.
contract MockPriceIndex {
    /// @notice Thrown by indexPrice when the price was set to zero (mimics the real oracle's typed refusal).
    error MockPriceUnavailable();

    uint256 public priceWad;

    /// @param priceWad_ Initial price, USDC per CH WAD.
    constructor(uint256 priceWad_) {
        priceWad = priceWad_;
    }

    /// @notice Sets the price.
    /// @param priceWad_ New price, USDC per CH WAD (0 makes indexPrice revert).
    function setPrice(uint256 priceWad_) external {
        priceWad = priceWad_;
    }

    /// @notice The settable price (reverts with MockPriceUnavailable when zero).
    /// @return The price, USDC per CH WAD.
    function indexPrice() external view returns (uint256) {
        if (priceWad == 0) revert MockPriceUnavailable();
        return priceWad;
    }
}
