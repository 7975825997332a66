// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ISpotMarket as ISpotMarketTypes} from "../../interfaces/markets/ISpotMarket.sol";
import {ISpotMarketEvents} from "../../interfaces/markets/ISpotMarketEvents.sol";
import {SpotTwap} from "../SpotTwap.sol";
import {SpotLayout} from "./SpotStorage.sol";

/// @title SpotSettlement
/// @notice The spot market's settlement side: the fill event with the order's post-state, fee accrual, the TWAP
///         feed, and the token movements of a settlement.
library SpotSettlement {
    using SafeERC20 for IERC20;
    using SpotTwap for SpotTwap.State;

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

    /// @notice Announces the protocol's USDC of a settlement as fee income. The income is the market's USDC balance
    ///         (ACC-01: the market holds USDC only as pending fee income), so nothing is written: the settlement's
    ///         transfer into the market is the accrual. `pendingAfter` is the balance once that transfer lands.
    /// @dev Runs before the transfers (a view call; the USDC account and the market's balance slot it warms are
    ///      the ones the transfers touch next).
    function accrue(SpotLayout.SpotMarketStorage storage $, uint256 amountUsdc) internal {
        if (amountUsdc == 0) return;
        uint256 pendingAfter = $.usdc.balanceOf(address(this)) + amountUsdc;
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
