// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IVaultMarket} from "../../interfaces/callback/IVaultMarket.sol";
import {ILiquidityVaultErrors} from "../../interfaces/markets/ILiquidityVaultErrors.sol";
import {ILiquidityVaultEvents} from "../../interfaces/markets/ILiquidityVaultEvents.sol";
import {LiquidityVaultStore} from "./VaultStorage.sol";

/// @title VaultCapital
/// @notice The LiquidityVault's markets and the capital it moves to and from them: the bounded market list, idle
///         USDC allocated to a market's PnL pool, and USDC returned (credited by what actually arrived).
library VaultCapital {
    using SafeERC20 for IERC20;

    /// @dev Adds `market` (at most `maxMarkets`: every per-market loop is bounded).
    function addMarket(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        address market,
        uint256 maxMarkets
    ) internal {
        if ($.isMarket[market]) revert ILiquidityVaultErrors.VaultMarketAlreadyAdded(market);
        if ($.markets.length >= maxMarkets) revert ILiquidityVaultErrors.VaultTooManyMarkets(maxMarkets);
        $.isMarket[market] = true;
        $.markets.push(market);
        emit ILiquidityVaultEvents.VaultMarketAdded(market, $.markets.length);
    }

    /// @dev Removes `market`, whose vault equity must be 0 (swap-and-pop).
    function removeMarket(LiquidityVaultStore.LiquidityVaultStorage storage $, address market) internal {
        requireMarket($, market);
        int256 equity = IVaultMarket(market).vaultEquityUsdc();
        if (equity != 0) revert ILiquidityVaultErrors.VaultMarketNotEmpty(market, equity);
        $.isMarket[market] = false;
        address[] storage list = $.markets;
        uint256 n = list.length;
        for (uint256 i; i < n; ++i) {
            if (list[i] == market) {
                list[i] = list[n - 1];
                list.pop();
                break;
            }
        }
        emit ILiquidityVaultEvents.VaultMarketRemoved(market, list.length);
    }

    /// @dev Moves `amountUsdc` idle USDC into `market`'s PnL pool.
    function allocate(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        IERC20 token,
        address market,
        uint256 amountUsdc
    ) internal {
        requireMarket($, market);
        uint256 idle = $.idleUsdc;
        if (amountUsdc > idle) revert ILiquidityVaultErrors.VaultInsufficientIdle(amountUsdc, idle);
        idle -= amountUsdc;
        $.idleUsdc = idle;
        emit ILiquidityVaultEvents.CapitalAllocated(market, amountUsdc, idle);
        token.forceApprove(market, amountUsdc);
        IVaultMarket(market).fundFromVault(amountUsdc);
    }

    /// @dev Pulls up to `needUsdc` from the markets in order (bounded loop); returns idle after.
    function pullFromMarkets(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        IERC20 token,
        uint256 needUsdc
    ) internal returns (uint256 idle) {
        address[] storage list = $.markets;
        uint256 n = list.length;
        for (uint256 i; i < n && needUsdc > 0; ++i) {
            IVaultMarket m = IVaultMarket(list[i]);
            uint256 available = m.withdrawableToVaultUsdc();
            uint256 take = available < needUsdc ? available : needUsdc;
            if (take == 0) continue;
            uint256 received = returnFrom($, token, address(m), take);
            needUsdc = received < needUsdc ? needUsdc - received : 0;
        }
        return $.idleUsdc;
    }

    /// @dev Credits idle with what actually arrived (balance difference), not with what was asked.
    function returnFrom(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        IERC20 token,
        address market,
        uint256 amountUsdc
    ) internal returns (uint256) {
        uint256 before = token.balanceOf(address(this));
        IVaultMarket(market).returnToVault(amountUsdc);
        uint256 received = token.balanceOf(address(this)) - before;
        uint256 idle = $.idleUsdc + received;
        $.idleUsdc = idle;
        emit ILiquidityVaultEvents.CapitalReturned(market, received, idle);
        return received;
    }

    /// @dev Reverts unless `market` was added.
    function requireMarket(LiquidityVaultStore.LiquidityVaultStorage storage $, address market) internal view {
        if (!$.isMarket[market]) revert ILiquidityVaultErrors.VaultMarketUnknown(market);
    }
}
