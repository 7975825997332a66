// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IGFLToken} from "../../interfaces/IGFLToken.sol";

/// @title GFLToken
/// @notice The capacity index: 1 GFL = 1 PetaFLOP of allocated capacity (18 decimals). Non-transferable.
/// @dev ERC-20 read interface (balanceOf, totalSupply, Transfer events on mint/burn) so wallets and indexers see
///      balances; transfer, transferFrom and approve always revert with GFLNonTransferable.
contract GFLToken is ChxUpgradeable, ERC20Upgradeable, IGFLToken {
    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    function initialize(address authority) external initializer {
        __ChxUpgradeable_init(authority);
        __ERC20_init("CHX Capacity Index", "GFL");
    }

    /// @inheritdoc IGFLToken
    function mint(address to, uint256 amount) external restricted {
        uint256 old = balanceOf(to);
        _mint(to, amount);
        emit GFLRebalanced(to, old, old + amount, totalSupply());
    }

    /// @inheritdoc IGFLToken
    function burn(address from, uint256 amount) external restricted {
        uint256 old = balanceOf(from);
        _burn(from, amount);
        emit GFLRebalanced(from, old, old - amount, totalSupply());
    }

    /// @inheritdoc IGFLToken
    function setBalance(address account, uint256 newBalance) external restricted {
        uint256 old = balanceOf(account);
        if (newBalance > old) _mint(account, newBalance - old);
        else if (newBalance < old) _burn(account, old - newBalance);
        emit GFLRebalanced(account, old, newBalance, totalSupply());
    }

    /// @notice Always reverts: GFL is not transferable.
    function transfer(address, uint256) public pure override returns (bool) {
        revert GFLNonTransferable();
    }

    /// @notice Always reverts: GFL is not transferable.
    function transferFrom(address, address, uint256) public pure override returns (bool) {
        revert GFLNonTransferable();
    }

    /// @notice Always reverts: GFL has no allowances.
    function approve(address, uint256) public pure override returns (bool) {
        revert GFLNonTransferable();
    }
}
