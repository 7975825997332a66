// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ILiquidityVaultEvents
/// @notice The events of ILiquidityVault (each carries the post-state).
interface ILiquidityVaultEvents {
    /// @notice Emitted when a market is added.
    /// @param market The market (an IVaultMarket).
    /// @param marketCount Markets after.
    event VaultMarketAdded(address indexed market, uint256 marketCount);

    /// @notice Emitted when a market is removed.
    /// @param market The market.
    /// @param marketCount Markets after.
    event VaultMarketRemoved(address indexed market, uint256 marketCount);

    /// @notice Emitted when idle USDC is moved into a market's PnL pool.
    /// @param market The market.
    /// @param amountUsdc USDC moved.
    /// @param idleUsdc Idle USDC after.
    event CapitalAllocated(address indexed market, uint256 amountUsdc, uint256 idleUsdc);

    /// @notice Emitted when a market returns USDC to the vault (by the keeper, or to pay a withdrawal).
    /// @param market The market.
    /// @param amountUsdc USDC returned.
    /// @param idleUsdc Idle USDC after.
    event CapitalReturned(address indexed market, uint256 amountUsdc, uint256 idleUsdc);

    /// @notice Emitted after every deposit, mint, withdrawal and redemption (next to ERC-4626's Deposit /
    ///         Withdraw), with the post-state an indexer needs.
    /// @param totalAssetsUsdc totalAssets() after.
    /// @param totalShares totalSupply() after.
    /// @param idleUsdc Idle USDC after.
    /// @param sharePriceWad USDC per whole share (10^decimals() units), WAD, virtual offset included.
    event VaultStateUpdated(uint256 totalAssetsUsdc, uint256 totalShares, uint256 idleUsdc, uint256 sharePriceWad);

    /// @notice Emitted when an owner's lock changes (a deposit, or locked shares moving with a transfer).
    /// @param owner The share owner.
    /// @param lockedShares Its locked shares after.
    /// @param unlocksAt When they unlock, unix seconds.
    event SharesLocked(address indexed owner, uint256 lockedShares, uint256 unlocksAt);

    /// @notice Emitted when the deposit cap or the lock period changes.
    /// @param depositCapUsdc totalAssets above which deposits stop (0 = no deposits).
    /// @param lockPeriodSec Seconds a deposit's shares stay locked.
    event VaultLimitsSet(uint256 depositCapUsdc, uint32 lockPeriodSec);
}
