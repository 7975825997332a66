// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IVaultMarket} from "../../interfaces/callback/IVaultMarket.sol";

/// @title VaultMarkets
/// @notice The LiquidityVault's valuation of the markets it backs: bounded loops over its market list (≤ MAX_MARKETS).
library VaultMarkets {
    /// @notice idle + Σ market equity, signed; reverts when a market cannot be valued.
    function equity(address[] storage list, uint256 idleUsdc) internal view returns (int256 total) {
        total = int256(idleUsdc);
        uint256 n = list.length;
        for (uint256 i; i < n; ++i) total += IVaultMarket(list[i]).vaultEquityUsdc();
    }

    /// @notice The same for the views: a market whose valuation reverts counts 0 and `valued` is false.
    function equityView(address[] storage list, uint256 idleUsdc) internal view returns (int256 total, bool valued) {
        total = int256(idleUsdc);
        valued = true;
        uint256 n = list.length;
        for (uint256 i; i < n; ++i) {
            try IVaultMarket(list[i]).vaultEquityUsdc() returns (int256 e) {
                total += e;
            } catch {
                valued = false;
            }
        }
    }

    /// @notice idle + Σ what each market can return now; a market that cannot say counts 0 and `known` is false.
    function liquid(address[] storage list, uint256 idleUsdc) internal view returns (uint256 total, bool known) {
        total = idleUsdc;
        known = true;
        uint256 n = list.length;
        for (uint256 i; i < n; ++i) {
            try IVaultMarket(list[i]).withdrawableToVaultUsdc() returns (uint256 amount) {
                total += amount;
            } catch {
                known = false;
            }
        }
    }
}
