// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title MockPriceIndex
/// @notice Test-only CH index price with a settable price: the `indexPrice()` read of IComputePriceOracle (the
///         only read the compute and clearing layers need from it here). Never deployed to a real network.
/// @dev Superset of the compute layer's mock: a zero price reverts MockPriceUnavailable, and setInvalid(true)
///      makes every read revert MockPriceInvalid (an oracle refusing a stale or out-of-bounds price, ORC-01).
contract MockPriceIndex {
    /// @notice Thrown by indexPrice when the price was set to zero (mimics the real oracle's typed refusal).
    error MockPriceUnavailable();

    /// @notice Thrown by indexPrice while the mock is set invalid.
    error MockPriceInvalid();

    uint256 public priceWad;

    /// @notice Whether indexPrice reverts.
    bool public invalid;

    /// @notice Whether riskPrice reverts (a grace period, a spot deviation or the guardian's risk pause).
    bool public riskBlocked;

    /// @notice Thrown by riskPrice while new risk is blocked.
    error MockRiskBlocked();

    /// @param priceWad_ Initial price, USDC per CH WAD.
    constructor(uint256 priceWad_) {
        priceWad = priceWad_;
    }

    /// @notice Sets the price.
    /// @param priceWad_ New price, USDC per CH WAD (0 makes indexPrice revert).
    function setPrice(uint256 priceWad_) external {
        priceWad = priceWad_;
    }

    /// @notice Makes indexPrice revert (or not).
    /// @param invalid_ True to revert with MockPriceInvalid.
    function setInvalid(bool invalid_) external {
        invalid = invalid_;
    }

    /// @notice Blocks riskPrice (or not), as the real oracle's new-risk gates do.
    /// @param blocked True to revert with MockRiskBlocked.
    function setRiskBlocked(bool blocked) external {
        riskBlocked = blocked;
    }

    /// @notice The price for a risk-increasing action: indexPrice, unless risk is blocked.
    /// @return The price, USDC per CH WAD.
    function riskPrice() external view returns (uint256) {
        if (riskBlocked) revert MockRiskBlocked();
        return this.indexPrice();
    }

    /// @notice The settable price; reverts while invalid or zero.
    /// @return The price, USDC per CH WAD.
    function indexPrice() external view returns (uint256) {
        if (invalid) revert MockPriceInvalid();
        if (priceWad == 0) revert MockPriceUnavailable();
        return priceWad;
    }
}
