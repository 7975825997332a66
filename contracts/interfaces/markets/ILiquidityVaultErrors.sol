// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ILiquidityVaultErrors
/// @notice The errors of ILiquidityVault.
interface ILiquidityVaultErrors {
    /// @notice Thrown when an amount of zero is passed.
    error VaultZeroAmount();

    /// @notice Thrown when adding a market twice.
    /// @param market The market.
    error VaultMarketAlreadyAdded(address market);

    /// @notice Thrown when a market is not one of the vault's.
    /// @param market The market.
    error VaultMarketUnknown(address market);

    /// @notice Thrown when adding more than MAX_MARKETS markets.
    /// @param max MAX_MARKETS.
    error VaultTooManyMarkets(uint256 max);

    /// @notice Thrown when removing a market that still holds vault capital or owes the vault anything.
    /// @param market The market.
    /// @param equityUsdc Its vaultEquityUsdc().
    error VaultMarketNotEmpty(address market, int256 equityUsdc);

    /// @notice Thrown when allocating more than the idle USDC.
    /// @param requestedUsdc Amount asked.
    /// @param idleUsdc Idle USDC.
    error VaultInsufficientIdle(uint256 requestedUsdc, uint256 idleUsdc);

    /// @notice Thrown when depositing while existing shares are worth nothing or less (idle + Σ market equity ≤ 0):
    ///         a new deposit would pay for the existing LPs' losses.
    /// @param equityUsdc idle + Σ market equity, signed.
    error VaultInsolvent(int256 equityUsdc);

    /// @notice Thrown when withdrawing or redeeming more shares than the owner holds outside its lock.
    /// @param owner The share owner.
    /// @param requestedShares Shares the withdrawal would burn.
    /// @param unlockedShares Shares the owner may burn now.
    /// @param unlocksAt Unix seconds from which the locked shares may leave.
    error VaultSharesLocked(address owner, uint256 requestedShares, uint256 unlockedShares, uint256 unlocksAt);
}
