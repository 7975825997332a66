// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {FuturesBase} from "./FuturesBase.sol";
import {IClearingHouse} from "../../../interfaces/IClearingHouse.sol";
import {IGuarantorPool} from "../../../interfaces/IGuarantorPool.sol";
import {IVaultMarket} from "../../../interfaces/IVaultMarket.sol";
import {FuturesMath} from "../../../libraries/FuturesMath.sol";
import {IFuturesMarket} from "../../../interfaces/IFuturesMarket.sol";
import {FuturesOrders} from "./FuturesOrders.sol";

/// @title FuturesDelivery
/// @notice The delivery, expiry, settlement and liquidation-mapping half of the FuturesMarket, delegate-called by
///         it on the proxy's storage (split for the 24,576-byte limit). Every function here is documented in
///         IFuturesMarket; called directly (not through the proxy) it sees empty storage and does nothing useful.
/// @dev Not a proxy and never initialised; its constructor (ChxUpgradeable) disables initializers. Its `restricted`
///      and `nonReentrant` checks run in the proxy's context (AccessManager target = the FuturesMarket proxy).
contract FuturesDelivery is FuturesBase {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;
    using SafeCast for int256;

    // ───────────────────────────── vault

    /// @notice See IVaultMarket.
    function fundFromVault(uint256 amountUsdc) external nonReentrant {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        address vault = $.vault;
        if (msg.sender != vault || vault == address(0)) revert IVaultMarket.VaultMarketOnlyVault(msg.sender);
        if (amountUsdc == 0) revert FuturesZeroAmount();
        emit VaultFlow(vault, int256(amountUsdc));
        $.usdc.safeTransferFrom(vault, address(this), amountUsdc);
        $.usdc.forceApprove(address($.clearingHouse), amountUsdc);
        $.clearingHouse.fundMarketPool(amountUsdc);
    }

    /// @notice See IVaultMarket.
    function returnToVault(uint256 amountUsdc) external nonReentrant {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        address vault = $.vault;
        if (msg.sender != vault || vault == address(0)) revert IVaultMarket.VaultMarketOnlyVault(msg.sender);
        if (amountUsdc == 0) revert FuturesZeroAmount();
        uint256 free = _withdrawableUsdc($);
        if (amountUsdc > free) revert FuturesVaultWithdrawTooLarge(amountUsdc, free);
        emit VaultFlow(vault, -int256(amountUsdc));
        $.clearingHouse.withdrawMarketPool(amountUsdc, vault);
    }

    // ───────────────────────────── delivery ─────────────────────────────

    /// @notice See IFuturesMarket.
    function electDelivery(uint256 seriesId, uint256 electedCh) external nonReentrant {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        Series storage s = _trading($, seriesId);
        uint64 cutoff = _cutoff($, s.expiry);
        if (block.timestamp >= cutoff) revert FuturesElectionClosed(seriesId, cutoff);
        Position storage p = $.positions[seriesId][msg.sender];
        int256 size = p.sizeCh;
        uint256 longSize = size > 0 ? uint256(size) : 0;
        if (electedCh > longSize) revert FuturesElectionTooLarge(seriesId, msg.sender, electedCh, longSize);
        uint256 old = p.electedCh;
        s.electedCh = (uint256(s.electedCh) + electedCh - old).toUint128();
        p.electedCh = uint128(electedCh);
        if (electedCh > old) {
            _requireActive(FEATURE_TRADE);
            // Raising an election commits the account to a payment: a risk-increasing action, so it reads the gated
            // price (sequencer grace, spot deviation, risk pause: ORC-01). The payment is held in the account's
            // margin from now to settlement (MKT-08): the ClearingHouse's account-risk hook (FuturesRisk) takes
            // elected × price off its equity in every margin check, so here equity net of it ≥ initial margin.
            uint256 priceWad = $.oracle.riskPrice();
            IClearingHouse.MarginState memory m = $.clearingHouse.marginStateAt(msg.sender, priceWad);
            uint256 required = m.initialMarginUsdc;
            if (m.equityUsdc < required.toInt256()) revert FuturesElectionUnfunded(msg.sender, required, m.equityUsdc);
        }
        emit DeliveryElected(seriesId, msg.sender, electedCh, s.electedCh);
    }

    /// @notice See IFuturesMarket.
    function deliver(uint256 seriesId, uint256 chAmount) external nonReentrant {
        if (chAmount == 0) revert FuturesZeroAmount();
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        Series storage s = _existing($, seriesId);
        Position storage p = $.positions[seriesId][msg.sender];
        uint256 base = _shortBase(p);
        if (base == 0 || !p.open) revert FuturesNotShort(seriesId, msg.sender);
        uint64 deadline = s.deliveryDeadline;
        if (deadline != 0 && block.timestamp >= deadline) revert FuturesEscrowLocked(seriesId, msg.sender);
        uint256 escrow = p.escrowCh + chAmount;
        if (escrow > base) revert FuturesEscrowOutOfRange(seriesId, msg.sender, escrow, base);
        p.escrowCh = uint128(escrow);
        emit DeliveryEscrowChanged(seriesId, msg.sender, int256(chAmount), escrow);
        $.ch.safeTransferFrom(msg.sender, address(this), chAmount);
    }

    /// @notice See IFuturesMarket.
    function withdrawEscrow(uint256 seriesId, uint256 chAmount) external nonReentrant {
        if (chAmount == 0) revert FuturesZeroAmount();
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        Series storage s = _existing($, seriesId);
        if (block.timestamp >= s.expiry) revert FuturesEscrowLocked(seriesId, msg.sender);
        Position storage p = $.positions[seriesId][msg.sender];
        uint256 escrow = p.escrowCh;
        if (chAmount > escrow) revert FuturesEscrowOutOfRange(seriesId, msg.sender, chAmount, escrow);
        escrow -= chAmount;
        uint256 size = p.sizeCh < 0 ? uint256(-int256(p.sizeCh)) : 0;
        if (p.proofDeadline != 0 && escrow < size) revert FuturesEscrowOutOfRange(seriesId, msg.sender, escrow, size);
        p.escrowCh = uint128(escrow);
        emit DeliveryEscrowChanged(seriesId, msg.sender, -int256(chAmount), escrow);
        // Escrow backs the delivery bond of an assignable short (FuturesRisk): taking it back adds risk, so the
        // account must still cover its initial margin with the bond it now owes, at the gated price (ORC-01).
        if (s.electedCh != 0) {
            IClearingHouse.MarginState memory m = $.clearingHouse.marginStateAt(msg.sender, $.oracle.riskPrice());
            if (m.equityUsdc < m.initialMarginUsdc.toInt256()) {
                revert FuturesEscrowNeeded(seriesId, msg.sender, m.initialMarginUsdc, m.equityUsdc);
            }
        }
        _closeRecordIfEmpty($, s, seriesId, msg.sender, p);
        $.ch.safeTransfer(msg.sender, chAmount);
    }

    /// @notice See IFuturesMarket.
    function demandDeliveryProof(uint256 seriesId, address account) external {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        _trading($, seriesId);
        (, , , address pool, , ) = $.clearingHouse.modules();
        address guarantor = IGuarantorPool(pool).guarantorOf(account);
        if (msg.sender != guarantor) revert FuturesNotGuarantor(account, msg.sender, guarantor);
        Position storage p = $.positions[seriesId][account];
        if (p.sizeCh >= 0) revert FuturesNotShort(seriesId, account);
        uint64 deadline = uint64(block.timestamp) + $.params.proofWindowSec;
        p.proofDeadline = deadline;
        emit DeliveryProofDemanded(seriesId, account, guarantor, uint256(-int256(p.sizeCh)), deadline);
    }

    /// @notice See IFuturesMarket.
    function closeUnproven(uint256 seriesId, address account) external nonReentrant returns (uint256 closedCh) {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        Series storage s = _trading($, seriesId);
        Position storage p = $.positions[seriesId][account];
        uint64 deadline = p.proofDeadline;
        if (deadline == 0 || block.timestamp < deadline) revert FuturesDemandNotDue(seriesId, account, deadline);
        int256 size = p.sizeCh;
        uint256 escrow = p.escrowCh;
        if (size >= 0 || uint256(-size) <= escrow) revert FuturesAlreadyDone(seriesId, account);
        closedCh = uint256(-size) - escrow;
        uint256 index = $.oracle.indexPrice();
        p.proofDeadline = 0;
        int256 delta = int256(closedCh);
        _reduceLeg(s, seriesId, account, p, delta, index, ReduceReason.UnprovenShort);
        _closeRecordIfEmpty($, s, seriesId, account, p);
        int256 realised = $.clearingHouse.modifyPosition(account, delta, index, 0);
        _mirror($, delta, index, realised);
    }

    // ───────────────────────────── expiry and settlement ─────────────────────────────

    /// @notice See IFuturesMarket.
    function fixSettlementPrice(uint256 seriesId) external nonReentrant returns (uint256) {
        return _fixPrice(_getFuturesMarketStorage(), seriesId);
    }

    function _fixPrice(FuturesMarketStorage storage $, uint256 seriesId) private returns (uint256 priceWad) {
        Series storage s = _existing($, seriesId);
        if (block.timestamp < s.expiry) revert FuturesSeriesNotExpired(seriesId, s.expiry);
        if (s.finalAt != 0) revert FuturesAlreadyDone(seriesId, address(0));
        priceWad = $.oracle.indexPrice();
        uint64 finalAt = uint64(block.timestamp) + $.params.disputeWindowSec;
        s.settlementPriceWad = priceWad.toUint128();
        s.finalAt = finalAt;
        uint256 assignable = uint256(s.shortOiCh) + s.postExpiryShortCh;
        s.assignableShortCh = assignable.toUint128();
        uint256 live = $.liveSeries - 1;
        $.liveSeries = uint64(live);
        uint256 bounty = $.params.keeperBountyUsdc;
        emit SettlementPriceProposed(seriesId, priceWad, finalAt, assignable, msg.sender, bounty, live);
        _creditBounty($, msg.sender, bounty);
    }

    /// @notice See IFuturesMarket.
    function disputeSettlementPrice(uint256 seriesId, uint256 priceWad) external restricted {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        Series storage s = _existing($, seriesId);
        uint64 finalAt = s.finalAt;
        if (finalAt == 0) revert FuturesPriceNotFixed(seriesId);
        if (block.timestamp >= finalAt) revert FuturesDisputeWindowClosed(seriesId, finalAt);
        uint256 old = s.settlementPriceWad;
        uint256 diff = priceWad > old ? priceWad - old : old - priceWad;
        uint256 maxBps = $.params.maxCorrectionBps;
        if (priceWad == 0 || diff * BPS > old * maxBps) {
            revert FuturesCorrectionTooLarge(seriesId, old, priceWad, maxBps);
        }
        s.settlementPriceWad = priceWad.toUint128();
        emit SettlementPriceDisputed(seriesId, old, priceWad, msg.sender);
    }

    /// @notice See IFuturesMarket.
    function finalizeSettlement(uint256 seriesId) external nonReentrant {
        _finalize(_getFuturesMarketStorage(), seriesId);
    }

    function _finalize(FuturesMarketStorage storage $, uint256 seriesId) private {
        Series storage s = _existing($, seriesId);
        uint64 finalAt = s.finalAt;
        if (finalAt == 0) revert FuturesPriceNotFixed(seriesId);
        if (s.deliveryDeadline != 0) revert FuturesAlreadyDone(seriesId, address(0));
        if (block.timestamp < finalAt) revert FuturesDisputeWindowOpen(seriesId, finalAt);
        uint64 deadline = uint64(block.timestamp) + $.params.deliveryWindowSec;
        s.deliveryDeadline = deadline;
        uint256 elected = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        uint256 deliverable = elected < assignable ? elected : assignable;
        uint256 fraction = assignable == 0 ? 0 : (deliverable * WAD) / assignable;
        uint256 bounty = $.params.keeperBountyUsdc;
        emit SettlementPriceFinalised(
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
        _creditBounty($, msg.sender, bounty);
        _advanceFirstOpen($);
    }

    /// @notice See IFuturesMarket.
    function settlePosition(uint256 seriesId, address account) external nonReentrant {
        _settle(_getFuturesMarketStorage(), seriesId, account);
    }

    /// @notice See IFuturesMarket.
    function settlePositions(
        uint256 seriesId,
        address[] calldata accounts
    ) external nonReentrant returns (uint256 settled) {
        return _settleBatch(_getFuturesMarketStorage(), seriesId, accounts);
    }

    /// @dev Settles the settleable accounts of the page, then moves the keeper cursor past settled entries.
    function _settleBatch(
        FuturesMarketStorage storage $,
        uint256 seriesId,
        address[] memory accounts
    ) private returns (uint256 settled) {
        if (accounts.length > MAX_SETTLE_BATCH) revert FuturesInvalidParams();
        Series storage s = _existing($, seriesId);
        if (s.deliveryDeadline == 0) {
            if (s.finalAt == 0) revert FuturesPriceNotFixed(seriesId);
            revert FuturesNotFinal(seriesId);
        }
        for (uint256 i; i < accounts.length; ++i) {
            if (!_settleable(s, $.positions[seriesId][accounts[i]])) continue;
            _settle($, seriesId, accounts[i]);
            ++settled;
        }
        if (settled == 0) revert FuturesAlreadyDone(seriesId, address(0));
        _advanceCursor($, seriesId);
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
    }

    function _settle(FuturesMarketStorage storage $, uint256 seriesId, address account) private {
        Series storage s = _existing($, seriesId);
        if (s.deliveryDeadline == 0) {
            if (s.finalAt == 0) revert FuturesPriceNotFixed(seriesId);
            revert FuturesNotFinal(seriesId);
        }
        Position storage p = $.positions[seriesId][account];
        if (!p.open) revert FuturesAlreadyDone(seriesId, account);
        SettleVars memory v;
        v.price = s.settlementPriceWad;
        v.size = p.sizeCh;
        uint256 shortBase = _shortBase(p);
        if (shortBase != 0) {
            _settleShortDelivery($, s, seriesId, account, p, v);
        } else if (p.electedCh != 0) {
            _settleLongDelivery(s, seriesId, p, v);
        } else {
            // escrow of a short leg a liquidation closed in full before expiry (no delivery base): returned
            v.chOut = p.escrowCh;
        }
        if (v.size > 0) s.longOiCh -= uint128(uint256(v.size));
        else if (v.size < 0) s.shortOiCh -= uint128(uint256(-v.size));
        uint256 open = s.openPositions - 1;
        s.openPositions = uint32(open);
        p.sizeCh = 0;
        p.entryPriceWad = 0;
        p.electedCh = 0;
        p.escrowCh = 0;
        p.deliveryBaseCh = 0;
        p.proofDeadline = 0;
        p.baseTaken = false;
        p.open = false;
        _removeAccountSeries($, account, seriesId);
        if (msg.sender != account) {
            v.bounty = $.params.keeperBountyUsdc;
            v.cash -= int256(v.bounty);
        }
        v.cash += _takeLiquidationCash($, account);
        IClearingHouse house = $.clearingHouse;
        if (v.size != 0) v.realised = _closeAtSettlement($, house, seriesId, account, v.size, v.price);
        emit PositionSettled(seriesId, account, v.size, v.price, v.realised, msg.sender, v.bounty, open);
        if (v.elected != 0) _collectPayment($, house, seriesId, account, v);
        if (v.cash != 0) house.settle(account, v.cash);
        if (v.bounty != 0) _creditBounty($, msg.sender, v.bounty);
        if (v.assigned != 0) {
            int256 collateral = house.collateralOf(account);
            emit DeliverySettled(seriesId, account, v.assigned, v.delivered, v.paid, v.slashed, collateral);
        }
        if (v.chOut != 0) $.ch.safeTransfer(account, v.chOut);
        if (open == 0) _advanceFirstOpen($);
    }

    /// @dev Settlement-price corrections of legs a liquidation closed at the index, paid with the account's next
    ///      settlement (issue 17 item 23).
    function _takeLiquidationCash(FuturesMarketStorage storage $, address account) private returns (int256 owed) {
        owed = $.liquidationCashUsdc[account];
        if (owed == 0) return 0;
        delete $.liquidationCashUsdc[account];
        $.totalLiquidationCashUsdc -= owed;
    }

    /// @dev Short: the assigned part of the escrow is delivered (paid at the price), the undelivered assigned part
    ///      is charged the penalty (price × penalty) after the deadline — its position was cash-settled at the price
    ///      like everyone's, so the penalty is all it owes — and the rest of the escrow is returned.
    function _settleShortDelivery(
        FuturesMarketStorage storage $,
        Series storage s,
        uint256 seriesId,
        address account,
        Position storage p,
        SettleVars memory v
    ) private {
        uint256 assigned = _assignedOf(s, _shortBase(p));
        uint256 escrow = p.escrowCh;
        uint256 delivered = escrow < assigned ? escrow : assigned;
        if (delivered < assigned && block.timestamp < s.deliveryDeadline) {
            revert FuturesDeliveryPending(seriesId, account, assigned, escrow, s.deliveryDeadline);
        }
        s.shortPositions -= 1;
        v.chOut = escrow - delivered;
        if (assigned == 0) return;
        // @dev The payment for delivered CH rounds down, the penalty on undelivered CH rounds up (ACC-05).
        uint256 paid = FuturesMath.usdcDown(delivered, v.price);
        uint256 slashed = FuturesMath.usdcUp((assigned - delivered) * $.params.penaltyBps, v.price);
        slashed = (slashed + BPS - 1) / BPS;
        s.deliveredCh += uint128(delivered);
        s.slashedUsdc += slashed.toUint128();
        v.cash = int256(paid) - int256(slashed);
        v.assigned = assigned;
        v.delivered = delivered;
        v.paid = paid;
        v.slashed = slashed;
    }

    /// @dev Electing long: its pro-rata share of the delivered CH (the last one the remainder, so CH delivered = CH
    ///      paid out, MKT-05), the price for its deliverable share, and its share of the slashes. Collected (and the
    ///      CH handed over) after its position is closed: `_collectPayment`.
    function _settleLongDelivery(Series storage s, uint256 seriesId, Position storage p, SettleVars memory v) private {
        uint256 totalElected = s.electedCh;
        uint256 assignable = s.assignableShortCh;
        uint256 deliverable = totalElected < assignable ? totalElected : assignable;
        if (deliverable != 0 && s.shortPositions != 0) revert FuturesShortsPending(seriesId, s.shortPositions);
        uint256 e = p.electedCh;
        uint256 claimed = uint256(s.claimedElectedCh) + e;
        uint256 received;
        uint256 comp;
        if (claimed == totalElected) {
            received = s.deliveredCh - s.receivedCh;
            comp = s.slashedUsdc - s.compensatedUsdc;
        } else {
            received = (e * s.deliveredCh) / totalElected;
            comp = (e * s.slashedUsdc) / totalElected;
        }
        s.claimedElectedCh = uint128(claimed);
        s.receivedCh += uint128(received);
        s.compensatedUsdc += uint128(comp);
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
        FuturesMarketStorage storage $,
        IClearingHouse house,
        uint256 seriesId,
        address account,
        SettleVars memory v
    ) private {
        uint256 received = v.chOut;
        uint256 paid = v.paid;
        int256 after_ = house.collateralOf(account) + v.cash;
        if (after_ < 0 && paid != 0) {
            uint256 uncollected = uint256(-after_) < paid ? uint256(-after_) : paid;
            uint256 collected = paid - uncollected;
            uint256 handed = Math.mulDiv(received, collected, paid);
            uint256 forfeited = received - handed;
            v.cash += int256(uncollected);
            v.chOut = handed;
            (received, paid) = (handed, collected);
            address vault = $.vault;
            emit DeliveryForfeited(seriesId, account, forfeited, uncollected, vault);
            if (forfeited != 0 && vault != address(0)) $.ch.safeTransfer(vault, forfeited);
        }
        emit DeliveryReceived(seriesId, account, v.elected, received, paid, v.comp, v.cashSettled);
    }

    /// @dev Closes `size` at the settlement price in the ClearingHouse. When removing this leg would ADD to the
    ///      account's net position (a calendar spread) and the ClearingHouse refuses (margin, guarantor, pause),
    ///      the account's other legs are closed at the index too (the vault takes them over) and this leg's price
    ///      difference is settled in cash, so settlement never gets stuck (MKT-04).
    function _closeAtSettlement(
        FuturesMarketStorage storage $,
        IClearingHouse house,
        uint256 seriesId,
        address account,
        int256 size,
        uint256 price
    ) private returns (int256 realised) {
        int256 net = _netSize($, account) + size; // this leg was already removed from the list
        if (!_isIncrease(net, net - size)) {
            realised = house.modifyPosition(account, -size, price, 0);
            _mirror($, -size, price, realised);
            return realised;
        }
        try house.modifyPosition(account, -size, price, 0) returns (int256 r) {
            _mirror($, -size, price, r);
            return r;
        } catch {
            uint256 index = $.oracle.indexPrice();
            _flattenOthers($, account, index);
            realised = house.modifyPosition(account, -net, index, 0);
            _mirror($, -net, index, realised);
            int256 adjust = FuturesMath.valueDown(size, price) - FuturesMath.valueUp(size, index);
            if (adjust != 0) house.settle(account, adjust);
            // the settled leg's post-state: no size, no election, the series' open interest after its settlement
            Series storage s = $.series[seriesId];
            emit PositionReduced(seriesId, account, -size, price, 0, 0, s.longOiCh, s.shortOiCh, ReduceReason.Flatten);
        }
    }

    function _flattenOthers(FuturesMarketStorage storage $, address account, uint256 index) private {
        uint256[] memory ids = $.accountSeries[account];
        for (uint256 i; i < ids.length; ++i) {
            Position storage q = $.positions[ids[i]][account];
            int256 sz = q.sizeCh;
            if (sz == 0) continue;
            Series storage t = $.series[ids[i]];
            _reduceLeg(t, ids[i], account, q, -sz, index, ReduceReason.Flatten);
            _closeRecordIfEmpty($, t, ids[i], account, q);
        }
    }

    /// @notice See IFuturesMarket.
    function claimBounties(address to) external nonReentrant returns (uint256 amountUsdc) {
        if (to == address(0)) revert ChxZeroAddress();
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        amountUsdc = $.bountiesOwedUsdc[msg.sender];
        if (amountUsdc == 0) revert FuturesNothingToClaim(msg.sender);
        $.bountiesOwedUsdc[msg.sender] = 0;
        $.totalBountiesOwedUsdc -= amountUsdc;
        emit BountiesClaimed(msg.sender, to, amountUsdc);
        $.clearingHouse.withdrawMarketPool(amountUsdc, to);
    }

    // ───────────────────────────── liquidation ─────────────────────────────

    /// @notice See ILiquidatableMarket.
    /// @dev Maps the net reduction onto the account's legs that have the position's sign: live series nearest
    ///      expiry first, expired-unsettled series last (their delivery obligation is kept: `deliveryBaseCh`). Then
    ///      closes the same fraction of its calendar spreads — long and short live legs in equal amounts, nearest
    ///      expiry first — which the net position hides: all of them when the net is zero (Δ = 0, the ClearingHouse
    ///      holds the account). Pairs leave the net, the ClearingHouse and the vault's exposure unchanged. Bounded by
    ///      MAX_SERIES_PER_ACCOUNT; never reverts for the ClearingHouse.
    function onPositionLiquidated(
        address account,
        int256 sizeDeltaCh,
        uint256 priceWad,
        int256 realisedPnlUsdc
    ) external {
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        if (msg.sender != address($.clearingHouse)) revert FuturesOnlyClearingHouse(msg.sender);
        _mirror($, sizeDeltaCh, priceWad, realisedPnlUsdc);
        uint256[] memory ids = $.accountSeries[account];
        uint256 netBefore = FuturesMath.abs(_netSize($, account));
        uint256 deltaAbs = FuturesMath.abs(sizeDeltaCh);
        _reduceSide($, ids, account, deltaAbs, sizeDeltaCh > 0, priceWad, false);
        _closeSpreads($, ids, account, deltaAbs, netBefore, priceWad);
        for (uint256 i; i < ids.length; ++i) {
            _closeRecordIfEmpty($, $.series[ids[i]], ids[i], account, $.positions[ids[i]][account]);
        }
    }

    /// @dev Closes the fraction Δ / net (all with a zero net) of the account's matched live legs, both sides.
    function _closeSpreads(
        FuturesMarketStorage storage $,
        uint256[] memory ids,
        address account,
        uint256 deltaAbs,
        uint256 netBefore,
        uint256 priceWad
    ) private {
        uint256 pairs = _matchedLive($, ids, account);
        // @dev The fraction rounds up: a liquidation never leaves more risk than asked.
        if (netBefore != 0 && deltaAbs < netBefore) pairs = Math.mulDiv(pairs, deltaAbs, netBefore, Math.Rounding.Ceil);
        if (pairs == 0) return;
        _reduceSide($, ids, account, pairs, false, priceWad, true);
        _reduceSide($, ids, account, pairs, true, priceWad, true);
    }

    /// @dev Reduces the account's legs of one sign (`deltaLong`: the legs are short) by `amountCh` in total.
    function _reduceSide(
        FuturesMarketStorage storage $,
        uint256[] memory ids,
        address account,
        uint256 amountCh,
        bool deltaLong,
        uint256 priceWad,
        bool liveOnly
    ) private {
        bool[] memory done = new bool[](ids.length);
        while (amountCh != 0) {
            uint256 best = _pickLeg($, ids, done, account, deltaLong, liveOnly);
            if (best == type(uint256).max) break;
            done[best] = true;
            amountCh -= _liquidateLeg($, ids[best], account, amountCh, deltaLong, priceWad);
        }
    }

    /// @dev min(Σ long, Σ |short|) over the account's legs whose settlement price is not fixed.
    function _matchedLive(
        FuturesMarketStorage storage $,
        uint256[] memory ids,
        address account
    ) private view returns (uint256) {
        uint256 longCh;
        uint256 shortCh;
        for (uint256 i; i < ids.length; ++i) {
            if ($.series[ids[i]].finalAt != 0) continue;
            int256 sz = $.positions[ids[i]][account].sizeCh;
            if (sz > 0) longCh += uint256(sz);
            else shortCh += uint256(-sz);
        }
        return longCh < shortCh ? longCh : shortCh;
    }

    /// @dev The next leg to reduce: opposite sign to the delta, earliest live expiry first, expired legs last (none
    ///      whose settlement price is fixed with `liveOnly`).
    function _pickLeg(
        FuturesMarketStorage storage $,
        uint256[] memory ids,
        bool[] memory done,
        address account,
        bool deltaLong,
        bool liveOnly
    ) private view returns (uint256 best) {
        best = type(uint256).max;
        uint256 bestKey = type(uint256).max;
        for (uint256 i; i < ids.length; ++i) {
            if (done[i]) continue;
            int256 sz = $.positions[ids[i]][account].sizeCh;
            if (sz == 0 || (sz > 0) == deltaLong) continue;
            Series storage s = $.series[ids[i]];
            if (liveOnly && s.finalAt != 0) continue;
            uint256 expiry = s.expiry;
            uint256 key = expiry <= block.timestamp ? (uint256(1) << 128) + expiry : expiry;
            if (key < bestKey) {
                bestKey = key;
                best = i;
            }
        }
    }

    function _liquidateLeg(
        FuturesMarketStorage storage $,
        uint256 id,
        address account,
        uint256 remaining,
        bool deltaLong,
        uint256 priceWad
    ) private returns (uint256 take) {
        Position storage p = $.positions[id][account];
        uint256 legAbs = FuturesMath.abs(p.sizeCh);
        take = legAbs < remaining ? legAbs : remaining;
        int256 legDelta = deltaLong ? int256(take) : -int256(take);
        Series storage s = $.series[id];
        _reduceLeg(s, id, account, p, legDelta, priceWad, ReduceReason.Liquidation);
        // A leg whose settlement price is fixed settles at that price, not at the moving index (issue 17 item 23):
        // the ClearingHouse closed it at the index, so the difference is owed to the account, rounded against it.
        if (s.finalAt != 0) {
            int256 correction =
                FuturesMath.valueDown(legDelta, priceWad) - FuturesMath.valueUp(legDelta, s.settlementPriceWad);
            $.liquidationCashUsdc[account] += correction;
            $.totalLiquidationCashUsdc += correction;
        }
    }

    /// @notice See IKeeperUpkeep: any payload of `checker()` (order execution or cancellation, price fixing,
    ///         finalisation, settlement), re-validated by the function it names.
    function performUpkeep(bytes calldata performData) external nonReentrant {
        if (performData.length < 36) revert FuturesInvalidPerformData();
        FuturesMarketStorage storage $ = _getFuturesMarketStorage();
        bytes4 selector = bytes4(performData[:4]);
        if (selector == FuturesDelivery.fixSettlementPrice.selector) {
            _fixPrice($, abi.decode(performData[4:], (uint256)));
        } else if (selector == FuturesDelivery.finalizeSettlement.selector) {
            _finalize($, abi.decode(performData[4:], (uint256)));
        } else if (selector == FuturesDelivery.settlePosition.selector) {
            (uint256 id, address account) = abi.decode(performData[4:], (uint256, address));
            _settle($, id, account);
        } else if (selector == FuturesDelivery.settlePositions.selector) {
            (uint256 id, address[] memory accounts) = abi.decode(performData[4:], (uint256, address[]));
            _settleBatch($, id, accounts);
        } else if (selector == IFuturesMarket.executeOrder.selector) {
            (address account, uint256 id, uint80 roundId) = abi.decode(performData[4:], (address, uint256, uint80));
            FuturesOrders.execute($, account, id, roundId);
        } else if (selector == IFuturesMarket.cancelOrder.selector) {
            (address account, uint256 id) = abi.decode(performData[4:], (address, uint256));
            FuturesOrders.cancel($, account, id);
        } else {
            revert FuturesInvalidPerformData();
        }
    }
}
