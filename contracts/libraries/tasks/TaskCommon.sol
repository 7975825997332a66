// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {IProviderMatcher} from "../../interfaces/compute/IProviderMatcher.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";

/// @title TaskCommon
/// @notice Internal helpers the TaskRegistry's libraries share: status errors, quorum, the seed commit, escrow
///         release, payments, slashing and the duty locks (TSK-08).
library TaskCommon {
    using SafeERC20 for IERC20;

    uint256 internal constant BPS = 10_000;
    /// @dev Share of a duty's fault amount (`faultDps`) a member loses for not revealing in time (issue 21 item 1):
    ///      25 %, so the slice is always within the stake its seat locked (TSK-08), taken once per member and task.
    uint256 internal constant SILENT_SLASH_BPS = 2_500;
    /// @dev Keeper bounty per paid maintenance step, bps of the task's deposit (issue 21 item 6).
    uint256 internal constant KEEPER_BOUNTY_BPS = 10;
    /// @dev Paid steps a task can have at most: closeBidding, drawCouncil twice, finalize, reportRedemptionFailure.
    ///      The deposit reserves this many bounties before any bid price or council fee (see `maxBid`).
    uint256 internal constant KEEPER_STEPS = 5;
    /// @dev A bisection challenger's bond, bps of the task's deposit (issue 21 item 2): 10 %, task currency.
    uint256 internal constant BISECT_BOND_BPS = 1_000;

    /// @dev Reverts TaskAlreadyDone for a finished task (keepers treat it as success), TaskWrongStatus otherwise.
    function revertStatus(uint256 taskId, ITaskRegistry.Status st) internal pure {
        if (st >= ITaskRegistry.Status.Accepted) revert ITaskRegistry.TaskAlreadyDone(taskId, st);
        revert ITaskRegistry.TaskWrongStatus(taskId, st);
    }

    /// @dev Reveals of one result needed in the current round: q, or n + 1 of the 2n + 1 dispute council.
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
        k.targetBlock = uint48(target);
        k.seedTime = uint40(block.timestamp);
        k.candidates = uint32(IProviderRegistry($.registry).drawCount());
    }

    /// @dev The seed of a draw committed to block `target`: ProviderMatcher.blockSeed's formula, computed here
    ///      instead of asked for (one external call less per draw; `test_blockSeed_matchesMatcher` keeps them equal).
    function blockSeed(bytes32 salt, uint256 target) internal view returns (bytes32) {
        bytes32 h = blockhash(target);
        if (h == bytes32(0)) revert IProviderMatcher.MatcherSeedUnavailable(target, block.number);
        return keccak256(abi.encode(h, salt, block.chainid));
    }

    /// @dev Slashes `provider` the task's fault amount (fixed when bidding closed) through the ProviderRegistry (finder fee to `finder`).
    function slash(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        address provider,
        address finder
    ) internal {
        slashAmount($, taskId, provider, k.faultDps, finder);
    }

    /// @dev Slashes `provider` `amount` DPS (≤ the task's fault amount, which its duty locked) for task `taskId`.
    function slashAmount(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        address provider,
        uint256 amount,
        address finder
    ) internal {
        if (amount == 0) return;
        uint256 slashed = IProviderRegistry($.registry).slash(
            provider,
            amount,
            finder,
            keccak256(abi.encode("chx.task", taskId))
        );
        emit ITaskRegistryEvents.FaultSlashed(taskId, provider, slashed);
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

    /// @dev Releases the duty locks of an ending task in one registry call: the executor's (unless an acceptance keeps
    ///      it through the appeal window) and, with `seats`, the members' of both rounds. Called on every ending path
    ///      before any slash; a verdict (Accepted, Rejected: `seats` false) leaves each council seat locked until its
    ///      member claims its fee or anyone calls `releaseSeat` (issue 18 finalize gas; docs/tasks.md, TSK-08).
    function releaseDuties(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bool seats
    ) internal {
        // @dev Issue 21 (appeal hook, TaskDisputes): an accepted non-CH task without a bisection keeps its executor's
        //      lock through the client's appeal window; `commitEnds` then holds the acceptance time (0: no window).
        bool hold =
            k.status == ITaskRegistry.Status.Accepted && k.flags & 32 == 0 && k.currency != ITaskRegistry.Currency.CH;
        k.commitEnds = hold ? uint40(block.timestamp) : 0;
        if (hold && !seats) return;
        uint256 amount = k.faultDps;
        if (amount == 0) return;
        if (!seats) {
            IProviderRegistry($.registry).releaseStake(one(k.executor), amount);
            return;
        }
        uint256 n = k.councilSize;
        address[] memory all = new address[](1 + n + (k.round == 0 ? 0 : 2 * n + 1));
        uint256 len = hold ? 0 : 1;
        if (!hold) all[0] = k.executor;
        len = appendCouncil($, taskId, 0, all, len);
        if (k.round != 0) len = appendCouncil($, taskId, 1, all, len);
        assembly ("memory-safe") {
            mstore(all, len)
        }
        IProviderRegistry($.registry).releaseStake(all, amount);
    }

    /// @dev Member word bit 7: the seat's duty lock was released after a verdict (`releaseSeat`, `claimCouncilFee`).
    uint256 internal constant SEAT_RELEASED = 128;

    /// @dev Releases the duty lock of `member`'s seat on a task ended by a verdict (word `b`, bit 7 not set yet):
    ///      marks the word first, so a seat is released once (TSK-08).
    function releaseSeat(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        address member,
        uint256 b
    ) internal {
        $.members[taskId][member] = b | SEAT_RELEASED;
        uint256 amount = k.faultDps;
        if (amount != 0) IProviderRegistry($.registry).releaseStake(one(member), amount);
    }

    /// @dev Stores a drawn council as the list threaded through its members' words (draw order kept). The first
    ///      round's head goes into the task's `councilHead` (the slot of `targetBlock`, which the draw has read: a
    ///      warm rewrite instead of a fresh slot, issue 21 drawCouncil gas); the dispute council's into `councilHeads`.
    function storeCouncil(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        uint8 round,
        address[] memory picked
    ) internal {
        mapping(address => uint256) storage words = $.members[taskId];
        uint256 flag = 1 << round;
        uint256 n = picked.length;
        for (uint256 i; i < n; ++i) {
            uint256 next = i + 1 < n ? uint160(picked[i + 1]) : 0;
            words[picked[i]] |= flag | (next << 8);
        }
        if (round == 0) k.councilHead = picked[0];
        else $.councilHeads[taskId][round] = picked[0];
    }

    /// @dev The first member of round `round`'s council of `taskId` (zero: not drawn yet).
    function headOf(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        uint256 round
    ) internal view returns (address) {
        return round == 0 ? $.tasks[taskId].councilHead : $.councilHeads[taskId][uint8(round)];
    }

    /// @dev Appends round `round`'s members (draw order) to `list` from index `at`; returns the new length. `list`
    ///      must have room (a council has at most 2 · maxCouncil + 1 members).
    function appendCouncil(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        uint8 round,
        address[] memory list,
        uint256 at
    ) internal view returns (uint256) {
        mapping(address => uint256) storage words = $.members[taskId];
        for (address m = headOf($, taskId, round); m != address(0); m = address(uint160(words[m] >> 8))) {
            list[at++] = m;
        }
        return at;
    }

    /// @dev Round `round`'s council in draw order (empty before the draw).
    function council(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        uint8 round
    ) internal view returns (address[] memory list) {
        list = new address[](round == 0 ? k.councilSize : 2 * uint256(k.councilSize) + 1);
        uint256 len = appendCouncil($, taskId, round, list, 0);
        assembly ("memory-safe") {
            mstore(list, len)
        }
    }

    /// @dev The keeper bounty of one step of `k`: a fixed slice of its deposit (rounded down).
    function bountyOf(ITaskRegistry.Task storage k) internal view returns (uint256) {
        return (uint256(k.maxPayment) * KEEPER_BOUNTY_BPS) / BPS;
    }

    /// @dev Moves the caller's keeper bounty for `step` out of the task's escrow into the caller's keeper credit
    ///      (pull: `claimKeeperCredits`; no transfer on the maintenance path, and `totalEscrow` is unchanged because
    ///      it counts credits too). Nothing for the client or the executor (self-dealing only moves the client's own
    ///      deposit; the slice stays in escrow and is refunded), nor beyond the escrow left. Returns the amount.
    function creditBounty(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bytes4 step
    ) internal returns (uint256 amount) {
        if (msg.sender == k.client || msg.sender == k.executor) return 0;
        amount = bountyOf(k);
        uint256 esc = k.escrow;
        if (amount > esc) amount = esc;
        if (amount == 0) return 0;
        k.escrow = uint128(esc - amount);
        // @dev bits 2–4 of `flags` count the bounties paid (≤ KEEPER_STEPS = 5 < 8): a client contract reads the
        //      refund it was paid from the task view (DeliveryAccounting).
        k.flags += 4;
        $.keeperCredits[msg.sender][uint8(k.currency)] += amount;
        emit ITaskRegistryEvents.KeeperBountyPaid(taskId, msg.sender, step, uint8(k.currency), amount, esc - amount);
    }

    /// @dev Whether a member's reveal in round `r` (word `b`, revealed hash `revealed`) sides with the verdict:
    ///      accepted — it revealed the executor's result; rejected on a quorum — it revealed the quorum's result;
    ///      rejected by governance without one (`verdict` zero) — it revealed any other result.
    function sidesWith(
        uint256 b,
        uint256 r,
        bool executorCorrect,
        bytes32 verdict,
        bytes32 revealed
    ) internal pure returns (bool) {
        if (executorCorrect) return b & (16 << r) != 0;
        return verdict == bytes32(0) ? b & (16 << r) == 0 : revealed == verdict;
    }

    /// @dev The current round's most revealed result other than the executor's and how many revealed it (ties: the
    ///      first revealed in draw order; a tie never reaches a quorum, which is > half). Bounded: ≤ 2·maxCouncil + 1.
    function rival(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k
    ) internal view returns (bytes32 best, uint256 count) {
        uint256 d = k.disagree;
        if (d == 0) return (bytes32(0), 0);
        uint256 r = k.round;
        mapping(address => uint256) storage words = $.members[taskId];
        mapping(address => bytes32) storage res = $.results[taskId];
        bytes32[] memory seen = new bytes32[](d);
        uint256 n;
        uint256 b;
        for (address m = headOf($, taskId, r); m != address(0); m = address(uint160(b >> 8))) {
            b = words[m];
            if (b & (4 << r) != 0 && b & (16 << r) == 0) seen[n++] = res[m];
        }
        for (uint256 i; i < n; ++i) {
            uint256 c;
            for (uint256 j = i; j < n; ++j) if (seen[j] == seen[i]) ++c;
            if (c > count) (best, count) = (seen[i], c);
        }
    }

    /// @dev Slashes a member that missed its reveal deadline the bounded slice of the task's fault amount.
    function slashSilent(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        address member
    ) internal {
        uint256 amount = (uint256(k.faultDps) * SILENT_SLASH_BPS) / BPS;
        if (amount == 0) return;
        uint256 slashed = IProviderRegistry($.registry).slash(
            member,
            amount,
            address(0),
            keccak256(abi.encode("chx.task.silent", taskId))
        );
        emit ITaskRegistryEvents.SilentMemberSlashed(taskId, member, slashed);
    }

    function one(address who) internal pure returns (address[] memory list) {
        list = new address[](1);
        list[0] = who;
    }
}
