// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {IDeliveryOrders} from "../../../contracts/interfaces/compute/IDeliveryOrders.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";

/// @notice Delivery orders (issue 19 item 1, docs/futures.md "Delivery as compute") on the real compute world
///         (TaskSolBase: ProviderRegistry, ProviderMatcher, TaskRegistry behind proxies). This test contract stands
///         in for the futures market (the only `createOrder` caller); the futures routing is in
///         FuturesDeliveryCompute.t.sol. Attack tests first.
contract DeliveryOrdersTest is TaskSolBase {
    IDeliveryOrders internal orders;
    address internal long = makeAddr("long");
    address internal short = makeAddr("short"); // a trader that bought CH: not a provider
    uint256 internal constant SERIES = 7;
    bytes32 internal constant GOOD = keccak256("good");
    bytes32 internal constant BAD = keccak256("bad");

    function setUp() public {
        _deployTasks();
        orders = _deployDeliveryOrders(address(this));
        // providers[0] minted the CH the short bought and delivered into the futures market.
        vm.prank(providers[0]);
        registry.mintCH(500e18, short);
    }

    /// The market's side of a long's settlement: the shorts' CH moves here and becomes the long's order.
    function _order(uint256 chAmount) internal returns (uint256 id) {
        vm.prank(short);
        ch.transfer(address(this), chAmount);
        ch.transfer(address(orders), chAmount);
        id = orders.createOrder(SERIES, long, chAmount, 10e18);
    }

    function _candidates() internal view returns (address[] memory c) {
        c = new address[](providers.length);
        for (uint256 i; i < c.length; ++i) c[i] = providers[i];
    }

    function _assigned(uint256 chAmount) internal returns (uint256 id) {
        id = _order(chAmount);
        orders.assign(id, _candidates());
    }

    function _taskTerms(uint128 maxPayment) internal view returns (ITaskRegistry.Terms memory t) {
        t = _terms(ITaskRegistry.Currency.CH, maxPayment, 3, 2);
    }

    function _submitFromOrder(uint256 id, uint128 maxPayment) internal returns (uint256 taskId) {
        ITaskRegistry.Terms memory t = _taskTerms(maxPayment);
        vm.prank(long);
        taskId = orders.submitTask(id, t, _prescription());
    }

    /// A task of the order run by providers[0] (the only provider owing CH) with the given verdict.
    function _runTask(uint256 id, uint128 maxPayment, uint128 price, bool good) internal returns (uint256 taskId) {
        taskId = _submitFromOrder(id, maxPayment);
        _bid(taskId, providers[0], price);
        _closeAndDraw(taskId);
        assertEq(tasks.getTask(taskId).executor, providers[0]);
        _commitAll(taskId, providers[0], good ? GOOD : BAD);
        _voteAll(taskId, 0, good, 3);
        if (!good) vm.warp(tasks.getTask(taskId).votingEnds + 1);
        tasks.finalize(taskId);
    }

    // ─── attacks ───────────────────────────────────────────────────────────────────────────────────────

    /// A short that is not a provider delivered CH it bought: the order is still backed by a provider that owes
    /// that CH (providers[0] minted it) and is assigned to it through the matcher's Delivery mode.
    function test_shortNotAProvider_orderAssignedToTheLiableProvider() public {
        assertFalse(registry.providerInfo(short).registered);
        uint256 id = _assigned(200e18);
        IDeliveryOrders.Order memory o = orders.order(id);
        assertEq(o.provider, providers[0], "only providers[0] owes CH");
        assertEq(registry.providerInfo(providers[0]).assignedCh, 200e18, "liability reserved");
        // a page without a liable provider has no one to assign
        uint256 id2 = orders.orderId(SERIES + 1, long);
        vm.prank(short);
        ch.transfer(address(orders), 10e18);
        orders.createOrder(SERIES + 1, long, 10e18, 10e18);
        address[] memory page = new address[](2);
        (page[0], page[1]) = (providers[1], short);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryNoProvider.selector, id2));
        orders.assign(id2, page);
    }

    /// The assigned provider cannot unstake or buy back the reserved liability between assignment and failure,
    /// and when its task fails it is slashed, its failed and slash counts rise and the long receives the stake.
    function test_providerUnstakesBetweenAssignmentAndFailure_cannotEscapeSlash() public {
        uint256 id = _assigned(200e18);
        IProviderRegistry.ProviderInfo memory pi = registry.providerInfo(providers[0]);
        vm.startPrank(providers[0]);
        vm.expectRevert();
        registry.requestUnbond(pi.stakedDps);
        vm.expectRevert(
            abi.encodeWithSelector(
                IProviderRegistryErrors.ProviderBuyBackExceedsLiability.selector,
                providers[0],
                400e18,
                300e18
            )
        );
        registry.buyBack(400e18);
        vm.stopPrank();
        uint256 taskId = _runTask(id, 200e18, 100e18, false);
        // while the task runs the provider is still locked (its task assignment is open)
        vm.prank(providers[0]);
        vm.expectRevert();
        registry.requestUnbond(pi.stakedDps);
        vm.expectRevert(); // redemption deadline not passed
        orders.reportFailure(taskId);
        vm.warp(tasks.getTask(taskId).deadline + 1 days + 1);
        uint256 before = dps.balanceOf(long);
        uint256 comp = orders.reportFailure(taskId);
        // 100 CH × 2.5 USDC × 1.1 / 1 USDC per DPS
        assertEq(comp, 275e18);
        assertEq(dps.balanceOf(long) - before, 275e18, "the slash reaches the long");
        IProviderRegistry.ProviderInfo memory after_ = registry.providerInfo(providers[0]);
        assertEq(after_.failed, pi.failed + 1, "reputation drops");
        assertEq(after_.slashCount, pi.slashCount + 1, "risk score (slash rate) rises");
        assertEq(orders.order(id).compensatedDps, 275e18);
        assertEq(orders.stats().slashedDps, 275e18);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryUnknownTask.selector, taskId));
        orders.reportFailure(taskId);
        // the rejected task's CH is back in the order: minus 3 council fees and the 3 keeper bounties (0.1 % of the
        // 200 CH deposit each: closeBidding, drawCouncil, finalize by this third party); the failure report's held
        // bounty came back when the order reported (issue 21 item 6)
        orders.claimTask(taskId);
        assertEq(orders.order(id).availableCh, 196.4e18);
    }

    /// An order belongs to the long that elected: nobody else can consume or close it before the window ends.
    function test_electThenTransfer_orderIsNotTransferable() public {
        uint256 id = _assigned(200e18);
        ITaskRegistry.Terms memory t = _taskTerms(100e18);
        address thief = makeAddr("thief");
        vm.startPrank(thief);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryNotOwner.selector, id, thief));
        orders.submitTask(id, t, _prescription());
        vm.expectRevert(
            abi.encodeWithSelector(IDeliveryOrders.DeliveryWindow.selector, id, orders.order(id).windowEnd)
        );
        orders.close(id);
        vm.stopPrank();
    }

    /// An order cannot be consumed twice: more than it holds reverts, a task is accounted once, a closed order
    /// cannot be used, and a second order for the same long and series is refused.
    function test_doubleConsume_reverts() public {
        uint256 id = _assigned(200e18);
        ITaskRegistry.Terms memory t = _taskTerms(201e18);
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryInsufficientCh.selector, id, 201e18, 200e18));
        orders.submitTask(id, t, _prescription());
        uint256 taskId = _runTask(id, 150e18, 100e18, true);
        t = _taskTerms(60e18);
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryInsufficientCh.selector, id, 60e18, 50e18));
        orders.submitTask(id, t, _prescription());
        uint256 refund = orders.claimTask(taskId);
        assertEq(refund, 46.55e18, "150 - 100 price - 3 council fees - 3 keeper bounties of 0.15");
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryUnknownTask.selector, taskId));
        orders.claimTask(taskId);
        assertEq(orders.order(id).availableCh, 96.55e18);
        vm.prank(short);
        ch.transfer(address(orders), 1e18);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryOrderExists.selector, id));
        orders.createOrder(SERIES, long, 1e18, 10e18);
        vm.prank(long);
        assertEq(orders.close(id), 96.55e18);
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryOrderNotOpen.selector, id));
        orders.close(id);
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryOrderNotOpen.selector, id));
        orders.submitTask(id, _taskTerms(1e18), _prescription());
    }

    /// A paused TaskRegistry refuses the task: the whole submission reverts and the order keeps its CH and its
    /// reservation; it proceeds once unpaused.
    function test_pausedTaskRegistry_orderKeepsItsCh() public {
        uint256 id = _assigned(200e18);
        IDeliveryOrders.Order memory before = orders.order(id);
        IChxModule(address(tasks)).pauseFeature(keccak256("task.submit"));
        ITaskRegistry.Terms memory t = _taskTerms(100e18);
        vm.prank(long);
        vm.expectRevert();
        orders.submitTask(id, t, _prescription());
        IDeliveryOrders.Order memory after_ = orders.order(id);
        assertEq(after_.availableCh, before.availableCh);
        assertEq(after_.assignmentId, before.assignmentId);
        assertEq(registry.providerInfo(providers[0]).assignedCh, 200e18);
        assertEq(ch.balanceOf(address(orders)), 200e18);
        IChxModule(address(tasks)).unpauseFeature(keccak256("task.submit"));
        vm.prank(long);
        orders.submitTask(id, t, _prescription());
        assertEq(orders.order(id).availableCh, 100e18);
    }

    // ─── the path ──────────────────────────────────────────────────────────────────────────────────────

    /// The long consumes its order as tasks without paying again: the accepted task burns CH against the executor's
    /// liability, the reservation follows what the order holds, the rest returns to the long at the window's end.
    function test_orderConsumedAsTasks_thenClosed() public {
        uint256 id = _assigned(200e18);
        (uint256 pflopHours, uint256 providerHours) = orders.meter(id);
        assertEq(pflopHours, (200e18 * 0.312e18) / 1e18, "1 CH = the class's reference for an hour");
        assertGt(providerHours, 0);
        uint256 longCh = ch.balanceOf(long);
        uint256 taskId = _runTask(id, 150e18, 100e18, true);
        assertEq(registry.providerInfo(providers[0]).assignedCh, 50e18, "order's 50 left reserved; task paid");
        assertEq(registry.liabilityOf(providers[0]), 400e18, "100 CH burned against the executor's liability");
        orders.claimTask(taskId);
        IDeliveryOrders.Order memory o = orders.order(id);
        assertEq(o.consumedCh, 100e18);
        assertEq(o.inTasksCh, 0);
        IDeliveryOrders.Stats memory st = orders.stats();
        assertEq(st.tasksCompleted, 1);
        assertEq(st.chDelivered, 100e18);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryWindow.selector, id, o.windowEnd));
        orders.close(id);
        vm.warp(o.windowEnd);
        // 50 never spent + the task's refund (150 − 100 price − 3 council fees − 3 keeper bounties of 0.15)
        assertEq(orders.close(id), 96.55e18);
        assertEq(ch.balanceOf(long) - longCh, 96.55e18, "unconsumed CH back to the long");
        assertEq(registry.providerInfo(providers[0]).assignedCh, 0, "reservation released");
        assertEq(ch.balanceOf(address(orders)), 0);
    }

    /// A task that ends after its order closed refunds the long directly.
    function test_taskEndingAfterClose_refundsTheLong() public {
        uint256 id = _assigned(200e18);
        uint256 taskId = _submitFromOrder(id, 100e18);
        vm.prank(long);
        assertEq(orders.close(id), 100e18);
        vm.warp(block.timestamp + 1 hours + 1);
        tasks.closeBidding(taskId); // no bids: cancelled, the escrow back less this caller's keeper bounty (0.1 CH)
        uint256 before = ch.balanceOf(long);
        assertEq(orders.claimTask(taskId), 99.9e18);
        assertEq(ch.balanceOf(long) - before, 99.9e18);
        assertEq(ch.balanceOf(address(orders)), 0, "nothing stranded: the refund credited is the refund paid");
        assertEq(orders.orderOfTask(taskId), 0);
    }

    function test_guards() public {
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryOnlyMarket.selector, long));
        orders.createOrder(SERIES, long, 1e18, 1e18);
        vm.expectRevert(IDeliveryOrders.DeliveryInvalidParams.selector);
        orders.createOrder(SERIES, long, 0, 1e18);
        uint256 id = _order(100e18);
        // not assigned yet
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryNotAssigned.selector, id));
        orders.submitTask(id, _taskTerms(10e18), _prescription());
        orders.assign(id, _candidates());
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryAlreadyAssigned.selector, id, providers[0]));
        orders.assign(id, _candidates());
        ITaskRegistry.Terms memory t = _taskTerms(10e18);
        t.currency = ITaskRegistry.Currency.USDC;
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryTermsMismatch.selector, id));
        orders.submitTask(id, t, _prescription());
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryUnknownTask.selector, 999));
        orders.claimTask(999);
        uint256 taskId = _submitFromOrder(id, 10e18);
        vm.expectRevert(
            abi.encodeWithSelector(IDeliveryOrders.DeliveryTaskNotEnded.selector, taskId, ITaskRegistry.Status.Bidding)
        );
        orders.claimTask(taskId);
        uint40 end = orders.order(id).windowEnd;
        vm.warp(end);
        ITaskRegistry.Terms memory late = _taskTerms(10e18);
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryWindow.selector, id, end));
        orders.submitTask(id, late, _prescription());
        // grade filter: nobody is grade A in this world
        orders.setSpec(IDeliveryOrders.Spec({workloadClass: 1, minGrade: 0, windowSec: 1 days}));
        assertEq(orders.spec().minGrade, 0);
        uint256 id2 = orders.orderId(SERIES + 1, long);
        vm.prank(short);
        ch.transfer(address(orders), 10e18);
        orders.createOrder(SERIES + 1, long, 10e18, 10e18);
        if (registry.providerInfo(providers[0]).performanceGrade > 0) {
            vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryNoProvider.selector, id2));
            orders.assign(id2, _candidates());
        }
        vm.expectRevert(IDeliveryOrders.DeliveryInvalidParams.selector);
        orders.setSpec(IDeliveryOrders.Spec({workloadClass: 1, minGrade: 4, windowSec: 1 days}));
        uint40 end2 = orders.order(id2).windowEnd;
        vm.warp(end2);
        address[] memory cands = _candidates();
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryWindow.selector, id2, end2));
        orders.assign(id2, cands);
        (uint256 ph, uint256 hrs) = orders.meter(id2);
        assertEq(hrs, 0, "unassigned");
        assertGt(ph, 0);
    }

    // ─── a failing futures short (item 2) ──────────────────────────────────────────────────────────────

    /// A short that failed its assignment and is a provider loses DPS stake worth the penalty (finder fee to the
    /// settler, the rest to the market for the series' longs, valued back at the same DPS price), and its failed
    /// and slash counts rise; a short that is no provider is untouched.
    function test_failedShortProvider_slashedAndReputationDrops() public {
        address p = providers[3];
        IProviderRegistry.ProviderInfo memory before = registry.providerInfo(p);
        address finder = makeAddr("settler");
        uint256 marketBefore = dps.balanceOf(address(this));
        // penalty 110 USDC → 110 DPS at 1 USDC per DPS; 10 % finder fee; 99 DPS (99 USDC) to the market's longs
        (uint256 toLongs, uint256 credited) = orders.slashFailedShort(SERIES, p, 10e18, 110e6, finder);
        assertEq(toLongs, 99e18);
        assertEq(credited, 99e6, "the slash's value covers this much of the penalty");
        assertEq(dps.balanceOf(address(this)) - marketBefore, 99e18, "paid to the market, not burned");
        IProviderRegistry.ProviderInfo memory after_ = registry.providerInfo(p);
        assertEq(before.stakedDps - after_.stakedDps, 110e18);
        assertEq(after_.failed, before.failed + 1, "reputation drops");
        assertEq(after_.slashCount, before.slashCount + 1, "risk score rises");
        assertEq(dps.balanceOf(finder), 11e18, "finder fee as elsewhere");
        (toLongs, credited) = orders.slashFailedShort(SERIES, short, 10e18, 110e6, finder);
        assertEq(toLongs + credited, 0, "not a provider");
        assertEq(orders.dpsToken(), address(dps));
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryOnlyMarket.selector, long));
        orders.slashFailedShort(SERIES, p, 10e18, 110e6, finder);
    }

    /// A provider that unbonded everything before failing is slashed from its unbonding stake; a registry that
    /// refuses (role revoked) slashes nothing and does not block the market's settlement.
    function test_failedShortProvider_unbondedOrRefused_neverBlocks() public {
        address p = providers[4];
        uint256 staked = registry.providerInfo(p).stakedDps;
        vm.prank(p);
        registry.requestUnbond(staked);
        (uint256 toLongs, uint256 credited) = orders.slashFailedShort(SERIES, p, 10e18, 110e6, address(0));
        assertEq(toLongs, 110e18, "taken from unbonding, no finder: all to the longs");
        assertEq(credited, 110e6);
        manager.revokeRole(Roles.PROVIDER_SLASHER, address(orders));
        (toLongs, credited) = orders.slashFailedShort(SERIES, p, 10e18, 110e6, address(0));
        assertEq(toLongs + credited, 0);
    }

    /// The slash is bounded by what the provider has (stake, then unbonding): a penalty worth more than its stake
    /// takes all of it and credits only its value, so the market charges the rest to the short's margin.
    function test_failedShortProvider_slashBoundedByStake_creditsOnlyItsValue() public {
        address p = providers[5];
        IProviderRegistry.ProviderInfo memory info = registry.providerInfo(p);
        uint256 stake = info.stakedDps + info.unbondingDps;
        uint256 penalty = (stake / 1e12) * 3; // 3 × the stake's USDC value at 1 USDC per DPS
        (uint256 toLongs, uint256 credited) = orders.slashFailedShort(SERIES, p, 10e18, penalty, address(0));
        assertEq(toLongs, stake, "all it had");
        assertEq(credited, stake / 1e12, "its value, not the penalty");
        assertLt(credited, penalty);
        IProviderRegistry.ProviderInfo memory after_ = registry.providerInfo(p);
        assertEq(after_.stakedDps + after_.unbondingDps, 0);
    }

    /// `slashTo` needs a recipient (a zero one would burn silently what a harmed party is owed) and only a slasher
    /// may call it.
    function test_slashTo_rejectsZeroRecipient_andNonSlasher() public {
        address p = providers[6];
        vm.prank(long);
        vm.expectRevert();
        registry.slashTo(p, 1e18, address(0), long, bytes32(0));
        _grant(Roles.PROVIDER_SLASHER, address(this));
        vm.expectRevert(IChxModule.ChxZeroAddress.selector);
        registry.slashTo(p, 1e18, address(0), address(0), bytes32(0));
    }

    function test_initialize_rejectsZeroAddresses() public {
        bytes memory init = abi.encodeWithSignature(
            "initialize(address,address,address,address,address,address,address,address,(uint16,uint8,uint32))",
            manager,
            address(0),
            registry,
            matcher,
            tasks,
            standard,
            ch,
            dps,
            IDeliveryOrders.Spec({workloadClass: 1, minGrade: 3, windowSec: 1 days})
        );
        vm.expectRevert();
        this.deployProxy(init);
    }

    function deployProxy(bytes memory init) external returns (address) {
        return _proxy("DeliveryOrders.sol:DeliveryOrders", init);
    }
}
