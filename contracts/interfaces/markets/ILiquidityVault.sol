// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC4626} from "@openzeppelin/contracts/interfaces/IERC4626.sol";
import {ILiquidityVaultErrors} from "./ILiquidityVaultErrors.sol";
import {ILiquidityVaultEvents} from "./ILiquidityVaultEvents.sol";

/// @title ILiquidityVault
/// @notice The ERC-4626 USDC vault whose LPs are the counterparty of the CHX perpetuals and futures (SPEC
///         section 6). Deposits stay idle until the keeper allocates them to a market's PnL pool
///         (IVaultMarket.fundFromVault); withdrawals are paid from idle USDC, topping up from what the markets can
///         return (IVaultMarket.withdrawableToVaultUsdc, which keeps the traders' net unrealised profit and a
///         buffer in the pool). totalAssets = max(0, idle + Σ market.vaultEquityUsdc()): LPs' share price moves
///         with the traders' unrealised PnL, so no LP can withdraw ahead of a loss that is already on the books.
/// @dev Shares carry a virtual offset (`_decimalsOffset` = 6: shares have 12 decimals and 1e6 virtual shares
///      back 1 virtual wei of USDC), and idle USDC is an internal ledger, so USDC sent to the vault directly
///      (a donation) never moves the share price (ACC-04). Shares minted round down, shares burned round up
///      (OpenZeppelin ERC-4626, ACC-05). The shares a deposit mints are locked for `lockPeriodSec`, so nobody can
///      deposit just ahead of a known gain and leave right after it; locked shares keep their lock when
///      transferred, and shares arriving never lock the receiver's other shares (see `lockOf`).
///      At most MAX_MARKETS markets: every per-market loop is bounded.
interface ILiquidityVault is IERC4626, ILiquidityVaultErrors, ILiquidityVaultEvents {
    /// @notice Adds a market (ADMIN). The vault can then allocate to it and counts its vaultEquityUsdc().
    /// @param market An IVaultMarket whose onlyVault entry points accept this vault.
    function addMarket(address market) external;

    /// @notice Removes a market (ADMIN) whose vaultEquityUsdc() is 0.
    /// @param market The market.
    function removeMarket(address market) external;

    /// @notice Moves `amountUsdc` idle USDC into `market`'s PnL pool (KEEPER).
    /// @param market The market.
    /// @param amountUsdc USDC.
    function allocate(address market, uint256 amountUsdc) external;

    /// @notice Takes `amountUsdc` back from `market` (≤ its withdrawableToVaultUsdc()) into idle USDC (KEEPER).
    /// @param market The market.
    /// @param amountUsdc USDC.
    function deallocate(address market, uint256 amountUsdc) external;

    /// @notice Sets the deposit cap and the lock period (ADMIN).
    /// @param depositCapUsdc totalAssets above which deposits stop.
    /// @param lockPeriodSec Seconds a deposit's shares stay locked.
    function setLimits(uint256 depositCapUsdc, uint32 lockPeriodSec) external;

    /// @notice Idle USDC (the internal ledger, not the token balance).
    /// @return USDC.
    function idleUsdc() external view returns (uint256);

    /// @notice The markets the vault backs.
    /// @return Market addresses (≤ MAX_MARKETS).
    function markets() external view returns (address[] memory);

    /// @notice USDC a withdrawal can be paid now: idle plus Σ market.withdrawableToVaultUsdc() (a market that cannot
    ///         say, e.g. with a stale oracle, counts 0).
    /// @return USDC.
    function liquidUsdc() external view returns (uint256);

    /// @notice USDC per whole share, WAD (see VaultStateUpdated).
    /// @return WAD.
    function sharePriceWad() external view returns (uint256);

    /// @notice `owner`'s locked shares and when they unlock (0, 0 once the lock has ended).
    /// @param owner The owner.
    /// @return lockedShares Shares that may not leave yet.
    /// @return unlocksAt Unix seconds.
    function lockOf(address owner) external view returns (uint256 lockedShares, uint256 unlocksAt);

    /// @notice The deposit cap and the lock period.
    /// @return depositCapUsdc USDC.
    /// @return lockPeriodSec Seconds.
    function limits() external view returns (uint256 depositCapUsdc, uint32 lockPeriodSec);
}
