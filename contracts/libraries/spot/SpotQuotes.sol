// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ISpotMarket as ISpotMarketTypes} from "../../interfaces/markets/ISpotMarket.sol";
import {ISpotMarketErrors} from "../../interfaces/markets/ISpotMarketErrors.sol";
import {SpotMath} from "../SpotMath.sol";
import {SpotLayout} from "./SpotStorage.sol";
import {SpotSeats} from "./SpotSeats.sol";

/// @title SpotQuotes
/// @notice The spot market's quotes: what each side pays and receives for a fill, a match or a deal, with maker/taker
///         fees net of seat discounts, every USDC amount rounded in the protocol's favour (ACC-05; docs/spot.md).
library SpotQuotes {
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
}
