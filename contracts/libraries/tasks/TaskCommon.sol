// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ITaskRegistry} from "../../interfaces/ITaskRegistry.sol";
import {IProviderRegistry} from "../../interfaces/IProviderRegistry.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";

/// @title TaskCommon
/// @notice Internal helpers the TaskRegistry's libraries share: status errors, quorum, the seed commit, escrow
///         release, payments, slashing and the duty locks (TSK-08).
library TaskCommon {
    using SafeERC20 for IERC20;

    uint256 internal constant BPS = 10_000;

    /// @dev Reverts TaskAlreadyDone for a finished task (keepers treat it as success), TaskWrongStatus otherwise.
    function revertStatus(uint256 taskId, ITaskRegistry.Status st) internal pure {
        if (st >= ITaskRegistry.Status.Accepted) revert ITaskRegistry.TaskAlreadyDone(taskId, st);
        revert ITaskRegistry.TaskWrongStatus(taskId, st);
    }

    /// @dev Votes needed in the current round: q, or n + 1 of the 2n + 1 dispute council.
    function quorum(ITaskRegistry.Task storage k) internal view returns (uint256) {
        return k.round == 0 ? k.quorum : uint256(k.councilSize) + 1;
    }

    /// @dev Releases the whole remaining escrow of `k` (returned amount goes to the client).
    function release(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k
    ) internal returns (uint256 amount) {
        amount = k.escrow;
        k.escrow = 0;
        $.totalEscrow[uint8(k.currency)] -= amount;
    }

    function pay(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Currency cur,
        address to,
        uint256 amount
    ) internal {
        if (amount != 0) IERC20($.tokens[uint8(cur)]).safeTransfer(to, amount);
    }

    /// @dev Commits the next block as the seed block of the next draw and fixes what the draw reads (TSK-07): the
    ///      registry's snapshot as of this block, the draw list's length now and this block's timestamp.
    function commitSeed(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k
    ) internal returns (uint64 target) {
        target = uint64(block.number + 1);
        k.targetBlock = target;
        k.seedTime = uint40(block.timestamp);
        k.candidates = uint32(IProviderRegistry($.registry).drawCount());
    }

    /// @dev Slashes `provider` the task's fault amount (fixed when bidding closed) through the ProviderRegistry (finder fee to `finder`).
    function slash(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        address provider,
        address finder
    ) internal {
        uint256 amount = k.faultDps;
        if (amount == 0) return;
        uint256 slashed = IProviderRegistry($.registry).slash(
            provider,
            amount,
            finder,
            keccak256(abi.encode("chx.task", taskId))
        );
        emit ITaskRegistry.FaultSlashed(taskId, provider, slashed);
    }

    /// @dev TSK-08: locks the task's fault amount of each provider taking a duty (executor or council seat).
    function lockDuty(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k,
        address[] memory who
    ) internal {
        uint256 amount = k.faultDps;
        if (amount != 0) IProviderRegistry($.registry).lockStake(who, amount);
    }

    /// @dev Releases every duty lock of an ending task — the executor and the members of both rounds — in one
    ///      registry call. Called on every ending path (verdict, governance resolution, expiry, stalled-dispute
    ///      refund) before any slash.
    function releaseDuties(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k
    ) internal {
        uint256 amount = k.faultDps;
        if (amount == 0) return;
        address[] storage c0 = $.councils[taskId][0];
        address[] storage c1 = $.councils[taskId][1];
        uint256 n0 = c0.length;
        uint256 n1 = k.round == 0 ? 0 : c1.length;
        address[] memory all = new address[](1 + n0 + n1);
        all[0] = k.executor;
        for (uint256 i; i < n0; ++i) all[1 + i] = c0[i];
        for (uint256 i; i < n1; ++i) all[1 + n0 + i] = c1[i];
        IProviderRegistry($.registry).releaseStake(all, amount);
    }

    function one(address who) internal pure returns (address[] memory list) {
        list = new address[](1);
        list[0] = who;
    }
}
