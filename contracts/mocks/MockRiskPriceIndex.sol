// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IComputePriceOracle} from "../interfaces/IComputePriceOracle.sol";

/// @title MockRiskPriceIndex
/// @notice Test-only CH index with both reads a market uses (indexPrice for exits, riskPrice for new risk), set by
///         anyone: the Solidity perps tests drive the ClearingHouse and the PerpMarket from one price. `setStale`
///         makes every read revert like the real oracle with a stale feed.
contract MockRiskPriceIndex {
    uint256 public priceWad;
    bool public stale;

    /// @param priceWad_ Initial price, WAD.
    constructor(uint256 priceWad_) {
        priceWad = priceWad_;
    }

    /// @notice Sets the price.
    /// @param priceWad_ Price, WAD.
    function setPrice(uint256 priceWad_) external {
        priceWad = priceWad_;
    }

    /// @notice Makes every read revert with OracleStalePrice (true) or work again (false).
    /// @param stale_ The flag.
    function setStale(bool stale_) external {
        stale = stale_;
    }

    /// @notice The index.
    /// @return Price, WAD.
    function indexPrice() public view returns (uint256) {
        if (stale) revert IComputePriceOracle.OracleStalePrice(0, 0, block.timestamp);
        return priceWad;
    }

    /// @notice The index for new risk (no extra gates in the mock).
    /// @return Price, WAD.
    function riskPrice() external view returns (uint256) {
        return indexPrice();
    }
}
