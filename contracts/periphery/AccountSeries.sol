// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccountLensMarketTypes} from "./IAccountLensMarketTypes.sol";
import {IFuturesMarket} from "../interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../interfaces/markets/IFuturesTypes.sol";
import {IOptionsMarket, IOptionsMarketTypes} from "../interfaces/markets/IOptionsMarket.sol";

/// @title AccountSeries
/// @notice The series rows of `AccountLens.markets`: a page of futures series and the pending options series.
///         Internal (inlined into the lens).
library AccountSeries {
    /// @dev Futures series `fromId`.. (at most `limit`), settled ones with no open position left out.
    function futuresPage(
        IFuturesMarket f,
        uint256 fromId,
        uint256 limit
    ) internal view returns (IAccountLensMarketTypes.SeriesView[] memory list) {
        (uint256 count, ) = f.seriesCount();
        if (fromId == 0) fromId = 1;
        uint256 end = fromId > count ? fromId : (count - fromId + 1 < limit ? count + 1 : fromId + limit);
        list = new IAccountLensMarketTypes.SeriesView[](end - fromId);
        uint256 n;
        for (uint256 id = fromId; id < end; ++id) {
            IFuturesTypes.Series memory s = f.seriesInfo(id);
            uint8 status =
                block.timestamp < s.expiry
                    ? 0
                    : s.settlementPriceWad == 0
                        ? 1
                        : block.timestamp < s.finalAt
                            ? 2
                            : 3;
            if (status == 3 && s.openPositions == 0) continue; // settled
            list[n++] = IAccountLensMarketTypes.SeriesView({
                seriesId: id,
                expiry: s.expiry,
                isOption: false,
                optionKind: 0,
                status: status,
                strikeWad: 0,
                capWad: 0,
                settlementPriceWad: s.settlementPriceWad,
                longOiCh: s.longOiCh,
                shortOiCh: s.shortOiCh
            });
        }
        assembly {
            mstore(list, n)
        }
    }

    /// @dev The options series not yet final (the market's pending list).
    function optionsPending(IOptionsMarket o) internal view returns (IAccountLensMarketTypes.SeriesView[] memory list) {
        uint256[] memory ids = o.pendingSeries();
        list = new IAccountLensMarketTypes.SeriesView[](ids.length);
        for (uint256 i; i < ids.length; ++i) {
            IOptionsMarketTypes.Series memory s = o.series(ids[i]);
            list[i] = IAccountLensMarketTypes.SeriesView({
                seriesId: ids[i],
                expiry: s.expiry,
                isOption: true,
                optionKind: uint8(s.kind),
                status: uint8(o.seriesStatus(ids[i])),
                strikeWad: s.strikeWad,
                capWad: s.capWad,
                settlementPriceWad: s.settlementPriceWad,
                longOiCh: s.openInterestCh,
                shortOiCh: s.openInterestCh
            });
        }
    }
}
