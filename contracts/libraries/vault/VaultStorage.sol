// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title LiquidityVaultStore
/// @notice The LiquidityVault's ERC-7201 namespace, inherited by the vault (so the upgrade-safety gate sees it) and
///         used by the libraries holding its mechanisms (`contracts/libraries/vault/`): share locks, market capital.
abstract contract LiquidityVaultStore {
    /// @custom:storage-location erc7201:chx.storage.LiquidityVault
    struct LiquidityVaultStorage {
        uint256 idleUsdc;
        address[] markets;
        mapping(address market => bool) isMarket;
        uint256 depositCapUsdc;
        uint32 lockPeriodSec;
        /// @custom:oz-renamed-from unlocksAt
        // solhint-disable-next-line var-name-mixedcase
        mapping(address owner => uint256) __deprecated_unlocksAt;
        mapping(address owner => Lock) locks;
    }

    /// @dev One word per owner: how many of its shares are locked, and until when (all of them together).
    struct Lock {
        uint192 shares;
        uint64 unlocksAt;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.LiquidityVault")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant LIQUIDITY_VAULT_STORAGE_LOCATION =
        0x910c5bbc1e9453114af778d4e40b0a8c25fd03885f981404bc1072e33eb84900;

    function _getLiquidityVaultStorage() internal pure returns (LiquidityVaultStorage storage $) {
        assembly {
            $.slot := LIQUIDITY_VAULT_STORAGE_LOCATION
        }
    }
}
