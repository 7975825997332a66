// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FuturesBase} from "./FuturesBase.sol";
import {IFuturesTypes} from "../../../interfaces/IFuturesTypes.sol";
import {FuturesMath} from "../../../libraries/FuturesMath.sol";

/// @title FuturesRisk
/// @notice What a FuturesMarket account holds beyond its one net ClearingHouse position, for the ClearingHouse's
///         market-account-risk hook (IMarketAccountRisk, docs/futures.md "Margin beyond the net position"): the
///         delivery payment an electing long owes from election to settlement. An external library on the market's
///         storage (linked, not delegate-called through a selector forwarder).
library FuturesRisk {
    /// @notice IMarketAccountRisk.accountRisk for the market whose storage is `$`. Bounded by
    ///         MAX_SERIES_PER_ACCOUNT; never reverts for an account that holds nothing.
    /// @param $ The FuturesMarket storage.
    /// @param account The account.
    /// @param priceWad The index the ClearingHouse values the account at.
    /// @return equityAdjustmentUsdc Negative: delivery payments held (rounded up).
    /// @return extraInitialUsdc Extra initial margin.
    /// @return extraMaintenanceUsdc Extra maintenance margin.
    function accountRisk(
        FuturesBase.FuturesMarketStorage storage $,
        address account,
        uint256 priceWad
    ) external view returns (int256 equityAdjustmentUsdc, uint256 extraInitialUsdc, uint256 extraMaintenanceUsdc) {
        uint256[] storage ids = $.accountSeries[account];
        for (uint256 i; i < ids.length; ++i) {
            IFuturesTypes.Series storage s = $.series[ids[i]];
            IFuturesTypes.Position storage p = $.positions[ids[i]][account];
            uint256 elected = p.electedCh;
            // The long's delivery payment, held from election to settlement: the whole election until the series
            // is finalised, then its deliverable share; at the settlement price once fixed, else at the index.
            if (elected != 0) {
                uint256 markWad = s.finalAt != 0 ? s.settlementPriceWad : priceWad;
                equityAdjustmentUsdc -= int256(FuturesMath.usdcUp(_paymentCh(s, elected), markWad));
            }
        }
    }

    /// @dev CH an electing long pays for: its election until finalisation, then ⌈elected × deliverable / Σ elected⌉.
    function _paymentCh(IFuturesTypes.Series storage s, uint256 elected) private view returns (uint256) {
        if (s.deliveryDeadline == 0) return elected;
        uint256 total = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        uint256 deliverable = total < assignable ? total : assignable;
        return Math.mulDiv(elected, deliverable, total, Math.Rounding.Ceil);
    }
}
