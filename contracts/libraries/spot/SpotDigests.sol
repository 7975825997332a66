// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {ISpotMarket} from "../../interfaces/markets/ISpotMarket.sol";

/// @title SpotDigests
/// @notice The SpotMarket's EIP-712 types and digests (domain "CHX Spot", version "1"): the domain separator from
///         constant name and version hashes, and the digests of signed orders and OTC deals.
library SpotDigests {
    /// @dev EIP-712 type hash of a signed limit order.
    bytes32 internal constant ORDER_TYPEHASH = keccak256(
        "Order(address maker,bool isBuy,uint256 amountCh,uint256 priceWad,uint256 nonce,uint64 expiry,address taker)"
    );
    /// @dev EIP-712 type hash of an OTC deal.
    bytes32 internal constant DEAL_TYPEHASH = keccak256(
        "Deal(address seller,address buyer,uint256 amountCh,uint256 priceWad,uint256 nonce,uint64 expiry)"
    );
    /// @dev EIP-712 type hash of the domain (name, version, chain id, verifying contract).
    bytes32 internal constant DOMAIN_TYPEHASH = keccak256(
        "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"
    );
    /// @dev The EIP-712 domain name and version (ERC-5267 `eip712Domain()`; the SDK reads them from there).
    string internal constant EIP712_NAME = "CHX Spot";
    string internal constant EIP712_VERSION = "1";
    bytes32 internal constant EIP712_NAME_HASH = keccak256(bytes(EIP712_NAME));
    bytes32 internal constant EIP712_VERSION_HASH = keccak256(bytes(EIP712_VERSION));

    /// @dev The EIP-712 domain separator from the constant name and version hashes: the same value as
    ///      `_domainSeparatorV4()` (a test checks it) without hashing the two strings on every digest.
    function domain() internal view returns (bytes32) {
        return
            keccak256(abi.encode(DOMAIN_TYPEHASH, EIP712_NAME_HASH, EIP712_VERSION_HASH, block.chainid, address(this)));
    }

    /// @dev The digest a maker signs for `o` (EIP-712 type `Order`) under `domain_`.
    function orderDigest(bytes32 domain_, ISpotMarket.Order calldata o) internal pure returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(ORDER_TYPEHASH, o.maker, o.isBuy, o.amountCh, o.priceWad, o.nonce, o.expiry, o.taker)
        );
        return MessageHashUtils.toTypedDataHash(domain_, structHash);
    }

    /// @dev The digest both parties sign for `d` (EIP-712 type `Deal`) under `domain_`.
    function dealDigest(bytes32 domain_, ISpotMarket.Deal calldata d) internal pure returns (bytes32) {
        bytes32 structHash = keccak256(
            abi.encode(DEAL_TYPEHASH, d.seller, d.buyer, d.amountCh, d.priceWad, d.nonce, d.expiry)
        );
        return MessageHashUtils.toTypedDataHash(domain_, structHash);
    }
}
