// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";
import {IDeliveryOrders} from "../../../contracts/interfaces/compute/IDeliveryOrders.sol";
import {IProviderRegistry} from "../../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {IChxModule} from "../../../contracts/interfaces/base/IChxModule.sol";
import {FuturesSecuritySetup} from "./FuturesSecuritySetup.sol";
import {IFuturesTypes} from "../../../contracts/interfaces/markets/IFuturesTypes.sol";

/// @notice Round 49: sequence attacks on delivery as compute (issue 19 item 1, docs/futures.md "Delivery as
///         compute"): an order's task reported failed after it was consumed, raced against its own end, reported
///         twice, reported after the order closed, reordered against its claim, failed by an executor that is not
///         the order's reserved provider, or by a provider slashed elsewhere in between. The compute world is the
///         real one (TaskSolBase); this test contract stands in for the futures market (as DeliveryOrders.t.sol).
contract DeliverySequenceAttacksTest is TaskSolBase {
    IDeliveryOrders internal orders;
    address internal long = makeAddr("long");
    address internal short = makeAddr("short");
    address internal stranger = makeAddr("stranger");
    uint256 internal constant SERIES = 7;
    bytes32 internal constant GOOD = keccak256("good");

    function setUp() public {
        _deployTasks();
        orders = _deployDeliveryOrders(address(this));
        vm.prank(providers[0]);
        registry.mintCH(500e18, short);
    }

    // ─── helpers (mirroring DeliveryOrders.t.sol) ──────────────────────────────────────────────────────

    function _order(uint256 series, uint256 chAmount) internal returns (uint256 id) {
        vm.prank(short);
        ch.transfer(address(orders), chAmount);
        id = orders.createOrder(series, long, chAmount, 10e18);
    }

    function _only(address p) internal pure returns (address[] memory c) {
        c = new address[](1);
        c[0] = p;
    }

    function _submitFromOrder(uint256 id, uint128 maxPayment) internal returns (uint256 taskId) {
        ITaskRegistry.Terms memory t = _terms(ITaskRegistry.Currency.CH, maxPayment, 3, 2);
        vm.prank(long);
        taskId = orders.submitTask(id, t, _prescription());
    }

    /// A task of order `id` won by `executor` at `price`, that never delivers: expired after its deadline.
    function _expiredTask(uint256 id, address executor, uint128 maxPayment, uint128 price) internal returns (uint256) {
        uint256 taskId = _submitFromOrder(id, maxPayment);
        _bid(taskId, executor, price);
        _closeAndDraw(taskId);
        assertEq(tasks.getTask(taskId).executor, executor);
        vm.warp(tasks.getTask(taskId).deadline + 1);
        tasks.expire(taskId);
        return taskId;
    }

    /// A task of order `id` won by `executor` at `price`, delivered and judged `good`.
    function _judgedTask(
        uint256 id,
        address executor,
        uint128 maxPayment,
        uint128 price,
        bool good
    ) internal returns (uint256 taskId) {
        taskId = _submitFromOrder(id, maxPayment);
        _bid(taskId, executor, price);
        _closeAndDraw(taskId);
        _commitAll(taskId, executor, GOOD);
        _voteAll(taskId, 0, good, 3);
        if (!good) vm.warp(tasks.getTask(taskId).votingEnds + 1);
        tasks.finalize(taskId);
    }

    /// The redemption deadline of a task's assignment: its deadline plus the registry grace (1 day).
    function _pastRedemptionDeadline(uint256 taskId) internal {
        vm.warp(tasks.getTask(taskId).deadline + 1 days + 1);
    }

    /// The CH the task paid to third-party keepers out of its deposit (0.1 % of the deposit per paid step).
    function _keeperPaid(uint256 taskId) internal view returns (uint256) {
        ITaskRegistry.Task memory k = tasks.getTask(taskId);
        return ((k.flags >> 2) & 7) * ((uint256(k.maxPayment) * 10) / 10_000);
    }

    /// MKT-08: what an order holds, has in tasks and consumed never exceeds what it was contracted.
    function _assertWithinContract(uint256 id, uint256 contracted) internal view {
        IDeliveryOrders.Order memory o = orders.order(id);
        assertLe(uint256(o.availableCh) + o.inTasksCh + o.consumedCh, contracted, "MKT-08 over-credited");
    }

    // ─── attacks ───────────────────────────────────────────────────────────────────────────────────────

    /// @notice Sequence: the long consumes its order as a task that is accepted (hours delivered and burned), then
    ///         reports that task as failed, before and after the redemption deadline. MKT-08 / TSK-03: the hours
    ///         delivered are never also compensated, the executor is not slashed, the report stays refused.
    function test_consumedTaskReportedFailed_refused_noDoubleCompensation() public {
        uint256 id = _order(SERIES, 200e18);
        orders.assign(id, _only(providers[0]));
        uint256 taskId = _judgedTask(id, providers[0], 150e18, 100e18, true);
        IProviderRegistry.ProviderInfo memory before = registry.providerInfo(providers[0]);
        uint256 dpsBefore = dps.balanceOf(long);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoOpenRedemption.selector, taskId));
        orders.reportFailure(taskId);
        _pastRedemptionDeadline(taskId);
        vm.prank(long);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoOpenRedemption.selector, taskId));
        orders.reportFailure(taskId);
        orders.claimTask(taskId);
        IProviderRegistry.ProviderInfo memory after_ = registry.providerInfo(providers[0]);
        assertEq(dps.balanceOf(long), dpsBefore, "no compensation for delivered hours");
        assertEq(after_.stakedDps, before.stakedDps, "TSK-03: a provider that delivered is not slashed");
        assertEq(after_.failed, before.failed);
        IDeliveryOrders.Order memory o = orders.order(id);
        assertEq(o.consumedCh, 100e18);
        assertEq(o.compensatedDps, 0);
        _assertWithinContract(id, 200e18);
        // the consumed hours cannot be consumed again: the order holds only what is left
        ITaskRegistry.Terms memory t = _terms(ITaskRegistry.Currency.CH, uint128(o.availableCh) + 1, 3, 2);
        vm.prank(long);
        vm.expectRevert(
            abi.encodeWithSelector(
                IDeliveryOrders.DeliveryInsufficientCh.selector,
                id,
                uint256(o.availableCh) + 1,
                o.availableCh
            )
        );
        orders.submitTask(id, t, _prescription());
    }

    /// @notice Sequence: a failure report raced ahead of the task's end (while it runs), then ahead of the
    ///         redemption deadline (the executor may still be confirmed late), then after it, then once more.
    ///         MKT-05 / TSK-03: an early report neither slashes nor burns the order's one report; the failure is
    ///         compensated exactly once, after the deadline the executor accepted.
    function test_reportRacedBeforeEndAndDeadline_thenTwice_compensatesOnce() public {
        uint256 id = _order(SERIES, 200e18);
        orders.assign(id, _only(providers[0]));
        uint256 taskId = _submitFromOrder(id, 200e18);
        _bid(taskId, providers[0], 100e18);
        _closeAndDraw(taskId);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoOpenRedemption.selector, taskId));
        orders.reportFailure(taskId);
        vm.warp(tasks.getTask(taskId).deadline + 1);
        tasks.expire(taskId);
        uint256 assignmentId = tasks.getTask(taskId).assignmentId;
        uint256 due = tasks.getTask(taskId).deadline + 1 days;
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderDeliveryNotLate.selector, assignmentId, due)
        );
        orders.reportFailure(taskId);
        uint256 staked = registry.providerInfo(providers[0]).stakedDps;
        assertEq(dps.balanceOf(long), 0, "nothing paid early");
        vm.warp(due + 1);
        uint256 comp = orders.reportFailure(taskId);
        assertEq(comp, 275e18, "100 CH x 2.5 x 1.1 at 1 USDC per DPS");
        assertEq(dps.balanceOf(long), comp);
        assertEq(staked - registry.providerInfo(providers[0]).stakedDps, comp, "slashed by the amount set");
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryUnknownTask.selector, taskId));
        orders.reportFailure(taskId);
        vm.prank(stranger);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoOpenRedemption.selector, taskId));
        tasks.reportRedemptionFailure(taskId);
        assertEq(dps.balanceOf(long), comp, "paid once");
        assertEq(orders.order(id).compensatedDps, comp);
        orders.claimTask(taskId);
        assertEq(orders.order(id).consumedCh, 0, "nothing delivered");
        _assertWithinContract(id, 200e18);
    }

    /// @notice Sequence: a task fails, the order's window ends and a stranger closes the order, and only then is
    ///         the failure reported and the task claimed. MKT-08: the compensation, the report's held bounty and
    ///         the refund all reach the long; DeliveryOrders keeps neither CH nor DPS.
    function test_reportAfterWindowClosedByStranger_everythingReachesTheLong() public {
        uint256 id = _order(SERIES, 200e18);
        orders.assign(id, _only(providers[0]));
        uint256 taskId = _expiredTask(id, providers[0], 200e18, 100e18);
        uint40 end = orders.order(id).windowEnd;
        vm.warp(end);
        vm.prank(stranger);
        assertEq(orders.close(id), 0, "everything was in the task");
        assertEq(registry.providerInfo(providers[0]).assignedCh, 100e18, "only the task's assignment left");
        vm.prank(stranger);
        uint256 comp = orders.reportFailure(taskId);
        assertEq(comp, 275e18);
        vm.prank(stranger);
        orders.claimTask(taskId);
        assertEq(dps.balanceOf(long), comp, "compensation to the owner of the closed order");
        assertEq(ch.balanceOf(long), 200e18 - _keeperPaid(taskId), "the deposit less the keepers' bounties");
        assertEq(ch.balanceOf(address(orders)), 0, "no CH stranded");
        assertEq(dps.balanceOf(address(orders)), 0, "no DPS stranded");
        assertEq(dps.balanceOf(stranger) + ch.balanceOf(stranger), 0, "the stranger gains nothing");
        assertEq(registry.providerInfo(providers[0]).assignedCh, 0);
    }

    /// @notice Sequence: the same failure on two orders, claimed then reported on one and reported then claimed
    ///         on the other (a reorder of the two calls). MKT-08: both orders end with the same CH and the same
    ///         compensation; neither the held report bounty nor the refund is counted twice or lost.
    function test_claimThenReport_equalsReportThenClaim() public {
        uint256 a = _order(SERIES, 200e18);
        uint256 b = _order(SERIES + 1, 200e18);
        orders.assign(a, _only(providers[0]));
        orders.assign(b, _only(providers[0]));
        uint256 ta = _judgedTask(a, providers[0], 200e18, 100e18, false);
        uint256 tb = _judgedTask(b, providers[0], 200e18, 100e18, false);
        assertEq(tasks.getTask(ta).flags, tasks.getTask(tb).flags, "same keeper history");
        _pastRedemptionDeadline(tb);
        orders.claimTask(ta);
        uint256 ca = orders.reportFailure(ta);
        uint256 cb = orders.reportFailure(tb);
        orders.claimTask(tb);
        IDeliveryOrders.Order memory oa = orders.order(a);
        IDeliveryOrders.Order memory ob = orders.order(b);
        assertEq(oa.availableCh, ob.availableCh, "same CH back whatever the order of the calls");
        assertEq(ca, cb);
        assertEq(oa.compensatedDps, ob.compensatedDps);
        assertEq(oa.inTasksCh + ob.inTasksCh, 0);
        _assertWithinContract(a, 200e18);
        assertEq(ch.balanceOf(address(orders)), uint256(oa.availableCh) + ob.availableCh, "nothing unattributed");
    }

    /// @notice Sequence: the order's liability is reserved on providers[0], but the task is won and failed by
    ///         another liable provider (providers[1]). TSK-03: only the provider that accepted and missed the
    ///         deadline is slashed; the reserved one keeps its stake and record and its reservation is released.
    function test_executorNotTheReservedProvider_onlyTheFailingOneSlashed() public {
        vm.prank(providers[1]);
        registry.mintCH(300e18, short);
        uint256 id = _order(SERIES, 200e18);
        orders.assign(id, _only(providers[0]));
        assertEq(orders.order(id).provider, providers[0]);
        IProviderRegistry.ProviderInfo memory p0 = registry.providerInfo(providers[0]);
        IProviderRegistry.ProviderInfo memory p1 = registry.providerInfo(providers[1]);
        uint256 taskId = _expiredTask(id, providers[1], 200e18, 100e18);
        assertEq(registry.providerInfo(providers[1]).assignedCh, 100e18, "the executor's own assignment");
        assertEq(registry.providerInfo(providers[0]).assignedCh, 0, "the order holds nothing outside the task");
        _pastRedemptionDeadline(taskId);
        uint256 comp = orders.reportFailure(taskId);
        assertEq(comp, 275e18);
        IProviderRegistry.ProviderInfo memory p0After = registry.providerInfo(providers[0]);
        IProviderRegistry.ProviderInfo memory p1After = registry.providerInfo(providers[1]);
        assertEq(p1.stakedDps - p1After.stakedDps, comp, "the failing executor pays");
        assertEq(p1After.failed, p1.failed + 1);
        assertEq(p0After.stakedDps + p0After.unbondingDps, p0.stakedDps + p0.unbondingDps, "reserved one untouched");
        assertEq(p0After.failed, p0.failed);
        assertEq(p0After.slashCount, p0.slashCount);
        assertEq(p1After.assignedCh, 0);
        vm.prank(long);
        orders.close(id);
        assertEq(registry.providerInfo(providers[0]).assignedCh, 0);
    }

    /// @notice Sequence: the executor of an order's task is slashed elsewhere (another slasher) between its
    ///         selection and its missed deadline, down to less than the compensation owed. TSK-03 / MKT-05: the
    ///         failure is still reported and slashed, bounded by what is left; the long receives exactly that
    ///         and is not paid twice.
    function test_executorSlashedElsewhereBeforeFailure_boundedCompensationOnce() public {
        uint256 id = _order(SERIES, 200e18);
        orders.assign(id, _only(providers[0]));
        uint256 taskId = _submitFromOrder(id, 200e18);
        _bid(taskId, providers[0], 100e18);
        _closeAndDraw(taskId);
        _grant(Roles.PROVIDER_SLASHER, address(this));
        IProviderRegistry.ProviderInfo memory info = registry.providerInfo(providers[0]);
        registry.slash(providers[0], info.stakedDps - 40e18, address(0), keccak256("elsewhere"));
        info = registry.providerInfo(providers[0]);
        uint256 left = info.stakedDps + info.unbondingDps;
        assertLt(left, 275e18, "less than the 275 DPS owed");
        vm.warp(tasks.getTask(taskId).deadline + 1);
        tasks.expire(taskId);
        _pastRedemptionDeadline(taskId);
        uint256 comp = orders.reportFailure(taskId);
        assertEq(comp, left, "bounded by its stake");
        assertEq(dps.balanceOf(long), comp);
        info = registry.providerInfo(providers[0]);
        assertEq(info.stakedDps + info.unbondingDps, 0);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryUnknownTask.selector, taskId));
        orders.reportFailure(taskId);
        assertEq(dps.balanceOf(address(orders)), 0);
        assertEq(orders.order(id).compensatedDps, comp);
    }

    /// @notice Sequence: every ProviderRegistry feature paused (a paused neighbour) between assignment and use.
    ///         MKT-08: the order's path (task submission, its reservation, close) never depends on a pausable
    ///         registry feature: the long's CH is never locked by the pause, and assignment works after unpause.
    function test_registryPausedBetweenAssignmentAndUse_orderPathUnaffected() public {
        uint256 id = _order(SERIES, 200e18);
        uint256 other = _order(SERIES + 1, 50e18);
        orders.assign(id, _only(providers[0]));
        bytes32[5] memory features = [
            keccak256("registry.stake"),
            keccak256("registry.attest"),
            keccak256("registry.heartbeat"),
            keccak256("registry.mint"),
            keccak256("registry.register")
        ];
        for (uint256 i; i < 5; ++i) IChxModule(address(registry)).pauseFeature(features[i]);
        orders.assign(other, _only(providers[0]));
        _submitFromOrder(id, 120e18);
        assertEq(registry.providerInfo(providers[0]).assignedCh, 80e18 + 50e18, "both reservations follow");
        vm.prank(long);
        assertEq(orders.close(id), 80e18, "the long's CH is not held by the pause");
        vm.prank(long);
        assertEq(orders.close(other), 50e18);
        for (uint256 i; i < 5; ++i) IChxModule(address(registry)).unpauseFeature(features[i]);
        assertEq(registry.providerInfo(providers[0]).assignedCh, 0);
    }

    /// @notice Sequence: a third party (a keeper earning the report bounty) reports the order's failed task
    ///         straight to the TaskRegistry before the long calls DeliveryOrders.reportFailure. MKT-05: the long must
    ///         still be compensated. BUG found in round 49: the slashed DPS stayed in DeliveryOrders unattributed and
    ///         the long's own report reverted (TaskNoOpenRedemption), so the long got nothing. Fixed: the registry
    ///         records what a report by anyone but the client paid the client (`reportedToClient`) and
    ///         `reportFailure` credits the order from that record, once; another order's own report is untouched.
    function test_thirdPartyReportsFirst_longStillCompensated() public {
        uint256 id = _order(SERIES, 200e18);
        orders.assign(id, _only(providers[0]));
        uint256 taskId = _expiredTask(id, providers[0], 200e18, 100e18);
        uint256 id2 = _order(SERIES + 1, 100e18);
        orders.assign(id2, _only(providers[0]));
        uint256 open = _expiredTask(id2, providers[0], 100e18, 50e18);
        _pastRedemptionDeadline(open);
        (bool reported, , ) = tasks.reportedToClient(taskId);
        assertFalse(reported, "nothing recorded before a report");
        vm.prank(stranger);
        tasks.reportRedemptionFailure(taskId);
        assertEq(dps.balanceOf(address(orders)), 275e18, "the compensation landed in DeliveryOrders");
        uint256 comp;
        uint256 backCh;
        (reported, comp, backCh) = tasks.reportedToClient(taskId);
        assertTrue(reported);
        assertEq(comp, 275e18, "the registry recorded what it paid the client");
        assertEq(backCh, 0, "a keeper's report keeps the held bounty as its own");
        // anyone may forward it, once: the long is credited from the record, nothing is reported a second time
        vm.expectEmit(address(orders));
        emit IDeliveryOrders.DeliveryCompensated(id, taskId, long, 275e18, 275e18);
        vm.prank(stranger);
        assertEq(orders.reportFailure(taskId), 275e18);
        vm.expectRevert(abi.encodeWithSelector(IDeliveryOrders.DeliveryUnknownTask.selector, taskId));
        orders.reportFailure(taskId);
        orders.claimTask(taskId);
        assertEq(dps.balanceOf(long), 275e18, "MKT-05: the long is compensated, once");
        assertEq(orders.order(id).compensatedDps, 275e18);
        assertEq(dps.balanceOf(address(orders)), 0, "no DPS unattributed");
        // the long's own report of the other task goes through the registry as before (no record: client-reported)
        uint256 own = orders.reportFailure(open);
        assertGt(own, 0);
        assertEq(dps.balanceOf(long), 275e18 + own);
        (reported, , ) = tasks.reportedToClient(open);
        assertFalse(reported, "the client's own report writes no record");
        assertEq(dps.balanceOf(address(orders)), 0);
    }

    /// @notice Sequence: the failing executor reports its own failure to the TaskRegistry (it earns no bounty, so the
    ///         report's held CH goes back to the client) before the order claims the task. MKT-05 / MKT-08: both the
    ///         DPS compensation and the held CH reach the order's side — the DPS to the long, the CH to the order —
    ///         exactly as if the long had reported; DeliveryOrders keeps nothing unattributed.
    function test_executorReportsItsOwnFailure_heldBountyAndCompensationReachTheOrder() public {
        uint256 id = _order(SERIES, 200e18);
        orders.assign(id, _only(providers[0]));
        uint256 taskId = _expiredTask(id, providers[0], 200e18, 100e18);
        _pastRedemptionDeadline(taskId);
        uint256 chBefore = ch.balanceOf(address(orders));
        vm.prank(providers[0]);
        tasks.reportRedemptionFailure(taskId);
        (bool reported, uint256 comp, uint256 backCh) = tasks.reportedToClient(taskId);
        assertTrue(reported);
        assertGt(comp, 0);
        assertGt(backCh, 0, "the executor's report returns the held bounty to the client");
        assertEq(ch.balanceOf(address(orders)) - chBefore, backCh);
        uint256 avail = orders.order(id).availableCh;
        assertEq(orders.reportFailure(taskId), comp);
        assertEq(orders.order(id).availableCh, avail + backCh, "the held CH is the order's again");
        assertEq(dps.balanceOf(long), comp);
        assertEq(dps.balanceOf(address(orders)), 0, "no DPS unattributed");
        orders.claimTask(taskId);
        assertEq(orders.order(id).compensatedDps, comp);
    }
}

