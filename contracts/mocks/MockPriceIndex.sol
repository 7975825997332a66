// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IComputePriceOracle} from "../interfaces/IComputePriceOracle.sol";

/// @title MockPriceIndex
/// @notice Test-only CH index: a settable price that can be made to revert like an invalid oracle (ORC-01).
contract MockPriceIndex is IComputePriceOracle {
    /// @notice Thrown by indexPrice while the mock is set invalid.
    error MockPriceInvalid();

    uint256 public priceWad;
    bool public invalid;

    /// @param priceWad_ Initial price, WAD.
    constructor(uint256 priceWad_) {
        priceWad = priceWad_;
    }

    /// @notice Sets the price.
    /// @param priceWad_ New price, WAD.
    function setPrice(uint256 priceWad_) external {
        priceWad = priceWad_;
    }

    /// @notice Makes indexPrice revert (or not).
    /// @param invalid_ True to revert.
    function setInvalid(bool invalid_) external {
        invalid = invalid_;
    }

    /// @inheritdoc IComputePriceOracle
    function indexPrice() external view returns (uint256) {
        if (invalid) revert MockPriceInvalid();
        return priceWad;
    }
}
