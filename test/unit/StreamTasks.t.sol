// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {IStreamTasks} from "../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksStreamEvents} from "../../contracts/interfaces/tasks/IStreamTasksStreamEvents.sol";
import {IStreamTasksErrors} from "../../contracts/interfaces/tasks/IStreamTasksErrors.sol";
import {signDigest} from "../utils/Signatures.sol";

/// @notice StreamTasks: subscriptions, live at c, each response mode, interruption rules, spec changes, batched
///         EIP-712 receipt settlement (replay-safe), retraction and escrow conservation.
contract StreamTasksTest is TaskSolBase {
    IStreamTasks internal streams;
    uint256 internal constant CLIENT_PK = 0xC11E57;
    address internal streamClient;

    function setUp() public {
        _deployTasks();
        streams = _deployStreams([address(ch), address(usdc), address(dps)]);
        streamClient = vm.addr(CLIENT_PK);
        usdc.mint(streamClient, 10_000e6);
        vm.prank(streamClient);
        usdc.approve(address(streams), type(uint256).max);
    }

    function _t(IStreamTasks.Mode mode, uint8 c, uint64 w) internal pure returns (IStreamTasks.StreamTerms memory) {
        return
            IStreamTasks.StreamTerms({
                currency: 1,
                mode: mode,
                executors: c,
                weightWad: w,
                maxPrice: 2e6,
                maxFailures: 3,
                deposit: 1_000e6,
                inputHash: keccak256("I"),
                fnHash: keccak256("f")
            });
    }

    function _open(IStreamTasks.Mode mode, uint8 c, uint64 w) internal returns (uint256 id) {
        vm.prank(streamClient);
        id = streams.open(_t(mode, c, w));
    }

    function _sub(uint256 id, uint256 i, uint128 price) internal {
        vm.prank(providers[i]);
        streams.subscribe(id, price);
    }

    /// @dev The client's receipt: `answered` in total at the subscriber's current price (what an honest client signs
    ///      while the price does not change).
    function _receipt(
        uint256 id,
        address p,
        uint64 answered
    ) internal view returns (IStreamTasks.Receipt memory r, bytes memory sig) {
        (uint128 price, , , ) = streams.subscription(id, p);
        r = IStreamTasks.Receipt({streamId: id, provider: p, answered: answered, amount: uint128(answered) * price});
        (uint8 v, bytes32 rr, bytes32 s) = vm.sign(CLIENT_PK, streams.receiptDigest(r));
        sig = abi.encodePacked(rr, s, v);
    }

    function test_optimistic_liveAtC_andBatchedSettlement() public {
        uint256 id = _open(IStreamTasks.Mode.Optimistic, 2, 0);
        assertEq(streams.answersPerRequest(id), 1);
        _sub(id, 0, 1e6);
        assertEq(uint8(streams.getStream(id).status), uint8(IStreamTasks.Status.Open));
        vm.expectEmit(address(streams));
        emit IStreamTasksStreamEvents.Subscribed(id, providers[1], 2e6, 2, IStreamTasks.Status.Live);
        _sub(id, 1, 2e6);
        vm.prank(providers[2]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamFull.selector, id));
        streams.subscribe(id, 1e6);
        // 100 requests answered by p0 and 50 by p1, settled in one transaction.
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](2);
        bytes[] memory sigs = new bytes[](2);
        (rs[0], sigs[0]) = _receipt(id, providers[0], 100);
        (rs[1], sigs[1]) = _receipt(id, providers[1], 50);
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 100e6);
        assertEq(usdc.balanceOf(providers[1]), 100e6);
        assertEq(streams.getStream(id).deposit, 800e6);
        // Replay pays nothing; a later cumulative receipt pays only the increase.
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 100e6);
        (rs[0], sigs[0]) = _receipt(id, providers[0], 130);
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 130e6);
        assertEq(usdc.balanceOf(address(streams)), streams.getStream(id).deposit, "escrow conservation");
    }

    function test_weighted_needsCeilWc() public {
        uint256 id = _open(IStreamTasks.Mode.Weighted, 3, 0.5e18);
        assertEq(streams.answersPerRequest(id), 2, "ceil(0.5 x 3)");
        vm.prank(streamClient);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamInvalidTerms.selector, bytes32("weight")));
        streams.open(_t(IStreamTasks.Mode.Weighted, 3, 0));
    }

    function test_unanimous_failedConsensusInterrupts() public {
        uint256 id = _open(IStreamTasks.Mode.Unanimous, 2, 0);
        assertEq(streams.answersPerRequest(id), 2);
        _sub(id, 0, 1e6);
        _sub(id, 1, 1e6);
        for (uint256 i; i < 2; ++i) {
            vm.prank(streamClient);
            streams.reportFailedConsensus(id);
        }
        assertEq(uint8(streams.getStream(id).status), uint8(IStreamTasks.Status.Live));
        vm.prank(streamClient);
        vm.expectEmit(address(streams));
        emit IStreamTasksStreamEvents.ConsensusFailed(id, 3, IStreamTasks.Status.Interrupted);
        streams.reportFailedConsensus(id);
    }

    function test_executorsBelowC_interrupts_thenResumes() public {
        uint256 id = _open(IStreamTasks.Mode.Optimistic, 2, 0);
        _sub(id, 0, 1e6);
        _sub(id, 1, 1e6);
        vm.prank(providers[1]);
        streams.unsubscribe(id);
        assertEq(uint8(streams.getStream(id).status), uint8(IStreamTasks.Status.Interrupted));
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamSubscription.selector, providers[1]));
        streams.unsubscribe(id);
        // Receipts for requests answered before leaving still settle.
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](1);
        bytes[] memory sigs = new bytes[](1);
        (rs[0], sigs[0]) = _receipt(id, providers[1], 5);
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[1]), 5e6);
        _sub(id, 2, 1e6);
        assertEq(uint8(streams.getStream(id).status), uint8(IStreamTasks.Status.Live));
    }

    function test_clientChangesSpec_retracts_withdraws() public {
        uint256 id = _open(IStreamTasks.Mode.Optimistic, 1, 0);
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotClient.selector, providers[0]));
        streams.updateSpec(id, bytes32("I2"), bytes32("f2"));
        vm.prank(streamClient);
        vm.expectEmit(address(streams));
        emit IStreamTasksStreamEvents.SpecUpdated(id, bytes32("I2"), bytes32("f2"), 1);
        streams.updateSpec(id, bytes32("I2"), bytes32("f2"));
        _sub(id, 0, 1e6);
        vm.prank(streamClient);
        streams.retract(id);
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](1);
        bytes[] memory sigs = new bytes[](1);
        (rs[0], sigs[0]) = _receipt(id, providers[0], 10);
        streams.settle(rs, sigs); // inside the grace
        vm.prank(streamClient);
        vm.expectRevert(
            abi.encodeWithSelector(IStreamTasksErrors.StreamStillSettling.selector, block.timestamp + 1 days)
        );
        streams.withdraw(id);
        vm.warp(block.timestamp + 1 days + 1);
        vm.prank(streamClient);
        streams.withdraw(id);
        assertEq(usdc.balanceOf(streamClient), 10_000e6 - 10e6);
        assertEq(usdc.balanceOf(address(streams)), 0);
    }

    function test_settle_rejectsForgedAndNonSubscriber() public {
        uint256 id = _open(IStreamTasks.Mode.Optimistic, 1, 0);
        _sub(id, 0, 1e6);
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](1);
        bytes[] memory sigs = new bytes[](1);
        rs[0] = IStreamTasks.Receipt({streamId: id, provider: providers[0], answered: 10, amount: 10e6});
        sigs[0] = signDigest(0xBAD, streams.receiptDigest(rs[0]));
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamBadSignature.selector, vm.addr(0xBAD)));
        streams.settle(rs, sigs);
        (rs[0], sigs[0]) = _receipt(id, providers[3], 10);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotSubscriber.selector, providers[3]));
        streams.settle(rs, sigs);
        (rs[0], sigs[0]) = _receipt(id, providers[0], 2_000);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamDepositExhausted.selector, 2_000e6, 1_000e6));
        streams.settle(rs, sigs);
    }

    /// TSK-02 for streams: whatever receipts settle, paid + deposit left = funded.
    function testFuzz_settlementConservesEscrow(uint64 a, uint64 b) public {
        uint256 id = _open(IStreamTasks.Mode.Optimistic, 2, 0);
        _sub(id, 0, 1e6);
        _sub(id, 1, 2e6);
        a = uint64(bound(a, 0, 300));
        b = uint64(bound(b, 0, 300));
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](2);
        bytes[] memory sigs = new bytes[](2);
        (rs[0], sigs[0]) = _receipt(id, providers[0], a);
        (rs[1], sigs[1]) = _receipt(id, providers[1], b);
        uint256 owed = uint256(a) * 1e6 + uint256(b) * 2e6;
        if (owed > 1_000e6) {
            vm.expectRevert();
            streams.settle(rs, sigs);
            return;
        }
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]) + usdc.balanceOf(providers[1]) + streams.getStream(id).deposit, 1_000e6);
        assertEq(usdc.balanceOf(address(streams)), streams.getStream(id).deposit);
    }

    // ─── issue 17 items 7 and 21 ─────────────────────────────────────────────────────────────────────────

    /// Item 7: a subscriber answers 10 requests at 0.2, leaves, re-subscribes at the stream's maximum price and then
    /// settles the receipts for the old answers: it must be paid what it was owed for them, not the new price.
    function test_resubscribeAtMaxPrice_cannotRepriceAnsweredRequests() public {
        uint256 id = _open(IStreamTasks.Mode.Optimistic, 1, 0);
        _sub(id, 0, 0.2e6);
        (IStreamTasks.Receipt memory r, bytes memory sig) = _receipt(id, providers[0], 10);
        vm.startPrank(providers[0]);
        streams.unsubscribe(id);
        streams.subscribe(id, 2e6); // the stream's maxPrice
        vm.stopPrank();
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](1);
        bytes[] memory sigs = new bytes[](1);
        (rs[0], sigs[0]) = (r, sig);
        streams.settle(rs, sigs);
        assertEq(usdc.balanceOf(providers[0]), 2e6, "10 answers at the agreed 0.2, not 10 x 2");
    }

    /// Answers after a re-subscription are paid at the new price, in the client's cumulative amount; a receipt above
    /// answered × maxPrice is refused.
    function test_cumulativeAmount_paysEachAnswerAtItsPrice_cappedByMaxPrice() public {
        uint256 id = _open(IStreamTasks.Mode.Optimistic, 1, 0);
        _sub(id, 0, 0.2e6);
        vm.startPrank(providers[0]);
        streams.unsubscribe(id);
        streams.subscribe(id, 1e6);
        vm.stopPrank();
        // 10 answers at 0.2 then 5 at 1: 7 in total
        IStreamTasks.Receipt[] memory rs = new IStreamTasks.Receipt[](1);
        bytes[] memory sigs = new bytes[](1);
        rs[0] = IStreamTasks.Receipt({streamId: id, provider: providers[0], answered: 15, amount: 7e6});
        (uint8 v, bytes32 r, bytes32 s_) = vm.sign(CLIENT_PK, streams.receiptDigest(rs[0]));
        sigs[0] = abi.encodePacked(r, s_, v);
        vm.expectEmit(address(streams));
        emit IStreamTasksStreamEvents.ReceiptSettled(id, providers[0], 15, 15, 7e6, 993e6);
        streams.settle(rs, sigs);
        (, uint64 paid, uint128 paidAmount, ) = streams.subscription(id, providers[0]);
        assertEq(paid, 15);
        assertEq(paidAmount, 7e6);
        rs[0].answered = 16; // 16 answers are worth at most 16 x maxPrice 2 = 32
        rs[0].amount = 33e6;
        (v, r, s_) = vm.sign(CLIENT_PK, streams.receiptDigest(rs[0]));
        sigs[0] = abi.encodePacked(r, s_, v);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamReceiptAboveMaxPrice.selector, 33e6, 32e6));
        streams.settle(rs, sigs);
    }

    /// Item 21: a stream interrupted by failed consensus stays interrupted when a subscriber leaves and comes back;
    /// only the client resumes it.
    function test_resubscribe_doesNotResetFailedConsensusInterruption() public {
        uint256 id = _open(IStreamTasks.Mode.Unanimous, 2, 0);
        _sub(id, 0, 1e6);
        _sub(id, 1, 1e6);
        for (uint256 i; i < 3; ++i) {
            vm.prank(streamClient);
            streams.reportFailedConsensus(id);
        }
        assertEq(uint8(streams.getStream(id).status), uint8(IStreamTasks.Status.Interrupted));
        vm.startPrank(providers[1]);
        streams.unsubscribe(id);
        streams.subscribe(id, 1e6);
        vm.stopPrank();
        assertEq(uint8(streams.getStream(id).status), uint8(IStreamTasks.Status.Interrupted), "still interrupted");
        assertEq(streams.getStream(id).failures, 3, "the count is the client's to reset");
    }

    /// The client resumes its interrupted stream: the count resets and, with c subscribers, it is live again.
    function test_clientResume_resetsTheCountAndGoesLive() public {
        uint256 id = _open(IStreamTasks.Mode.Unanimous, 2, 0);
        _sub(id, 0, 1e6);
        _sub(id, 1, 1e6);
        vm.prank(streamClient);
        vm.expectRevert(
            abi.encodeWithSelector(IStreamTasksErrors.StreamWrongStatus.selector, id, IStreamTasks.Status.Live)
        );
        streams.resume(id);
        for (uint256 i; i < 3; ++i) {
            vm.prank(streamClient);
            streams.reportFailedConsensus(id);
        }
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotClient.selector, providers[0]));
        streams.resume(id);
        vm.prank(providers[1]);
        streams.unsubscribe(id);
        vm.prank(streamClient);
        vm.expectEmit(address(streams));
        emit IStreamTasksStreamEvents.StreamResumed(id, IStreamTasks.Status.Interrupted); // one subscriber short
        streams.resume(id);
        assertEq(streams.getStream(id).failures, 0);
        _sub(id, 1, 1e6);
        assertEq(uint8(streams.getStream(id).status), uint8(IStreamTasks.Status.Live));
        // an interruption by a missing subscriber alone is not the client's to resume
        vm.prank(providers[1]);
        streams.unsubscribe(id);
        vm.prank(streamClient);
        vm.expectRevert(
            abi.encodeWithSelector(IStreamTasksErrors.StreamWrongStatus.selector, id, IStreamTasks.Status.Interrupted)
        );
        streams.resume(id);
    }
}