/// @notice Round 49, the futures half of delivery as compute: an electing long across a paused neighbour and a
///         forced reduction after finalisation, with DeliveryOrders wired (its compute neighbours are placeholders,
///         as in FuturesDeliveryCompute.t.sol: opening and closing an order does not call them).
contract DeliverySequenceAttacksFuturesTest is FuturesSecuritySetup {
    IDeliveryOrders internal orders;

    function _wireOrders() internal {
        address stub = makeAddr("computeStub");
        orders = IDeliveryOrders(
            _proxy(
                deployCode("DeliveryOrders.sol:DeliveryOrders"),
                abi.encodeWithSignature(
                    "initialize(address,address,address,address,address,address,address,address,(uint16,uint8,uint32))",
                    address(manager),
                    address(futures),
                    stub,
                    stub,
                    stub,
                    stub,
                    address(chToken),
                    stub,
                    IDeliveryOrders.Spec({workloadClass: 1, minGrade: 2, windowSec: 30 days})
                )
            )
        );
        futures.setDeliveryOrders(address(orders));
    }

    /// @notice Sequence: alice elects 100, futures trading is paused (a paused neighbour for the election), she
    ///         withdraws all the margin check lets go, lowers her election to 60 while paused and tries to raise it
    ///         back; expiry, fixing, finalisation and settlement run under the pause; trading resumes and she opens
    ///         her order. MKT-08: the payment stays held through the pause (no forfeit, no bad debt), lowering is
    ///         never blocked and releases the short's unassigned escrow, raising is, and the order carries exactly
    ///         the 60 CH paid for.
    function test_tradingPausedBetweenElectionAndSettlement_paymentHeld_orderOpensAfterUnpause() public {
        _wireOrders();
        uint256 capitalBefore = pool.guarantorInfo(guarantor).capitalUsdc;
        _deliveringPair();
        bytes32 trade = keccak256("futures.trade");
        IChxModule(address(futures)).pauseFeature(trade);
        uint256 free = _free(alice);
        vm.prank(alice);
        chouse.withdraw(free, alice);
        vm.prank(alice);
        vm.expectRevert();
        chouse.withdraw(1_000e6, alice); // the 1,000 payment is not free
        vm.prank(alice);
        futures.electDelivery(id, 60e18);
        vm.prank(alice);
        vm.expectRevert();
        futures.electDelivery(id, 100e18);
        assertEq(futures.positionOf(id, alice).electedCh, 60e18);
        _finalise();
        futures.settlePosition(id, bob);
        vm.prank(alice);
        futures.settlePosition(id, alice);
        assertEq(futures.positionOf(id, alice).escrowCh, 60e18, "the claim: all 60 paid for");
        assertEq(chToken.balanceOf(bob), 40e18, "the unassigned escrow back to the short");
        assertEq(chToken.balanceOf(address(vault)), 0, "nothing forfeited");
        IFuturesTypes.Series memory s = futures.seriesInfo(id);
        assertEq(s.deliveredCh, s.receivedCh, "MKT-05");
        _assertNoBadDebt(capitalBefore);
        IChxModule(address(futures)).unpauseFeature(trade);
        uint256 oid = orders.orderId(id, alice);
        vm.prank(alice);
        assertEq(orders.close(oid), 60e18);
        assertEq(chToken.balanceOf(alice), 60e18);
        assertEq(chToken.balanceOf(address(futures)), 0);
    }

    /// @notice Sequence: carol elects 100 and the series is finalised (the assignment fixed); a loss elsewhere
    ///         then makes her liquidatable before her settlement, and a keeper liquidates her. MKT-05 / MKT-08: the
    ///         forced reduction does not change the fixed assignment; carol's claim is only the CH she paid for
    ///         (the rest to the vault), CH delivered = CH received, and the market holds exactly the claims.
    function test_electingLongLiquidatedAfterFinalisation_claimOnlyWhatWasPaid() public {
        _wireOrders();
        address carol = makeAddr("carol");
        _setupTrader(carol, guarantor, 1_300e6);
        _trade(carol, id, 100e18);
        _trade(bob, id, -100e18);
        _mintCh(bob, 100e18);
        vm.startPrank(bob);
        chToken.approve(address(futures), 100e18);
        futures.deliver(id, 100e18);
        vm.stopPrank();
        vm.prank(carol);
        futures.electDelivery(id, 100e18);
        _finalise();
        market.settleFunding(carol, -1_250e6); // a loss elsewhere after the last margin check
        vm.prank(keeper);
        try liq.liquidate(carol) {} catch {}
        IFuturesTypes.Position memory p = futures.positionOf(id, carol);
        assertEq(p.sizeCh, 0, "liquidated in full");
        assertEq(p.electedCh, 100e18, "the assignment fixed at finalisation stands");
        futures.settlePosition(id, bob);
        int256 before = chouse.collateralOf(carol);
        vm.prank(carol);
        futures.settlePosition(id, carol);
        uint256 paid = uint256(before - chouse.collateralOf(carol));
        IFuturesTypes.Series memory s = futures.seriesInfo(id);
        assertEq(s.deliveredCh, s.receivedCh, "MKT-05");
        uint256 claim = futures.positionOf(id, carol).escrowCh;
        assertGt(claim, 0);
        assertLt(claim, 100e18, "she could not pay for all of it");
        assertLe(claim * s.settlementPriceWad, paid * 1e30, "MKT-08: no CH handed over unpaid");
        assertEq(chToken.balanceOf(address(futures)), claim, "market holds exactly the claim");
        assertEq(claim + chToken.balanceOf(address(vault)), 100e18, "every delivered CH is a claim or forfeited");
        uint256 oid = orders.orderId(id, carol);
        assertEq(orders.order(oid).availableCh, claim, "the order is the paid claim");
        vm.prank(carol);
        assertEq(orders.close(oid), claim);
    }
}
