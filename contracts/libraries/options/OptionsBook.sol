// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IOptionsMarketTypes} from "../../interfaces/markets/IOptionsMarketTypes.sol";
import {IOptionsMarketErrors} from "../../interfaces/markets/IOptionsMarketErrors.sol";
import {IOptionsMarketEvents} from "../../interfaces/markets/IOptionsMarketEvents.sol";
import {OptionsMarketBase} from "../../core/markets/OptionsMarketBase.sol";

/// @title OptionsBook
/// @notice Position bookkeeping of the options market, shared by the market, its settlement module and its linked
///         libraries: storing a position (and listing a new account for settlement), a short's collateral
///         portion, series lookups and size checks (docs/options.md).
/// @dev Internal: runs in the caller's frame on the market's storage.
library OptionsBook {
    /// @notice Stores a position, lists the account for settlement when it just became non-empty, emits the post-state.
    function store(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s,
        uint256 seriesId,
        address account,
        IOptionsMarketTypes.Position memory p,
        bool wasEmpty
    ) internal {
        $.positions[seriesId][account] = p;
        if (wasEmpty) {
            uint256 n = s.accountCount;
            $.accounts[seriesId][n] = account;
            s.accountCount = uint32(n + 1);
        }
        emit IOptionsMarketEvents.PositionUpdated(seriesId, account, p.longCh, p.shortCh, p.collateralUsdc);
    }

    /// @notice The collateral backing `sizeCh` of `p`'s shorts: all of it for the last piece, else pro rata rounded
    ///         down, so what stays always covers the remaining shorts × cap (MKT-07).
    function portion(IOptionsMarketTypes.Position memory p, uint256 sizeCh) internal pure returns (uint256) {
        if (sizeCh == p.shortCh) return p.collateralUsdc;
        return Math.mulDiv(p.collateralUsdc, sizeCh, p.shortCh);
    }

    /// @notice True when `p` holds nothing.
    function isEmpty(IOptionsMarketTypes.Position memory p) internal pure returns (bool) {
        return p.longCh == 0 && p.shortCh == 0 && p.collateralUsdc == 0;
    }

    /// @notice Reverts unless 0 < `sizeCh` ≤ type(uint96).max.
    function checkSize(uint256 sizeCh) internal pure {
        if (sizeCh == 0 || sizeCh > type(uint96).max) revert IOptionsMarketErrors.OptionsInvalidSize(sizeCh);
    }

    /// @notice The series `seriesId`; reverts when unknown.
    function series(
        OptionsMarketBase.OptionsMarketStorage storage $,
        uint256 seriesId
    ) internal view returns (IOptionsMarketTypes.Series storage s) {
        s = $.series[seriesId];
        if (s.expiry == 0) revert IOptionsMarketErrors.OptionsUnknownSeries(seriesId);
    }

    /// @notice The series `seriesId`; reverts when unknown or at/after its expiry.
    function tradable(
        OptionsMarketBase.OptionsMarketStorage storage $,
        uint256 seriesId
    ) internal view returns (IOptionsMarketTypes.Series storage s) {
        s = series($, seriesId);
        if (block.timestamp >= s.expiry) {
            revert IOptionsMarketErrors.OptionsSeriesExpired(seriesId, s.expiry, block.timestamp);
        }
    }

    /// @notice When `s`'s dispute window ends (0 while its price is not fixed): `Series.disputeEndsAt`, recorded in the
    ///         series' first word with the price (the word the fix writes and every reader loads anyway), so a later
    ///         change of disputeWindowSec neither reopens nor shortens it (MKT-07). A series fixed before the field
    ///         existed has 0 there and keeps priceFixedAt + the current window.
    function disputeEnd(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s
    ) internal view returns (uint256) {
        uint256 fixedAt = s.priceFixedAt;
        if (fixedAt == 0) return 0;
        uint256 endsAt = s.disputeEndsAt;
        return endsAt != 0 ? endsAt : fixedAt + $.params.disputeWindowSec;
    }

    /// @notice Payoff per CH at `priceWad`: calls min(max(S − K, 0), cap), puts min(max(K − S, 0), cap) with cap = K.
    function payoff(IOptionsMarketTypes.Series storage s, uint256 priceWad) internal view returns (uint256 x) {
        uint256 k = s.strikeWad;
        if (s.kind == IOptionsMarketTypes.OptionKind.Call) x = priceWad > k ? priceWad - k : 0;
        else x = k > priceWad ? k - priceWad : 0;
        uint256 cap = s.capWad;
        if (x > cap) x = cap;
    }
}
