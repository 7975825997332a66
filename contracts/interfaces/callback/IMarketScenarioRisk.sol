// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IMarketScenarioRisk
/// @notice The portfolio-margin callback (issue 20 item 3, CLR-04): a market flagged for it
///         (`ClearingHouse.setMarketScenarioRisk`) answers, per account, the PnL of everything the account holds in
///         it under each index scenario of the ClearingHouse's grid (ClearingPortfolio), so the ClearingHouse can net
///         it against the account's linear positions on the same index.
/// @dev Cost must be bounded per account (e.g. O(series the account holds) under the market's own per-account
///      bound, or per-account aggregates), never O(accounts). Must not revert for an account that holds nothing.
interface IMarketScenarioRisk {
    /// @notice PnL of `account`'s holdings in this market if the index moved from `priceWad` to each of
    ///         `scenarioPricesWad` (value at the scenario price − value at `priceWad`), USDC, rounded against the
    ///         account (losses up, gains down). Same length as `scenarioPricesWad`.
    /// @param account The account.
    /// @param priceWad The index price the margin computation uses, WAD.
    /// @param scenarioPricesWad The scenario prices, WAD.
    /// @return pnlUsdc Signed PnL per scenario, USDC.
    function scenarioPnl(
        address account,
        uint256 priceWad,
        uint256[] calldata scenarioPricesWad
    ) external view returns (int256[] memory pnlUsdc);
}
