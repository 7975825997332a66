// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../interfaces/markets/IFuturesEvents.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IDeliveryOrders} from "../../interfaces/compute/IDeliveryOrders.sol";
import {FuturesMath} from "../FuturesMath.sol";
import {FuturesLedger} from "./FuturesLedger.sol";

/// @title FuturesSettlement
/// @notice Expiry and settlement of FuturesMarket series (docs/futures.md): finalising the settlement price
///         (FuturesFixing fixes it) after the dispute window, and settling positions (cash at the settlement price, CH delivery from
///         assigned shorts' escrow to electing longs, penalties for undelivered CH, flattening when a spread leg
///         cannot close). An external library linked into the FuturesDelivery module and run by delegatecall on the
///         FuturesMarket proxy's storage; emits the market's events (IFuturesTypes).
library FuturesSettlement {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

    /// @notice Finalises a series whose price was fixed and whose dispute window passed, opening delivery.
    function finalize(FuturesBase.FuturesMarketStorage storage $, uint256 seriesId) external {
        IFuturesTypes.SeriesState storage s = FuturesLedger.existing($, seriesId);
        uint64 finalAt = s.finalAt;
        if (finalAt == 0) revert IFuturesErrors.FuturesPriceNotFixed(seriesId);
        if (s.deliveryDeadline != 0) revert IFuturesErrors.FuturesAlreadyDone(seriesId, address(0));
        if (block.timestamp < finalAt) revert IFuturesErrors.FuturesDisputeWindowOpen(seriesId, finalAt);
        uint64 deadline = uint64(block.timestamp) + $.params.deliveryWindowSec;
        s.deliveryDeadline = uint256(deadline).toUint40();
        uint256 elected = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        uint256 deliverable = elected < assignable ? elected : assignable;
        // @dev the longs' settlement count-down starts here: their settlements then update a written slot
        if (elected != 0) s.unclaimedElectedCh = uint128(elected);
        uint256 fraction = assignable == 0 ? 0 : (deliverable * FuturesLedger.WAD) / assignable;
        uint256 bounty = $.params.keeperBountyUsdc;
        emit IFuturesEvents.SettlementPriceFinalised(
            seriesId,
            s.settlementPriceWad,
            elected,
            assignable,
            deliverable,
            fraction,
            deadline,
            msg.sender,
            bounty
        );
        FuturesLedger.creditBounty($, msg.sender, bounty);
        FuturesLedger.advanceFirstOpen($);
    }

    /// @dev Settles the settleable accounts of the page, then moves the keeper cursor past settled entries.
    function settleBatch(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address[] memory accounts
    ) external returns (uint256 settled) {
        if (accounts.length > FuturesLedger.MAX_SETTLE_BATCH) revert IFuturesErrors.FuturesInvalidParams();
        IFuturesTypes.SeriesState storage s = FuturesLedger.existing($, seriesId);
        if (s.deliveryDeadline == 0) {
            if (s.finalAt == 0) revert IFuturesErrors.FuturesPriceNotFixed(seriesId);
            revert IFuturesErrors.FuturesNotFinal(seriesId);
        }
        for (uint256 i; i < accounts.length; ++i) {
            if (!FuturesLedger.settleable(s, $.positions[seriesId][accounts[i]])) continue;
            settle($, seriesId, accounts[i]);
            ++settled;
        }
        if (settled == 0) revert IFuturesErrors.FuturesAlreadyDone(seriesId, address(0));
        FuturesLedger.advanceCursor($, s, seriesId);
    }

    struct SettleVars {
        uint256 price;
        int256 size;
        int256 cash;
        int256 realised;
        uint256 bounty;
        uint256 chOut;
        uint256 assigned;
        uint256 delivered;
        uint256 paid;
        uint256 slashed;
        uint256 elected;
        uint256 comp;
        uint256 cashSettled;
        uint256 penalty;
        uint256 credited;
        uint256 slashDps;
        bool cashBooked;
    }

    /// @notice Settles one account's position in a finalised series: cash at the settlement price, or delivery of
    ///         CH against the payment held since election (MKT-08).
    function settle(FuturesBase.FuturesMarketStorage storage $, uint256 seriesId, address account) public {
        IFuturesTypes.SeriesState storage s = FuturesLedger.existing($, seriesId);
        if (s.deliveryDeadline == 0) {
            if (s.finalAt == 0) revert IFuturesErrors.FuturesPriceNotFixed(seriesId);
            revert IFuturesErrors.FuturesNotFinal(seriesId);
        }
        IFuturesTypes.Position storage p = $.positions[seriesId][account];
        if (!p.open) revert IFuturesErrors.FuturesAlreadyDone(seriesId, account);
        SettleVars memory v;
        v.price = s.settlementPriceWad;
        v.size = p.sizeCh;
        uint256 shortBase = FuturesLedger.shortBase(p);
        if (shortBase != 0) {
            _settleShortDelivery($, s, seriesId, account, p, v);
        } else if (p.electedCh != 0) {
            _settleLongDelivery($, s, seriesId, p, v);
        } else {
            // escrow of a short leg a liquidation closed in full before expiry (no delivery base): returned
            v.chOut = p.escrowCh;
        }
        if (v.size > 0) s.longOiCh -= uint256(v.size).toUint120();
        else if (v.size < 0) s.shortOiCh -= uint256(-v.size).toUint120();
        uint256 open = s.openPositions - 1;
        s.openPositions = uint32(open);
        FuturesLedger.syncLeg($, account, v.size, 0, p.electedCh, 0);
        p.sizeCh = 0;
        p.entryPriceWad = 0;
        p.electedCh = 0;
        p.escrowCh = 0;
        p.deliveryBaseCh = 0;
        p.proofDeadline = 0;
        p.baseTaken = false;
        // @dev the series never trades again, so no leg re-opens to be listed twice: the first slot empties (refund)
        (p.open, p.listed) = (false, false);
        FuturesLedger.removeAccountSeries($, account, seriesId);
        if (msg.sender != account) {
            v.bounty = $.params.keeperBountyUsdc;
            v.cash -= int256(v.bounty);
        }
        v.cash += _takeLiquidationCash($, account);
        IClearingHouse house = $.clearingHouse;
        if (v.size != 0) _closeAtSettlement($, house, seriesId, account, v);
        emit IFuturesEvents.PositionSettled(seriesId, account, v.size, v.price, v.realised, msg.sender, v.bounty, open);
        if (v.elected != 0) _collectPayment($, house, seriesId, account, v);
        if (!v.cashBooked && v.cash != 0) house.settle(account, v.cash);
        if (v.bounty != 0) FuturesLedger.creditBounty($, msg.sender, v.bounty);
        if (v.assigned != 0) {
            int256 collateral = house.collateralOf(account);
            emit IFuturesEvents.DeliverySettled(
                seriesId,
                account,
                v.assigned,
                v.delivered,
                v.paid,
                v.slashed,
                collateral
            );
            if (v.penalty != 0) _emitMadeWhole($, seriesId, account, v, collateral);
        }
        if (v.slashDps != 0 && v.elected != 0) _paySlash($, seriesId, account, v.slashDps);
        if (v.chOut != 0) _handOver($, seriesId, account, v);
        if (open == 0) FuturesLedger.advanceFirstOpen($);
    }

    /// @dev CH out of the market. An electing long's delivered CH stays in the market as its delivery claim (the
    ///      settled record's `escrowCh`) when a DeliveryOrders contract is set: DeliveryOrders opens the order and
    ///      pulls the CH with `takeDelivery` when the order is first used (issue 19 item 6, docs/futures.md "Lazy
    ///      hand-over"). Escrow returns (and every hand-over without DeliveryOrders) go to the account.
    function _handOver(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address account,
        SettleVars memory v
    ) private {
        if (v.elected == 0 || $.deliveryOrders == address(0)) {
            $.ch.safeTransfer(account, v.chOut);
            return;
        }
        $.positions[seriesId][account].escrowCh = uint128(v.chOut);
    }

    /// @dev Settlement-price corrections of legs a liquidation closed at the index, paid with the account's next
    ///      settlement (issue 17 item 23).
    function _takeLiquidationCash(
        FuturesBase.FuturesMarketStorage storage $,
        address account
    ) private returns (int256 owed) {
        owed = FuturesLedger.takeLiquidationCash($, account);
        if (owed == 0) return 0;
        $.totalLiquidationCashUsdc -= owed;
    }

    /// @dev Short: the assigned part of the escrow is delivered (paid at the price), the undelivered assigned part
    ///      is charged the penalty (price × penalty) after the deadline — its position was cash-settled at the price
    ///      like everyone's, so the penalty is all it owes — and the rest of the escrow is returned.
    function _settleShortDelivery(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        address account,
        IFuturesTypes.Position storage p,
        SettleVars memory v
    ) private {
        uint256 assigned = FuturesLedger.assignedOf(s, FuturesLedger.shortBase(p));
        uint256 escrow = p.escrowCh;
        uint256 delivered = escrow < assigned ? escrow : assigned;
        if (delivered < assigned && block.timestamp < s.deliveryDeadline) {
            revert IFuturesErrors.FuturesDeliveryPending(seriesId, account, assigned, escrow, s.deliveryDeadline);
        }
        s.shortPositions -= 1;
        v.chOut = escrow - delivered;
        if (assigned == 0) return;
        // @dev The payment for delivered CH rounds down, the penalty on undelivered CH rounds up (ACC-05).
        uint256 paid = FuturesMath.usdcDown(delivered, v.price);
        uint256 penalty = FuturesMath.usdcUp((assigned - delivered) * $.params.penaltyBps, v.price);
        penalty = (penalty + FuturesLedger.BPS - 1) / FuturesLedger.BPS;
        s.deliveredCh += uint128(delivered);
        // issue 19 item 1: a failing short that is a provider loses DPS stake, reputation and risk score, and its
        // slash makes the longs whole first; its margin is charged only the rest (docs/futures.md).
        address orders = delivered < assigned ? $.deliveryOrders : address(0);
        if (orders != address(0)) _slashFirst($, orders, seriesId, account, assigned - delivered, penalty, v);
        uint256 slashed = penalty - v.credited;
        s.slashedUsdc += slashed.toUint128();
        v.penalty = penalty;
        v.cash = int256(paid) - int256(slashed);
        v.assigned = assigned;
        v.delivered = delivered;
        v.paid = paid;
        v.slashed = slashed;
    }

    /// @dev The failing short's slash, the first leg of making the longs whole: DPS worth the penalty at the
    ///      registry's DPS price (finder fee to a settler other than the short), held for the series' longs; its
    ///      value (≤ penalty) is what the short's margin is not charged. Never blocks settlement (MKT-04).
    function _slashFirst(
        FuturesBase.FuturesMarketStorage storage $,
        address orders,
        uint256 seriesId,
        address account,
        uint256 undelivered,
        uint256 penalty,
        SettleVars memory v
    ) private {
        address finder = msg.sender == account ? address(0) : msg.sender;
        try IDeliveryOrders(orders).slashFailedShort(seriesId, account, undelivered, penalty, finder) returns (
            uint256 dps,
            uint256 credited
        ) {
            if (dps != 0) {
                FuturesBase.SlashCompensation storage c = $.slashCompensation[seriesId];
                if (c.token == address(0)) c.token = IDeliveryOrders(orders).dpsToken();
                c.dps += dps.toUint128();
                v.slashDps = dps;
            }
            v.credited = credited < penalty ? credited : penalty;
        } catch {}
    }

    /// @dev The order of making whole, as an event: slash, margin, then what the margin lacks (left to the
    ///      liquidation waterfall: guarantor capital, then insurance). The penalty is the last charge counted.
    function _emitMadeWhole(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address account,
        SettleVars memory v,
        int256 collateral
    ) private {
        uint256 charged = v.penalty - v.credited;
        uint256 uncovered = collateral < 0 ? Math.min(uint256(-collateral), charged) : 0;
        FuturesBase.SlashCompensation storage c = $.slashCompensation[seriesId];
        emit IFuturesEvents.DeliveryShortMadeWhole(
            seriesId,
            account,
            v.penalty,
            v.slashDps,
            v.credited,
            charged - uncovered,
            uncovered,
            c.dps - c.paidDps
        );
    }

    /// @dev Pays an electing long its share of the series' slashed DPS (computed in `_settleLongDelivery`).
    function _paySlash(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address account,
        uint256 amount
    ) private {
        FuturesBase.SlashCompensation storage c = $.slashCompensation[seriesId];
        emit IFuturesEvents.DeliverySlashReceived(seriesId, account, amount, c.dps - c.paidDps);
        IERC20(c.token).safeTransfer(account, amount);
    }

    /// @dev Electing long: its pro-rata share of the delivered CH (the last one the remainder, so CH delivered = CH
    ///      paid out, MKT-05), the price for its deliverable share, and its share of the slashes. Collected (and the
    ///      CH handed over) after its position is closed: `_collectPayment`.
    function _settleLongDelivery(
        FuturesBase.FuturesMarketStorage storage $,
        IFuturesTypes.SeriesState storage s,
        uint256 seriesId,
        IFuturesTypes.Position storage p,
        SettleVars memory v
    ) private {
        uint256 totalElected = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        uint256 deliverable = totalElected < assignable ? totalElected : assignable;
        if (deliverable != 0 && s.shortPositions != 0)
            revert IFuturesErrors.FuturesShortsPending(seriesId, s.shortPositions);
        uint256 e = p.electedCh;
        uint256 unclaimed = s.unclaimedElectedCh;
        bool last = unclaimed == e;
        uint256 received;
        uint256 comp;
        if (last) {
            received = s.deliveredCh - s.receivedCh;
            comp = s.slashedUsdc - s.compensatedUsdc;
        } else {
            received = (e * s.deliveredCh) / totalElected;
            comp = (e * s.slashedUsdc) / totalElected;
        }
        s.unclaimedElectedCh = uint128(unclaimed - e);
        s.receivedCh += uint128(received);
        if (comp != 0) s.compensatedUsdc += uint128(comp);
        // @dev The slashed DPS, shared like the USDC compensation (the last long takes the remainder).
        FuturesBase.SlashCompensation storage c = $.slashCompensation[seriesId];
        uint256 pool = c.dps;
        if (pool != 0) {
            uint256 share = last ? pool - c.paidDps : (e * pool) / totalElected;
            c.paidDps += uint128(share);
            v.slashDps = share;
        }
        // @dev The long pays the price (rounded up) only for the CH it receives: for undelivered CH it keeps the
        //      price and receives the failing shorts' penalty (docs/futures.md).
        uint256 shareCh = Math.mulDiv(e, deliverable, totalElected, Math.Rounding.Ceil);
        v.elected = e;
        v.chOut = received;
        v.comp = comp;
        v.paid = FuturesMath.usdcUp(received, v.price);
        v.cashSettled = e - shareCh;
        v.cash += int256(comp) - int256(v.paid);
    }

    /// @dev The payment held since the election, collected from the long's collateral after its position closed at
    ///      the settlement price. CH is handed over only against payment collected (MKT-08): when the collateral
    ///      cannot cover the payment (a loss elsewhere after the last margin check), the long pays what it has, gets
    ///      CH in proportion (rounded down) and the rest of its CH goes to the vault whose pool paid the shorts.
    function _collectPayment(
        FuturesBase.FuturesMarketStorage storage $,
        IClearingHouse house,
        uint256 seriesId,
        address account,
        SettleVars memory v
    ) private {
        uint256 received = v.chOut;
        uint256 paid = v.paid;
        // @dev the cash flow (payment included) was booked with the close when `cashBooked`: the collateral is the
        //      one after it; otherwise it is added here
        int256 after_ = house.collateralOf(account) + (v.cashBooked ? int256(0) : v.cash);
        if (after_ < 0 && paid != 0) {
            uint256 uncollected = uint256(-after_) < paid ? uint256(-after_) : paid;
            uint256 collected = paid - uncollected;
            uint256 handed = Math.mulDiv(received, collected, paid);
            uint256 forfeited = received - handed;
            if (v.cashBooked) house.settle(account, int256(uncollected));
            else v.cash += int256(uncollected);
            v.chOut = handed;
            (received, paid) = (handed, collected);
            address vault = $.vault;
            emit IFuturesEvents.DeliveryForfeited(seriesId, account, forfeited, uncollected, vault);
            if (forfeited != 0 && vault != address(0)) $.ch.safeTransfer(vault, forfeited);
        }
        emit IFuturesEvents.DeliveryReceived(seriesId, account, v.elected, received, paid, v.comp, v.cashSettled);
    }

    /// @dev Closes the leg at the settlement price in the ClearingHouse. A close that does not add to the account's
    ///      net position books the settlement's cash flow in the same call (`modifyPositionAndSettle`, one call
    ///      fewer: `v.cashBooked`). When removing this leg would ADD to the account's net position (a calendar
    ///      spread) and the ClearingHouse refuses (margin, guarantor, pause), the account's other legs are closed at
    ///      the index too (the vault takes them over) and this leg's price difference is settled in cash, so
    ///      settlement never gets stuck (MKT-04); the cash flow is then booked separately.
    function _closeAtSettlement(
        FuturesBase.FuturesMarketStorage storage $,
        IClearingHouse house,
        uint256 seriesId,
        address account,
        SettleVars memory v
    ) private {
        int256 size = v.size;
        uint256 price = v.price;
        int256 net = FuturesLedger.netSize($, account) + size; // this leg was already removed from the list
        if (!FuturesLedger.isIncrease(net, net - size)) {
            if (v.cash == 0) v.realised = house.modifyPosition(account, -size, price, 0);
            else (v.realised, ) = house.modifyPositionAndSettle(account, -size, price, 0, v.cash);
            v.cashBooked = true;
            FuturesLedger.mirror($, -size, price, v.realised);
            return;
        }
        try house.modifyPosition(account, -size, price, 0) returns (int256 r) {
            FuturesLedger.mirror($, -size, price, r);
            v.realised = r;
        } catch {
            uint256 index = $.oracle.indexPrice();
            _flattenOthers($, account, index);
            int256 realised = house.modifyPosition(account, -net, index, 0);
            FuturesLedger.mirror($, -net, index, realised);
            v.realised = realised;
            int256 adjust = FuturesMath.valueDown(size, price) - FuturesMath.valueUp(size, index);
            if (adjust != 0) house.settle(account, adjust);
            // the settled leg's post-state: no size, no election, the series' open interest after its settlement
            IFuturesTypes.SeriesState storage s = $.series[seriesId];
            emit IFuturesEvents.PositionReduced(
                seriesId,
                account,
                -size,
                price,
                0,
                0,
                s.longOiCh,
                s.shortOiCh,
                IFuturesTypes.ReduceReason.Flatten
            );
        }
    }

    function _flattenOthers(FuturesBase.FuturesMarketStorage storage $, address account, uint256 index) private {
        uint256[] memory ids = FuturesLedger.heldSeries($, account);
        for (uint256 i; i < ids.length; ++i) {
            IFuturesTypes.Position storage q = $.positions[ids[i]][account];
            int256 sz = q.sizeCh;
            if (sz == 0) continue;
            IFuturesTypes.SeriesState storage t = $.series[ids[i]];
            FuturesLedger.reduceLeg($, t, ids[i], account, q, -sz, index, IFuturesTypes.ReduceReason.Flatten);
            FuturesLedger.closeRecordIfEmpty($, t, ids[i], account, q);
        }
    }
}
