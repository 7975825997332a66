// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IMarketAccountRisk
/// @notice The hook the ClearingHouse calls in every margin computation of an account holding a position in a market
///         flagged for it: what the account holds in the market beyond its ClearingHouse position (issue 17 item 11).
interface IMarketAccountRisk {
    /// @notice What `account` holds in this market beyond its ClearingHouse position, valued at the index `priceWad`:
    ///         `equityAdjustmentUsdc` is added to the account's equity (negative: owed funding, a delivery payment
    ///         not yet collected, …); `extraInitialUsdc` / `extraMaintenanceUsdc` are added to its initial /
    ///         maintenance requirements (spreads between series, delivery bonds, …). Rounded against the account.
    ///         Must not revert for an account that holds nothing in the market.
    function accountRisk(
        address account,
        uint256 priceWad
    ) external view returns (int256 equityAdjustmentUsdc, uint256 extraInitialUsdc, uint256 extraMaintenanceUsdc);
}
