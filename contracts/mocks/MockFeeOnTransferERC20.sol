// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title MockFeeOnTransferERC20
/// @notice Test-only 18-decimal token that burns 1 % of every transfer (a fee-on-transfer token the ClearingHouse must
///         refuse as collateral). Never deployed to a real network.
contract MockFeeOnTransferERC20 is ERC20 {
    constructor() ERC20("Fee token (mock)", "FEE") {}

    /// @notice Mints freely (test faucet).
    /// @param to Recipient.
    /// @param amount Amount.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @dev Burns 1 % of every transfer between two accounts.
    function _update(address from, address to, uint256 value) internal override {
        if (from != address(0) && to != address(0)) {
            uint256 fee = value / 100;
            super._update(from, address(0), fee);
            value -= fee;
        }
        super._update(from, to, value);
    }
}
