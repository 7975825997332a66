// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TaskSolBase} from "../../helpers/TaskSolBase.sol";
import {ITaskRegistry} from "../../../contracts/interfaces/tasks/ITaskRegistry.sol";
import {ITaskKeeperLens} from "../../../contracts/interfaces/keepers/ITaskKeeperLens.sol";
import {TaskKeeperLens} from "../../../contracts/periphery/TaskKeeperLens.sol";

/// @notice The keeper lens sees a response-mode-1 task whose checkpoint milestone passed as an `expire` move, at the
///         same moment the registry's `expire` accepts it (docs/tasks.md "Payment functions and response modes").
contract TaskLensMilestoneTest is TaskSolBase {
    TaskKeeperLens internal lens;

    function setUp() public {
        _deployTasks();
        lens = new TaskKeeperLens(address(tasks), address(registry));
    }

    function _running(uint8 mode) internal returns (uint256 id) {
        ITaskRegistry.Terms memory t = _terms(ITaskRegistry.Currency.USDC, 1_000e6, 3, 2);
        t.responseMode = mode;
        vm.prank(client);
        id = tasks.submit(t, _prescription());
        _bid(id, providers[0], 500e6);
        _closeAndDraw(id);
    }

    function _due() internal view returns (ITaskKeeperLens.DueTask[] memory due) {
        (due, , , ) = lens.dueTasks(1, 10);
    }

    /// @dev Mode 1: checkpoint 0 of 2 is due 18.25 h after submission; one second later the lens lists `expire` and
    ///      the registry's `expire` succeeds (before that second, neither).
    function test_lens_responseMode1_missedMilestone_isExpireMove() public {
        uint256 t0 = block.timestamp;
        uint256 id = _running(1);
        uint256 due = t0 + 1 hours + 11.5 hours + 5.75 hours;
        vm.warp(due);
        ITaskKeeperLens.DueTask[] memory d = _due();
        for (uint256 i; i < d.length; ++i) assertTrue(d[i].action != ITaskKeeperLens.Action.Expire, "early");
        vm.warp(due + 1);
        d = _due();
        assertEq(d.length, 1);
        assertEq(d[0].taskId, id);
        assertEq(uint8(d[0].action), uint8(ITaskKeeperLens.Action.Expire));
        assertEq(d[0].selector, ITaskRegistry.expire.selector);
        assertLt(block.timestamp, tasks.getTask(id).deadline);
        tasks.expire(id);
        assertEq(uint8(tasks.getTask(id).status), uint8(ITaskRegistry.Status.Expired));
    }

    /// @dev Mode 1, checkpoint 0 committed on time: the next (final) checkpoint is due only at the deadline.
    function test_lens_responseMode1_metMilestone_waitsForDeadline() public {
        uint256 t0 = block.timestamp;
        uint256 id = _running(1);
        address exec = tasks.getTask(id).executor;
        vm.prank(exec);
        tasks.commit(id, 0, keccak256("checkpoint-0"));
        vm.warp(t0 + 20 hours);
        assertEq(_due().length, 0);
        vm.warp(uint256(tasks.getTask(id).deadline) + 1);
        ITaskKeeperLens.DueTask[] memory d = _due();
        assertEq(d.length, 1);
        assertEq(uint8(d[0].action), uint8(ITaskKeeperLens.Action.Expire));
    }

    /// @dev Mode 0 at the same moment: only the deadline counts, no move.
    function test_lens_responseMode0_noMilestone() public {
        uint256 t0 = block.timestamp;
        _running(0);
        vm.warp(t0 + 20 hours);
        assertEq(_due().length, 0);
    }
}
