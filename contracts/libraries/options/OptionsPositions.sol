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

/// @title OptionsPositions
/// @notice Closing a long+short pair before expiry and transferring longs (docs/options.md). External library
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
}
