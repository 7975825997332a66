// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {IDeliveryOrders} from "../../contracts/interfaces/compute/IDeliveryOrders.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {FuturesDeliveryHandler} from "./handlers/FuturesDeliveryHandler.sol";

/// @notice MKT-08 (delivery) and TSK-03 (slashing bound to guilt) as handler-based invariants over delivery orders
///         on the real compute world (TaskSolBase: ProviderRegistry, ProviderMatcher, TaskRegistry behind proxies).
///         This contract stands in for the futures market (the only `createOrder` caller, as in
///         test/unit/futures/DeliveryOrders.t.sol); the market side of MKT-08 (the long's payment held from election
///         to settlement in every margin computation) is test/invariant/Futures.t.sol::invariant_MKT08_deliveryPaymentHeld.
///         Here the hours of an order are followed from settlement to the end of its window: one CH is one hour of
///         the class's reference system, so an order's CH are its contracted compute hours.
contract FuturesDeliveryInvariantTest is TaskSolBase {
    IDeliveryOrders internal orders;
    FuturesDeliveryHandler internal handler;
    address internal short = makeAddr("short"); // bought the providers' CH and delivered it into the market
    address[3] internal longs = [makeAddr("long0"), makeAddr("long1"), makeAddr("long2")];
    uint256 internal constant LIABLE = 3; // providers[0..2] minted the CH the short delivered

    struct Task {
        uint256 orderId;
        address executor;
        uint256 maxPayment;
        uint256 price;
        bool good;
        bool claimed;
        bool reported;
        uint256 early; // held report bounty back before the task was claimed
    }

    // ghosts
    uint256[] internal orderIds;
    uint256 internal nextSeries = 1;
    mapping(uint256 => uint256) internal contracted; // CH (hours) of the order at settlement
    mapping(uint256 => uint256) internal returned; // CH paid back to the long (close, refunds after close)
    mapping(uint256 => uint256) internal funded; // maxPayment of the order's tasks
    mapping(uint256 => uint256) internal fundedUnclaimed; // … of those not claimed yet
    mapping(uint256 => uint256) internal consumed; // price of its accepted, claimed tasks
    mapping(uint256 => uint256) internal compensated; // DPS its long received for failed tasks
    mapping(uint256 => uint256) internal failedOpen; // rejected tasks not reported yet
    mapping(uint256 => uint256) internal earlyBack; // report bounties back while their task's deposit is in inTasksCh
    uint256[] internal taskIds;
    mapping(uint256 => Task) internal taskOf;
    mapping(address => uint256) internal rejected; // executions of the provider the council rejected
    mapping(address => uint256) internal slashCount0;
    mapping(address => uint256) internal failed0;
    mapping(address => uint256) internal stake0;
    uint256 public violationsTSK03;
    uint256 public violationsMKT08;

    function setUp() public {
        _deployTasks();
        orders = _deployDeliveryOrders(address(this));
        for (uint256 i; i < LIABLE; ++i) {
            vm.prank(providers[i]);
            registry.mintCH(500e18, short);
        }
        for (uint256 i; i < providers.length; ++i) {
            IProviderRegistry.ProviderInfo memory pi = registry.providerInfo(providers[i]);
            slashCount0[providers[i]] = pi.slashCount;
            failed0[providers[i]] = pi.failed;
            stake0[providers[i]] = pi.stakedDps + pi.unbondingDps;
        }
        handler = new FuturesDeliveryHandler(address(this));
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](7);
        selectors[0] = FuturesDeliveryHandler.order.selector;
        selectors[1] = FuturesDeliveryHandler.assign.selector;
        selectors[2] = FuturesDeliveryHandler.task.selector;
        selectors[3] = FuturesDeliveryHandler.claim.selector;
        selectors[4] = FuturesDeliveryHandler.report.selector;
        selectors[5] = FuturesDeliveryHandler.close.selector;
        selectors[6] = FuturesDeliveryHandler.warp.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
    }

    modifier onlyHandler() {
        require(msg.sender == address(handler), "handler only");
        _;
    }

    // ─── the world's steps (called by the handler; a revert skips the step) ──────────────────────────────

    /// A settled electing long's CH becomes its order (the market's `_handOver`).
    function stepOrder(uint256 longSeed, uint256 chAmount) external onlyHandler {
        address long = longs[longSeed % 3];
        uint256 sid = nextSeries++;
        vm.prank(short);
        ch.transfer(address(orders), chAmount);
        uint256 id = orders.createOrder(sid, long, chAmount, 10e18);
        orderIds.push(id);
        contracted[id] = chAmount;
    }

    function _pickOrder(uint256 seed) internal view returns (uint256) {
        require(orderIds.length != 0, "no order");
        return orderIds[seed % orderIds.length];
    }

    function stepAssign(uint256 orderSeed) external onlyHandler {
        address[] memory c = new address[](providers.length);
        for (uint256 i; i < c.length; ++i) c[i] = providers[i];
        orders.assign(_pickOrder(orderSeed), c);
    }

    /// The long consumes part of its order as a task; the executor completes it (`good`) or the council rejects it.
    function stepTask(
        uint256 orderSeed,
        uint256 executorSeed,
        uint256 maxPayment,
        uint256 price,
        bool good
    ) external onlyHandler {
        uint256 id = _pickOrder(orderSeed);
        address executor = providers[executorSeed % (LIABLE + 1)]; // providers[LIABLE] owes no CH
        ITaskRegistry.Terms memory t = _terms(ITaskRegistry.Currency.CH, uint128(maxPayment), 3, 2);
        vm.prank(orders.order(id).owner);
        uint256 taskId = orders.submitTask(id, t, _prescription());
        _bid(taskId, executor, uint128(price));
        _closeAndDraw(taskId);
        require(tasks.getTask(taskId).executor == executor, "not drawn");
        _commitAll(taskId, executor, good ? keccak256("good") : keccak256("bad"));
        _voteAll(taskId, 0, good, 3);
        if (!good) vm.warp(tasks.getTask(taskId).votingEnds + 1);
        _finalize(taskId);
        funded[id] += maxPayment;
        fundedUnclaimed[id] += maxPayment;
        taskIds.push(taskId);
        taskOf[taskId] = Task(id, executor, maxPayment, price, good, false, false, 0);
        if (!good) {
            ++rejected[executor];
            ++failedOpen[id];
        }
    }

    function _pickTask(uint256 seed) internal view returns (uint256) {
        require(taskIds.length != 0, "no task");
        return taskIds[seed % taskIds.length];
    }

    function stepClaim(uint256 taskSeed) external onlyHandler {
        uint256 taskId = _pickTask(taskSeed);
        Task storage tk = taskOf[taskId];
        IDeliveryOrders.Order memory o = orders.order(tk.orderId);
        uint256 ownerBefore = ch.balanceOf(o.owner);
        orders.claimTask(taskId);
        tk.claimed = true;
        fundedUnclaimed[tk.orderId] -= tk.maxPayment;
        if (tk.good) consumed[tk.orderId] += tk.price;
        earlyBack[tk.orderId] -= tk.early; // the refund leaves the returned bounty out
        returned[tk.orderId] += ch.balanceOf(o.owner) - ownerBefore;
    }

    /// The order reports a rejected task: the executor is slashed and the DPS reaches the long.
    function stepReport(uint256 taskSeed) external onlyHandler {
        uint256 taskId = _pickTask(taskSeed);
        Task storage tk = taskOf[taskId];
        uint256 due = uint256(tasks.getTask(taskId).deadline) + 1 days + 1;
        if (block.timestamp < due) vm.warp(due);
        address owner = orders.order(tk.orderId).owner;
        IProviderRegistry.ProviderInfo memory pb = registry.providerInfo(tk.executor);
        uint256 dpsBefore = dps.balanceOf(owner);
        uint256 chBefore = ch.balanceOf(owner);
        uint256 availBefore = orders.order(tk.orderId).availableCh;
        uint256 comp = orders.reportFailure(taskId);
        IProviderRegistry.ProviderInfo memory pa = registry.providerInfo(tk.executor);
        // TSK-03: only an executor the council rejected is slashed, by the amount reported, and only once
        if (tk.good || tk.reported) ++violationsTSK03;
        if (pb.stakedDps + pb.unbondingDps - (pa.stakedDps + pa.unbondingDps) != comp) ++violationsTSK03;
        // MKT-08: the failed hours are compensated — the slash reaches the long, in full
        if (comp == 0 || dps.balanceOf(owner) - dpsBefore != comp) ++violationsMKT08;
        tk.reported = true;
        --failedOpen[tk.orderId];
        compensated[tk.orderId] += comp;
        uint256 toOwner = ch.balanceOf(owner) - chBefore; // the held report bounty, once the order is closed
        returned[tk.orderId] += toOwner;
        if (!tk.claimed) {
            tk.early = toOwner + orders.order(tk.orderId).availableCh - availBefore;
            earlyBack[tk.orderId] += tk.early;
        }
    }

    function stepClose(uint256 orderSeed, bool byOwner) external onlyHandler {
        uint256 id = _pickOrder(orderSeed);
        IDeliveryOrders.Order memory o = orders.order(id);
        if (!byOwner && block.timestamp < o.windowEnd) vm.warp(o.windowEnd);
        uint256 before = ch.balanceOf(o.owner);
        vm.prank(byOwner ? o.owner : address(0xC105E));
        uint256 got = orders.close(id);
        if (ch.balanceOf(o.owner) - before != got || got != o.availableCh) ++violationsMKT08;
        returned[id] += got;
    }

    function stepWarp(uint256 secs) external onlyHandler {
        vm.warp(block.timestamp + secs);
    }

    // ─── invariants ─────────────────────────────────────────────────────────────────────────────────────

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_MKT08_hoursDeliveredPlusCompensatedEqualContracted();
        check_MKT08_paymentHeldUntilDelivered();
        check_TSK03_slashedOnlyForAFailedAssignment();
    }

    /// @notice MKT-08: per order (per series and long), compute hours delivered + hours compensated = hours
    ///         contracted. Delivered = the accepted tasks' price, burned against the executors' liability
    ///         (`consumedCh`, exact); the rest is held (available, in running tasks) or came back to the long as CH
    ///         (unconsumed, refunds) — with the slashed DPS on top for failed tasks — and the only other CH that
    ///         leaves is the verification the long's tasks paid (council fees and keeper bounties, ≤ 12 % of a
    ///         task's deposit). No hour is created or lost.
    function check_MKT08_hoursDeliveredPlusCompensatedEqualContracted() public view {
        assertEq(violationsMKT08, 0, "MKT-08 observed in calls");
        for (uint256 k; k < orderIds.length; ++k) {
            uint256 id = orderIds[k];
            IDeliveryOrders.Order memory o = orders.order(id);
            assertEq(o.consumedCh, consumed[id], "MKT-08 delivered = accepted tasks' price");
            assertEq(o.inTasksCh, fundedUnclaimed[id], "MKT-08 held in running tasks");
            assertEq(o.compensatedDps, compensated[id], "MKT-08 compensation reached the long");
            // a report bounty back before its task is claimed is also still in the task's deposit (inTasksCh)
            uint256 accounted = uint256(o.consumedCh) + o.availableCh + o.inTasksCh + returned[id] - earlyBack[id];
            assertLe(accounted, contracted[id], "MKT-08 no hour created");
            uint256 claimedDeposits = funded[id] - fundedUnclaimed[id];
            assertLe(contracted[id] - accounted, (claimedDeposits * 12) / 100, "MKT-08 only verification is spent");
            if (o.status == IDeliveryOrders.Status.Closed) assertEq(o.availableCh, 0, "MKT-08 closed holds nothing");
        }
    }

    /// @notice MKT-08: the long's payment — the CH it paid for at settlement — is held for it until consumed or
    ///         returned: DeliveryOrders holds at least every open order's available CH.
    function check_MKT08_paymentHeldUntilDelivered() public view {
        uint256 held;
        for (uint256 k; k < orderIds.length; ++k) held += orders.order(orderIds[k]).availableCh;
        assertGe(ch.balanceOf(address(orders)), held, "MKT-08 CH held for the longs");
    }

    /// @notice TSK-03: a slashed provider is always one that failed an assignment (an execution the council
    ///         rejected), slashed at most once per failure; every other provider keeps its stake and record.
    function check_TSK03_slashedOnlyForAFailedAssignment() public view {
        assertEq(violationsTSK03, 0, "TSK-03 observed in calls");
        for (uint256 i; i < providers.length; ++i) {
            address p = providers[i];
            IProviderRegistry.ProviderInfo memory pi = registry.providerInfo(p);
            assertLe(pi.slashCount - slashCount0[p], rejected[p], "TSK-03 slashes <= failures");
            if (rejected[p] == 0) {
                assertEq(pi.slashCount, slashCount0[p], "TSK-03 innocent not slashed");
                assertEq(pi.stakedDps + pi.unbondingDps, stake0[p], "TSK-03 innocent keeps its stake");
            }
        }
    }

    /// The steps are live: an order is created, assigned, consumed by a completed and a rejected task, the failure
    /// reported, the tasks claimed and the order closed after its window, with every invariant holding.
    function test_handlerStepsAreLive() public {
        handler.order(0, 100e18);
        handler.assign(0);
        handler.task(0, 0, 30e18, 50, true);
        handler.task(0, 1, 20e18, 90, false);
        handler.report(1);
        handler.claim(0);
        handler.claim(1);
        handler.close(0, false);
        assertEq(handler.skipped(), 0, "every step ran");
        uint256 id = orderIds[0];
        IDeliveryOrders.Order memory o = orders.order(id);
        assertEq(o.consumedCh, 15e18);
        assertGt(o.compensatedDps, 0);
        assertEq(uint8(o.status), uint8(IDeliveryOrders.Status.Closed));
        assertGt(returned[id], 0);
        check_MKT08_hoursDeliveredPlusCompensatedEqualContracted();
        check_MKT08_paymentHeldUntilDelivered();
        check_TSK03_slashedOnlyForAFailedAssignment();
    }
}
