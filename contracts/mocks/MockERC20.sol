// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title MockERC20
/// @notice Test-only token with configurable decimals and an open faucet (mock USDC). Never deployed to a real network.
contract MockERC20 is ERC20, ERC20Permit {
    uint8 private immutable _decimals;

    /// @param name_ Token name.
    /// @param symbol_ Token symbol.
    /// @param decimals_ Token decimals (6 for USDC).
    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) ERC20Permit(name_) {
        _decimals = decimals_;
    }

    /// @notice Token decimals.
    /// @return The configured decimals.
    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /// @notice Mints freely (test faucet).
    /// @param to Recipient.
    /// @param amount Amount in token units.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
