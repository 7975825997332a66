// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC20Upgradeable} from "@openzeppelin/contracts-upgradeable/token/ERC20/ERC20Upgradeable.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IGFLToken} from "../../interfaces/tokens/IGFLToken.sol";

/// @title GFLToken
/// @notice The capacity index: 1 GFL = 1 PetaFLOP of allocated capacity (18 decimals). Non-transferable.
/// @dev ERC-20 read interface (balanceOf, totalSupply, Transfer events on mint/burn) so wallets and indexers see
///      balances; transfer, transferFrom and approve always revert with GFLNonTransferable. Writers: the minter
///      governance registered (`setMinter`, the Emission module: one SLOAD instead of an AccessManager call per
///      rebalance) and any holder of the role AccessManager maps to mint/burn/setBalance (EMISSION).
contract GFLToken is ChxUpgradeable, ERC20Upgradeable, IGFLToken {
    /// @custom:storage-location erc7201:chx.storage.GFLToken
    struct GFLTokenStorage {
        address minter;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.GFLToken")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant GFL_TOKEN_STORAGE_LOCATION =
        0x641904eb2c36ec7aa101aebdb84f55b853d3b6d5fe688ec664b5923c613baa00;

    function _getGFLTokenStorage() private pure returns (GFLTokenStorage storage $) {
        assembly {
            $.slot := GFL_TOKEN_STORAGE_LOCATION
        }
    }

    /// @dev The registered minter passes with one SLOAD; anyone else goes through AccessManager (`restricted`).
    modifier onlyMinter() {
        if (msg.sender != _getGFLTokenStorage().minter) _checkCanCall(msg.sender, msg.data);
        _;
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    function initialize(address authority) external initializer {
        __ChxUpgradeable_init(authority);
        __ERC20_init("CHX Capacity Index", "GFL");
    }

    /// @inheritdoc IGFLToken
    function setMinter(address newMinter) external restricted {
        GFLTokenStorage storage $ = _getGFLTokenStorage();
        address previous = $.minter;
        $.minter = newMinter;
        emit GFLMinterSet(previous, newMinter);
    }

    /// @inheritdoc IGFLToken
    function minter() external view returns (address) {
        return _getGFLTokenStorage().minter;
    }

    /// @inheritdoc IGFLToken
    function mint(address to, uint256 amount) external onlyMinter {
        uint256 old = balanceOf(to);
        _mint(to, amount);
        emit GFLRebalanced(to, old, old + amount, totalSupply());
    }

    /// @inheritdoc IGFLToken
    function burn(address from, uint256 amount) external onlyMinter {
        uint256 old = balanceOf(from);
        _burn(from, amount);
        emit GFLRebalanced(from, old, old - amount, totalSupply());
    }

    /// @inheritdoc IGFLToken
    function setBalance(address account, uint256 newBalance) external onlyMinter {
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
