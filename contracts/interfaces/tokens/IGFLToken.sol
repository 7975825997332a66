// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title IGFLToken
/// @notice GFL: the non-transferable capacity index. 1 GFL = 1 PetaFLOP of allocated capacity; a provider's
///         balance is its capacity for the epoch, set only at epoch rebalancing by the emission module.
interface IGFLToken {
    /// @notice Thrown on any transfer, transferFrom or approve: GFL never moves between accounts.
    error GFLNonTransferable();

    /// @notice Emitted when the emission module sets a provider's GFL balance.
    /// @param account Provider.
    /// @param oldBalance Balance before.
    /// @param newBalance Balance after.
    /// @param totalSupply Total GFL after.
    event GFLRebalanced(address indexed account, uint256 oldBalance, uint256 newBalance, uint256 totalSupply);

    /// @notice Emitted when governance registers the minter.
    /// @param previousMinter Minter before (address(0): none).
    /// @param newMinter Minter after (address(0): none, only role holders may write balances).
    event GFLMinterSet(address indexed previousMinter, address indexed newMinter);

    /// @notice Registers the minter (the Emission module), which may mint, burn and set balances without an
    ///         AccessManager call. ADMIN role (governance) only; address(0) removes it.
    /// @param newMinter The minter.
    function setMinter(address newMinter) external;

    /// @notice The minter governance registered (address(0): none).
    /// @return The minter.
    function minter() external view returns (address);

    /// @notice Mints GFL. The minter or the EMISSION role only.
    /// @param to Provider.
    /// @param amount GFL to mint.
    function mint(address to, uint256 amount) external;

    /// @notice Burns GFL. The minter or the EMISSION role only.
    /// @param from Provider.
    /// @param amount GFL to burn.
    function burn(address from, uint256 amount) external;

    /// @notice Sets a provider's balance, minting or burning the difference. The minter or the EMISSION role only.
    /// @param account Provider.
    /// @param newBalance Target balance.
    function setBalance(address account, uint256 newBalance) external;
}
