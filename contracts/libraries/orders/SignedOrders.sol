// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title SignedOrders
/// @notice The generic part of signed (EIP-712) limit orders, shared by the markets that take them (issue 19: "one
///         implementation"): per-order fill and cancel bookkeeping keyed by the order's EIP-712 digest, the maker's
///         nonce bitmap (the first fill claims the nonce) and minimum nonce (one call voids every older order), and
///         the signature check (ECDSA with OpenZeppelin's low-s / valid-v rules, else ERC-1271 for contract makers).
///         The market owns its order type, its struct hash and its EIP-712 domain and passes the digest here.
/// @dev Used by the SpotMarket (orders and OTC deals) and the FuturesMarket. Internal: runs in the market's frame.
library SignedOrders {
    /// @notice Fill state of one order, keyed by its digest.
    /// @param filled Amount filled so far (the order's own unit).
    /// @param cancelled Cancelled by its maker.
    struct State {
        uint128 filled;
        bool cancelled;
    }

    /// @notice A market's signed-order book: fills and cancels per digest, nonces per maker.
    struct Book {
        mapping(bytes32 digest => State) orders;
        mapping(address maker => mapping(uint256 word => uint256 bits)) nonceBitmap;
        mapping(address maker => uint256) minNonce;
    }

    /// @notice Thrown for a zero fill or an order amount beyond 2^128.
    /// @param amount The amount.
    error SignedOrderInvalidAmount(uint256 amount);
    /// @notice Thrown when filling a cancelled order.
    /// @param digest The order's EIP-712 digest.
    error SignedOrderCancelled(bytes32 digest);
    /// @notice Thrown when filling an order after its expiry.
    /// @param digest The order's EIP-712 digest.
    /// @param expiry Its expiry (unix seconds).
    /// @param nowSec The block time.
    error SignedOrderExpired(bytes32 digest, uint64 expiry, uint256 nowSec);
    /// @notice Thrown when an order's nonce was already claimed by another order of the maker.
    /// @param maker The maker.
    /// @param nonce The nonce.
    error SignedOrderNonceUsed(address maker, uint256 nonce);
    /// @notice Thrown when an order's nonce is below its maker's minimum nonce.
    /// @param maker The maker.
    /// @param nonce The nonce.
    /// @param minimum The maker's minimum nonce.
    error SignedOrderNonceBelowMinimum(address maker, uint256 nonce, uint256 minimum);
    /// @notice Thrown when the signature is not the maker's (ECDSA or ERC-1271), incl. high-s malleable forms.
    /// @param signer The expected signer.
    /// @param digest The digest.
    error SignedOrderInvalidSignature(address signer, bytes32 digest);
    /// @notice Thrown when a fill exceeds what is left of the order.
    /// @param digest The order's digest.
    /// @param amount The fill asked.
    /// @param remaining What is left.
    error SignedOrderOverfill(bytes32 digest, uint256 amount, uint256 remaining);
    /// @notice Thrown when someone other than the maker cancels an order.
    /// @param caller The caller.
    /// @param maker The maker.
    error SignedOrderNotMaker(address caller, address maker);
    /// @notice Thrown when a minimum nonce is not raised.
    /// @param maker The maker.
    /// @param current Its minimum nonce.
    /// @param requested The value asked.
    error SignedOrderNonceNotIncreasing(address maker, uint256 current, uint256 requested);

    /// @notice Checks an order and books `amount` against it: amount bounds, cancellation, expiry, minimum nonce,
    ///         nonce uniqueness and signature on the first fill only (the stored fill proves both were checked),
    ///         and overfill. Returns the filled amount after.
    function consume(
        Book storage b,
        bytes32 digest,
        address maker,
        uint256 nonce,
        uint64 expiry,
        uint256 orderAmount,
        uint256 amount,
        bytes calldata signature
    ) internal returns (uint256 filledAfter) {
        if (amount == 0) revert SignedOrderInvalidAmount(0);
        if (orderAmount > type(uint128).max) revert SignedOrderInvalidAmount(orderAmount);
        State storage st = b.orders[digest];
        State memory s = st;
        if (s.cancelled) revert SignedOrderCancelled(digest);
        if (block.timestamp > expiry) revert SignedOrderExpired(digest, expiry, block.timestamp);
        checkMinNonce(b, maker, nonce);
        if (s.filled == 0) {
            useNonce(b, maker, nonce);
            checkSignature(maker, digest, signature);
        }
        filledAfter = s.filled + amount;
        if (filledAfter > orderAmount) revert SignedOrderOverfill(digest, amount, orderAmount - s.filled);
        st.filled = uint128(filledAfter);
    }

    /// @notice Cancels the order `digest` of `maker` (the caller must be the maker) and claims its nonce, so no other
    ///         order can reuse it (idempotent). Returns the amount it had filled.
    function cancel(Book storage b, bytes32 digest, address maker, uint256 nonce) internal returns (uint256 filled) {
        if (msg.sender != maker) revert SignedOrderNotMaker(msg.sender, maker);
        State storage st = b.orders[digest];
        st.cancelled = true;
        b.nonceBitmap[maker][nonce >> 8] |= 1 << (nonce & 0xff);
        return st.filled;
    }

    /// @notice Raises the caller's minimum nonce (voids all its orders below it).
    function raiseMinNonce(Book storage b, uint256 newMinNonce) internal {
        uint256 current = b.minNonce[msg.sender];
        if (newMinNonce <= current) revert SignedOrderNonceNotIncreasing(msg.sender, current, newMinNonce);
        b.minNonce[msg.sender] = newMinNonce;
    }

    /// @notice Marks `nonce` used for `maker`; reverts when it already was (another order claimed it).
    function useNonce(Book storage b, address maker, uint256 nonce) internal {
        uint256 bit = 1 << (nonce & 0xff);
        mapping(uint256 => uint256) storage words = b.nonceBitmap[maker];
        uint256 word = words[nonce >> 8];
        if (word & bit != 0) revert SignedOrderNonceUsed(maker, nonce);
        words[nonce >> 8] = word | bit;
    }

    /// @notice Reverts when `nonce` is below `maker`'s minimum nonce.
    function checkMinNonce(Book storage b, address maker, uint256 nonce) internal view {
        uint256 minimum = b.minNonce[maker];
        if (nonce < minimum) revert SignedOrderNonceBelowMinimum(maker, nonce, minimum);
    }

    /// @notice ECDSA first (OpenZeppelin: rejects high-s malleable forms and invalid v), which spares EOAs the
    ///         code-size lookup; otherwise ERC-1271 when the signer has code.
    function checkSignature(address signer, bytes32 digest, bytes calldata signature) internal view {
        (address recovered, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(digest, signature);
        if (err == ECDSA.RecoverError.NoError && recovered == signer) return;
        if (
            signer.code.length == 0 || !SignatureChecker.isValidERC1271SignatureNowCalldata(signer, digest, signature)
        ) {
            revert SignedOrderInvalidSignature(signer, digest);
        }
    }
}
