// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IComputePriceOracle} from "../interfaces/IComputePriceOracle.sol";

/// @title MockPriceIndex
/// @notice Test-only CH index price (IComputePriceOracle) with a settable price. Never deployed to a real network.
contract MockPriceIndex is IComputePriceOracle {
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

    /// @inheritdoc IComputePriceOracle
    function indexPrice() external view returns (uint256) {
        if (priceWad == 0) revert MockPriceUnavailable();
        return priceWad;
    }
}
