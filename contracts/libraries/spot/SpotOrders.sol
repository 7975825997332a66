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
    /// @notice Checks an order and books `amountCh` against it through the shared signed-order book
    ///         (SignedOrders.consume: amount bounds, cancellation, expiry, minimum nonce, nonce uniqueness and the
    ///         signature on the first fill only, overfill).
    function consumeOrder(
        SpotLayout.SpotMarketStorage storage $,
        ISpotMarketTypes.Order calldata order,
        bytes32 hash,
        bytes calldata signature,
        uint256 amountCh
    ) internal returns (uint256 filledAfter) {
        return
            SignedOrders.consume(
                $.book,
                hash,
                order.maker,
                order.nonce,
                order.expiry,
                order.amountCh,
                amountCh,
                signature
            );
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
