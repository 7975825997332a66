// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IVaultMarket} from "../interfaces/callback/IVaultMarket.sol";

/// @title MockVaultMarket
/// @notice Test-only IVaultMarket: holds what the vault allocates and reports an equity offset set by the test, so
///         the vault's multi-market accounting (netting, pulls in order, limits) can be tested without a second
///         real market.
contract MockVaultMarket is IVaultMarket {
    using SafeERC20 for IERC20;

    IERC20 public immutable usdc;
    address public immutable vault;
    /// @notice Added to the USDC held to form vaultEquityUsdc() (a trader PnL stand-in).
    int256 public equityOffsetUsdc;
    /// @notice Cap on withdrawableToVaultUsdc() (type(uint256).max: everything held).
    uint256 public withdrawCapUsdc = type(uint256).max;

    /// @param usdc_ USDC.
    /// @param vault_ The vault allowed to fund and withdraw.
    constructor(address usdc_, address vault_) {
        usdc = IERC20(usdc_);
        vault = vault_;
    }

    /// @notice Sets the equity offset.
    /// @param offsetUsdc Signed USDC.
    function setEquityOffset(int256 offsetUsdc) external {
        equityOffsetUsdc = offsetUsdc;
    }

    /// @notice Sets the withdrawable cap.
    /// @param capUsdc USDC.
    function setWithdrawCap(uint256 capUsdc) external {
        withdrawCapUsdc = capUsdc;
    }

    /// @inheritdoc IVaultMarket
    function vaultEquityUsdc() external view returns (int256) {
        return int256(usdc.balanceOf(address(this))) + equityOffsetUsdc;
    }

    /// @inheritdoc IVaultMarket
    function withdrawableToVaultUsdc() public view returns (uint256) {
        uint256 held = usdc.balanceOf(address(this));
        return held < withdrawCapUsdc ? held : withdrawCapUsdc;
    }

    /// @inheritdoc IVaultMarket
    function fundFromVault(uint256 amountUsdc) external {
        if (msg.sender != vault) revert VaultMarketOnlyVault(msg.sender);
        usdc.safeTransferFrom(msg.sender, address(this), amountUsdc);
    }

    /// @inheritdoc IVaultMarket
    function returnToVault(uint256 amountUsdc) external {
        if (msg.sender != vault) revert VaultMarketOnlyVault(msg.sender);
        usdc.safeTransfer(msg.sender, amountUsdc);
    }
}
