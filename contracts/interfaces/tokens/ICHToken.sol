// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title ICHToken
/// @notice CH: the Compute Hour, the commodity (ERC-20 + EIP-2612 permit). Minted only by the provider registry
///         against verified, staked, unsold capacity; every CH is a delivery liability of its minting provider.
interface ICHToken is IERC20 {
    /// @notice Emitted when CH is minted.
    /// @param to Recipient.
    /// @param amount CH minted.
    /// @param totalSupply Total supply after the mint.
    event CHMinted(address indexed to, uint256 amount, uint256 totalSupply);

    /// @notice Emitted when CH is burned (delivered compute, provider buy-back).
    /// @param from Account whose CH was burned.
    /// @param amount CH burned.
    /// @param totalSupply Total supply after the burn.
    event CHBurned(address indexed from, uint256 amount, uint256 totalSupply);

    /// @notice Mints CH. CH_MINTER role (the ProviderRegistry) only.
    /// @param to Recipient.
    /// @param amount CH to mint.
    function mint(address to, uint256 amount) external;

    /// @notice Burns CH held by `from`. CH_MINTER role only; the registry burns only CH it custodies or that
    ///         a holder handed it for redemption or buy-back.
    /// @param from Holder.
    /// @param amount CH to burn.
    function burn(address from, uint256 amount) external;
}
