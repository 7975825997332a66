// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {VaultMarkets} from "../clearing/VaultMarkets.sol";
import {LiquidityVaultStore} from "./VaultStorage.sol";

/// @title VaultValuation
/// @notice The LiquidityVault valued across its markets (VaultMarkets): strictly for deposits and withdrawals (a
///         market that cannot be valued reverts), leniently for the ERC-4626 views (it counts 0 and closes them).
library VaultValuation {
    /// @dev idle + Σ market equity, signed (VaultMarkets); reverts when a market cannot be valued.
    function equity(LiquidityVaultStore.LiquidityVaultStorage storage $) internal view returns (int256) {
        return VaultMarkets.equity($.markets, $.idleUsdc);
    }

    /// @dev The same for the views: a market whose valuation reverts counts 0 and `valued` is false.
    function equityView(LiquidityVaultStore.LiquidityVaultStorage storage $) internal view returns (int256, bool) {
        return VaultMarkets.equityView($.markets, $.idleUsdc);
    }

    /// @dev Idle plus what the markets can return now; `known` is false when a market cannot say (stale oracle).
    function liquid(LiquidityVaultStore.LiquidityVaultStorage storage $) internal view returns (uint256, bool) {
        return VaultMarkets.liquid($.markets, $.idleUsdc);
    }

    /// @dev totalAssets for a withdrawal: every market valued (reverts with the market's reason otherwise).
    function strictAssets(LiquidityVaultStore.LiquidityVaultStorage storage $) internal view returns (uint256) {
        int256 total = equity($);
        return total > 0 ? uint256(total) : 0;
    }

    /// @dev Whether a withdrawal can go through at all now (not `paused`, every market valued and able to say what
    ///      it can return), the totalAssets it would use and the liquidity.
    function withdrawOpen(
        LiquidityVaultStore.LiquidityVaultStorage storage $,
        bool paused
    ) internal view returns (bool open, uint256 ta, uint256 liquidUsdc) {
        if (paused) return (false, 0, 0);
        (int256 total, bool valued) = equityView($);
        bool liquidKnown;
        (liquidUsdc, liquidKnown) = liquid($);
        if (!valued || !liquidKnown) return (false, 0, 0);
        return (true, total > 0 ? uint256(total) : 0, liquidUsdc);
    }
}
