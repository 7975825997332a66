// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IOptionsMarketTypes} from "../../interfaces/markets/IOptionsMarketTypes.sol";
import {IOptionsMarketErrors} from "../../interfaces/markets/IOptionsMarketErrors.sol";
import {IOptionsMarketEvents} from "../../interfaces/markets/IOptionsMarketEvents.sol";
import {OptionsMarketBase} from "../../core/markets/OptionsMarketBase.sol";
import {SpotMath} from "../SpotMath.sol";
import {OptionsBook} from "./OptionsBook.sol";

/// @title OptionsMargin
/// @notice Margined writing (issue 20 item 3, CLR-04; docs/options.md "Margined writing"): shorts written without
///         collateral, valued at intrinsic value and margined by the ClearingHouse's portfolio margin through the
///         market's IMarketScenarioRisk / IMarketAccountRisk hooks, liquidated by the same engine (the liquidation
///         hook prepays their value into the reserve) and settled at expiry from the writer's ClearingHouse
///         collateral (a deficit goes down the waterfall). Cost per account O(its margined series) ≤
///         MAX_MARGINED_SERIES = 8.
/// @dev External library functions run by delegatecall in the market's storage (linked at deployment); reentrancy
///      and pause checks stay on the market's entry points.
library OptionsMargin {
    using SafeCast for uint256;

    uint128 internal constant UNCAPPED = type(uint128).max;
    uint256 internal constant MAX_MARGINED_SERIES = 8;

    /// @notice See IOptionsMarket.writeMargined (pause and reentrancy: checked by the market).
    function writeMargined(
        OptionsMarketBase.OptionsMarketStorage storage $,
        uint256 seriesId,
        uint256 sizeCh
    ) external {
        IOptionsMarketTypes.Series storage s = OptionsBook.tradable($, seriesId);
        OptionsBook.checkSize(sizeCh);
        if (s.onFutures) revert IOptionsMarketErrors.OptionsMarginedCashOnly(seriesId);
        IOptionsMarketTypes.MarginedShort storage m = $.margined[seriesId][msg.sender];
        uint256 shortAfter = m.shortCh + sizeCh;
        if (m.shortCh == 0) {
            uint256[] storage list = $.marginedSeries[msg.sender];
            if (list.length >= MAX_MARGINED_SERIES) {
                revert IOptionsMarketErrors.OptionsTooManyMarginedSeries(msg.sender, MAX_MARGINED_SERIES);
            }
            list.push(seriesId);
        }
        m.shortCh = shortAfter.toUint96();
        IOptionsMarketTypes.MarginedSeries storage st = $.marginedState[seriesId];
        uint256 seriesMargined = st.openCh + sizeCh;
        st.openCh = seriesMargined.toUint96();
        uint256 oi = s.openInterestCh + sizeCh;
        s.openInterestCh = oi.toUint96();
        IOptionsMarketTypes.Position memory p = $.positions[seriesId][msg.sender];
        bool wasEmpty = OptionsBook.isEmpty(p);
        p.longCh = (p.longCh + sizeCh).toUint96();
        OptionsBook.store($, s, seriesId, msg.sender, p, wasEmpty);
        emit IOptionsMarketEvents.MarginedWritten(seriesId, msg.sender, sizeCh, shortAfter, seriesMargined, oi);
        // The ClearingHouse holds the account for this market and checks its initial margin (portfolio margin, with
        // the new short in it) behind the gates of a risk-increasing trade.
        $.clearingHouse.checkRiskIncrease(msg.sender);
    }

    /// @notice See IMarketScenarioRisk.scenarioPnl: −Σ margined shorts × (payoff at the scenario − payoff now);
    ///         liabilities at the scenario round up, at the current price down (against the account).
    function scenarioPnl(
        OptionsMarketBase.OptionsMarketStorage storage $,
        address account,
        uint256 priceWad,
        uint256[] calldata scenarioPricesWad
    ) external view returns (int256[] memory pnlUsdc) {
        pnlUsdc = new int256[](scenarioPricesWad.length);
        uint256[] storage list = $.marginedSeries[account];
        uint256 len = list.length;
        for (uint256 j; j < len; ++j) {
            uint256 seriesId = list[j];
            IOptionsMarketTypes.Series storage s = $.series[seriesId];
            // @dev a fixed settlement price no longer moves with the index: no scenario PnL
            if (s.priceFixedAt != 0) continue;
            _addSeries(pnlUsdc, s, $.margined[seriesId][account].shortCh, priceWad, scenarioPricesWad);
        }
    }

    /// @dev Adds one series' short PnL per scenario to `pnl`.
    function _addSeries(
        int256[] memory pnl,
        IOptionsMarketTypes.Series storage s,
        uint256 size,
        uint256 priceWad,
        uint256[] calldata prices
    ) private view {
        int256 base = SpotMath.quoteUsdcDown(size, OptionsBook.payoff(s, priceWad)).toInt256();
        for (uint256 k; k < prices.length; ++k) {
            pnl[k] += base - SpotMath.quoteUsdcUp(size, OptionsBook.payoff(s, prices[k])).toInt256();
        }
    }

    /// @notice See IMarketAccountRisk.accountRisk: the margined shorts' value (a liability, rounded up) in equity; no
    ///         extra requirement (the scenario grid margins them).
    function accountRisk(
        OptionsMarketBase.OptionsMarketStorage storage $,
        address account,
        uint256 priceWad
    ) external view returns (int256 equityAdjustmentUsdc) {
        return -liability($, account, priceWad).toInt256();
    }

    /// @notice What `account`'s margined shorts are worth to their holders at `priceWad` (the fixed settlement
    ///         price's payoff once fixed), rounded up.
    function liability(
        OptionsMarketBase.OptionsMarketStorage storage $,
        address account,
        uint256 priceWad
    ) public view returns (uint256 valueUsdc) {
        uint256[] storage list = $.marginedSeries[account];
        uint256 len = list.length;
        for (uint256 j; j < len; ++j) {
            uint256 seriesId = list[j];
            valueUsdc += SpotMath.quoteUsdcUp($.margined[seriesId][account].shortCh, _payoffNow($, seriesId, priceWad));
        }
    }

    /// @notice See ILiquidatableMarket.onPositionLiquidated: for a held account (Δ = 0) every margined short is
    ///         prepaid at its value at `priceWad` (the account pays it into the reserve; any deficit goes down the
    ///         ClearingHouse's waterfall) and stops counting in its margin; the account is released. Never reverts
    ///         for the ClearingHouse (LIQ-05): at most MAX_MARGINED_SERIES iterations, no external call but the
    ///         ClearingHouse's `settle` and `releaseAccount`.
    function onLiquidated(
        OptionsMarketBase.OptionsMarketStorage storage $,
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad
    ) external {
        IClearingHouse ch = $.clearingHouse;
        if (msg.sender != address(ch)) revert IOptionsMarketErrors.OptionsOnlyClearingHouse(msg.sender);
        if (sizeDeltaCh != 0) return;
        uint256[] storage list = $.marginedSeries[account];
        uint256 total;
        for (uint256 j = list.length; j > 0; --j) {
            uint256 seriesId = list[j - 1];
            IOptionsMarketTypes.MarginedShort memory m = $.margined[seriesId][account];
            uint256 value = SpotMath.quoteUsdcUp(m.shortCh, _payoffNow($, seriesId, priceWad));
            uint256 prepaidCh = m.prepaidCh + m.shortCh;
            uint256 prepaidUsdc = m.prepaidUsdc + value;
            $.margined[seriesId][account] = IOptionsMarketTypes.MarginedShort(
                0,
                uint96(prepaidCh),
                prepaidUsdc.toUint64()
            );
            total += value;
            emit IOptionsMarketEvents.MarginedLiquidated(seriesId, account, m.shortCh, value, prepaidCh, prepaidUsdc);
            list.pop();
        }
        $.reservedUsdc += total.toUint128();
        if (total != 0) ch.settle(account, -total.toInt256());
        ch.releaseAccount(account);
    }

    /// @notice Books the holders' claim on a final series' margined shorts into the reserve, once (the margined
    ///         writers owe it; each pays its share when it settles), so holders can be paid in any order.
    function book(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s,
        uint256 seriesId,
        uint256 payoffWad
    ) internal {
        IOptionsMarketTypes.MarginedSeries storage st = $.marginedState[seriesId];
        if (st.booked || st.openCh == 0) return;
        uint256 due = SpotMath.quoteUsdcUp(st.openCh, payoffWad);
        st.booked = true;
        st.dueLeftUsdc = due.toUint128();
        $.reservedUsdc += due.toUint128();
        s.postedUsdc += due.toUint128();
        emit IOptionsMarketEvents.MarginedBooked(seriesId, st.openCh, due);
    }

    /// @notice Settles `account`'s margined and prepaid shorts of a final series (booked first): it owes
    ///         ceil(shorts × payoff); what it prepaid counts; the rest moves from (or back to) its ClearingHouse
    ///         collateral — a debit below zero is a deficit the liquidation engine takes down the waterfall.
    function settle(
        OptionsMarketBase.OptionsMarketStorage storage $,
        IOptionsMarketTypes.Series storage s,
        uint256 seriesId,
        address account,
        uint256 payoffWad
    ) internal {
        IOptionsMarketTypes.MarginedShort memory m = $.margined[seriesId][account];
        uint256 size = uint256(m.shortCh) + m.prepaidCh;
        if (size == 0) return;
        delete $.margined[seriesId][account];
        if (m.shortCh != 0) _unlist($, account, seriesId);
        IOptionsMarketTypes.MarginedSeries storage st = $.marginedState[seriesId];
        uint256 owed = SpotMath.quoteUsdcUp(size, payoffWad);
        uint256 fromBooked = Math.min(owed, st.dueLeftUsdc);
        st.dueLeftUsdc -= uint128(fromBooked);
        uint256 open = st.openCh - size;
        st.openCh = uint96(open);
        s.openInterestCh -= uint96(size);
        // the prepaid reserve is consumed; the booked claim stays reserved for the holders; rounding above it is fee
        $.reservedUsdc -= m.prepaidUsdc;
        uint256 extra = owed - fromBooked;
        if (extra != 0) {
            uint256 feesAfter = $.feesUsdc + extra;
            $.feesUsdc = feesAfter.toUint128();
            emit IOptionsMarketEvents.FeesAccrued(extra, feesAfter);
        }
        int256 cash = int256(uint256(m.prepaidUsdc)) - owed.toInt256();
        emit IOptionsMarketEvents.MarginedSettled(seriesId, account, size, owed, m.prepaidUsdc, cash, open);
        IClearingHouse ch = $.clearingHouse;
        if (cash != 0) ch.settle(account, cash);
        if (m.shortCh != 0 && $.marginedSeries[account].length == 0) ch.releaseAccount(account);
    }

    /// @notice Closes `sizeCh` of `account`'s margined shorts against its longs (the longs are taken by the caller).
    function close(
        OptionsMarketBase.OptionsMarketStorage storage $,
        uint256 seriesId,
        address account,
        uint256 sizeCh
    ) internal {
        IOptionsMarketTypes.MarginedShort storage m = $.margined[seriesId][account];
        uint256 after_ = m.shortCh - sizeCh;
        m.shortCh = uint96(after_);
        IOptionsMarketTypes.MarginedSeries storage st = $.marginedState[seriesId];
        uint256 open = st.openCh - sizeCh;
        st.openCh = uint96(open);
        emit IOptionsMarketEvents.MarginedClosed(seriesId, account, sizeCh, after_, open);
        if (after_ == 0) {
            _unlist($, account, seriesId);
            if ($.marginedSeries[account].length == 0) $.clearingHouse.releaseAccount(account);
        }
    }

    /// @dev The payoff per CH a margined short is valued at: the fixed settlement price's once fixed, else `priceWad`.
    function _payoffNow(
        OptionsMarketBase.OptionsMarketStorage storage $,
        uint256 seriesId,
        uint256 priceWad
    ) private view returns (uint256) {
        IOptionsMarketTypes.Series storage s = $.series[seriesId];
        return OptionsBook.payoff(s, s.priceFixedAt != 0 ? s.settlementPriceWad : priceWad);
    }

    /// @dev Removes `seriesId` from the account's margined list (≤ MAX_MARGINED_SERIES: swap with the last, pop).
    function _unlist(OptionsMarketBase.OptionsMarketStorage storage $, address account, uint256 seriesId) private {
        uint256[] storage list = $.marginedSeries[account];
        uint256 len = list.length;
        for (uint256 j; j < len; ++j) {
            if (list[j] == seriesId) {
                list[j] = list[len - 1];
                list.pop();
                return;
            }
        }
    }
}
