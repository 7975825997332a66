// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title MockERC1271Wallet
/// @notice Test-only smart wallet: a signature is valid when its owner's key signed the digest (ERC-1271).
///         Never deployed to a real network.
contract MockERC1271Wallet is IERC1271 {
    /// @notice Thrown when someone other than the owner calls `approve`.
    error MockWalletNotOwner(address caller);

    address public immutable owner;

    /// @param owner_ The key that signs for the wallet.
    constructor(address owner_) {
        owner = owner_;
    }

    /// @inheritdoc IERC1271
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address recovered, ECDSA.RecoverError err, ) = ECDSA.tryRecover(hash, signature);
        return err == ECDSA.RecoverError.NoError && recovered == owner ? this.isValidSignature.selector : bytes4(0);
    }

    /// @notice Approves `spender` for `token` (the wallet's owner only).
    /// @param token The token.
    /// @param spender The spender.
    /// @param amount The allowance.
    function approve(address token, address spender, uint256 amount) external {
        if (msg.sender != owner) revert MockWalletNotOwner(msg.sender);
        IERC20(token).approve(spender, amount);
    }
}
