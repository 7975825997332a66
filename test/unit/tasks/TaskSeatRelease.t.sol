// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryErrors} from "../../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {IProviderRegistryErrors} from "../../../contracts/interfaces/compute/IProviderRegistryErrors.sol";
import {Roles} from "../../../contracts/core/governance/Roles.sol";

/// @notice TSK-08 with lazy seat release (issue 18 item 4, finalize gas): a verdict (Accepted, Rejected) releases no
///         council seat; each seat's lock is released once, by its member's fee claim or anyone's `releaseSeat`. The
///         attacks: a member that never claims, unbonds before claiming, is slashed between the verdict and its
///         claim, is drawn for a second task before claiming the first, releases twice (or releases then claims) to
///         free another duty's lock, or names a task whose seats an ending path already released.
contract TaskSeatReleaseTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    bytes32 internal constant GOOD = keccak256("correct result");

    function setUp() public {
        _deployTasks();
    }

    function _locked(address p) internal view returns (uint256) {
        return registry.providerInfo(p).dutyLockedDps;
    }

    /// @dev TaskSolBase's drawn USDC task (n, q): providers[1] executes at 400, 10-day deadline.
    function _task(uint8 n, uint8 q) internal returns (uint256) {
        return _drawnUsdcTask(n, q);
    }

    /// @dev An accepted 3-seat task: the first two members revealed the executor's result, the third was silent.
    function _accepted() internal returns (uint256 id, address[] memory c) {
        id = _task(3, 2);
        c = tasks.councilOf(id, 0);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 2);
        _finalize(id);
    }

    function _expectNotReleasable(uint256 id, address member) internal {
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskSeatNotReleasable.selector, id, member));
    }

    /// TSK-08: the verdict leaves every seat locked; the claim releases a voter's, `releaseSeat` anyone's, once each.
    function test_TSK08_verdictKeepsSeats_claimOrReleaseFreesEachOnce() public {
        (uint256 id, address[] memory c) = _accepted();
        for (uint256 i; i < 3; ++i) assertEq(_locked(c[i]), SLASH, "seat held past the verdict");
        assertFalse(tasks.seatReleased(id, c[0]));
        vm.prank(c[0]);
        tasks.claimCouncilFee(id);
        assertEq(_locked(c[0]), 0, "the claim released the voter's seat");
        assertTrue(tasks.seatReleased(id, c[0]));
        // the silent member has no fee: anyone may release its seat (it only frees the member's own stake)
        vm.prank(address(0xBEEF));
        tasks.releaseSeat(id, c[2]);
        assertEq(_locked(c[2]), 0);
        _expectNotReleasable(id, c[2]);
        tasks.releaseSeat(id, c[2]);
        _expectNotReleasable(id, c[0]);
        tasks.releaseSeat(id, c[0]);
        // a voter released first, then claiming: paid, the lock untouched a second time
        tasks.releaseSeat(id, c[1]);
        uint256 before = usdc.balanceOf(c[1]);
        vm.prank(c[1]);
        tasks.claimCouncilFee(id);
        assertGt(usdc.balanceOf(c[1]), before, "fee still paid");
        assertEq(_locked(c[1]), 0);
    }

    /// TSK-08 attack: release (or release + claim) twice to eat the lock of the member's other open duty.
    function test_TSK08_doubleReleaseCannotFreeAnotherDuty() public {
        (uint256 id, address[] memory c) = _accepted();
        // a second task whose council of 5 (of the 7 providers besides the executor) must share a member with c
        uint256 id2 = _task(5, 3);
        address[] memory c2 = tasks.councilOf(id2, 0);
        address both;
        for (uint256 i; i < 3 && both == address(0); ++i) if (_isIn(c[i], c2)) both = c[i];
        assertTrue(both != address(0));
        assertEq(_locked(both), 2 * SLASH, "drawn again before acting: both seats locked");
        tasks.releaseSeat(id, both);
        assertEq(_locked(both), SLASH);
        _expectNotReleasable(id, both);
        tasks.releaseSeat(id, both);
        vm.prank(both);
        try tasks.claimCouncilFee(id) {} catch {}
        assertEq(_locked(both), SLASH, "the second task's seat is still locked");
        // the open task's seat cannot be released before its verdict
        _expectNotReleasable(id2, both);
        tasks.releaseSeat(id2, both);
    }

    /// A member that never claims keeps its seat's lock (its own stake only); it cannot unbond the locked part.
    function test_TSK08_memberNeverClaims_lockStaysUntilReleased() public {
        (uint256 id, address[] memory c) = _accepted();
        vm.warp(block.timestamp + 365 days);
        assertEq(_locked(c[0]), SLASH, "no expiry of a seat's lock");
        uint256 staked = registry.providerInfo(c[0]).stakedDps;
        vm.prank(c[0]);
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, c[0], staked, staked - SLASH)
        );
        registry.requestUnbond(staked);
        tasks.releaseSeat(id, c[0]);
        vm.prank(c[0]);
        registry.requestUnbond(staked);
    }

    /// A member that unbonds before claiming: everything but the seat's lock unbonds; the claim then frees the rest.
    function test_TSK08_memberUnbondsBeforeClaiming() public {
        (uint256 id, address[] memory c) = _accepted();
        address m = c[0];
        uint256 staked = registry.providerInfo(m).stakedDps;
        vm.prank(m);
        registry.requestUnbond(staked - SLASH);
        vm.prank(m);
        vm.expectRevert(abi.encodeWithSelector(IProviderRegistryErrors.ProviderStakeLocked.selector, m, 1, 0));
        registry.requestUnbond(1);
        vm.prank(m);
        tasks.claimCouncilFee(id);
        assertEq(_locked(m), 0);
        vm.prank(m);
        registry.requestUnbond(SLASH);
        assertEq(registry.providerInfo(m).stakedDps, 0);
    }

    /// TSK-03: a member slashed elsewhere between the verdict and its claim still gets its fee and releases exactly
    /// its seat (saturating at what is locked); no slash of this task touches the member that sided with the verdict.
    function test_TSK03_memberSlashedBetweenVerdictAndClaim() public {
        (uint256 id, address[] memory c) = _accepted();
        address m = c[0];
        _grant(Roles.PROVIDER_SLASHER, address(this));
        registry.slash(m, SLASH / 2, address(0), bytes32("other fault"));
        assertEq(_slashedDps(m), SLASH / 2);
        uint256 before = usdc.balanceOf(m);
        vm.prank(m);
        tasks.claimCouncilFee(id);
        assertGt(usdc.balanceOf(m), before);
        assertEq(_locked(m), 0);
        assertEq(_slashedDps(m), SLASH / 2, "the task slashed nobody who sided with it");
        assertEq(_slashedDps(c[1]), 0);
    }

    /// A rejection releases the (slashed) executor at once; the seats wait, and a non-member or a task ended by
    /// expiry (every seat already released there) cannot be used to release a lock.
    function test_TSK08_rejectAndExpire_seatRules() public {
        uint256 id = _task(3, 2);
        address[] memory c = tasks.councilOf(id, 0);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, false, 3);
        vm.warp(block.timestamp + 1 days + 1);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Rejected));
        assertEq(_locked(providers[1]), 0, "the executor found wrong is released before its slash");
        assertEq(_slashedDps(providers[1]), SLASH);
        for (uint256 i; i < 3; ++i) assertEq(_locked(c[i]), SLASH);
        _expectNotReleasable(id, providers[1]);
        tasks.releaseSeat(id, providers[1]);
        for (uint256 i; i < 3; ++i) tasks.releaseSeat(id, c[i]);
        for (uint256 i; i < 3; ++i) assertEq(_locked(c[i]), 0);

        uint256 id2 = _task(3, 2);
        address[] memory c2 = tasks.councilOf(id2, 0);
        vm.warp(block.timestamp + 10 days + 1);
        tasks.expire(id2);
        assertEq(_locked(c2[0]), 0, "expiry releases every seat at once");
        _expectNotReleasable(id2, c2[0]);
        tasks.releaseSeat(id2, c2[0]);
    }
}
