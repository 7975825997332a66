// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IChxModule} from "../../interfaces/base/IChxModule.sol";
import {IOptionsMarketTypes} from "../../interfaces/markets/IOptionsMarketTypes.sol";
import {IOptionsMarketErrors} from "../../interfaces/markets/IOptionsMarketErrors.sol";
import {IOptionsMarketEvents} from "../../interfaces/markets/IOptionsMarketEvents.sol";
import {OptionsMarketBase} from "../../core/markets/OptionsMarketBase.sol";
import {OptionsBook} from "./OptionsBook.sol";
import {OptionsMargin} from "./OptionsMargin.sol";
import {OptionsOffers} from "./OptionsOffers.sol";
import {OptionsFunds} from "./OptionsFunds.sol";

/// @title OptionsPositions
/// @notice Closing a long+short pair before expiry, transferring longs and filling signed offers (docs/options.md). External library
///         functions, run by delegatecall in the market's storage (linked at deployment; docs/upgrades.md):
///         reentrancy and pause checks stay on the market's entry points.
library OptionsPositions {
    using SafeCast for uint256;

    /// @notice See IOptionsMarket.close.
    function close(
        OptionsMarketBase.OptionsMarketStorage storage $,
        uint256 seriesId,
        uint256 sizeCh
    ) external returns (uint256 releasedUsdc) {
        IOptionsMarketTypes.Series storage s = OptionsBook.tradable($, seriesId);
        OptionsBook.checkSize(sizeCh);
        IOptionsMarketTypes.Position memory p = $.positions[seriesId][msg.sender];
        if (sizeCh > p.longCh) {
            revert IOptionsMarketErrors.OptionsInsufficientLong(seriesId, msg.sender, sizeCh, p.longCh);
        }
        // collateralised shorts first (their collateral comes back), then margined ones (their margin frees up)
        uint256 covered = sizeCh;
        if (sizeCh > p.shortCh) {
            uint256 margined = $.margined[seriesId][msg.sender].shortCh;
            if (sizeCh - p.shortCh > margined) {
                revert IOptionsMarketErrors.OptionsInsufficientShort(
                    seriesId,
                    msg.sender,
                    sizeCh,
                    p.shortCh + margined
                );
            }
            covered = p.shortCh;
            OptionsMargin.close($, seriesId, msg.sender, sizeCh - covered);
        }
        releasedUsdc = covered == 0 ? 0 : OptionsBook.portion(p, covered);
        p.longCh -= uint96(sizeCh);
        p.shortCh -= uint96(covered);
        p.collateralUsdc -= uint64(releasedUsdc);
        uint256 oi = s.openInterestCh - sizeCh;
        s.openInterestCh = uint96(oi);
        uint256 released = s.releasedUsdc + releasedUsdc;
        s.releasedUsdc = uint128(released);
        $.reservedUsdc -= uint128(releasedUsdc);
        emit IOptionsMarketEvents.OptionsClosed(seriesId, msg.sender, sizeCh, releasedUsdc, oi, released);
        OptionsBook.store($, s, seriesId, msg.sender, p, false);
        if (releasedUsdc != 0) $.clearingHouse.settle(msg.sender, releasedUsdc.toInt256());
    }

    /// @notice See IOptionsMarket.transferLong.
    function transferLong(
        OptionsMarketBase.OptionsMarketStorage storage $,
        uint256 seriesId,
        address to,
        uint256 sizeCh
    ) external {
        if (to == address(0)) revert IChxModule.ChxZeroAddress();
        if (to == msg.sender) revert IOptionsMarketErrors.OptionsSelfTrade(to);
        IOptionsMarketTypes.Series storage s = OptionsBook.tradable($, seriesId);
        OptionsBook.checkSize(sizeCh);
        IOptionsMarketTypes.Position memory from = $.positions[seriesId][msg.sender];
        if (sizeCh > from.longCh) {
            revert IOptionsMarketErrors.OptionsInsufficientLong(seriesId, msg.sender, sizeCh, from.longCh);
        }
        from.longCh -= uint96(sizeCh);
        OptionsBook.store($, s, seriesId, msg.sender, from, false);
        IOptionsMarketTypes.Position memory dest = $.positions[seriesId][to];
        bool wasEmpty = OptionsBook.isEmpty(dest);
        dest.longCh = (dest.longCh + sizeCh).toUint96();
        OptionsBook.store($, s, seriesId, to, dest, wasEmpty);
        emit IOptionsMarketEvents.LongTransferred(seriesId, msg.sender, to, sizeCh);
    }

    /// @notice See IOptionsMarket.fillOffer after the market's checks (self-fill, named taker, the EIP-712 `hash` of
    ///         its domain): books the fill, moves the premium legs and fees, delivers (longs first, then writing).
    /// @return filledAfterCh The offer's filled size after.
    /// @return wrote Whether the seller wrote (the market then requires "options.write" to be active).
    function fillOffer(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Offer calldata offer,
        bytes calldata signature,
        uint256 sizeCh,
        bytes32 hash
    ) external returns (uint256 filledAfterCh, bool wrote) {
        OptionsOffers.Fill memory f;
        f.hash = hash;
        OptionsBook.checkSize(sizeCh);
        f.filledAfterCh = OptionsOffers.consume($, offer, hash, signature, sizeCh);
        IOptionsMarketTypes.Series storage s = OptionsBook.tradable($, offer.seriesId);
        OptionsOffers.quoteFill($, offer, sizeCh, f);
        OptionsOffers.deliver($, s, offer.seriesId, f.seller, f.buyer, sizeCh, f, _noCheck);
        uint256 fee = f.paidUsdc - f.receivedUsdc;
        if (fee != 0) {
            uint256 feesAfter = $.feesUsdc + fee;
            $.feesUsdc = feesAfter.toUint128();
            emit IOptionsMarketEvents.FeesAccrued(fee, feesAfter);
        }
        // @dev counted only while a listing bond waits for them (saturating: only compared with the bond)
        uint256 bond = s.listingBondUsdc;
        if (bond != 0 && s.feesUsdc < bond) {
            uint256 seriesFees = s.feesUsdc + fee;
            s.feesUsdc = seriesFees > type(uint64).max ? type(uint64).max : uint64(seriesFees);
        }
        OptionsOffers.emitFill(offer, sizeCh, f);
        OptionsFunds.move($, f.buyer, -f.paidUsdc.toInt256());
        OptionsFunds.move($, f.seller, f.receivedUsdc.toInt256() - f.collateralUsdc.toInt256());
        return (f.filledAfterCh, f.collateralUsdc != 0);
    }

    /// @dev The write-pause check of a fill runs in the market after the fill (see `fillOffer`).
    function _noCheck() private view {}
}
