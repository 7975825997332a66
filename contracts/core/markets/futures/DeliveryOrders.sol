// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ChxUpgradeable} from "../../base/ChxUpgradeable.sol";
import {IDeliveryOrders} from "../../../interfaces/compute/IDeliveryOrders.sol";
import {IProviderMatcher} from "../../../interfaces/compute/IProviderMatcher.sol";
import {IProviderRegistry} from "../../../interfaces/compute/IProviderRegistry.sol";
import {IComputeStandard} from "../../../interfaces/compute/IComputeStandard.sol";
import {ITaskRegistry} from "../../../interfaces/tasks/ITaskRegistry.sol";
import {IFuturesMarket} from "../../../interfaces/markets/IFuturesMarket.sol";
import {IFuturesTypes} from "../../../interfaces/markets/IFuturesTypes.sol";
import {DeliveryAccounting} from "../../../libraries/futures/DeliveryAccounting.sol";

/// @title DeliveryOrders
/// @notice Delivery orders of the futures market: physical delivery that is compute (IDeliveryOrders,
///         docs/futures.md "Delivery as compute"). Holds the CH of settled electing longs, assigns each order to a
///         provider with outstanding liability (ProviderMatcher, Delivery mode) and lets the long consume it as
///         TaskRegistry tasks paid in CH without paying again.
/// @dev Roles: Roles.COMPUTE on the ProviderRegistry (`assignRedemption`, `releaseRedemption`); `createOrder` only
///      from the configured futures market; `setSpec` and upgrades ADMIN.
contract DeliveryOrders is ChxUpgradeable, IDeliveryOrders {
    using SafeERC20 for IERC20;

    uint256 private constant WAD = 1e18;
    uint256 private constant USDC_TO_WAD = 1e12;
    uint256 private constant TASK_CLAIMED = 1;
    uint256 private constant TASK_REPORTED = 2;

    /// @dev An order as stored: its owner is the id's low 160 bits; the first slot is all `createOrder` writes.
    struct OrderState {
        uint40 windowEnd;
        uint16 workloadClass;
        uint8 minGrade;
        Status status;
        uint128 availableCh;
        uint128 inTasksCh;
        uint128 consumedCh;
        address provider;
        uint64 assignmentId;
        uint128 compensatedDps;
    }

    /// @custom:storage-location erc7201:chx.storage.DeliveryOrders
    struct DeliveryOrdersStorage {
        address market;
        IProviderRegistry registry;
        IProviderMatcher matcher;
        ITaskRegistry tasks;
        IComputeStandard standard;
        IERC20 ch;
        IERC20 dps;
        Spec spec;
        Stats stats;
        mapping(uint256 orderId => OrderState) orders;
        mapping(uint256 taskId => uint256 orderId) taskOrder;
        mapping(uint256 taskId => uint256 flags) taskFlags;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.DeliveryOrders")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0xcde4d67b30c58a78423f90e7ea269b3faac0212a047832e8d93fb1d6dcac4800;

    function _s() private pure returns (DeliveryOrdersStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param market The FuturesMarket proxy (the only caller of `createOrder`).
    /// @param registry_ The ProviderRegistry.
    /// @param matcher_ The ProviderMatcher.
    /// @param tasks_ The TaskRegistry.
    /// @param standard_ The ComputeStandard.
    /// @param ch_ The CH token.
    /// @param dps_ The DPS token.
    /// @param spec_ The delivery spec of new orders.
    function initialize(
        address authority,
        address market,
        address registry_,
        address matcher_,
        address tasks_,
        address standard_,
        address ch_,
        address dps_,
        Spec calldata spec_
    ) external initializer {
        __ChxUpgradeable_init(authority);
        if (
            market == address(0) ||
            registry_ == address(0) ||
            matcher_ == address(0) ||
            tasks_ == address(0) ||
            standard_ == address(0) ||
            ch_ == address(0) ||
            dps_ == address(0)
        ) revert ChxZeroAddress();
        DeliveryOrdersStorage storage $ = _s();
        $.market = market;
        $.registry = IProviderRegistry(registry_);
        $.matcher = IProviderMatcher(matcher_);
        $.tasks = ITaskRegistry(tasks_);
        $.standard = IComputeStandard(standard_);
        $.ch = IERC20(ch_);
        $.dps = IERC20(dps_);
        _setSpec(spec_);
    }

    // ───────────────────────────── market ─────────────────────────────

    /// @inheritdoc IDeliveryOrders
    function createOrder(
        uint256 seriesId,
        address owner,
        uint256 chAmount,
        uint256 settlementPriceWad
    ) external nonReentrant returns (uint256 id) {
        DeliveryOrdersStorage storage $ = _s();
        if (msg.sender != $.market) revert DeliveryOnlyMarket(msg.sender);
        if (chAmount == 0 || chAmount > type(uint128).max) revert DeliveryInvalidParams();
        id = orderId(seriesId, owner);
        OrderState storage o = $.orders[id];
        if (o.status != Status.None) revert DeliveryOrderExists(id);
        _write(o, id, chAmount, settlementPriceWad);
    }

    /// @dev Writes a new order (one slot: window, class, grade, status and the CH held); its window starts now.
    function _write(OrderState storage o, uint256 id, uint256 chAmount, uint256 settlementPriceWad) private {
        Spec memory sp = _s().spec;
        uint40 windowEnd = uint40(block.timestamp + sp.windowSec);
        (o.windowEnd, o.workloadClass, o.minGrade) = (windowEnd, sp.workloadClass, sp.minGrade);
        (o.status, o.availableCh) = (Status.Open, uint128(chAmount));
        emit DeliveryOrderCreated(
            id,
            _owner(id),
            id >> 160,
            chAmount,
            settlementPriceWad,
            sp.workloadClass,
            sp.minGrade,
            windowEnd
        );
    }

    /// @dev Opens the order of a settled long from its delivery claim in the market (the lazy hand-over: the CH
    ///      stays in the market from settlement until the order is first used; `takeDelivery` moves it here once).
    function _materialise(DeliveryOrdersStorage storage $, OrderState storage o, uint256 id) private {
        (uint256 amount, uint256 price) = IFuturesMarket($.market).takeDelivery(id >> 160, _owner(id), address(this));
        if (amount == 0) revert DeliveryOrderNotOpen(id);
        _write(o, id, amount, price);
    }

    /// @inheritdoc IDeliveryOrders
    function slashFailedShort(
        uint256 seriesId,
        address short,
        uint256 undeliveredCh,
        uint256 penaltyUsdc,
        address finder
    ) external nonReentrant returns (uint256 compensationDps, uint256 creditedUsdc) {
        DeliveryOrdersStorage storage $ = _s();
        address market = $.market;
        if (msg.sender != market) revert DeliveryOnlyMarket(msg.sender);
        IProviderRegistry reg = $.registry;
        uint256 slashedDps;
        if (undeliveredCh != 0 && reg.providerInfo(short).registered) {
            // @dev USDC (6 decimals) → USD WAD → DPS at the governance DPS price, rounded up (the provider pays).
            uint256 price = reg.params().dpsPriceWad;
            uint256 owedDps = price == 0 ? 0 : (penaltyUsdc * USDC_TO_WAD * WAD + price - 1) / price;
            bytes32 reason = keccak256(abi.encode("futures.delivery", seriesId, short));
            // @dev Settlement must never get stuck on the registry (MKT-04): a refusal slashes nothing. The slash
            //      net of the finder fee goes to the market, which pays it to the series' electing longs.
            try reg.slashTo(short, owedDps, finder, market, reason) returns (uint256 taken, uint256 paid) {
                (slashedDps, compensationDps) = (taken, paid);
                // @dev Valued back at the same price, rounded down: the long is credited no more than it holds.
                creditedUsdc = (paid * price) / WAD / USDC_TO_WAD;
                if (creditedUsdc > penaltyUsdc) creditedUsdc = penaltyUsdc;
            } catch {}
            try reg.recordTaskOutcome(short, false) {} catch {}
        }
        emit DeliveryShortSlashed(seriesId, short, undeliveredCh, penaltyUsdc, slashedDps, finder);
    }

    /// @inheritdoc IDeliveryOrders
    function dpsToken() external view returns (address) {
        return address(_s().dps);
    }

    // ───────────────────────────── assignment ─────────────────────────────

    /// @inheritdoc IDeliveryOrders
    function assign(uint256 id, address[] calldata candidates) external nonReentrant returns (address provider) {
        DeliveryOrdersStorage storage $ = _s();
        OrderState storage o = _open($, id);
        if (o.provider != address(0)) revert DeliveryAlreadyAssigned(id, o.provider);
        if (block.timestamp >= o.windowEnd) revert DeliveryWindow(id, o.windowEnd);
        // @dev > 0: an order is created with CH and only an assigned order can move it into tasks.
        uint256 amount = o.availableCh;
        provider = _pick($, o, id, amount, candidates);
        uint256 assignmentId = $.registry.assignRedemption(provider, amount, o.windowEnd);
        o.provider = provider;
        o.assignmentId = uint64(assignmentId);
        emit DeliveryOrderAssigned(id, provider, assignmentId, amount, msg.sender);
    }

    /// @dev The ProviderMatcher's Delivery-mode ranking of the page (liability ≥ amount, the order's class, the
    ///      owner excluded), then the first whose performance grade is at least the order's minimum.
    function _pick(
        DeliveryOrdersStorage storage $,
        OrderState storage o,
        uint256 id,
        uint256 amount,
        address[] calldata candidates
    ) private view returns (address) {
        IProviderMatcher.Query memory q = IProviderMatcher.Query({
            mode: IProviderMatcher.Mode.Delivery,
            workloadClass: o.workloadClass,
            region: 0,
            regionStrict: false,
            budgetPriceWad: 0,
            requiredCapacityPflopsWad: 0,
            requiredCh: uint128(amount)
        });
        address[] memory excluded = new address[](1);
        excluded[0] = _owner(id);
        (, , uint256 maxPick) = $.matcher.limits();
        uint256 count = candidates.length < maxPick ? candidates.length : maxPick;
        bytes32 seed = keccak256(abi.encode(id, blockhash(block.number - 1)));
        address[] memory ranked = $.matcher.selectFromCandidates(q, candidates, excluded, seed, count);
        uint8 minGrade = o.minGrade;
        for (uint256 i; i < ranked.length; ++i) {
            if ($.registry.providerInfo(ranked[i]).performanceGrade <= minGrade) return ranked[i];
        }
        revert DeliveryNoProvider(id);
    }

    // ───────────────────────────── consumption ─────────────────────────────

    /// @inheritdoc IDeliveryOrders
    function submitTask(
        uint256 id,
        ITaskRegistry.Terms calldata terms,
        ITaskRegistry.Prescription calldata prescription
    ) external nonReentrant returns (uint256 taskId) {
        DeliveryOrdersStorage storage $ = _s();
        OrderState storage o = _open($, id);
        if (msg.sender != _owner(id)) revert DeliveryNotOwner(id, msg.sender);
        if (block.timestamp >= o.windowEnd) revert DeliveryWindow(id, o.windowEnd);
        address provider = o.provider;
        if (provider == address(0)) revert DeliveryNotAssigned(id);
        if (terms.currency != ITaskRegistry.Currency.CH || terms.workloadClass != o.workloadClass) {
            revert DeliveryTermsMismatch(id);
        }
        uint256 amount = terms.maxPayment;
        uint256 available = o.availableCh;
        if (amount == 0 || amount > available) revert DeliveryInsufficientCh(id, amount, available);
        available -= amount;
        o.availableCh = uint128(available);
        o.inTasksCh += uint128(amount);
        // The reservation follows what the order still holds: the task's executor gets its own assignment when its
        // bidding closes (the TaskRegistry's redemption path), from its own outstanding liability.
        uint256 assignmentId = _reserve($, o, provider, available);
        IERC20 ch = $.ch;
        ch.forceApprove(address($.tasks), amount);
        taskId = $.tasks.submit(terms, prescription);
        $.taskOrder[taskId] = id;
        emit DeliveryTaskSubmitted(id, taskId, amount, available, assignmentId);
    }

    /// @dev Releases the order's open reservation and reserves `amount` of the provider's liability anew (0: none).
    function _reserve(
        DeliveryOrdersStorage storage $,
        OrderState storage o,
        address provider,
        uint256 amount
    ) private returns (uint256 assignmentId) {
        uint256 old = o.assignmentId;
        if (old != 0) $.registry.releaseRedemption(old);
        if (amount != 0) assignmentId = $.registry.assignRedemption(provider, amount, o.windowEnd);
        o.assignmentId = uint64(assignmentId);
    }

    /// @inheritdoc IDeliveryOrders
    function claimTask(uint256 taskId) external nonReentrant returns (uint256 refundedCh) {
        DeliveryOrdersStorage storage $ = _s();
        uint256 id = $.taskOrder[taskId];
        uint256 flags = $.taskFlags[taskId];
        if (id == 0 || flags & TASK_CLAIMED != 0) revert DeliveryUnknownTask(taskId);
        ITaskRegistry.Task memory k = $.tasks.getTask(taskId);
        if (!DeliveryAccounting.ended(k.status)) revert DeliveryTaskNotEnded(taskId, k.status);
        $.taskFlags[taskId] = flags | TASK_CLAIMED;
        uint256 consumed;
        (consumed, refundedCh) = DeliveryAccounting.outcome(k);
        OrderState storage o = $.orders[id];
        o.inTasksCh -= k.maxPayment;
        if (consumed != 0) {
            o.consumedCh += uint128(consumed);
            Stats storage st = $.stats;
            st.tasksCompleted += 1;
            st.chDelivered += uint96(consumed);
        }
        bool open = o.status == Status.Open;
        if (open) o.availableCh += uint128(refundedCh);
        emit DeliveryTaskSettled(id, taskId, k.status, consumed, refundedCh, o.availableCh);
        if (!open && refundedCh != 0) $.ch.safeTransfer(_owner(id), refundedCh);
    }

    /// @inheritdoc IDeliveryOrders
    function reportFailure(uint256 taskId) external nonReentrant returns (uint256 compensationDps) {
        DeliveryOrdersStorage storage $ = _s();
        uint256 id = $.taskOrder[taskId];
        uint256 flags = $.taskFlags[taskId];
        if (id == 0 || flags & TASK_REPORTED != 0) revert DeliveryUnknownTask(taskId);
        $.taskFlags[taskId] = flags | TASK_REPORTED;
        IERC20 dps = $.dps;
        ITaskRegistry tasks = $.tasks;
        uint256 returnedCh;
        // @dev Round 49: `reportRedemptionFailure` is permissionless (a keeper earns the held bounty), so the failure
        //      may already have been reported: the registry then paid this contract outside any call of ours and
        //      recorded what, and the order is credited from that record (each task once: TASK_REPORTED).
        bool elsewhere;
        (elsewhere, compensationDps, returnedCh) = tasks.reportedToClient(taskId);
        if (!elsewhere) {
            IERC20 ch = $.ch;
            uint256 before = dps.balanceOf(address(this));
            uint256 chBefore = ch.balanceOf(address(this));
            tasks.reportRedemptionFailure(taskId);
            compensationDps = dps.balanceOf(address(this)) - before;
            returnedCh = ch.balanceOf(address(this)) - chBefore;
        }
        OrderState storage o = $.orders[id];
        // The report's bounty the task held back (DeliveryAccounting leaves it out of the refund) comes back to the
        // client when the client (or the executor, which earns none) reports: it belongs to this order.
        if (returnedCh != 0) _creditReturned($, o, id, taskId, returnedCh);
        uint256 total = o.compensatedDps + compensationDps;
        o.compensatedDps = uint128(total);
        $.stats.slashedDps += uint96(compensationDps);
        address owner = _owner(id);
        emit DeliveryCompensated(id, taskId, owner, compensationDps, total);
        if (compensationDps != 0) dps.safeTransfer(owner, compensationDps);
    }

    /// @dev Credits CH that came back for an order's task: to the order while open, to its owner once closed.
    function _creditReturned(
        DeliveryOrdersStorage storage $,
        OrderState storage o,
        uint256 id,
        uint256 taskId,
        uint256 amountCh
    ) private {
        bool open = o.status == Status.Open;
        if (open) o.availableCh += uint128(amountCh);
        emit DeliveryReportBountyReturned(id, taskId, amountCh, o.availableCh);
        if (!open) $.ch.safeTransfer(_owner(id), amountCh);
    }

    /// @inheritdoc IDeliveryOrders
    function close(uint256 id) external nonReentrant returns (uint256 returnedCh) {
        DeliveryOrdersStorage storage $ = _s();
        OrderState storage o = _open($, id);
        address owner = _owner(id);
        if (msg.sender != owner && block.timestamp < o.windowEnd) revert DeliveryWindow(id, o.windowEnd);
        o.status = Status.Closed;
        returnedCh = o.availableCh;
        o.availableCh = 0;
        _reserve($, o, o.provider, 0);
        emit DeliveryOrderClosed(id, returnedCh, o.inTasksCh, msg.sender);
        if (returnedCh != 0) $.ch.safeTransfer(owner, returnedCh);
    }

    function _owner(uint256 id) private pure returns (address) {
        return address(uint160(id));
    }

    /// @dev The open order `id`, opened first from the long's delivery claim in the market if it has none yet.
    function _open(DeliveryOrdersStorage storage $, uint256 id) private returns (OrderState storage o) {
        o = $.orders[id];
        Status status = o.status;
        if (status == Status.None) _materialise($, o, id);
        else if (status != Status.Open) revert DeliveryOrderNotOpen(id);
    }

    /// @dev A settled long's delivery claim still held by the market (0: none, or already taken).
    function _claim(DeliveryOrdersStorage storage $, uint256 id) private view returns (uint256) {
        IFuturesTypes.Position memory p = IFuturesMarket($.market).positionOf(id >> 160, _owner(id));
        return p.open ? 0 : p.escrowCh;
    }

    // ───────────────────────────── governance ─────────────────────────────

    /// @inheritdoc IDeliveryOrders
    function setSpec(Spec calldata spec_) external restricted {
        _setSpec(spec_);
    }

    function _setSpec(Spec calldata spec_) private {
        if (spec_.windowSec == 0 || spec_.minGrade > uint8(IComputeStandard.PerformanceGrade.D)) {
            revert DeliveryInvalidParams();
        }
        _s().spec = spec_;
        emit DeliverySpecSet(spec_);
    }

    // ───────────────────────────── views ─────────────────────────────

    /// @inheritdoc IDeliveryOrders
    function order(uint256 id) external view returns (Order memory) {
        DeliveryOrdersStorage storage $ = _s();
        OrderState storage o = $.orders[id];
        if (o.status == Status.None) {
            // @dev a claim not yet taken: the order it opens on first use (its window would start now)
            uint256 claim = _claim($, id);
            if (claim == 0) return Order(address(0), 0, 0, 0, Status.None, 0, 0, address(0), 0, 0, 0);
            Spec memory sp = $.spec;
            return
                Order({
                    owner: _owner(id),
                    windowEnd: uint40(block.timestamp + sp.windowSec),
                    workloadClass: sp.workloadClass,
                    minGrade: sp.minGrade,
                    status: Status.Open,
                    availableCh: uint128(claim),
                    inTasksCh: 0,
                    provider: address(0),
                    assignmentId: 0,
                    consumedCh: 0,
                    compensatedDps: 0
                });
        }
        return
            Order({
                owner: o.status == Status.None ? address(0) : _owner(id),
                windowEnd: o.windowEnd,
                workloadClass: o.workloadClass,
                minGrade: o.minGrade,
                status: o.status,
                availableCh: o.availableCh,
                inTasksCh: o.inTasksCh,
                provider: o.provider,
                assignmentId: o.assignmentId,
                consumedCh: o.consumedCh,
                compensatedDps: o.compensatedDps
            });
    }

    /// @inheritdoc IDeliveryOrders
    function orderOfTask(uint256 taskId) external view returns (uint256) {
        DeliveryOrdersStorage storage $ = _s();
        return $.taskFlags[taskId] & TASK_CLAIMED != 0 ? 0 : $.taskOrder[taskId];
    }

    /// @inheritdoc IDeliveryOrders
    function orderId(uint256 seriesId, address owner) public pure returns (uint256) {
        return (seriesId << 160) | uint160(owner);
    }

    /// @inheritdoc IDeliveryOrders
    function meter(uint256 id) external view returns (uint256 pflopHoursWad, uint256 providerHoursWad) {
        DeliveryOrdersStorage storage $ = _s();
        OrderState storage o = $.orders[id];
        bool lazy = o.status == Status.None;
        uint256 held = lazy ? _claim($, id) : uint256(o.availableCh) + o.inTasksCh;
        IComputeStandard std = $.standard;
        uint16 cls = lazy ? $.spec.workloadClass : o.workloadClass;
        uint256 refPflops = std.referenceSystem(cls, std.latestVersion(cls)).refPflopsWad;
        pflopHoursWad = (held * refPflops) / WAD;
        if (o.provider != address(0)) {
            uint256 rate = $.registry.providerInfo(o.provider).chPerHourWad;
            if (rate != 0) providerHoursWad = (held * WAD + rate - 1) / rate;
        }
    }

    /// @inheritdoc IDeliveryOrders
    function stats() external view returns (Stats memory) {
        return _s().stats;
    }

    /// @inheritdoc IDeliveryOrders
    function spec() external view returns (Spec memory) {
        return _s().spec;
    }
}
