// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {OptionsMarketBase} from "./OptionsMarketBase.sol";
import {SpotMath} from "../../libraries/SpotMath.sol";
import {OptionsExercise} from "../../libraries/options/OptionsExercise.sol";
import {OptionsMargin} from "../../libraries/options/OptionsMargin.sol";
import {OptionsBook} from "../../libraries/options/OptionsBook.sol";

/// @title OptionsSettlement
/// @notice The options market's expiry, settlement, exercise and delisting logic, and its parameter setter. Stateless: it runs
///         only by delegatecall from OptionsMarket, in the market's storage (calling it directly finds no series and
///         no authority). Functions have the same signatures as IOptionsMarket's (see there for NatSpec).
contract OptionsSettlement is OptionsMarketBase {
    using SafeCast for uint256;

    /// @notice See IOptionsMarket.fixSettlementPrice.
    function fixSettlementPrice(uint256 seriesId) external nonReentrant returns (uint256 priceWad) {
        return _fix(_s(), seriesId);
    }

    /// @notice See IOptionsMarket.correctSettlementPrice.
    function correctSettlementPrice(uint256 seriesId, uint256 priceWad) external restricted {
        OptionsMarketStorage storage $ = _s();
        Series storage s = _series($, seriesId);
        // @dev the window fixed with the price: raising disputeWindowSec later cannot reprice accounts already settled
        uint256 endsAt = OptionsBook.disputeEnd($, s);
        if (endsAt == 0 || block.timestamp >= endsAt) revert OptionsNotDisputable(seriesId, endsAt, block.timestamp);
        if (priceWad == 0 || priceWad > type(uint128).max) revert OptionsInvalidPrice(priceWad);
        // @dev bounded around the oracle's price (not the last correction), so repeated corrections cannot walk it;
        //      the first correction records it (a fix without correction writes no extra slot)
        uint256 ref = s.oraclePriceWad;
        if (ref == 0) {
            ref = s.settlementPriceWad;
            s.oraclePriceWad = uint128(ref);
        }
        uint256 diff = priceWad > ref ? priceWad - ref : ref - priceWad;
        uint256 maxBps = $.params.maxCorrectionBps;
        if (diff * SpotMath.BPS > ref * maxBps) revert OptionsCorrectionTooLarge(seriesId, ref, priceWad, maxBps);
        uint256 old = s.settlementPriceWad;
        s.settlementPriceWad = uint128(priceWad);
        emit SettlementPriceCorrected(seriesId, old, priceWad, _payoff(s, priceWad), msg.sender, endsAt);
    }

    /// @notice See IOptionsMarket.writeMargined.
    function writeMargined(uint256 seriesId, uint256 sizeCh) external nonReentrant whenActive(FEATURE_WRITE) {
        OptionsMargin.writeMargined(_s(), seriesId, sizeCh);
    }

    /// @notice See ILiquidatableMarket.onPositionLiquidated (the ClearingHouse only; never reverts for it).
    function onPositionLiquidated(address account, int256 sizeDeltaCh, uint256 priceWad, int256) external {
        OptionsMargin.onLiquidated(_s(), account, sizeDeltaCh, priceWad);
    }

    /// @notice See IOptionsMarket.exercise.
    function exercise(uint256 seriesId, address account) external nonReentrant returns (uint256) {
        OptionsMarketStorage storage $ = _s();
        Series storage s = _series($, seriesId);
        if (s.settled) revert OptionsAlreadyDone(seriesId, Work.Settle);
        Ctx memory c = Ctx(seriesId, _finalPayoff($, s, seriesId), 0, 0, 0);
        OptionsMargin.book($, s, seriesId, c.payoffWad);
        if (s.onFutures && c.payoffWad != 0) OptionsExercise.exerciseFutures($, s, c, account, MAX_PAIRS_PER_CALL);
        else _settleAccount($, s, c, account);
        emit SettlementProgressed(seriesId, s.cursor, s.writerCursor, s.accountCount, false);
        return c.payoutUsdc;
    }

    /// @notice See IOptionsMarket.settleSeries.
    function settleSeries(uint256 seriesId, uint256 maxSteps) external nonReentrant returns (uint256, bool) {
        return _settleSeries(_s(), seriesId, maxSteps);
    }

    /// @notice See IOptionsMarket.delistSeries.
    function delistSeries(uint256 seriesId) external nonReentrant {
        OptionsMarketStorage storage $ = _s();
        Series storage s = _series($, seriesId);
        uint256 delistableAt = s.lister == address(0) || s.priceFixedAt != 0 ? 0 : s.listedAt + LISTING_GRACE_SEC;
        if (delistableAt == 0 || s.accountCount != 0 || block.timestamp < delistableAt) {
            revert OptionsNotDelistable(seriesId, s.accountCount, delistableAt);
        }
        uint256 bond = s.listingBondUsdc;
        uint256 live = --$.liveSeries;
        _removePending($, s);
        delete $.seriesByKey[
            keccak256(abi.encode(SeriesParams(s.kind, s.onFutures, s.futuresSeriesId, s.expiry, s.strikeWad, s.capWad)))
        ];
        delete $.series[seriesId];
        uint256 bounty = Math.min($.params.bountyUsdc, bond);
        $.reservedUsdc -= uint128(bond);
        _accrueFees($, bond - bounty);
        emit SeriesDelisted(seriesId, msg.sender, bond, bounty, live);
        if (bounty != 0) $.clearingHouse.settle(msg.sender, bounty.toInt256());
    }

    /// @notice See IOptionsMarket.withdrawFees.
    function withdrawFees() external nonReentrant returns (uint256 amountUsdc) {
        OptionsMarketStorage storage $ = _s();
        amountUsdc = $.feesUsdc;
        if (amountUsdc == 0) return 0;
        $.feesUsdc = 0;
        address to = $.feeRecipient;
        emit FeesWithdrawn(to, amountUsdc);
        $.clearingHouse.withdrawMarketPool(amountUsdc, to);
    }

    /// @notice See IKeeperUpkeep.performUpkeep.
    function performUpkeep(bytes calldata performData) external nonReentrant {
        if (performData.length < 36) revert OptionsInvalidUpkeep();
        bytes4 selector = bytes4(performData[:4]);
        OptionsMarketStorage storage $ = _s();
        if (selector == OptionsSettlement.fixSettlementPrice.selector) {
            _fix($, abi.decode(performData[4:], (uint256)));
        } else if (selector == OptionsSettlement.settleSeries.selector) {
            (uint256 id, uint256 steps) = abi.decode(performData[4:], (uint256, uint256));
            _settleSeries($, id, Math.min(steps, CASH_PAGE));
        } else {
            revert OptionsInvalidUpkeep();
        }
    }

    /// @notice See IOptionsMarket.setParams.
    function setParams(Params calldata p) external restricted {
        OptionsExercise.setParams(_s(), p);
    }

    function _fix(OptionsMarketStorage storage $, uint256 seriesId) private returns (uint256 priceWad) {
        Series storage s = _series($, seriesId);
        if (s.priceFixedAt != 0) revert OptionsAlreadyDone(seriesId, Work.FixPrice);
        if (block.timestamp < s.expiry) revert OptionsSeriesNotExpired(seriesId, s.expiry, block.timestamp);
        priceWad = $.oracle.indexPrice();
        s.settlementPriceWad = priceWad.toUint128();
        s.priceFixedAt = uint64(block.timestamp);
        // @dev the window's end is fixed with the price (the series' first word, written here anyway): a later
        //      setParams cannot reopen or shorten it (MKT-07)
        uint256 endsAt = block.timestamp + $.params.disputeWindowSec;
        s.disputeEndsAt = uint48(endsAt);
        uint256 live = --$.liveSeries;
        bool refund = _releaseBond($, s, seriesId);
        // @dev the bounty comes out of fee income, so a series with no fees yet pays nothing
        uint256 fees = $.feesUsdc;
        uint256 bounty = Math.min($.params.bountyUsdc, fees);
        if (bounty != 0) $.feesUsdc = uint128(fees - bounty);
        emit SettlementPriceFixed(seriesId, priceWad, _payoff(s, priceWad), msg.sender, endsAt, bounty, live);
        if (bounty != 0) $.clearingHouse.settle(msg.sender, bounty.toInt256());
        if (refund) $.clearingHouse.settle(s.lister, uint256(s.listingBondUsdc).toInt256());
    }

    /// @dev The listing bond leaves the reserve: back to the lister when the series produced at least the bond in
    ///      fees (returns true; the caller pays it after its other effects), else fee income (it can fund the fix
    ///      bounty of an unused listing). The bond field is kept for the refund; `reservedUsdc` no longer holds it.
    function _releaseBond(
        OptionsMarketStorage storage $,
        Series storage s,
        uint256 seriesId
    ) private returns (bool refund) {
        uint256 bond = s.listingBondUsdc;
        if (bond == 0) return false;
        $.reservedUsdc -= uint128(bond);
        refund = s.feesUsdc >= bond;
        if (!refund) {
            uint256 feesAfter = $.feesUsdc + bond;
            $.feesUsdc = uint128(feesAfter);
            emit FeesAccrued(bond, feesAfter);
        }
        emit ListingBondReleased(seriesId, s.lister, bond, refund, s.feesUsdc);
    }

    function _settleSeries(
        OptionsMarketStorage storage $,
        uint256 seriesId,
        uint256 maxSteps
    ) private returns (uint256 steps, bool done) {
        Series storage s = _series($, seriesId);
        if (s.settled) revert OptionsAlreadyDone(seriesId, Work.Settle);
        Ctx memory c = Ctx(seriesId, _finalPayoff($, s, seriesId), $.params.bountyUsdc, 0, 0);
        OptionsMargin.book($, s, seriesId, c.payoffWad);
        uint256 cursor;
        (cursor, steps) = _settlePage($, s, c, maxSteps);
        s.cursor = uint32(cursor);
        uint256 n = s.accountCount;
        done = cursor == n;
        if (done) {
            s.settled = true;
            _removePending($, s);
            // @dev rounding dust (obligations rounded up − payouts rounded down) left in the series becomes fee income
            uint256 dust = s.postedUsdc - s.paidUsdc - s.releasedUsdc;
            if (dust != 0) {
                $.reservedUsdc -= uint128(dust);
                uint256 feesAfter = $.feesUsdc + dust;
                $.feesUsdc = uint128(feesAfter);
                emit FeesAccrued(dust, feesAfter);
            }
        }
        emit SettlementProgressed(seriesId, cursor, s.writerCursor, n, done);
        uint256 bounty = c.bountyUsdc;
        if (bounty != 0) {
            emit KeeperPaid(msg.sender, seriesId, bounty);
            $.clearingHouse.settle(msg.sender, bounty.toInt256());
        }
    }

    /// @dev Settles accounts from the cursor on, at most `maxSteps` steps (an account, or a holder–writer pair).
    function _settlePage(
        OptionsMarketStorage storage $,
        Series storage s,
        Ctx memory c,
        uint256 maxSteps
    ) private returns (uint256 cursor, uint256 steps) {
        bool pairing = s.onFutures && c.payoffWad != 0;
        cursor = s.cursor;
        uint256 n = s.accountCount;
        while (cursor < n && steps < maxSteps) {
            address account = $.accounts[c.seriesId][cursor];
            if (pairing) {
                (uint256 used, bool finished) = OptionsExercise.exerciseFutures($, s, c, account, maxSteps - steps);
                steps += used == 0 ? 1 : used;
                if (!finished) break;
            } else {
                _settleAccount($, s, c, account);
                ++steps;
            }
            ++cursor;
        }
    }

    /// @dev Cash settlement of one account: longs paid payoff × size (rounded down), shorts released collateral −
    ///      payoff × size (the obligation rounds up). A bounty of at most `c.bountyCap` comes out of the credit.
    function _settleAccount(OptionsMarketStorage storage $, Series storage s, Ctx memory c, address account) private {
        uint256 seriesId = c.seriesId;
        // @dev a series without margined shorts skips the account's margined record (warm slot after the first)
        if ($.marginedState[seriesId].openCh != 0) OptionsMargin.settle($, s, seriesId, account, c.payoffWad);
        Position memory p = $.positions[seriesId][account];
        if (_isEmpty(p)) return;
        uint256 payoutUsdc = SpotMath.quoteUsdcDown(p.longCh, c.payoffWad);
        // @dev owed ≤ collateral: shortCh · payoff ≤ shortCh · cap ≤ collateral · 1e30 and collateral is whole
        uint256 releasedUsdc = p.collateralUsdc - SpotMath.quoteUsdcUp(p.shortCh, c.payoffWad);
        delete $.positions[seriesId][account];
        s.openInterestCh -= p.shortCh;
        s.paidUsdc += uint128(payoutUsdc);
        s.releasedUsdc += uint128(releasedUsdc);
        uint256 credit = payoutUsdc + releasedUsdc;
        $.reservedUsdc -= uint128(credit);
        uint256 bounty = Math.min(c.bountyCap, credit);
        c.bountyUsdc += bounty;
        c.payoutUsdc += payoutUsdc;
        emit PositionUpdated(seriesId, account, 0, 0, 0);
        _emitSettled(s, c, account, p, payoutUsdc, releasedUsdc, bounty);
        if (credit > bounty) $.clearingHouse.settle(account, (credit - bounty).toInt256());
    }

    function _emitSettled(
        Series storage s,
        Ctx memory c,
        address account,
        Position memory p,
        uint256 payoutUsdc,
        uint256 releasedUsdc,
        uint256 bounty
    ) private {
        emit PositionSettled(
            c.seriesId,
            account,
            p.longCh,
            p.shortCh,
            payoutUsdc,
            releasedUsdc,
            bounty,
            s.paidUsdc,
            s.releasedUsdc
        );
    }
}
