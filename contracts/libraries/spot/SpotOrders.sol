// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISpotMarket as ISpotMarketTypes} from "../../interfaces/markets/ISpotMarket.sol";
import {ISpotMarketErrors} from "../../interfaces/markets/ISpotMarketErrors.sol";
import {SpotLayout} from "./SpotStorage.sol";
import {SignedOrders} from "../orders/SignedOrders.sol";

/// @title SpotOrders
/// @notice The spot market's order book mechanics: order and deal checks (MKT-06, SEC-03), nonces, signatures
///         (docs/spot.md). Quotes and fees are in SpotQuotes; events, fee accrual, the TWAP feed and token
///         movements in SpotSettlement.
/// @dev Internal: runs in the market's frame on its storage (the digests come from the market's EIP-712 domain).
library SpotOrders {
    /// @dev An order record: bits 0–127 the amount filled, bit 128 cancelled, bits 129–255 the top 127 bits of the
    ///      order's digest (the tag that binds the record, and so the maker's nonce, to one order).
    uint256 internal constant FILLED_MASK = type(uint128).max;
    uint256 internal constant CANCELLED = 1 << 128;
    uint256 internal constant TAG_MASK = ~((uint256(1) << 129) - 1);

    /// @notice Checks an order and books `amountCh` against it: amount bounds, cancellation, expiry, minimum nonce,
    ///         nonce uniqueness and the signature on the first fill only, overfill. The fill record is keyed by
    ///         (maker, nonce), so writing it claims the nonce: a record of another order (another tag) means the nonce
    ///         is used (SignedOrderNonceUsed); a later fill of the same order (same tag) needs no signature, because
    ///         the record proves it was checked, and matching 127 bits of a digest signed by the maker is a second
    ///         preimage of keccak.
    function consumeOrder(
        SpotLayout.SpotMarketStorage storage $,
        ISpotMarketTypes.Order calldata order,
        bytes32 hash,
        bytes calldata signature,
        uint256 amountCh
    ) internal returns (uint256 filledAfter) {
        if (amountCh == 0) revert SignedOrders.SignedOrderInvalidAmount(0);
        uint256 orderAmount = order.amountCh;
        if (orderAmount > type(uint128).max) revert SignedOrders.SignedOrderInvalidAmount(orderAmount);
        address maker = order.maker;
        uint256 nonce = order.nonce;
        mapping(uint256 => uint256) storage records = $.orderRecords[maker];
        uint256 r = records[nonce];
        uint256 tag = uint256(hash) & TAG_MASK;
        if (r != 0) {
            if (r & TAG_MASK != tag) revert SignedOrders.SignedOrderNonceUsed(maker, nonce);
            if (r & CANCELLED != 0) revert SignedOrders.SignedOrderCancelled(hash);
        }
        if (block.timestamp > order.expiry) {
            revert SignedOrders.SignedOrderExpired(hash, order.expiry, block.timestamp);
        }
        SignedOrders.checkMinNonce($.book, maker, nonce);
        if (r == 0) SignedOrders.checkSignature(maker, hash, signature);
        uint256 filled = r & FILLED_MASK;
        filledAfter = filled + amountCh;
        if (filledAfter > orderAmount) revert SignedOrders.SignedOrderOverfill(hash, amountCh, orderAmount - filled);
        records[nonce] = tag | filledAfter;
    }

    /// @notice Cancels an order (the caller must be its maker) and claims its nonce (idempotent). When the nonce is
    ///         already claimed by another order, this order can never fill and nothing is written. Returns the amount
    ///         the order had filled.
    function cancelOrder(
        SpotLayout.SpotMarketStorage storage $,
        ISpotMarketTypes.Order calldata order,
        bytes32 hash
    ) internal returns (uint256 filled) {
        address maker = order.maker;
        if (msg.sender != maker) revert SignedOrders.SignedOrderNotMaker(msg.sender, maker);
        mapping(uint256 => uint256) storage records = $.orderRecords[maker];
        uint256 r = records[order.nonce];
        uint256 tag = uint256(hash) & TAG_MASK;
        if (r != 0 && r & TAG_MASK != tag) return 0;
        records[order.nonce] = r | tag | CANCELLED;
        return r & FILLED_MASK;
    }

    /// @notice The state of the order `hash` of `maker` with `nonce`: zero when the nonce is unused or claimed by
    ///         another order.
    function orderState(
        SpotLayout.SpotMarketStorage storage $,
        address maker,
        uint256 nonce,
        bytes32 hash
    ) internal view returns (ISpotMarketTypes.OrderState memory) {
        uint256 r = $.orderRecords[maker][nonce];
        if (r & TAG_MASK != uint256(hash) & TAG_MASK) return ISpotMarketTypes.OrderState(0, false);
        return ISpotMarketTypes.OrderState(uint128(r & FILLED_MASK), r & CANCELLED != 0);
    }

    /// @notice Checks a deal (amount, cancellation, single settlement, expiry, both minimum nonces, the signature of
    ///         every party that is not the caller) and marks it settled, on the shared signed-order book.
    function consumeDeal(
        SpotLayout.SpotMarketStorage storage $,
        ISpotMarketTypes.Deal calldata deal,
        bytes32 hash,
        bytes calldata sellerSignature,
        bytes calldata buyerSignature
    ) internal {
        uint256 amountCh = deal.amountCh;
        if (amountCh == 0 || amountCh > type(uint128).max) revert SignedOrders.SignedOrderInvalidAmount(amountCh);
        SignedOrders.Book storage book = $.book;
        SignedOrders.State storage state = book.orders[hash];
        if (state.cancelled) revert SignedOrders.SignedOrderCancelled(hash);
        if (state.filled != 0) revert ISpotMarketErrors.SpotDealSettled(hash);
        if (block.timestamp > deal.expiry) revert SignedOrders.SignedOrderExpired(hash, deal.expiry, block.timestamp);
        SignedOrders.checkMinNonce(book, deal.seller, deal.nonce);
        SignedOrders.checkMinNonce(book, deal.buyer, deal.nonce);
        if (msg.sender != deal.seller) SignedOrders.checkSignature(deal.seller, hash, sellerSignature);
        if (msg.sender != deal.buyer) SignedOrders.checkSignature(deal.buyer, hash, buyerSignature);
        state.filled = uint128(amountCh);
    }
}
