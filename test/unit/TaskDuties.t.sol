// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../contracts/interfaces/tasks/ITaskRegistryEvents.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryEvents} from "../../contracts/interfaces/compute/IProviderRegistryEvents.sol";
import {IProviderRegistryErrors} from "../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {IStreamTasks} from "../../contracts/interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksStreamEvents} from "../../contracts/interfaces/tasks/IStreamTasksStreamEvents.sol";
import {IAccessManaged} from "@openzeppelin/contracts/access/manager/IAccessManaged.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";

/// @notice TSK-08 (issue 17 item 8): an open executor, council or stream duty holds the stake its slash may take.
///         The attacks unbond and withdraw during a duty; the ending paths (accept, reject, expire, dispute verdict,
///         governance resolution, unsubscribe) each release the lock.
contract TaskDutiesTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    bytes32 internal constant GOOD = keccak256("correct result");
    bytes32 internal constant BAD = keccak256("fabricated result");
    IStreamTasks internal streams;

    function setUp() public {
        _deployTasks();
        streams = _deployStreams([address(ch), address(usdc), address(dps)]);
    }

    function _staked(address p) internal view returns (uint256) {
        return registry.providerInfo(p).stakedDps;
    }

    /// @dev TaskSolBase's drawn USDC task (n, q): providers[1] executes at 400, 10-day deadline.
    function _longTask(uint8 n, uint8 q) internal returns (uint256) {
        return _drawnUsdcTask(n, q);
    }

    /// @dev Unbonds everything the registry lets `p` unbond: all of it, or all but what its duties lock.
    function _unbondMax(address p) internal returns (uint256 requested) {
        requested = _staked(p);
        vm.prank(p);
        try registry.requestUnbond(requested) {} catch {
            requested -= SLASH;
            vm.prank(p);
            registry.requestUnbond(requested);
        }
    }

    /// @dev True when `p` may unbond its whole stake right now (no duty holds any of it).
    function _fullyUnlocked(address p) internal returns (bool ok) {
        uint256 s = _staked(p);
        uint256 snap = vm.snapshotState();
        vm.prank(p);
        try registry.requestUnbond(s) {
            ok = true;
        } catch {}
        vm.revertToState(snap);
    }

    // ─── attacks ────────────────────────────────────────────────────────────────────────────────────────

    /// closeBidding → requestUnbond → 7 days → withdraw → miss the deadline → expire must still slash in full.
    function test_closeBiddingThenUnbondWithdraw_expireStillSlashesFull() public {
        uint256 id = _longTask(3, 2);
        address exec = providers[1];
        uint256 staked = _staked(exec);
        vm.prank(exec);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, exec, staked, staked - SLASH)
        );
        registry.requestUnbond(staked);
        _unbondMax(exec);
        vm.warp(block.timestamp + 7 days + 1);
        vm.prank(exec);
        registry.withdrawUnbonded();
        vm.warp(block.timestamp + 3 days + 1); // deadline missed
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.FaultSlashed(id, exec, SLASH);
        tasks.expire(id);
        assertEq(registry.providerInfo(exec).slashedDps, SLASH, "the whole slash was there to take");
    }

    /// A council member unbonds and withdraws during its seat; the dispute finds it wrong: still slashed in full.
    function test_councilSeatUnbondWithdraw_disputeStillSlashesFull() public {
        uint256 id = _longTask(2, 2);
        address[] memory c0 = tasks.councilOf(id, 0);
        address colluder = c0[0];
        _unbondMax(colluder);
        vm.warp(block.timestamp + 7 days + 1);
        vm.prank(colluder);
        registry.withdrawUnbonded();
        _commitAll(id, providers[1], BAD);
        _voteMask(id, 0, 2, 1); // c0[0], the colluder, reveals the executor's (bad) result
        tasks.openDispute(id);
        _draw(id);
        _voteAll(id, 1, false, 3);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.FaultSlashed(id, colluder, SLASH);
        _finalize(id);
        assertEq(registry.providerInfo(colluder).slashedDps, SLASH);
    }

    /// A subscriber cannot unbond the stake its subscription locks while subscribed; unsubscribing releases it.
    function test_streamSubscription_holdsStakeUntilUnsubscribed() public {
        _setStreamLock();
        usdc.mint(client, 1_000e6);
        vm.startPrank(client);
        usdc.approve(address(streams), type(uint256).max);
        uint256 sid = streams.open(
            IStreamTasks.StreamTerms({
                currency: 1,
                mode: IStreamTasks.Mode.Optimistic,
                executors: 1,
                weightWad: 0,
                maxPrice: 2e6,
                maxFailures: 0,
                deposit: 100e6,
                inputHash: keccak256("I"),
                fnHash: keccak256("f")
            })
        );
        vm.stopPrank();
        address p = providers[2];
        vm.prank(p);
        streams.subscribe(sid, 1e6);
        assertFalse(_fullyUnlocked(p), "subscribed: the lock holds");
        vm.prank(p);
        streams.unsubscribe(sid);
        assertTrue(_fullyUnlocked(p), "unsubscribed: released");
    }

    /// @dev The stream lock is a governance setting of StreamTasks (0 on a bare deployment; the deploy module sets
    ///      the task slash amount).
    function _setStreamLock() internal {
        vm.expectEmit(address(streams));
        emit IStreamTasksStreamEvents.SubscriptionLockSet(uint96(SLASH), address(registry));
        streams.setSubscriptionLock(uint96(SLASH));
        assertEq(streams.subscriptionLock(), SLASH);
        vm.prank(providers[0]);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, providers[0]));
        streams.setSubscriptionLock(1);
    }

    // ─── every ending path releases the lock ──────────────────────────────────────────────────────────────

    function test_dutyLock_releasedOnAccept() public {
        uint256 id = _longTask(3, 2);
        address[] memory c0 = tasks.councilOf(id, 0);
        assertFalse(_fullyUnlocked(providers[1]));
        assertFalse(_fullyUnlocked(c0[0]));
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 2);
        _finalize(id);
        // issue 18 item 4: the verdict leaves each seat locked until its claim or `releaseSeat`
        for (uint256 i; i < c0.length; ++i) assertFalse(_fullyUnlocked(c0[i]), "seat held past the verdict");
        _releaseSeats(id);
        for (uint256 i; i < c0.length; ++i) assertTrue(_fullyUnlocked(c0[i]), "every member, voter or not");
        // issue 21: the executor's lock stays through the client's appeal window (closeAppeal releases it)
        assertFalse(_fullyUnlocked(providers[1]));
        vm.warp(block.timestamp + 2 days + 1);
        tasks.closeAppeal(id);
        assertTrue(_fullyUnlocked(providers[1]));
    }

    function test_dutyLock_releasedOnReject() public {
        uint256 id = _longTask(3, 2);
        address[] memory c0 = tasks.councilOf(id, 0);
        _commitAll(id, providers[1], BAD);
        _voteAll(id, 0, false, 3);
        vm.warp(block.timestamp + 1 days + 1);
        _finalize(id);
        assertTrue(_fullyUnlocked(providers[1]));
        _releaseSeats(id);
        for (uint256 i; i < c0.length; ++i) assertTrue(_fullyUnlocked(c0[i]));
    }

    function test_dutyLock_releasedOnExpire() public {
        uint256 id = _longTask(3, 2);
        address[] memory c0 = tasks.councilOf(id, 0);
        vm.warp(block.timestamp + 10 days + 1);
        tasks.expire(id);
        assertTrue(_fullyUnlocked(providers[1]));
        for (uint256 i; i < c0.length; ++i) assertTrue(_fullyUnlocked(c0[i]));
    }

    function test_dutyLock_releasedOnDisputeVerdictAndGovernanceResolution() public {
        uint256 id = _longTask(2, 2);
        _commitAll(id, providers[1], GOOD);
        address[] memory c0 = tasks.councilOf(id, 0);
        _voteMask(id, 0, 2, 1);
        tasks.openDispute(id);
        _draw(id);
        address[] memory c1 = tasks.councilOf(id, 1);
        for (uint256 i; i < c1.length; ++i) assertFalse(_fullyUnlocked(c1[i]), "dispute seat locks");
        _voteAll(id, 1, true, 2); // no quorum (3 of 5 needed)
        vm.warp(block.timestamp + 2 days + 1);
        tasks.resolveDispute(id, true);
        vm.warp(block.timestamp + 2 days + 1);
        tasks.closeAppeal(id); // issue 21: the executor's appeal-window lock
        assertTrue(_fullyUnlocked(providers[1]));
        _releaseSeats(id);
        for (uint256 i; i < c0.length; ++i) assertTrue(_fullyUnlocked(c0[i]));
        for (uint256 i; i < c1.length; ++i) assertTrue(_fullyUnlocked(c1[i]));
    }

    // ─── the registry side ─────────────────────────────────────────────────────────────────────────────────

    /// Slashed below its duty lock while unbonding: the withdrawal keeps the uncovered lock back, so the duty's
    /// own slash still finds it.
    function test_slashedBelowLock_withdrawKeepsLockBack() public {
        uint256 id = _longTask(3, 2);
        address exec = providers[1];
        assertEq(registry.providerInfo(exec).dutyLockedDps, SLASH);
        _unbondMax(exec); // staked 100, unbonding 4 900
        _grant(Roles.PROVIDER_SLASHER, address(this));
        registry.slash(exec, SLASH, address(0), bytes32("other fault")); // staked 0
        vm.warp(block.timestamp + 7 days + 1);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.Withdrawn(exec, 4_900e18 - SLASH, 0);
        vm.prank(exec);
        registry.withdrawUnbonded();
        assertEq(registry.providerInfo(exec).unbondingDps, SLASH, "the uncovered lock stays unbonding");
        vm.prank(exec);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, exec, SLASH, 0));
        registry.withdrawUnbonded();
        vm.warp(block.timestamp + 3 days);
        tasks.expire(id);
        assertEq(registry.providerInfo(exec).slashedDps, 2 * SLASH, "the duty's slash took the held stake");
        assertEq(registry.providerInfo(exec).dutyLockedDps, 0);
    }

    function test_lockStake_accessEventsAndSaturatingRelease() public {
        address[] memory who = new address[](1);
        who[0] = providers[5];
        vm.prank(providers[5]);
        vm.expectRevert(abi.encodeWithSelector(IAccessManaged.AccessManagedUnauthorized.selector, providers[5]));
        registry.lockStake(who, 1);
        _grant(Roles.STAKE_LOCKER, address(this));
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.StakeLocked(providers[5], address(this), 70e18, 70e18);
        registry.lockStake(who, 70e18);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.StakeReleased(providers[5], address(this), 70e18, 0);
        registry.releaseStake(who, 100e18); // saturates: an ending path never reverts
        who[0] = address(0xBEEF);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderNotRegistered.selector, address(0xBEEF))
        );
        registry.lockStake(who, 1);
        registry.releaseStake(who, 1); // nothing locked: no-op
    }
}
