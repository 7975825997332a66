// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryEvents} from "../../interfaces/tasks/ITaskRegistryEvents.sol";
import {ITaskRegistryErrors} from "../../interfaces/tasks/ITaskRegistryErrors.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {TaskRegistryStore} from "../../core/tasks/TaskRegistryStore.sol";
import {TaskCommon} from "./TaskCommon.sol";
import {TaskPricing} from "./TaskPricing.sol";
import {DrawProfile} from "../compute/DrawProfile.sol";

/// @title TaskBidding
/// @notice The TaskRegistry's market: submitting a task (escrow), bids under the halting rule, and closing bidding
///         (executor selection, council fee, seed block, CH redemption assignment). Linked as an external library.
library TaskBidding {
    using SafeERC20 for IERC20;

    uint256 private constant BPS = 10_000;
    uint256 private constant MAX_CHECKPOINTS = 32;
    uint256 private constant MAX_BIDS = 32;

    /// @notice Validates the terms, records the task and escrows `maxPayment` from the caller.
    function submit(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Terms calldata t,
        ITaskRegistry.Prescription calldata pr
    ) external returns (uint256 taskId) {
        _validateTerms($, t);
        taskId = ++$.taskCount;
        bytes32 prHash = keccak256(abi.encode(pr));
        uint40 ends = uint40(block.timestamp + t.bidWindowSec);
        ITaskRegistry.Task storage k = $.tasks[taskId];
        k.client = msg.sender;
        k.status = ITaskRegistry.Status.Bidding;
        k.currency = t.currency;
        k.councilSize = t.councilSize;
        k.quorum = t.quorum;
        k.checkpoints = t.checkpoints;
        k.maxBids = t.maxBids;
        k.biddingEnds = ends;
        k.deadline = t.deadline;
        k.escrow = t.maxPayment;
        k.workloadClass = t.workloadClass;
        k.region = t.region;
        k.maxPayment = t.maxPayment;
        k.capacityPflopsWad = t.capacityPflopsWad;
        k.prescriptionHash = prHash;
        TaskPricing.store($, taskId, t);
        $.totalEscrow[uint8(t.currency)] += t.maxPayment;
        emit ITaskRegistry.TaskSubmitted(taskId, msg.sender, t, pr, prHash, ends);
        IERC20($.tokens[uint8(t.currency)]).safeTransferFrom(msg.sender, address(this), t.maxPayment);
    }

    function _validateTerms(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Terms calldata t
    ) private view {
        uint256 n = t.councilSize;
        if (n == 0 || n > $.params.maxCouncil) revert ITaskRegistryErrors.TaskInvalidTerms("councilSize");
        if (t.quorum <= n / 2 || t.quorum > n) revert ITaskRegistryErrors.TaskInvalidTerms("quorum");
        if (t.checkpoints == 0 || t.checkpoints > MAX_CHECKPOINTS)
            revert ITaskRegistryErrors.TaskInvalidTerms("checkpoints");
        if (t.maxBids > MAX_BIDS) revert ITaskRegistryErrors.TaskInvalidTerms("maxBids");
        if (t.bidWindowSec == 0 || t.deadline <= block.timestamp + t.bidWindowSec) {
            revert ITaskRegistryErrors.TaskInvalidTerms("deadline");
        }
        if (t.maxPayment == 0) revert ITaskRegistryErrors.TaskInvalidTerms("maxPayment");
        TaskPricing.validate(t);
    }

    /// @notice Records a bid of the caller while the halting rule is open.
    function bid(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId, uint128 price) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        if (k.status != ITaskRegistry.Status.Bidding) TaskCommon.revertStatus(taskId, k.status);
        uint32 count = k.bidCount;
        uint256 cap = k.maxBids == 0 ? MAX_BIDS : k.maxBids;
        if (block.timestamp > k.biddingEnds || count >= cap || k.targetBlock != 0) {
            revert ITaskRegistryErrors.TaskBiddingClosed(taskId, k.biddingEnds);
        }
        if (msg.sender == k.client) revert ITaskRegistryErrors.TaskClientCannotBid(taskId);
        uint256 maxPrice = maxBid($, k);
        // @dev ≤ 2^96 so the price packs beside its bidder in one slot.
        if (price == 0 || price > maxPrice || price > type(uint96).max) {
            revert ITaskRegistryErrors.TaskBidTooHigh(price, maxPrice);
        }
        // @dev Eligibility is checked once for all bids when bidding closes (one matcher call), keeping bids O(1).
        // @dev Indexed by the bid count (already in the task's slot): no separate array length to write.
        $.bids[taskId][count] = (uint256(price) << 160) | uint160(msg.sender);
        k.bidCount = ++count;
        emit ITaskRegistryEvents.BidPlaced(taskId, msg.sender, price, count);
    }

    /// @notice Closes bidding in two steps. After the halting rule, the first call seals the bids and commits the
    ///         next block as the seed block (no bids: cancels at once); once that block is mined, the second call
    ///         selects the executor with the committed seed and the registry snapshot (TSK-07, issue 17 item 20).
    function closeBidding(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        if (k.status != ITaskRegistry.Status.Bidding) TaskCommon.revertStatus(taskId, k.status);
        uint256 target = k.targetBlock;
        if (target == 0) {
            if (block.timestamp <= k.biddingEnds && (k.maxBids == 0 || k.bidCount < k.maxBids)) {
                revert ITaskRegistryErrors.TaskBiddingOpen(taskId, k.biddingEnds);
            }
            if (k.bidCount == 0 || block.timestamp > _lateCutoff(k)) return _cancel($, taskId, k);
            return _seal($, taskId, k);
        }
        if (block.number <= target) revert ITaskRegistryErrors.TaskSeedPending(taskId, target);
        // @dev The committed hash is out of reach: commit a fresh block (nobody saw the old outcome acted on).
        if (block.number > target + 256) return _seal($, taskId, k);
        bytes32 seed = TaskCommon.blockSeed(keccak256(abi.encode(taskId, "executor")), target);
        (address executor, uint256 price) = _bestBid($, taskId, k, seed);
        // @dev Item 22: an executor selected after half the promised run time would get a deadline it may not meet.
        if (executor == address(0) || block.timestamp > _lateCutoff(k)) return _cancel($, taskId, k);
        k.status = ITaskRegistry.Status.Running;
        k.executor = executor;
        k.price = uint128(price);
        // @dev Fee fixed at close (rounded down), capped so every fee of both rounds still fits the deposit.
        uint256 fee = (price * $.params.councilFeeBps) / BPS;
        uint256 cap = (_budget(k) - price) / (3 * uint256(k.councilSize) + 1);
        k.councilFee = uint128(fee < cap ? fee : cap);
        // @dev TSK-08: the fault amount is fixed now; the executor's duty locks it until the task ends.
        k.faultDps = uint96($.params.slashDps);
        TaskCommon.lockDuty($, k, TaskCommon.one(executor));
        uint256 assignmentId;
        if (k.currency == ITaskRegistry.Currency.CH) {
            assignmentId = IProviderRegistry($.registry).assignRedemption(
                executor,
                k.price,
                uint256(k.deadline) + $.params.redemptionGraceSec
            );
            k.assignmentId = SafeCast.toUint48(assignmentId);
        }
        // @dev The council draws from the same (already mined) seed block and snapshot: drawable at once.
        emit ITaskRegistryEvents.ExecutorSelected(taskId, executor, k.price, target, assignmentId);
        TaskCommon.creditBounty($, taskId, k, ITaskRegistry.closeBidding.selector);
    }

    /// @dev Latest selection time: half the run time the terms promise (deadline − end of the bid window) must
    ///      remain; rounds down (earlier cut-off). A task whose bidding closes later is cancelled and refunded.
    function _lateCutoff(ITaskRegistry.Task storage k) private view returns (uint256) {
        uint256 ends = k.biddingEnds;
        return ends + (uint256(k.deadline) - ends) / 2;
    }

    /// @notice Withdraws the caller's bid at `index` while the halting rule is still open.
    function withdrawBid(TaskRegistryStore.TaskRegistryStorage storage $, uint256 taskId, uint32 index) external {
        ITaskRegistry.Task storage k = $.tasks[taskId];
        if (k.status != ITaskRegistry.Status.Bidding) TaskCommon.revertStatus(taskId, k.status);
        uint256 cap = k.maxBids == 0 ? MAX_BIDS : k.maxBids;
        if (block.timestamp > k.biddingEnds || k.bidCount >= cap || k.targetBlock != 0) {
            revert ITaskRegistryErrors.TaskBiddingClosed(taskId, k.biddingEnds);
        }
        mapping(uint256 => uint256) storage list = $.bids[taskId];
        if (index >= k.bidCount || address(uint160(list[index])) != msg.sender) {
            revert ITaskRegistryErrors.TaskNotBidder(taskId, index, msg.sender);
        }
        // @dev The slot keeps its index (bidCount still counts it toward maxBids); an empty slot never wins.
        list[index] = 0;
        emit ITaskRegistryEvents.BidWithdrawn(taskId, msg.sender, index);
    }

    /// @dev Seals the bids: commits the seed block and the registry snapshot the selection and council read.
    function _seal(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k
    ) private {
        uint64 target = TaskCommon.commitSeed($, k);
        emit ITaskRegistryEvents.BiddingSealed(taskId, target, k.candidates);
    }

    function _cancel(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k
    ) private {
        k.status = ITaskRegistry.Status.Cancelled;
        TaskCommon.creditBounty($, taskId, k, ITaskRegistry.closeBidding.selector);
        uint256 refund = TaskCommon.release($, k);
        emit ITaskRegistry.TaskClosed(taskId, ITaskRegistry.Status.Cancelled, msg.sender, refund);
        TaskCommon.pay($, k.currency, k.client, refund);
    }

    /// @dev Lowest valid bid: eligible by the bidder's registry snapshot at the seal (attested class and capacity,
    ///      live attestation, minimum stake; CH tasks also need outstanding CH ≥ price now); equal prices to the
    ///      higher keccak256(seed, bidder) with the seed committed at the seal — not grindable by address (item 20).
    function _bestBid(
        TaskRegistryStore.TaskRegistryStorage storage $,
        uint256 taskId,
        ITaskRegistry.Task storage k,
        bytes32 seed
    ) private view returns (address best, uint256 bestPrice) {
        mapping(uint256 => uint256) storage list = $.bids[taskId];
        uint256 n = k.bidCount;
        address[] memory who = new address[](n);
        for (uint256 i; i < n; ++i) who[i] = address(uint160(list[i]));
        uint256[] memory words = IProviderRegistry($.registry).drawProfilesAt(who, k.targetBlock - 1);
        bool isCh = k.currency == ITaskRegistry.Currency.CH;
        uint256 bestKey;
        for (uint256 i; i < n; ++i) {
            uint256 price = list[i] >> 160;
            if (price == 0) continue; // withdrawn
            if (!DrawProfile.eligible(words[i], k.workloadClass, k.capacityPflopsWad, k.seedTime)) continue;
            uint256 key = uint256(keccak256(abi.encode(seed, who[i])));
            if (best != address(0) && (price > bestPrice || (price == bestPrice && key <= bestKey))) continue;
            if (isCh && IProviderRegistry($.registry).matchingProfile(who[i]).outstandingCh < price) continue;
            (best, bestPrice, bestKey) = (who[i], price, key);
        }
    }

    /// @dev Largest price whose fees for both councils (n + 2n + 1 members) fit the deposit less the keeper
    ///      bounties it reserves (issue 21 item 6); rounds down.
    function maxBid(
        TaskRegistryStore.TaskRegistryStorage storage $,
        ITaskRegistry.Task storage k
    ) internal view returns (uint256) {
        uint256 feeBps = (3 * uint256(k.councilSize) + 1) * $.params.councilFeeBps;
        return (_budget(k) * BPS) / (BPS + feeBps);
    }

    /// @dev The deposit less every keeper bounty the task may pay (KEEPER_STEPS of them).
    function _budget(ITaskRegistry.Task storage k) private view returns (uint256) {
        return uint256(k.maxPayment) - TaskCommon.KEEPER_STEPS * TaskCommon.bountyOf(k);
    }
}
