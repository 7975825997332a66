// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {StreamConsensusBase} from "./StreamConsensusBase.sol";
import {IStreamTasks} from "../../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksStreamEvents} from "../../../contracts/interfaces/tasks/IStreamTasksStreamEvents.sol";
import {IStreamTasksTypes} from "../../../contracts/interfaces/tasks/IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "../../../contracts/interfaces/tasks/IStreamTasksErrors.sol";
import {IStreamTasksVerdictEvents} from "../../../contracts/interfaces/tasks/IStreamTasksVerdictEvents.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";

/// @notice Issue 21 item 4, the attacks: a late answer, a colluding minority, a client withdrawing between receipts,
///         a member leaving and unbonding between answering and being slashed.
contract StreamConsensusAttacksTest is StreamConsensusBase {
    bytes32 internal constant A = keccak256("answer A");
    bytes32 internal constant B = keccak256("answer B");

    /// A member that answers after the commit window is refused; it counts as silent and is slashed (TSK-03: it
    /// missed a deadline it accepted), the finder paid the registry's fee.
    function test_lateAnswer_isRefused_andSlashedAsSilent() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Weighted, 3, 0.6e18);
        _commit(id, r, 0, A);
        _commit(id, r, 1, A);
        vm.warp(block.timestamp + 1 hours + 1);
        address late = providers[2];
        bytes32 c = streams.answerCommitment(id, r, late, A, bytes32(uint256(3)));
        vm.prank(late);
        vm.expectPartialRevert(IStreamTasksErrors.StreamOutsideWindow.selector);
        streams.commitAnswer(id, r, c);
        _reveal(id, r, 0, A);
        _reveal(id, r, 1, A);
        vm.warp(block.timestamp + 1 hours);
        streams.resolve(id, r);
        IStreamTasksTypes.Request memory q = streams.getRequest(id, r);
        assertEq(q.answer, A);
        assertTrue(q.consensus, "2 of 3 reveal, ceil(0.6 x 3) = 2");
        uint256 before = _stake(late);
        vm.expectEmit(address(streams));
        emit IStreamTasksVerdictEvents.StreamProviderSlashed(id, r, late, STREAM_SLASH, keeper);
        _slash(id, r, late);
        assertEq(before - _stake(late), STREAM_SLASH);
        assertEq(dps.balanceOf(keeper), STREAM_SLASH / 10, "finder fee 10 %");
        // once per request; honest members are not at fault
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotFaulty.selector, id, r, late));
        _slash(id, r, late);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotFaulty.selector, id, r, providers[0]));
        _slash(id, r, providers[0]);
    }

    /// TSK-03: a colluding minority revealing another answer does not change what is delivered, and only it is slashed.
    /// Under unanimous the request fails consensus (counted against the stream) but the majority's answer is still
    /// the one delivered and the minority is still outside the strict majority.
    function test_colludingMinority_isOutvoted_andSlashed() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Unanimous, 3, 0);
        _commit(id, r, 0, A);
        _commit(id, r, 1, B);
        _commit(id, r, 2, A);
        // every member committed: reveals open before the window ends
        _reveal(id, r, 1, B);
        _reveal(id, r, 0, A);
        _reveal(id, r, 2, A);
        // every answer is in: resolvable at once
        vm.expectEmit(address(streams));
        emit IStreamTasksStreamEvents.ConsensusFailed(id, 1, IStreamTasks.Status.Live);
        vm.expectEmit(address(streams));
        emit IStreamTasksVerdictEvents.RequestResolved(id, r, A, false, true, 3, 2, 3, 1);
        streams.resolve(id, r);
        uint256 s0 = _stake(providers[0]);
        _slash(id, r, providers[1]);
        assertEq(_stake(providers[0]), s0, "the honest majority loses nothing");
        for (uint256 i; i < 3; i += 2) {
            vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNotFaulty.selector, id, r, providers[i]));
            _slash(id, r, providers[i]);
        }
    }

    /// Weighted: the minority's answer carries more stake than the majority's count: stake decides, not headcount.
    function test_weighted_isStakeWeighted() public {
        dps.transfer(providers[2], 20_000e18);
        vm.startPrank(providers[2]);
        dps.approve(address(registry), 20_000e18);
        registry.stake(20_000e18);
        vm.stopPrank();
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Weighted, 3, 0.5e18);
        _commit(id, r, 0, A);
        _commit(id, r, 1, A);
        _commit(id, r, 2, B);
        _reveal(id, r, 0, A);
        _reveal(id, r, 1, A);
        _reveal(id, r, 2, B);
        streams.resolve(id, r);
        IStreamTasksTypes.Request memory q = streams.getRequest(id, r);
        assertEq(q.answer, B, "25,000 staked outweighs 2 x 4,900");
        assertTrue(q.consensus);
        _slash(id, r, providers[0]);
        _slash(id, r, providers[1]);
    }

    /// Item 4.2: the client gets answers on chain, signs no receipt, retracts and tries to take the deposit back. The
    /// deposit stays until the providers could claim; the member claims its consensus answer plus the penalty.
    function test_clientWithdrawsBetweenReceipts_providerClaimsWithPenalty() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Optimistic, 2, 0);
        vm.prank(providers[0]);
        streams.answer(id, r, A);
        vm.warp(block.timestamp + 1 hours + 1);
        streams.resolve(id, r);
        vm.prank(streamClient);
        streams.retract(id);
        vm.warp(block.timestamp + 1 days + 1); // the old settle grace alone has passed
        vm.prank(streamClient);
        vm.expectPartialRevert(IStreamTasksErrors.StreamStillSettling.selector);
        streams.withdraw(id);
        uint32[] memory rs = new uint32[](1);
        rs[0] = r;
        // the member that did not answer has nothing to claim
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamAnswerRejected.selector, providers[1]));
        streams.claimUnpaid(id, rs);
        vm.prank(providers[0]);
        vm.expectEmit(address(streams));
        emit IStreamTasksVerdictEvents.UnpaidClaimed(id, providers[0], 1, 1, 1e6, 0.5e6, 1_000e6 - 1.5e6);
        streams.claimUnpaid(id, rs);
        assertEq(usdc.balanceOf(providers[0]), 1.5e6, "price + 50 % penalty");
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamAnswerRejected.selector, providers[0]));
        streams.claimUnpaid(id, rs);
        vm.warp(streams.getStream(id).closesAt + 1);
        vm.prank(streamClient);
        streams.withdraw(id);
        assertEq(usdc.balanceOf(streamClient), 10_000e6 - 1.5e6);
        assertEq(usdc.balanceOf(address(streams)), 0, "escrow conservation");
    }

    /// A client that paid by receipt owes nothing more: the claim finds the receipts' count covers the proven answer.
    function test_clientPaidByReceipt_claimFindsNothingOwed() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Optimistic, 1, 0);
        vm.prank(providers[0]);
        streams.answer(id, r, A);
        IStreamTasks.Receipt[] memory rcs = new IStreamTasks.Receipt[](1);
        bytes[] memory sigs = new bytes[](1);
        rcs[0] = IStreamTasks.Receipt({streamId: id, provider: providers[0], answered: 1, amount: 1e6});
        (uint8 v, bytes32 rr, bytes32 s) = vm.sign(CLIENT_PK, streams.receiptDigest(rcs[0]));
        sigs[0] = abi.encodePacked(rr, s, v);
        streams.settle(rcs, sigs);
        vm.warp(block.timestamp + 1 hours + 1);
        streams.resolve(id, r);
        uint32[] memory rs = new uint32[](1);
        rs[0] = r;
        vm.prank(providers[0]);
        vm.expectPartialRevert(IStreamTasksErrors.StreamOutsideWindow.selector);
        streams.claimUnpaid(id, rs); // inside the client's pay grace
        vm.warp(block.timestamp + 1 days + 1);
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamNothingOwed.selector, providers[0]));
        streams.claimUnpaid(id, rs);
    }

    /// TSK-08: a member reveals a wrong answer, leaves the stream and tries to unbond its whole stake before the
    /// slash: the subscription lock is held past the request, so the slash still lands; it cannot re-join to reset its
    /// duty; the lock is released only after the slash window.
    function test_answerThenLeaveAndUnbond_stillSlashed() public {
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Weighted, 3, 0.5e18);
        address cheat = providers[2];
        _commit(id, r, 0, A);
        _commit(id, r, 1, A);
        _commit(id, r, 2, B);
        _reveal(id, r, 0, A);
        _reveal(id, r, 1, A);
        _reveal(id, r, 2, B);
        uint40 holdUntil = uint40(streams.getRequest(id, r).createdAt + 4 hours + 1 days);
        vm.startPrank(cheat);
        vm.expectEmit(address(streams));
        emit IStreamTasksVerdictEvents.DutyLockHeld(id, cheat, STREAM_SLASH, holdUntil);
        streams.unsubscribe(id);
        (, , , uint96 locked) = streams.subscription(id, cheat);
        assertEq(locked, STREAM_SLASH, "the lock outlives the subscription");
        // re-joining would reset the duty: refused while it is slashable
        vm.expectPartialRevert(IStreamTasksErrors.StreamDutyPending.selector);
        streams.subscribe(id, 1e6);
        uint256 all = _stake(cheat);
        vm.expectPartialRevert(IProviderRegistryErrors.ProviderStakeLocked.selector);
        registry.requestUnbond(all);
        registry.requestUnbond(all - STREAM_SLASH);
        vm.stopPrank();
        vm.expectPartialRevert(IStreamTasksErrors.StreamDutyPending.selector);
        streams.releaseDutyLock(id, cheat);
        streams.resolve(id, r);
        _slash(id, r, cheat);
        assertEq(_stake(cheat), 0, "the locked slice was slashed");
        // a late report is refused; the lock then goes
        uint256 until = streams.dutyOf(id, cheat).lockUntil;
        vm.warp(until + 1);
        streams.releaseDutyLock(id, cheat);
        (, , , locked) = streams.subscription(id, cheat);
        assertEq(locked, 0);
    }

    /// Leaving and re-joining would move the member's range past the request it is bound to (and so out of reach of
    /// a slash): refused while the duty is slashable, even when governance configured no stake lock.
    function test_leaveAndRejoin_cannotResetDuty_evenWithoutLock() public {
        streams.setSubscriptionLock(0);
        (uint256 id, uint32 r) = _live(IStreamTasks.Mode.Unanimous, 2, 0);
        vm.startPrank(providers[1]);
        streams.unsubscribe(id);
        vm.expectPartialRevert(IStreamTasksErrors.StreamDutyPending.selector);
        streams.subscribe(id, 1e6);
        vm.stopPrank();
        vm.warp(block.timestamp + 2 hours + 1);
        streams.resolve(id, r);
        _slash(id, r, providers[1]);
    }

    /// A member that leaves before any request is asked keeps no duty: its lock is released at once.
    function test_leaveWithoutDuty_releasesAtOnce() public {
        (uint256 id, ) = _live(IStreamTasks.Mode.Weighted, 3, 0.5e18);
        vm.prank(providers[3]);
        vm.expectRevert(abi.encodeWithSelector(IStreamTasksErrors.StreamFull.selector, id));
        streams.subscribe(id, 1e6);
        // a fresh stream, nobody asked yet
        vm.prank(streamClient);
        uint256 id2 = streams.open(
            IStreamTasks.StreamTerms({
                currency: 1,
                mode: IStreamTasks.Mode.Unanimous,
                executors: 2,
                weightWad: 0,
                maxPrice: MAX_PRICE,
                maxFailures: 0,
                deposit: 100e6,
                inputHash: 0,
                fnHash: 0
            })
        );
        vm.startPrank(providers[3]);
        streams.subscribe(id2, 1e6);
        streams.unsubscribe(id2);
        vm.stopPrank();
        (, , , uint96 locked) = streams.subscription(id2, providers[3]);
        assertEq(locked, 0);
    }
}
