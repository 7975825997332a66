// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../contracts/interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../contracts/interfaces/tasks/ITaskRegistryErrors.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IProviderRegistryEvents} from "../../contracts/interfaces/compute/IProviderRegistryEvents.sol";
import {ITaskKeeperLens} from "../../contracts/interfaces/keepers/ITaskKeeperLens.sol";
import {TaskKeeperLens} from "../../contracts/periphery/TaskKeeperLens.sol";

/// @notice Regression tests of the security review (issue 17) for the TaskRegistry's lifecycle: items 9, 16, 17,
///         20 and 22. Each test is the attack or failure, named after its scenario.
contract TaskRegistryFixesTest is TaskSolBase {
    ITaskRegistry.Currency internal constant USDC = ITaskRegistry.Currency.USDC;
    ITaskRegistry.Currency internal constant DPSC = ITaskRegistry.Currency.DPS;
    bytes32 internal constant GOOD = keccak256("correct result");

    function setUp() public {
        _deployTasks();
    }

    /// @dev A task (currency, n = 3, q = 2) with one bid of `price` by providers[1], closed and its council drawn.
    function _running(ITaskRegistry.Currency cur, uint128 maxPayment, uint128 price) internal returns (uint256 id) {
        id = _submit(cur, maxPayment, 3, 2);
        _bid(id, providers[1], price);
        _closeAndDraw(id);
    }

    // ─── item 16 ────────────────────────────────────────────────────────────────────────────────────────

    /// An executor that misses its deadline and expires its own task collects no finder fee on its own slash.
    function test_executorExpiresItself_getsNoFinderFee() public {
        uint256 id = _running(USDC, 1_000e6, 400e6);
        address exec = providers[1];
        vm.warp(tasks.getTask(id).deadline + 1);
        uint256 before = dps.balanceOf(exec);
        vm.expectEmit(address(registry));
        emit IProviderRegistryEvents.Slashed(
            exec,
            address(tasks),
            SLASH,
            address(0),
            0,
            SLASH,
            4_900e18,
            0,
            1,
            keccak256(abi.encode("chx.task", id))
        );
        vm.prank(exec);
        tasks.expire(id);
        assertEq(dps.balanceOf(exec), before, "no bounty on its own fault");
        assertEq(registry.providerInfo(exec).slashedDps, SLASH);
    }

    // ─── item 17 ────────────────────────────────────────────────────────────────────────────────────────

    /// @dev A DPS task accepted by two agreeing members: price 500 → cost 450, 90 to the pool, 360 to the executor.
    function _acceptDps() internal returns (uint256 id) {
        id = _agreedDps();
        _finalize(id);
    }

    function _agreedDps() internal returns (uint256 id) {
        id = _running(DPSC, 1_000e18, 500e18);
        _commitAll(id, providers[1], GOOD);
        _voteAll(id, 0, true, 2);
    }

    /// A failing reward pool (paused, or Emission far behind) does not block an accepting DPS finalize: the
    /// executor is paid, the pool's share is deferred and delivered by the next acceptance.
    function test_failingReplenish_doesNotBlockAcceptingFinalize() public {
        pool.setFailing(true);
        uint256 id = _acceptDps();
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Accepted));
        assertEq(dps.balanceOf(providers[1]), 360e18 + 0, "executor paid");
        assertEq(dps.balanceOf(address(pool)), 90e18, "the share reached the pool, unaccounted");
        assertEq(pool.replenished(), 0);
        assertEq(tasks.replenishBacklog(), 90e18);
        pool.setFailing(false);
        _acceptDps();
        assertEq(pool.replenished(), 180e18, "the deferred share is accounted with the next one");
        assertEq(tasks.replenishBacklog(), 0);
        vm.expectRevert(ITaskRegistryErrors.TaskNothingToFlush.selector);
        tasks.flushReplenishment();
    }

    function test_flushReplenishment_accountsTheBacklogOnceThePoolWorks() public {
        pool.setFailing(true);
        uint256 id = _agreedDps();
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.ReplenishmentDeferred(90e18, 90e18);
        _finalize(id);
        vm.expectRevert(); // the pool still fails: nothing changes
        tasks.flushReplenishment();
        assertEq(tasks.replenishBacklog(), 90e18);
        pool.setFailing(false);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.ReplenishmentFlushed(90e18);
        assertEq(tasks.flushReplenishment(), 90e18);
        assertEq(pool.replenished(), 90e18);
        assertEq(tasks.replenishBacklog(), 0);
    }

    // ─── item 22 ────────────────────────────────────────────────────────────────────────────────────────

    /// Nobody closes bidding until a minute before the deadline: selecting an executor now would hand it an
    /// impossible deadline (and a slash at expiry). The task is cancelled and refunded instead.
    function test_lateCloseBidding_cancelsInsteadOfAssigningAnImpossibleDeadline() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(tasks.getTask(id).deadline - 60);
        _close(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Cancelled));
        assertEq(tasks.getTask(id).executor, address(0));
        assertEq(usdc.balanceOf(client), 1_000_000e6, "full refund");
        assertEq(registry.providerInfo(providers[1]).dutyLockedDps, 0);
    }

    /// Sealed in time, but the selecting call comes after half the promised run time: cancelled too.
    function test_lateSelection_cancels() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 400e6);
        vm.warp(block.timestamp + 1 hours + 1);
        tasks.closeBidding(id); // sealed at once
        uint256 target = tasks.getTask(id).targetBlock;
        vm.roll(target + 1);
        vm.setBlockhash(target, keccak256("late"));
        ITaskRegistry.Task memory t = tasks.getTask(id);
        vm.warp(uint256(t.biddingEnds) + (uint256(t.deadline) - t.biddingEnds) / 2 + 1);
        vm.expectEmit(address(tasks));
        emit ITaskRegistry.TaskClosed(id, ITaskRegistry.Status.Cancelled, address(this), 1_000e6 - 1e6);
        tasks.closeBidding(id); // the keeper (this) earns the closeBidding bounty, 0.1 % of the deposit
    }

    /// A bidder withdraws while bidding is open; its bid never wins. Only the bidder may, and only while open.
    function test_withdrawnBid_isNeverSelected() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 300e6); // index 0
        _bid(id, providers[2], 400e6); // index 1
        vm.prank(providers[2]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotBidder.selector, id, 0, providers[2]));
        tasks.withdrawBid(id, 0);
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotBidder.selector, id, 5, providers[1]));
        tasks.withdrawBid(id, 5);
        vm.expectEmit(address(tasks));
        emit ITaskRegistryEvents.BidWithdrawn(id, providers[1], 0);
        vm.prank(providers[1]);
        tasks.withdrawBid(id, 0);
        vm.prank(providers[1]);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNotBidder.selector, id, 0, providers[1]));
        tasks.withdrawBid(id, 0); // already withdrawn
        vm.warp(block.timestamp + 1 hours + 1);
        vm.prank(providers[2]);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistryErrors.TaskBiddingClosed.selector, id, tasks.getTask(id).biddingEnds)
        );
        tasks.withdrawBid(id, 1); // the halting rule closed bidding
        _close(id);
        assertEq(tasks.getTask(id).executor, providers[2], "the withdrawn lower bid did not win");
        vm.prank(providers[2]);
        vm.expectRevert(
            abi.encodeWithSelector(ITaskRegistry.TaskWrongStatus.selector, id, ITaskRegistry.Status.Running)
        );
        tasks.withdrawBid(id, 1);
    }

    /// Every bid withdrawn: selection finds nobody and cancels.
    function test_allBidsWithdrawn_cancels() public {
        uint256 id = _submit(USDC, 1_000e6, 3, 2);
        _bid(id, providers[1], 300e6);
        vm.prank(providers[1]);
        tasks.withdrawBid(id, 0);
        vm.warp(block.timestamp + 1 hours + 1);
        _close(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Cancelled));
        assertEq(usdc.balanceOf(client), 1_000_000e6);
    }

    // ─── item 9 ─────────────────────────────────────────────────────────────────────────────────────────

    /// @dev An n = 2 task whose first council splits 1–1 (providers[1] executes); the dispute is opened.
    function _disputed(ITaskRegistry.Currency cur, uint128 maxPayment, uint128 price) internal returns (uint256 id) {
        id = _submit(cur, maxPayment, 2, 2);
        _bid(id, providers[1], price);
        _closeAndDraw(id);
        _commitAll(id, providers[1], GOOD);
        _voteMask(id, 0, 2, 1);
        tasks.openDispute(id);
    }

    /// The enlarged council abstains (no quorum) and governance never acts: after the dispute window and a grace
    /// of the same length anyone ends the dispute — the client is refunded, nobody is paid or slashed (TSK-05).
    function test_stalledDispute_refundsWithoutGovernance() public {
        uint256 id = _disputed(USDC, 1_000e6, 400e6);
        _draw(id);
        _voteAll(id, 1, true, 2); // 2 of the 3 needed
        uint256 ends = tasks.getTask(id).votingEnds;
        vm.warp(ends + 2 days); // inside the grace: governance's turn only
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoQuorum.selector, id, 2, 0, 3));
        _finalize(id);
        vm.warp(ends + 2 days + 1);
        address[] memory c1 = tasks.councilOf(id, 1);
        vm.prank(address(0xA11CE)); // anyone: a keeper, paid the finalize bounty (0.1 % of the deposit)
        tasks.finalize(id);
        assertEq(uint8(tasks.getTask(id).status), 9, "Unresolved");
        assertEq(tasks.keeperCredits(address(0xA11CE), USDC), 1e6, "keeper bounty (credited)");
        assertEq(usdc.balanceOf(client), 1_000_000e6 - 1e6, "full refund but the keeper's bounty");
        assertEq(usdc.balanceOf(address(tasks)), 1e6, "the keeper's credit");
        assertEq(tasks.totalEscrow(USDC), 1e6);
        assertEq(usdc.balanceOf(providers[1]), 0, "executor unpaid");
        for (uint256 i; i < providers.length; ++i) {
            // no verdict, so nobody is wrong; the three dispute members silent past their reveal window lose the
            // bounded silent slice (issue 21 item 1), the two that revealed and round 0 (revealed) lose nothing
            bool silent = _isIn(providers[i], c1) && providers[i] != c1[0] && providers[i] != c1[1];
            assertEq(registry.providerInfo(providers[i]).slashedDps, silent ? SLASH / 4 : 0, "silent slice only");
            assertEq(registry.providerInfo(providers[i]).dutyLockedDps, 0, "every duty released");
        }
    }

    /// No dispute council was ever drawn (nobody called, or too few eligible providers): the task still ends
    /// without governance.
    function test_undrawnDisputeCouncil_refundsWithoutGovernance() public {
        uint256 id = _disputed(USDC, 1_000e6, 400e6);
        vm.warp(tasks.getTask(id).votingEnds + 2 days + 1);
        _finalize(id);
        assertEq(uint8(tasks.getTask(id).status), 9);
        assertEq(usdc.balanceOf(client), 1_000_000e6);
    }

    /// A stalled CH redemption: the client's CH comes back and the executor's assignment is released (no
    /// compensation: nobody was found wrong); its liability is free to redeem again.
    function test_stalledChDispute_releasesTheRedemption() public {
        vm.prank(providers[1]);
        registry.mintCH(100e18, client);
        uint256 id = _disputed(ITaskRegistry.Currency.CH, 50e18, 40e18);
        assertEq(registry.providerInfo(providers[1]).assignedCh, 40e18);
        vm.warp(tasks.getTask(id).votingEnds + 2 days + 1);
        _finalize(id);
        assertEq(ch.balanceOf(client), 100e18);
        assertEq(registry.providerInfo(providers[1]).assignedCh, 0);
        assertEq(registry.providerInfo(providers[1]).openAssignments, 0);
        vm.expectRevert(abi.encodeWithSelector(ITaskRegistryErrors.TaskNoOpenRedemption.selector, id));
        tasks.reportRedemptionFailure(id);
    }

    /// Keepers see the fallback: the registry's checker and the lens both name `finalize` once the grace is over.
    function test_stalledDispute_keepersFinalizeAfterTheGrace() public {
        uint256 id = _disputed(USDC, 1_000e6, 400e6);
        TaskKeeperLens lens = new TaskKeeperLens(address(tasks), address(registry));
        vm.roll(block.number + 2); // the dispute's seed block is mined: the draw is due first
        (ITaskKeeperLens.DueTask[] memory due, , , ) = lens.dueTasks(1, 10);
        assertEq(uint8(due[0].action), uint8(ITaskKeeperLens.Action.DrawCouncil));
        _draw(id);
        uint256 ends = tasks.getTask(id).votingEnds;
        vm.warp(ends + 2 days);
        (due, , , ) = lens.dueTasks(1, 10);
        assertEq(due.length, 0, "governance's grace");
        (bool can, ) = _keeper().checker();
        assertFalse(can);
        vm.warp(ends + 2 days + 1);
        (due, , , ) = lens.dueTasks(1, 10);
        assertEq(uint8(due[0].action), uint8(ITaskKeeperLens.Action.Finalize));
        bytes memory payload;
        (can, payload) = _keeper().checker();
        assertTrue(can);
        assertEq(payload, abi.encodeCall(ITaskRegistry.finalize, (id)));
    }
}
