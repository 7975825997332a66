// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IVaultMarket
/// @notice What a market backed by the CHX liquidity vault (the ERC-4626 USDC vault that is the counterparty of
///         perpetuals and futures, SPEC section 6) implements, so one vault can back several markets (PerpMarket,
///         FuturesMarket). The vault's assets are its idle USDC plus Σ `vaultEquityUsdc()` over its markets.
/// @dev The market keeps LP capital in its ClearingHouse PnL pool (fundMarketPool / withdrawMarketPool), so trader
///      profits are paid from and losses land in LP capital without any transfer on the trade path.
interface IVaultMarket {
    /// @notice Thrown when a vault-only entry point is called by anyone else.
    /// @param caller The caller.
    error VaultMarketOnlyVault(address caller);

    /// @notice The LPs' claim on this market: its PnL pool minus the traders' net unrealised PnL at the index
    ///         price (plus funding owed to the pool, minus funding owed by it), USDC, signed, rounded against LPs.
    /// @return equityUsdc USDC.
    function vaultEquityUsdc() external view returns (int256 equityUsdc);

    /// @notice USDC the vault may take back now without leaving open positions under-backed (the pool minus what
    ///         must stay reserved for traders' unrealised profit and the market's own buffer).
    /// @return amountUsdc USDC.
    function withdrawableToVaultUsdc() external view returns (uint256 amountUsdc);

    /// @notice The vault moves `amountUsdc` into this market's PnL pool (the market pulls it from the vault, which
    ///         has approved it, and calls ClearingHouse.fundMarketPool). Only the vault.
    /// @param amountUsdc USDC.
    function fundFromVault(uint256 amountUsdc) external;

    /// @notice Sends `amountUsdc` from this market's PnL pool back to the vault (≤ withdrawableToVaultUsdc()).
    ///         Only the vault.
    /// @param amountUsdc USDC.
    function returnToVault(uint256 amountUsdc) external;
}
