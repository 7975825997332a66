// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title MockFuturesIndex
/// @notice Test-only CH index with both reads a market uses (`indexPrice` for exits and settlement, `riskPrice` for
///         new risk), settable. Never deployed to a real network.
contract MockFuturesIndex {
    /// @notice The price, USDC per CH WAD.
    uint256 public priceWad;

    /// @notice Whether riskPrice reverts (a grace period, a spot deviation or the guardian's risk pause).
    bool public riskBlocked;

    /// @notice Thrown by riskPrice while new risk is blocked.
    error MockRiskBlocked();

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
