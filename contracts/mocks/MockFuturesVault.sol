// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IVaultMarket} from "../interfaces/callback/IVaultMarket.sol";

/// @title MockFuturesVault
/// @notice Test-only stand-in for the LP vault (the real ERC-4626 LiquidityVault is another module): holds USDC,
///         funds a market's pool through `IVaultMarket.fundFromVault` and takes it back with `returnToVault`.
contract MockFuturesVault {
    using SafeERC20 for IERC20;

    IERC20 public immutable usdc;

    /// @param usdc_ USDC.
    constructor(address usdc_) {
        usdc = IERC20(usdc_);
    }

    /// @notice Pulls `amountUsdc` from the caller and moves it into `market`'s pool.
    /// @param market The market.
    /// @param amountUsdc USDC.
    function fund(address market, uint256 amountUsdc) external {
        usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
        usdc.forceApprove(market, amountUsdc);
        IVaultMarket(market).fundFromVault(amountUsdc);
    }

    /// @notice Takes `amountUsdc` back from `market`'s pool.
    /// @param market The market.
    /// @param amountUsdc USDC.
    function take(address market, uint256 amountUsdc) external {
        IVaultMarket(market).returnToVault(amountUsdc);
    }

    /// @notice The vault's total assets over one market: idle USDC plus the market's equity.
    /// @param market The market.
    /// @return USDC (signed).
    function totalAssets(address market) external view returns (int256) {
        return int256(usdc.balanceOf(address(this))) + IVaultMarket(market).vaultEquityUsdc();
    }
}
