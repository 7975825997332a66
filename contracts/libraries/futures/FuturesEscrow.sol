// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {FuturesBase} from "../../core/markets/futures/FuturesBase.sol";
import {IFuturesTypes} from "../../interfaces/markets/IFuturesTypes.sol";
import {IFuturesErrors} from "../../interfaces/markets/IFuturesErrors.sol";
import {IFuturesEvents} from "../../interfaces/markets/IFuturesEvents.sol";
import {IClearingHouse} from "../../interfaces/clearing/IClearingHouse.sol";
import {IGuarantorPool} from "../../interfaces/clearing/IGuarantorPool.sol";
import {IChxModule} from "../../interfaces/base/IChxModule.sol";
import {FuturesLedger} from "./FuturesLedger.sol";

/// @title FuturesEscrow
/// @notice A short's CH delivery escrow in the FuturesMarket (docs/futures.md "Physical delivery"): escrowing and
///         withdrawing CH, the guarantor's proof demand and the close of an unproven short. An external library
///         linked into the FuturesDelivery module (moved out of it for its size) and run by delegatecall on the
///         FuturesMarket proxy's storage; the module keeps the reentrancy lock.
library FuturesEscrow {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    /// @notice IFuturesMarket.deliver: a short escrows CH against its delivery (up to its short base).
    function deliver(FuturesBase.FuturesMarketStorage storage $, uint256 seriesId, uint256 chAmount) external {
        if (chAmount == 0) revert IFuturesErrors.FuturesZeroAmount();
        IFuturesTypes.SeriesState storage s = FuturesLedger.existing($, seriesId);
        IFuturesTypes.Position storage p = $.positions[seriesId][msg.sender];
        uint256 base = FuturesLedger.shortBase(p);
        if (base == 0 || !p.open) revert IFuturesErrors.FuturesNotShort(seriesId, msg.sender);
        uint64 deadline = s.deliveryDeadline;
        if (deadline != 0 && block.timestamp >= deadline)
            revert IFuturesErrors.FuturesEscrowLocked(seriesId, msg.sender);
        uint256 escrow = p.escrowCh + chAmount;
        if (escrow > base) revert IFuturesErrors.FuturesEscrowOutOfRange(seriesId, msg.sender, escrow, base);
        p.escrowCh = uint128(escrow);
        emit IFuturesEvents.DeliveryEscrowChanged(seriesId, msg.sender, int256(chAmount), escrow);
        $.ch.safeTransferFrom(msg.sender, address(this), chAmount);
    }

    /// @notice IFuturesMarket.withdrawEscrow: a short takes escrowed CH back before expiry, margin permitting.
    function withdraw(FuturesBase.FuturesMarketStorage storage $, uint256 seriesId, uint256 chAmount) external {
        if (chAmount == 0) revert IFuturesErrors.FuturesZeroAmount();
        IFuturesTypes.SeriesState storage s = FuturesLedger.existing($, seriesId);
        if (block.timestamp >= s.expiry) revert IFuturesErrors.FuturesEscrowLocked(seriesId, msg.sender);
        IFuturesTypes.Position storage p = $.positions[seriesId][msg.sender];
        uint256 escrow = p.escrowCh;
        if (chAmount > escrow) revert IFuturesErrors.FuturesEscrowOutOfRange(seriesId, msg.sender, chAmount, escrow);
        escrow -= chAmount;
        uint256 size = p.sizeCh < 0 ? uint256(-int256(p.sizeCh)) : 0;
        if (p.proofDeadline != 0 && escrow < size)
            revert IFuturesErrors.FuturesEscrowOutOfRange(seriesId, msg.sender, escrow, size);
        p.escrowCh = uint128(escrow);
        emit IFuturesEvents.DeliveryEscrowChanged(seriesId, msg.sender, -int256(chAmount), escrow);
        // Escrow backs the delivery bond of an assignable short (FuturesRisk): taking it back adds risk, so the
        // account must still cover its initial margin with the bond it now owes, at the gated price (ORC-01).
        if (s.electedCh != 0) {
            IClearingHouse.MarginState memory m = $.clearingHouse.marginStateAt(msg.sender, $.oracle.riskPrice());
            if (m.equityUsdc < m.initialMarginUsdc.toInt256()) {
                revert IFuturesErrors.FuturesEscrowNeeded(seriesId, msg.sender, m.initialMarginUsdc, m.equityUsdc);
            }
        }
        FuturesLedger.closeRecordIfEmpty($, s, seriesId, msg.sender, p);
        $.ch.safeTransfer(msg.sender, chAmount);
    }

    /// @notice IFuturesMarket.demandDeliveryProof: the account's guarantor demands its escrow within a window.
    function demandProof(FuturesBase.FuturesMarketStorage storage $, uint256 seriesId, address account) external {
        IFuturesTypes.SeriesState storage s = FuturesLedger.trading($, seriesId);
        (, , , address pool, , ) = $.clearingHouse.modules();
        address guarantor = IGuarantorPool(pool).guarantorOf(account);
        if (msg.sender != guarantor) revert IFuturesErrors.FuturesNotGuarantor(account, msg.sender, guarantor);
        IFuturesTypes.Position storage p = $.positions[seriesId][account];
        if (p.sizeCh >= 0) revert IFuturesErrors.FuturesNotShort(seriesId, account);
        uint64 deadline = uint64(block.timestamp) + $.params.proofWindowSec;
        // The guarantor must be able to act on an unanswered demand (`closeUnproven` runs only while the series
        // trades): a demand made less than a window before expiry ends one second before it (issue 19 item 2).
        uint64 last = s.expiry - 1;
        if (deadline > last) deadline = last;
        p.proofDeadline = deadline;
        emit IFuturesEvents.DeliveryProofDemanded(seriesId, account, guarantor, uint256(-int256(p.sizeCh)), deadline);
    }

    /// @notice IFuturesMarket.closeUnproven: closes the unescrowed part of a short after an unmet proof demand.
    function closeUnproven(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address account
    ) external returns (uint256 closedCh) {
        IFuturesTypes.SeriesState storage s = FuturesLedger.trading($, seriesId);
        IFuturesTypes.Position storage p = $.positions[seriesId][account];
        uint64 deadline = p.proofDeadline;
        if (deadline == 0 || block.timestamp < deadline)
            revert IFuturesErrors.FuturesDemandNotDue(seriesId, account, deadline);
        int256 size = p.sizeCh;
        uint256 escrow = p.escrowCh;
        if (size >= 0 || uint256(-size) <= escrow) revert IFuturesErrors.FuturesAlreadyDone(seriesId, account);
        closedCh = uint256(-size) - escrow;
        uint256 index = $.oracle.indexPrice();
        p.proofDeadline = 0;
        int256 delta = int256(closedCh);
        FuturesLedger.reduceLeg($, s, seriesId, account, p, delta, index, IFuturesTypes.ReduceReason.UnprovenShort);
        FuturesLedger.closeRecordIfEmpty($, s, seriesId, account, p);
        int256 realised = $.clearingHouse.modifyPosition(account, delta, index, 0);
        FuturesLedger.mirror($, delta, index, realised);
    }

    /// @notice IFuturesMarket.takeDelivery: hands a settled electing long's delivery claim (the CH it received,
    ///         left in the market at settlement) to DeliveryOrders, which opens the long's delivery order with it;
    ///         without a DeliveryOrders contract the long takes it itself. Zeroes the claim first (once only).
    function takeDelivery(
        FuturesBase.FuturesMarketStorage storage $,
        uint256 seriesId,
        address account,
        address to
    ) external returns (uint256 chAmount, uint256 priceWad) {
        address orders = $.deliveryOrders;
        if (msg.sender != (orders == address(0) ? account : orders))
            revert IFuturesErrors.FuturesNotDeliveryOrders(msg.sender, orders);
        if (to == address(0)) revert IChxModule.ChxZeroAddress();
        IFuturesTypes.Position storage p = $.positions[seriesId][account];
        // @dev a settled record's escrow is a long's claim: a short's escrow is zeroed when it settles
        if (p.open) return (0, 0);
        chAmount = p.escrowCh;
        if (chAmount == 0) return (0, 0);
        p.escrowCh = 0;
        priceWad = $.series[seriesId].settlementPriceWad;
        emit IFuturesEvents.DeliveryClaimTaken(seriesId, account, to, chAmount);
        $.ch.safeTransfer(to, chAmount);
    }
}
