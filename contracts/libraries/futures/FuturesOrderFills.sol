// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SignedOrders} from "../orders/SignedOrders.sol";

/// @title FuturesOrderFills
/// @notice The FuturesMarket's signed-order fill state (docs/futures.md "Signed orders", round 41): ONE word per
///         (maker, nonce) holds the order's filled amount, its cancelled flag and a 127-bit tag of its digest, so the
///         word that records a fill also claims the nonce (SignedOrders keeps a per-digest state AND a nonce bitmap:
///         two slots). A nonce's word belongs to the first order that fills or cancels on it; any other order on that
///         nonce is refused with SignedOrderNonceUsed. Same checks and errors as SignedOrders.consume / cancel; the
///         minimum nonce and the signature check are SignedOrders'. Internal: runs in FuturesSigned's frame.
/// @dev Word layout: bits 0..127 filled (≤ the order's size, which is bounded by 2^128 − 1 before anything is
///      stored), bit 128 cancelled, bits 129..255 the digest's top 127 bits. A second order that claims the same
///      word would need the maker to sign two orders on one nonce whose digests share 127 bits (≈ 2^63 work, and it
///      could only merge the fill counts of two orders the maker itself signed).
library FuturesOrderFills {
    uint256 private constant FILLED_MASK = type(uint128).max;
    uint256 private constant CANCELLED = uint256(1) << 128;
    uint256 private constant TAG_MASK = ~uint256(0) << 129;

    /// @notice Checks an order and books `amount` against it (SignedOrders.consume's checks, in its order): amount
    ///         bounds, cancellation, expiry, minimum nonce, the nonce held by another order, the signature on the
    ///         first fill only (a stored word proves it was checked), overfill. Returns the filled amount after.
    function consume(
        mapping(address => mapping(uint256 => uint256)) storage fills,
        SignedOrders.Book storage b,
        bytes32 digest,
        address maker,
        uint256 nonce,
        uint64 expiry,
        uint256 orderAmount,
        uint256 amount,
        bytes calldata signature
    ) internal returns (uint256 filledAfter) {
        if (amount == 0) revert SignedOrders.SignedOrderInvalidAmount(0);
        if (orderAmount > FILLED_MASK) revert SignedOrders.SignedOrderInvalidAmount(orderAmount);
        uint256 tag = uint256(digest) & TAG_MASK;
        uint256 word = fills[maker][nonce];
        bool mine = word & TAG_MASK == tag;
        if (mine && word & CANCELLED != 0) revert SignedOrders.SignedOrderCancelled(digest);
        if (block.timestamp > expiry) revert SignedOrders.SignedOrderExpired(digest, expiry, block.timestamp);
        SignedOrders.checkMinNonce(b, maker, nonce);
        uint256 filled;
        if (word == 0) SignedOrders.checkSignature(maker, digest, signature);
        else if (!mine) revert SignedOrders.SignedOrderNonceUsed(maker, nonce);
        else filled = word & FILLED_MASK;
        filledAfter = filled + amount;
        if (filledAfter > orderAmount) revert SignedOrders.SignedOrderOverfill(digest, amount, orderAmount - filled);
        // @dev filledAfter ≤ orderAmount ≤ 2^128 − 1 (checked above): it fits its 128 bits; cancelled is clear here
        fills[maker][nonce] = tag | filledAfter;
    }

    /// @notice Cancels the order `digest` of `maker` (the caller must be the maker). On a free nonce it claims the
    ///         nonce for the cancelled order (no order can use it again); on the order's own word it sets the flag
    ///         (idempotent); on a nonce another order holds it changes nothing (this order can never fill anyway).
    ///         Returns the amount the order had filled.
    function cancel(
        mapping(address => mapping(uint256 => uint256)) storage fills,
        bytes32 digest,
        address maker,
        uint256 nonce
    ) internal returns (uint256) {
        if (msg.sender != maker) revert SignedOrders.SignedOrderNotMaker(msg.sender, maker);
        uint256 tag = uint256(digest) & TAG_MASK;
        uint256 word = fills[maker][nonce];
        if (word == 0) {
            fills[maker][nonce] = tag | CANCELLED;
            return 0;
        }
        if (word & TAG_MASK != tag) return 0;
        if (word & CANCELLED == 0) fills[maker][nonce] = word | CANCELLED;
        return word & FILLED_MASK;
    }

    /// @notice The order's filled amount and cancelled flag; (0, false) when its nonce is free or held by another
    ///         order.
    function state(
        mapping(address => mapping(uint256 => uint256)) storage fills,
        bytes32 digest,
        address maker,
        uint256 nonce
    ) internal view returns (uint256 filled, bool cancelled) {
        uint256 word = fills[maker][nonce];
        if (word == 0 || word & TAG_MASK != uint256(digest) & TAG_MASK) return (0, false);
        return (word & FILLED_MASK, word & CANCELLED != 0);
    }
}
