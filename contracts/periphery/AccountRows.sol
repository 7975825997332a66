// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IAccountLensTypes} from "./IAccountLensTypes.sol";
import {IFuturesMarket} from "../interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../interfaces/markets/IFuturesTypes.sol";
import {IGuarantorPool} from "../interfaces/clearing/IGuarantorPool.sol";
import {IOptionsMarket, IOptionsMarketTypes} from "../interfaces/markets/IOptionsMarket.sol";
import {ClearingMath} from "../libraries/ClearingMath.sol";
import {FixedPointMath} from "../libraries/math/FixedPointMath.sol";

/// @title AccountRows
/// @notice The AccountLens's per-market rows that read one market each: futures series, options series and the
///         account's guarantor (read-only; internal, inlined into the lens).
library AccountRows {
    /// @dev One futures series row of `account` (marked at the settlement price, else the index).
    function futuresRow(
        address futures,
        address account,
        uint256 seriesId,
        uint256 indexWad
    ) internal view returns (IAccountLensTypes.PositionView memory r) {
        IFuturesTypes.Position memory pos = IFuturesMarket(futures).positionOf(seriesId, account);
        IFuturesTypes.Series memory s = IFuturesMarket(futures).seriesInfo(seriesId);
        r.kind = IAccountLensTypes.PositionKind.FuturesSeries;
        r.market = futures;
        r.seriesId = seriesId;
        r.sizeCh = pos.sizeCh;
        r.entryPriceWad = pos.entryPriceWad;
        r.openNotionalUsdc = ClearingMath.valueUsdcUp(pos.sizeCh, pos.entryPriceWad);
        uint256 mark = s.settlementPriceWad != 0 ? s.settlementPriceWad : indexWad;
        if (mark != 0) r.unrealisedPnlUsdc = ClearingMath.valueUsdcDown(pos.sizeCh, mark) - r.openNotionalUsdc;
        r.electedCh = pos.electedCh;
        r.escrowCh = pos.escrowCh;
        if (pos.electedCh != 0 && mark != 0) r.pendingDeliveryUsdc = ClearingMath.notionalUsdcUp(pos.electedCh, mark);
    }

    /// @dev Options series (not yet settled) in which `account` holds or wrote options: found by scanning the
    ///      market's pending series, so a wallet needs no series id.
    function optionSeriesHeld(
        address options,
        address account
    ) internal view returns (uint256[] memory ids, uint256 count) {
        if (options == address(0)) return (ids, 0);
        ids = IOptionsMarket(options).pendingSeries();
        for (uint256 i; i < ids.length; ++i) {
            IOptionsMarketTypes.Position memory pos = IOptionsMarket(options).positionOf(ids[i], account);
            if (pos.longCh != 0 || pos.shortCh != 0) ids[count++] = ids[i];
        }
    }

    /// @dev One options series row of `account` (long − short, marked at the settlement price, else the index).
    function optionRow(
        address options,
        address account,
        uint256 seriesId,
        uint256 indexWad
    ) internal view returns (IAccountLensTypes.PositionView memory r) {
        IOptionsMarket market = IOptionsMarket(options);
        IOptionsMarketTypes.Position memory pos = market.positionOf(seriesId, account);
        IOptionsMarketTypes.Series memory s = market.series(seriesId);
        r.kind = IAccountLensTypes.PositionKind.Option;
        r.market = options;
        r.seriesId = seriesId;
        r.sizeCh = int256(uint256(pos.longCh)) - int256(uint256(pos.shortCh));
        r.entryPriceWad = s.strikeWad;
        uint256 mark = s.settlementPriceWad != 0 ? s.settlementPriceWad : indexWad;
        if (mark != 0) {
            uint256 payoff = market.payoffPerCh(seriesId, mark);
            r.unrealisedPnlUsdc =
                ClearingMath.valueUsdcDown(int256(uint256(pos.longCh)), payoff) +
                ClearingMath.valueUsdcDown(-int256(uint256(pos.shortCh)), payoff);
        }
        r.electedCh = pos.longCh;
        r.escrowCh = pos.shortCh;
        r.pendingDeliveryUsdc = pos.collateralUsdc;
    }

    /// @dev The guarantor `account` has at `pool` (if any) and the room left under both limits.
    function guarantor(
        IGuarantorPool pool,
        address account
    ) internal view returns (IAccountLensTypes.GuarantorView memory g) {
        if (address(pool) == address(0)) return g;
        g.guarantor = pool.guarantorOf(account);
        (g.customerLimitUsdc, g.customerExposureUsdc) = pool.customerInfo(account);
        if (g.guarantor == address(0)) return g;
        IGuarantorPool.Guarantor memory info = pool.guarantorInfo(g.guarantor);
        (, uint256 maxLeverageWad) = pool.params();
        g.open = info.open;
        g.capitalUsdc = info.capitalUsdc;
        g.exposureUsdc = info.exposureUsdc;
        g.capacityUsdc = FixedPointMath.wadMulDown(info.capitalUsdc, maxLeverageWad);
        uint256 poolRoom = g.capacityUsdc > info.exposureUsdc ? g.capacityUsdc - info.exposureUsdc : 0;
        uint256 customerRoom =
            g.customerLimitUsdc > g.customerExposureUsdc ? g.customerLimitUsdc - g.customerExposureUsdc : 0;
        g.remainingUsdc = poolRoom < customerRoom ? poolRoom : customerRoom;
    }
}
