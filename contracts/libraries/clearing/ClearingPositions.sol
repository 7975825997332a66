// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IClearingHouseErrors} from "../../interfaces/clearing/IClearingHouseErrors.sol";
import {IClearingHouseEvents} from "../../interfaces/clearing/IClearingHouseEvents.sol";
import {ClearingMath} from "../ClearingMath.sol";
import {MarketSet, MarketSetLib} from "../../types/MarketSet.sol";
import {ClearingHouseStorage, ClearingStorage} from "./ClearingStorage.sol";
import {ClearingMargin} from "./ClearingMargin.sol";
import {FixedPointMath} from "../math/FixedPointMath.sol";

/// @title ClearingPositions
/// @notice Positions, the account's market set, open interest and market cash flows, on the ClearingHouse storage.
library ClearingPositions {
    using SafeCast for int256;
    using SafeCast for uint256;

    /// @notice The registered market `market` (reverts ClearingMarketNotRegistered otherwise).
    function registered(
        ClearingHouseStorage.Layout storage $,
        address market
    ) internal view returns (ClearingHouseStorage.Market memory m) {
        m = $.markets[market];
        if (!m.registered) revert IClearingHouseErrors.ClearingMarketNotRegistered(market);
    }

    /// @notice A market trade (`tr.market` is the caller), with an optional settle first: one account and one pool
    ///         write, the fee added to the accrued fees. `gate` runs before any write when the trade adds risk.
    function applyMarketTrade(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingHouseStorage.Account memory acc,
        ClearingMargin.Traded memory tr,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        uint256 feeUsdc,
        int256 settleUsdc,
        function(address) view gate
    ) internal returns (int256 pnl, bool increasing) {
        ClearingHouseStorage.Market memory m = registered($, tr.market);
        tr.id = m.id;
        tr.flags = m.flags;
        tr.risk = m.risk;
        if (settleUsdc != 0) settle($, account, acc, m, tr.market, settleUsdc);
        (pnl, increasing) = movePosition($, account, acc, tr, sizeDeltaCh, tradePriceWad, gate);
        int256 collateral = int256(acc.collateralUsdc) + pnl - feeUsdc.toInt256();
        ClearingStorage.bookUncovered($, acc.collateralUsdc, collateral);
        acc.collateralUsdc = collateral.toInt88();
        if (m.flags & ClearingStorage.FLAG_LOSS_ABSORBER != 0) acc.lastMarketId = m.id;
        $.accounts[account] = acc;
        if (pnl != 0 || settleUsdc != 0) $.markets[tr.market].poolUsdc = (int256(m.poolUsdc) - pnl).toInt128();
        // @dev uint96: 7.9e22 USDC between two flushes; beyond it a fee-paying trade reverts (SafeCast).
        if (feeUsdc > 0) $.feesUsdc = (uint256($.feesUsdc) + feeUsdc).toUint96();
        emit IClearingHouseEvents.PositionModified(
            account,
            tr.market,
            sizeDeltaCh,
            tradePriceWad,
            tr.position.sizeCh,
            tr.position.openNotionalUsdc,
            pnl,
            feeUsdc,
            collateral
        );
    }

    /// @notice Applies a trade to the position (one slot write), the account's market set (in memory) and the
    ///         market's open interest; `tr.position` is the position after it. `gate(market)` runs first when the
    ///         trade adds risk (a larger or flipped position).
    function movePosition(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingHouseStorage.Account memory acc,
        ClearingMargin.Traded memory tr,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        function(address) view gate
    ) internal returns (int256 pnl, bool increasing) {
        int256 oldSize;
        (oldSize, pnl, increasing) = _trade($, account, tr, sizeDeltaCh, tradePriceWad, gate);
        int256 newSize = tr.position.sizeCh;
        _updateMembership(acc, account, tr.id, oldSize, newSize, tr.flags & ClearingStorage.FLAG_HOLDS_ACCOUNTS != 0);
    }

    /// @dev The position step of movePosition: writes `tr.position` and returns the size before.
    function _trade(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingMargin.Traded memory tr,
        int256 sizeDeltaCh,
        uint256 tradePriceWad,
        function(address) view gate
    ) private returns (int256 oldSize, int256 pnl, bool increasing) {
        IClearingHouse.Position storage p = $.positions[account][tr.market];
        oldSize = p.sizeCh;
        int256 newSize;
        int256 newOpen;
        (newSize, newOpen, pnl) = ClearingMath.applyTrade(oldSize, p.openNotionalUsdc, sizeDeltaCh, tradePriceWad);
        increasing =
            FixedPointMath.abs(newSize) > FixedPointMath.abs(oldSize) ||
            (oldSize != 0 && newSize != 0 && (oldSize > 0) != (newSize > 0));
        if (increasing) gate(tr.market);
        // A closed position keeps no residual basis (it was realised in full).
        if (newSize == 0) newOpen = 0;
        tr.position = IClearingHouse.Position(newSize.toInt128(), newOpen.toInt128());
        $.positions[account][tr.market] = tr.position;
    }

    /// @notice A market's cash flow between the account and its pool, in memory (the caller writes both back), with
    ///         the collateral's change booked in the uncovered total (ClearingStorage.bookUncovered).
    function settle(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingHouseStorage.Account memory acc,
        ClearingHouseStorage.Market memory m,
        address market,
        int256 amountUsdc
    ) internal {
        int256 collateral = int256(acc.collateralUsdc) + amountUsdc;
        ClearingStorage.bookUncovered($, acc.collateralUsdc, collateral);
        acc.collateralUsdc = collateral.toInt88();
        if (m.flags & ClearingStorage.FLAG_LOSS_ABSORBER != 0) acc.lastMarketId = m.id;
        int256 pool = int256(m.poolUsdc) - amountUsdc;
        m.poolUsdc = pool.toInt128();
        emit IClearingHouseEvents.AccountSettled(account, market, amountUsdc, collateral, pool);
    }

    /// @notice IClearingHouse.checkRiskIncrease's hold: market `id` joins the account's set (held) unless it is in it;
    ///         `acc` (memory) and the stored set are updated.
    function hold(
        ClearingHouseStorage.Layout storage $,
        address account,
        ClearingHouseStorage.Account memory acc,
        uint256 id
    ) internal {
        MarketSet set = acc.markets;
        if (set.placeOf(id) != MarketSetLib.NOT_IN_SET) return;
        if (set.count() >= MarketSetLib.MAX)
            revert IClearingHouseErrors.ClearingTooManyMarkets(account, MarketSetLib.MAX);
        acc.markets = set.add(id, true);
        $.accounts[account].markets = acc.markets;
    }

    /// @notice IClearingHouse.releaseAccount for market `id` (msg.sender): idempotent and never reverting (a market may
    ///         call it from its liquidation hook, where the ClearingHouse re-reads the account's set afterwards); a
    ///         position still open keeps the market in the set until it closes.
    function release(ClearingHouseStorage.Layout storage $, address account, uint256 id) internal {
        ClearingHouseStorage.Account storage a = $.accounts[account];
        MarketSet set = a.markets;
        uint256 place = set.placeOf(id);
        if (place == MarketSetLib.NOT_IN_SET) return;
        set = set.unhold(place);
        if ($.positions[account][msg.sender].sizeCh == 0) set = set.removeAt(place);
        a.markets = set;
        emit IClearingHouseEvents.AccountReleased(account, msg.sender, set.count());
    }

    /// @dev Adds or removes `id` in the account's market set (in memory). A market that holds its accounts
    ///      (`holds`) marks the place held when it adds it; a held place stays at zero size.
    function _updateMembership(
        ClearingHouseStorage.Account memory acc,
        address account,
        uint256 id,
        int256 oldSize,
        int256 newSize,
        bool holds
    ) private pure {
        MarketSet set = acc.markets;
        if (oldSize == 0 && newSize != 0) {
            if (holds && set.placeOf(id) != MarketSetLib.NOT_IN_SET) return; // held at zero size: already in the set
            if (set.count() >= MarketSetLib.MAX) {
                revert IClearingHouseErrors.ClearingTooManyMarkets(account, MarketSetLib.MAX);
            }
            acc.markets = set.add(id, holds);
        } else if (oldSize != 0 && newSize == 0) {
            uint256 place = set.placeOf(id);
            if (!set.heldAt(place)) acc.markets = set.removeAt(place);
        }
    }
}
