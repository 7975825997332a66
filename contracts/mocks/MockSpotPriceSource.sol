// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISpotPriceSource} from "../interfaces/callback/ISpotPriceSource.sol";

/// @title MockSpotPriceSource
/// @notice Test-only spot TWAP: returns what the test sets, or reverts on demand. Never deployed to a real network.
contract MockSpotPriceSource is ISpotPriceSource {
    uint256 public priceWad;
    uint256 public observedSinceSec;
    bool public broken;

    /// @notice Thrown by twapPrice while `broken` is set.
    error MockSpotBroken();

    /// @notice Sets the TWAP and its history start.
    /// @param priceWad_ The TWAP, WAD.
    /// @param observedSinceSec_ Oldest observation timestamp.
    function set(uint256 priceWad_, uint256 observedSinceSec_) external {
        priceWad = priceWad_;
        observedSinceSec = observedSinceSec_;
    }

    /// @notice Makes twapPrice revert (or not).
    /// @param broken_ True to revert.
    function setBroken(bool broken_) external {
        broken = broken_;
    }

    /// @inheritdoc ISpotPriceSource
    function twapPrice(uint32) external view returns (uint256, uint256) {
        if (broken) revert MockSpotBroken();
        return (priceWad, observedSinceSec);
    }
}
