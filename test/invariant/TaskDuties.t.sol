// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../helpers/TaskSolBase.sol";
import {Roles} from "../../contracts/core/governance/Roles.sol";
import {ITaskRegistry} from "../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {IProviderRegistry} from "../../contracts/interfaces/compute/IProviderRegistry.sol";
import {IStreamTasks} from "../../contracts/interfaces/tasks/IStreamTasks.sol";
import {DutyHandler} from "./handlers/DutyHandler.sol";

/// @notice TSK-08 (duties hold stake) and TSK-03 (each fault slashes the fixed amount, in full) under unbonding and
///         withdrawal during executor, council and stream duties, across every ending path.
contract TaskDutiesInvariants is TaskSolBase {
    DutyHandler internal handler;
    IStreamTasks internal streams;
    uint256 internal streamId;

    function setUp() public {
        _deployTasks();
        streams = _deployStreams([address(ch), address(usdc), address(dps)]);
        streams.setSubscriptionLock(uint96(SLASH));
        usdc.mint(client, 1_000e6);
        vm.startPrank(client);
        usdc.approve(address(streams), type(uint256).max);
        streamId = streams.open(
            IStreamTasks.StreamTerms({
                currency: 1,
                mode: IStreamTasks.Mode.Optimistic,
                executors: 3,
                weightWad: 0,
                maxPrice: 2e6,
                maxFailures: 0,
                deposit: 100e6,
                inputHash: keccak256("I"),
                fnHash: keccak256("f")
            })
        );
        vm.stopPrank();
        handler = new DutyHandler(tasks, registry, streams, dps, client, providers, streamId);
        _grant(Roles.ADMIN, address(handler)); // governance's resolveDispute is one of the ending paths
        dps.transfer(address(handler), 200_000e18);
        targetContract(address(handler));
    }

    /// Sanity: every duty and every leaving path the invariants rely on is reachable.
    function test_dutyHandlerPathsAreLive() public {
        handler.subscribe(0);
        handler.newTask(1, 4_000, false);
        handler.close(0);
        handler.draw(0);
        handler.unbondMax(1); // the executor, during its duty
        handler.withdraw(1, true); // 7 days later, still during the duty
        handler.commit(0, false);
        address[] memory c = tasks.councilOf(1, 0);
        bytes32 exec = tasks.getTask(1).resultHash;
        bytes32 other = keccak256("other result");
        vm.prank(c[0]);
        tasks.commitResult(1, keccak256(abi.encode(uint256(1), c[0], exec, bytes32(0))));
        vm.prank(c[1]);
        tasks.commitResult(1, keccak256(abi.encode(uint256(1), c[1], other, bytes32(0))));
        vm.warp(tasks.getTask(1).commitEnds + 1);
        vm.prank(c[0]);
        tasks.revealResult(1, exec, bytes32(0));
        vm.prank(c[1]);
        tasks.revealResult(1, other, bytes32(0));
        handler.dispute(0, false);
        handler.draw(0);
        handler.finalize(0); // no quorum yet
        handler.warp(8 days);
        handler.finalize(0); // past window + grace: unresolved, refunded
        assertEq(uint8(tasks.getTask(1).status), uint8(ITaskRegistry.Status.Unresolved));
        assertGt(handler.hits("executor"), 0, "executor");
        assertGt(handler.hits("council"), 0, "council");
        assertGt(handler.hits("disputeCouncil"), 0, "dispute council");
        assertGt(handler.hits("subscribed"), 0, "stream");
        assertGt(handler.hits("unbondDuringDuty"), 0, "unbond during a duty");
        assertGt(handler.hits("withdrawDuringDuty"), 0, "withdraw during a duty");
        assertGt(handler.hits("unresolved"), 0, "stalled dispute");
        check_TSK08_dutyLocksMatchOpenDuties();
        check_TSK08_noWithdrawalOrUnbondTookLockedStake();
        check_TSK03_everyFaultSlashedInFull();
    }

    /// Sanity for lazy seat release (issue 18 item 4): an accepted task's seats stay locked past the verdict (the
    /// TSK-08 check counts them) until the claim and `releaseSeat` paths the campaign drives release them.
    function test_seatReleasePathsAreLive() public {
        handler.newTask(1, 4_000, true);
        handler.close(0);
        handler.draw(0);
        handler.commit(0, true);
        handler.vote(0, 0, true);
        handler.vote(0, 1, true);
        vm.warp(tasks.getTask(1).commitEnds + 1);
        handler.vote(0, 0, true);
        handler.vote(0, 1, true);
        handler.finalize(0);
        assertEq(uint8(tasks.getTask(1).status), uint8(ITaskRegistry.Status.Accepted));
        check_TSK08_dutyLocksMatchOpenDuties();
        handler.releaseSeat(0, 0, false, true); // the member's fee claim
        handler.releaseSeat(0, 2, false, false); // anyone's release of the silent member's seat
        handler.releaseSeat(0, 2, false, false); // a second release is refused
        assertEq(handler.hits("seatClaimed"), 1, "claim path");
        assertEq(handler.hits("seatReleased"), 1, "release path, once");
        check_TSK08_dutyLocksMatchOpenDuties();
    }

    /// The suite's one campaign: every property below is checked after each handler call of the same
    /// runs × depth sequence (docs/invariants.md, "Stateful profiles"); a failing trace names the property.
    function invariant_suite() public view {
        check_TSK08_dutyLocksMatchOpenDuties();
        check_TSK08_noWithdrawalOrUnbondTookLockedStake();
        check_TSK03_everyFaultSlashedInFull();
    }

    /// TSK-08: each provider's duty lock is exactly the fault amount of every open executor or council seat it holds
    /// plus its stream subscription's lock — so every ending path released what it took.
    function check_TSK08_dutyLocksMatchOpenDuties() public view {
        uint256 n = tasks.taskCount();
        for (uint256 i; i < providers.length; ++i) {
            address p = providers[i];
            uint256 expected;
            for (uint256 id = 1; id <= n; ++id) {
                ITaskRegistry.Task memory t = tasks.getTask(id);
                // issue 21: an accepted task's executor stays locked through the client's appeal window
                if (t.status == ITaskRegistry.Status.Accepted && t.commitEnds != 0 && t.executor == p) {
                    expected += t.faultDps;
                }
                // issue 18 item 4: a verdict (Accepted, Rejected) leaves each seat locked until it is released
                if (t.status < ITaskRegistry.Status.Running || t.status > ITaskRegistry.Status.Rejected) continue;
                if (t.executor == p && t.status <= ITaskRegistry.Status.Disputed) expected += t.faultDps;
                // a seat holds its lock from the draw until `releaseSeat` or its fee claim after a verdict
                if (tasks.seatReleased(id, p)) continue;
                for (uint8 r; r < 2; ++r) {
                    if (_isIn(p, tasks.councilOf(id, r))) expected += t.faultDps;
                }
            }
            (, , , uint96 sub) = streams.subscription(streamId, p);
            expected += sub;
            assertEq(registry.providerInfo(p).dutyLockedDps, expected, "duty lock != open duties");
        }
    }

    /// TSK-08: no unbond request and no withdrawal ever took stake an open duty locked.
    function check_TSK08_noWithdrawalOrUnbondTookLockedStake() public view {
        assertEq(handler.violations(), 0);
    }

    /// TSK-03 + TSK-08: every slash took exactly the task's fault amount or the silent slice (a quarter of it, issue
    /// 21 item 1) — the stake was still there to take: slashed = a·SLASH + b·SLASH/4 with a + b = slashCount.
    function check_TSK03_everyFaultSlashedInFull() public view {
        for (uint256 i; i < providers.length; ++i) {
            IProviderRegistry.ProviderInfo memory info = registry.providerInfo(providers[i]);
            uint256 floor = uint256(info.slashCount) * (SLASH / 4);
            assertGe(info.slashedDps, floor, "a slash came up short");
            assertEq((info.slashedDps - floor) % ((SLASH * 3) / 4), 0, "a slash came up short");
            assertLe(info.slashedDps, uint256(info.slashCount) * SLASH, "a slash took too much");
        }
    }
}
