// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ISpotMarket as ISpotMarketTypes} from "../../interfaces/markets/ISpotMarket.sol";
import {ISpotMarketErrors} from "../../interfaces/markets/ISpotMarketErrors.sol";
import {ISpotMarketEvents} from "../../interfaces/markets/ISpotMarketEvents.sol";
import {SpotMath} from "../SpotMath.sol";
import {SpotTwap} from "../SpotTwap.sol";
import {SpotLayout} from "./SpotStorage.sol";
import {SpotSeats} from "./SpotSeats.sol";
import {SignedOrders} from "../orders/SignedOrders.sol";

/// @title SpotOrders
/// @notice The spot market's order book mechanics: order and deal checks (MKT-06, SEC-03), nonces, signatures,
///         quotes and fees (ACC-05), token movements, fee accrual and the TWAP feed (docs/spot.md).
/// @dev Internal: runs in the market's frame on its storage (the digests come from the market's EIP-712 domain).
library SpotOrders {
    using SafeERC20 for IERC20;
    using SpotTwap for SpotTwap.State;

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

    /// @notice A taker fill: the maker pays the maker fee, the caller the taker fee, at the order's price.
    function fillQuote(
        SpotLayout.SpotMarketStorage storage $,
        ISpotMarketTypes.Order calldata order,
        uint256 amountCh
    ) internal view returns (ISpotMarketTypes.Settlement memory st) {
        st.amountCh = amountCh;
        uint256 makerDiscount = SpotSeats.discountBps($, order.maker);
        uint256 takerDiscount = SpotSeats.discountBps($, msg.sender);
        uint256 p = order.priceWad;
        if (order.isBuy) {
            st.buyer = order.maker;
            st.seller = msg.sender;
            quote(st, p, p, $.makerFeeBps, makerDiscount, $.takerFeeBps, takerDiscount);
        } else {
            st.buyer = msg.sender;
            st.seller = order.maker;
            quote(st, p, p, $.takerFeeBps, takerDiscount, $.makerFeeBps, makerDiscount);
        }
    }

    /// @notice A match: both sides pay the maker fee, each at its own limit price.
    function matchQuote(
        SpotLayout.SpotMarketStorage storage $,
        ISpotMarketTypes.Order calldata buy,
        ISpotMarketTypes.Order calldata sell,
        uint256 amountCh
    ) internal view returns (ISpotMarketTypes.Settlement memory st) {
        st.buyer = buy.maker;
        st.seller = sell.maker;
        st.amountCh = amountCh;
        uint256 fee = $.makerFeeBps;
        uint256 buyerDiscount = SpotSeats.discountBps($, buy.maker);
        quote(st, buy.priceWad, sell.priceWad, fee, buyerDiscount, fee, SpotSeats.discountBps($, sell.maker));
    }

    /// @notice An OTC deal: both parties pay the maker fee at the agreed price.
    function dealQuote(
        SpotLayout.SpotMarketStorage storage $,
        ISpotMarketTypes.Deal calldata deal
    ) internal view returns (ISpotMarketTypes.Settlement memory st) {
        st.buyer = deal.buyer;
        st.seller = deal.seller;
        st.amountCh = deal.amountCh;
        uint256 fee = $.makerFeeBps;
        uint256 buyerDiscount = SpotSeats.discountBps($, deal.buyer);
        uint256 sellerDiscount = SpotSeats.discountBps($, deal.seller);
        quote(st, deal.priceWad, deal.priceWad, fee, buyerDiscount, fee, sellerDiscount);
    }

    /// @notice Fills in the USDC legs of `st` (buyer, seller, amount set). The buyer pays its quote rounded up plus
    ///         its fee; the seller receives its quote rounded down minus its fee; the matcher (if the two prices
    ///         differ) gets the spread rounded down; the protocol keeps the rest, so buyerPaid = sellerReceived +
    ///         spread + protocol exactly.
    function quote(
        ISpotMarketTypes.Settlement memory st,
        uint256 buyPriceWad,
        uint256 sellPriceWad,
        uint256 buyerFeeBps,
        uint256 buyerDiscountBps,
        uint256 sellerFeeBps,
        uint256 sellerDiscountBps
    ) internal pure {
        uint256 buyQuote = SpotMath.quoteUsdcUp(st.amountCh, buyPriceWad);
        uint256 sellQuote = SpotMath.quoteUsdcDown(st.amountCh, sellPriceWad);
        st.buyerFeeUsdc = SpotMath.feeUsdcUp(buyQuote, buyerFeeBps, buyerDiscountBps);
        st.sellerFeeUsdc = SpotMath.feeUsdcUp(sellQuote, sellerFeeBps, sellerDiscountBps);
        if (sellQuote <= st.sellerFeeUsdc) revert ISpotMarketErrors.SpotFillTooSmall(st.amountCh, sellPriceWad);
        st.buyerPaidUsdc = buyQuote + st.buyerFeeUsdc;
        st.sellerReceivedUsdc = sellQuote - st.sellerFeeUsdc;
        if (buyPriceWad != sellPriceWad) {
            st.spreadUsdc = SpotMath.quoteUsdcDown(st.amountCh, buyPriceWad - sellPriceWad);
        }
        // @dev ≥ 0: buyQuote ≥ sellQuote + spread because ceil(a·b) ≥ floor(a·s) + floor(a·(b−s))
        st.protocolUsdc = st.buyerPaidUsdc - st.sellerReceivedUsdc - st.spreadUsdc;
    }

    /// @notice Emits OrderFilled with the order's post-state. The counterparty is the other side of `st`; the
    ///         maker's fee is its own side's fee in `st`.
    function emitFill(
        bytes32 hash,
        ISpotMarketTypes.Order calldata order,
        ISpotMarketTypes.Settlement memory st,
        uint256 filledAfter,
        uint256 counterpartyFeeUsdc
    ) internal {
        bool isBuy = order.isBuy;
        emit ISpotMarketEvents.OrderFilled(
            hash,
            order.maker,
            isBuy ? st.seller : st.buyer,
            st.amountCh,
            order.priceWad,
            filledAfter,
            order.amountCh - filledAfter,
            isBuy ? st.buyerFeeUsdc : st.sellerFeeUsdc,
            counterpartyFeeUsdc
        );
    }

    /// @notice Adds the protocol's USDC of a settlement to the pending fee income.
    function accrue(SpotLayout.SpotMarketStorage storage $, uint256 amountUsdc) internal {
        if (amountUsdc == 0) return;
        uint256 pendingAfter = $.pendingFeesUsdc + amountUsdc;
        // @dev 2^64 USDC units = 1.8e13 USDC pending between two distributions; beyond it the fill reverts
        $.pendingFeesUsdc = SafeCast.toUint64(pendingAfter);
        emit ISpotMarketEvents.FeesAccrued(amountUsdc, pendingAfter);
    }

    /// @notice Feeds a fill of `amountCh` at `priceWad` to the TWAP unless it is below the size floor.
    function recordPrice(SpotLayout.SpotMarketStorage storage $, uint256 amountCh, uint256 priceWad) internal {
        if (amountCh < $.twapMinAmountCh) return;
        // @dev a price above SpotTwap.MAX_PRICE_WAD (≈ 7.9e10 USDC per CH) is clamped for the TWAP only
        uint256 p = priceWad > SpotTwap.MAX_PRICE_WAD ? SpotTwap.MAX_PRICE_WAD : priceWad;
        (uint256 cumulative, uint256 index, uint256 count) = $.twap.record(p);
        emit ISpotMarketEvents.TwapUpdated(p, cumulative, block.timestamp, index, count);
    }

    /// @notice Moves the tokens of a settlement: CH seller → buyer; USDC buyer → seller, → matcher, → this market.
    function transfer(
        SpotLayout.SpotMarketStorage storage $,
        ISpotMarketTypes.Settlement memory st,
        address matcher
    ) internal {
        $.ch.safeTransferFrom(st.seller, st.buyer, st.amountCh);
        IERC20 usdc = $.usdc;
        usdc.safeTransferFrom(st.buyer, st.seller, st.sellerReceivedUsdc);
        if (st.spreadUsdc != 0) usdc.safeTransferFrom(st.buyer, matcher, st.spreadUsdc);
        if (st.protocolUsdc != 0) usdc.safeTransferFrom(st.buyer, address(this), st.protocolUsdc);
    }
}
