// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title IDPSToken
/// @notice DPS: the reward, payment and governance token (ERC-20 + EIP-2612 permit + ERC-5805 votes, timestamp
///         clock). Supply grows only by the genesis allocation and the emission schedule; shrinks by burns.
interface IDPSToken is IERC20 {
    /// @notice Emitted when the emission module mints rewards.
    /// @param to Recipient.
    /// @param amount DPS minted.
    /// @param totalEmitted Cumulative DPS ever minted by emission, after this mint.
    /// @param totalSupply Total supply after this mint.
    event DPSEmitted(address indexed to, uint256 amount, uint256 totalEmitted, uint256 totalSupply);

    /// @notice Emitted when DPS is burned (fee burn, performance burn, slashing, holder burn).
    /// @param from The account whose DPS was burned.
    /// @param amount DPS burned.
    /// @param totalBurned Cumulative DPS ever burned, after this burn.
    /// @param totalSupply Total supply after this burn.
    event DPSBurned(address indexed from, uint256 amount, uint256 totalBurned, uint256 totalSupply);

    /// @notice Mints emission rewards. EMISSION role only.
    /// @param to Recipient.
    /// @param amount DPS to mint.
    function mint(address to, uint256 amount) external;

    /// @notice Burns the caller's DPS.
    /// @param amount DPS to burn.
    function burn(uint256 amount) external;

    /// @notice Burns `amount` of `account`'s DPS, spending the caller's allowance.
    /// @param account Holder.
    /// @param amount DPS to burn.
    function burnFrom(address account, uint256 amount) external;

    /// @notice Cumulative DPS ever minted by the emission module (excludes genesis).
    /// @return DPS amount.
    function totalEmitted() external view returns (uint256);

    /// @notice Cumulative DPS ever burned.
    /// @return DPS amount.
    function totalBurned() external view returns (uint256);

    /// @notice DPS minted at genesis (initial governance and treasury allocation).
    /// @return DPS amount.
    function genesisSupply() external view returns (uint256);
}
