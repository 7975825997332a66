// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {IOptionsMarketTypes} from "../../interfaces/markets/IOptionsMarketTypes.sol";
import {IOptionsMarketErrors} from "../../interfaces/markets/IOptionsMarketErrors.sol";
import {IOptionsMarketEvents} from "../../interfaces/markets/IOptionsMarketEvents.sol";
import {OptionsMarketBase} from "../../core/markets/OptionsMarketBase.sol";
import {SpotMath} from "../SpotMath.sol";
import {OptionsBook} from "./OptionsBook.sol";

/// @title OptionsOffers
/// @notice Signed premium offers and writing: offer checks (expiry, cancellation, minimum nonce, signature on the
///         first fill, overfill), premium legs and fees (ACC-05), delivery (longs first, then writing) and a short's
///         collateral (MKT-07) — docs/options.md.
/// @dev Internal: runs in the market's frame on its storage (the digest comes from the market's EIP-712 domain).
library OptionsOffers {
    using SafeCast for uint256;

    /// @notice Amounts of one fill.
    struct Fill {
        bytes32 hash;
        address buyer;
        address seller;
        uint256 paidUsdc;
        uint256 receivedUsdc;
        uint256 collateralUsdc;
        uint256 filledAfterCh;
    }

    /// @notice Sides and premium legs: the buyer pays the premium rounded up plus its fee, the seller receives it rounded
    ///         down less its fee; fees round up; the market keeps the difference as fee income (ACC-05).
    function quoteFill(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Offer calldata offer,
        uint256 sizeCh,
        Fill memory f
    ) internal view {
        uint256 up = SpotMath.quoteUsdcUp(sizeCh, offer.premiumWad);
        uint256 down = SpotMath.quoteUsdcDown(sizeCh, offer.premiumWad);
        uint256 buyerBps;
        uint256 sellerBps;
        if (offer.isBuy) {
            (f.buyer, f.seller) = (offer.maker, msg.sender);
            (buyerBps, sellerBps) = ($.params.makerFeeBps, $.params.takerFeeBps);
        } else {
            (f.buyer, f.seller) = (msg.sender, offer.maker);
            (buyerBps, sellerBps) = ($.params.takerFeeBps, $.params.makerFeeBps);
        }
        uint256 sellerFee = SpotMath.feeUsdcUp(down, sellerBps, 0);
        if (down <= sellerFee) revert IOptionsMarketErrors.OptionsFillTooSmall(sizeCh, offer.premiumWad);
        f.paidUsdc = up + SpotMath.feeUsdcUp(up, buyerBps, 0);
        f.receivedUsdc = down - sellerFee;
    }

    /// @notice The seller delivers its longs first and writes the rest; the buyer's longs grow.
    function deliver(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s,
        uint256 seriesId,
        address seller,
        address buyer,
        uint256 sizeCh,
        Fill memory f,
        function() internal view requireWriteActive
    ) internal {
        IOptionsMarketTypes.Position memory sp = $.positions[seriesId][seller];
        bool wasEmpty = OptionsBook.isEmpty(sp);
        uint256 fromLong = Math.min(sp.longCh, sizeCh);
        sp.longCh -= uint96(fromLong);
        if (fromLong < sizeCh) {
            requireWriteActive();
            f.collateralUsdc = addShort($, s, seriesId, seller, sp, sizeCh - fromLong);
        }
        OptionsBook.store($, s, seriesId, seller, sp, wasEmpty);
        IOptionsMarketTypes.Position memory bp = $.positions[seriesId][buyer];
        wasEmpty = OptionsBook.isEmpty(bp);
        bp.longCh = (bp.longCh + sizeCh).toUint96();
        OptionsBook.store($, s, seriesId, buyer, bp, wasEmpty);
    }

    /// @notice Emits OfferFilled with the fill's amounts and the offer's post-state.
    function emitFill(IOptionsMarketTypes.Offer calldata offer, uint256 sizeCh, Fill memory f) internal {
        emit IOptionsMarketEvents.OfferFilled(
            f.hash,
            offer.maker,
            msg.sender,
            offer.seriesId,
            offer.isBuy,
            sizeCh,
            offer.premiumWad,
            f.paidUsdc,
            f.receivedUsdc,
            f.paidUsdc - f.receivedUsdc,
            f.filledAfterCh
        );
    }

    /// @notice Adds `sizeCh` of shorts (and their collateral, rounded up) to `p` and the series totals.
    function addShort(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s,
        uint256 seriesId,
        address writer,
        IOptionsMarketTypes.Position memory p,
        uint256 sizeCh
    ) internal returns (uint256 collateralUsdc) {
        // @dev an uncapped call has no finite collateral: it is written margined only (writeMargined)
        if (s.capWad == type(uint128).max) revert IOptionsMarketErrors.OptionsUncappedCall(seriesId);
        // @dev collateral rounds up: the writer always posts at least size × cap (MKT-07)
        collateralUsdc = SpotMath.quoteUsdcUp(sizeCh, s.capWad);
        p.shortCh = (p.shortCh + sizeCh).toUint96();
        p.collateralUsdc = (p.collateralUsdc + collateralUsdc).toUint64();
        uint256 oi = s.openInterestCh + sizeCh;
        uint256 posted = s.postedUsdc + collateralUsdc;
        s.openInterestCh = oi.toUint96();
        s.postedUsdc = posted.toUint128();
        $.reservedUsdc += collateralUsdc.toUint128();
        emit IOptionsMarketEvents.OptionsWritten(seriesId, writer, sizeCh, collateralUsdc, oi, posted);
    }

    /// @notice Checks an offer and books `sizeCh` against it; the signature is checked on the first fill only (the
    ///         stored fill proves it was checked).
    function consume(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Offer calldata offer,
        bytes32 hash,
        bytes calldata signature,
        uint256 sizeCh
    ) internal returns (uint256 filledAfter) {
        OptionsMarketBase.OfferState storage st = $.offers[hash];
        if (st.cancelled) revert IOptionsMarketErrors.OptionsOfferCancelled(hash);
        if (block.timestamp > offer.expiry)
            revert IOptionsMarketErrors.OptionsOfferExpired(hash, offer.expiry, block.timestamp);
        uint256 minimum = $.minNonce[offer.maker];
        if (offer.nonce < minimum)
            revert IOptionsMarketErrors.OptionsNonceBelowMinimum(offer.maker, offer.nonce, minimum);
        uint256 filled = st.filledCh;
        if (filled == 0 && !SignatureChecker.isValidSignatureNowCalldata(offer.maker, hash, signature)) {
            revert IOptionsMarketErrors.OptionsInvalidSignature(offer.maker, hash);
        }
        filledAfter = filled + sizeCh;
        if (filledAfter > offer.sizeCh) {
            revert IOptionsMarketErrors.OptionsOverfill(
                hash,
                sizeCh,
                offer.sizeCh > filled ? offer.sizeCh - filled : 0
            );
        }
        st.filledCh = filledAfter.toUint128();
    }
}
