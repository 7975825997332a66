// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {ITaskRegistry} from "../../interfaces/tasks/ITaskRegistry.sol";
import {ITaskRegistryActions} from "../../interfaces/tasks/ITaskRegistryActions.sol";
import {ITaskRegistryViews} from "../../interfaces/tasks/ITaskRegistryViews.sol";
import {ITaskDisputes} from "../../interfaces/tasks/ITaskDisputes.sol";
import {IKeeperCompatible, IKeeperChecker, IKeeperUpkeep} from "../../interfaces/keepers/IKeeperCompatible.sol";
import {TaskRegistryStore} from "./TaskRegistryStore.sol";
import {TaskCommon} from "../../libraries/tasks/TaskCommon.sol";
import {TaskBidding} from "../../libraries/tasks/TaskBidding.sol";
import {TaskCouncil} from "../../libraries/tasks/TaskCouncil.sol";
import {TaskSettlement} from "../../libraries/tasks/TaskSettlement.sol";
import {TaskDisputes} from "../../libraries/tasks/TaskDisputes.sol";
import {TaskPricing} from "../../libraries/tasks/TaskPricing.sol";

/// @title TaskRegistry
/// @notice Batch compute tasks with council consensus and CH redemption (SPEC section 4). See ITaskRegistry.
/// @dev Entry contract: access control, pauses, the reentrancy guard, the keeper scan and views; the mechanisms
///      live in linked libraries working on this contract's storage (`TaskBidding`, `TaskCouncil`,
///      `TaskSettlement`, `TaskDisputes`). Storage: `TaskRegistryStore`.
contract TaskRegistry is ChxUpgradeable, TaskRegistryStore, ITaskRegistry, IKeeperCompatible {
    uint256 private constant SCAN = 64;
    bytes32 private constant SUBMIT = keccak256("task.submit");
    bytes32 private constant BID = keccak256("task.bid");

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param registry_ ProviderRegistry (slash, outcome and redemption hooks).
    /// @param matcher_ ProviderMatcher (eligibility, councils, seeds).
    /// @param tokens_ CH, USDC and DPS, in Currency order.
    /// @param emission_ Emission (reward-pool replenishment; zero disables it).
    /// @param p Parameters.
    function initialize(
        address authority,
        address registry_,
        address matcher_,
        address[3] calldata tokens_,
        address emission_,
        Params calldata p
    ) external initializer {
        __ChxUpgradeable_init(authority);
        if (registry_ == address(0) || matcher_ == address(0)) revert ChxZeroAddress();
        for (uint256 i; i < 3; ++i) if (tokens_[i] == address(0)) revert ChxZeroAddress();
        TaskRegistryStorage storage $ = _s();
        ($.registry, $.matcher, $.tokens, $.emission) = (registry_, matcher_, tokens_, emission_);
        _setParams(p);
    }

    // ─── client and provider actions ───────────────────────────────────────────────────────────────────────

    /// @inheritdoc ITaskRegistry
    function submit(
        Terms calldata t,
        Prescription calldata pr
    ) external nonReentrant whenActive(SUBMIT) returns (uint256 taskId) {
        return TaskBidding.submit(_s(), t, pr);
    }

    /// @inheritdoc ITaskRegistryActions
    function bid(uint256 taskId, uint128 price) external whenActive(BID) {
        TaskBidding.bid(_s(), taskId, price);
    }

    /// @inheritdoc ITaskRegistryActions
    function withdrawBid(uint256 taskId, uint32 index) external {
        TaskBidding.withdrawBid(_s(), taskId, index);
    }

    /// @inheritdoc ITaskRegistry
    function closeBidding(uint256 taskId) external nonReentrant {
        TaskBidding.closeBidding(_s(), taskId);
    }

    /// @inheritdoc ITaskRegistry
    function drawCouncil(uint256 taskId) external nonReentrant {
        TaskCouncil.drawCouncil(_s(), taskId);
    }

    /// @inheritdoc ITaskRegistryActions
    function commit(uint256 taskId, uint8 checkpoint, bytes32 resultHash) external {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        if (k.status != Status.Running) TaskCommon.revertStatus(taskId, k.status);
        if (msg.sender != k.executor) revert TaskNotExecutor(msg.sender, k.executor);
        uint256 due = TaskPricing.dueBy($, taskId, k, checkpoint);
        if (block.timestamp > due) revert TaskDeadlinePassed(due);
        uint8 commits = k.commits;
        if (checkpoint != commits) revert TaskBadCheckpoint(commits, checkpoint);
        commits += 1;
        k.commits = commits;
        k.resultHash = resultHash;
        bool isFinal = commits == k.checkpoints;
        uint40 votingEnds;
        if (isFinal) {
            // @dev Commit–reveal (item 1): members commit in the first half of the window, reveal in the second.
            uint256 w = $.params.verifyWindowSec;
            votingEnds = uint40(block.timestamp + w);
            k.votingEnds = votingEnds;
            k.commitEnds = uint40(block.timestamp + w / 2);
            k.status = Status.Verifying;
        }
        emit ResultCommitted(taskId, checkpoint, resultHash, isFinal, votingEnds);
    }

    /// @inheritdoc ITaskRegistryActions
    function commitResult(uint256 taskId, bytes32 commitment) external {
        TaskCouncil.commitResult(_s(), taskId, commitment);
    }

    /// @inheritdoc ITaskRegistryActions
    function revealResult(uint256 taskId, bytes32 resultHash, bytes32 salt) external {
        TaskCouncil.revealResult(_s(), taskId, resultHash, salt);
    }

    /// @inheritdoc ITaskRegistry
    function openDispute(uint256 taskId) external {
        TaskRegistryStorage storage $ = _s();
        // @dev A bisection in progress (moving or judged) decides the task; no council dispute on top of it.
        uint8 ph = $.bisections[taskId].phase;
        if (ph != 0 && ph < 4) revert TaskBisectionPhase(taskId, ph);
        TaskCouncil.openDispute($, taskId);
    }

    /// @inheritdoc ITaskDisputes
    function commitChain(uint256 taskId, bytes32 root, uint32 n, bytes32[] calldata lastProof) external {
        TaskDisputes.commitChain(_s(), taskId, root, n, lastProof);
    }

    /// @inheritdoc ITaskDisputes
    function openBisection(
        uint256 taskId,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) external nonReentrant {
        TaskDisputes.open(_s(), taskId, root, finalLeaf, finalProof, midLeaf, midProof);
    }

    /// @inheritdoc ITaskDisputes
    function bisect(
        uint256 taskId,
        bytes32 leaf,
        bytes32[] calldata proof,
        bytes32 nextLeaf,
        bytes32[] calldata nextProof
    ) external {
        TaskDisputes.bisect(_s(), taskId, leaf, proof, nextLeaf, nextProof);
    }

    /// @inheritdoc ITaskRegistry
    function timeoutDispute(uint256 taskId) external nonReentrant {
        TaskRegistryStorage storage $ = _s();
        if (TaskDisputes.timeout($, taskId)) TaskSettlement.settleLapse($, taskId);
    }

    /// @inheritdoc ITaskDisputes
    function appeal(
        uint256 taskId,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) external nonReentrant {
        TaskDisputes.appeal(_s(), taskId, root, finalLeaf, finalProof, midLeaf, midProof);
    }

    /// @inheritdoc ITaskDisputes
    function closeAppeal(uint256 taskId) external nonReentrant {
        TaskDisputes.closeAppeal(_s(), taskId);
    }

    /// @inheritdoc ITaskRegistry
    function finalize(uint256 taskId) external nonReentrant {
        TaskRegistryStorage storage $ = _s();
        // @dev An appeal's judged step settles by TaskDisputes (the acceptance's money has already moved).
        if ($.tasks[taskId].flags & TaskDisputes.APPEAL != 0) TaskDisputes.finalizeAppeal($, taskId);
        else TaskSettlement.finalize($, taskId);
    }

    /// @inheritdoc ITaskRegistry
    function expire(uint256 taskId) external nonReentrant {
        TaskSettlement.expire(_s(), taskId);
    }

    /// @inheritdoc ITaskRegistry
    function reportRedemptionFailure(uint256 taskId) external nonReentrant {
        TaskSettlement.reportRedemptionFailure(_s(), taskId);
    }

    /// @inheritdoc ITaskRegistryActions
    function claimCouncilFee(uint256 taskId) external nonReentrant returns (uint256 fee) {
        return TaskCouncil.claimCouncilFee(_s(), taskId);
    }

    /// @inheritdoc ITaskRegistryActions
    function releaseSeat(uint256 taskId, address member) external nonReentrant {
        TaskCouncil.releaseSeat(_s(), taskId, member);
    }

    /// @inheritdoc ITaskRegistry
    function claimKeeperCredits(Currency currency, address to) external nonReentrant returns (uint256) {
        if (to == address(0)) revert ChxZeroAddress();
        return TaskSettlement.claimKeeperCredits(_s(), currency, to);
    }

    /// @inheritdoc ITaskRegistryActions
    function flushReplenishment() external nonReentrant returns (uint256) {
        return TaskSettlement.flushReplenishment(_s());
    }

    // ─── governance ────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc ITaskRegistry
    function resolveDispute(uint256 taskId, bool executorCorrect) external restricted nonReentrant {
        TaskRegistryStorage storage $ = _s();
        // @dev An appeal ends by its moves, its referees or their lapse (`finalize`), never by governance.
        if ($.tasks[taskId].flags & TaskDisputes.APPEAL != 0)
            revert TaskBisectionPhase(taskId, $.bisections[taskId].phase);
        TaskSettlement.resolveDispute($, taskId, executorCorrect);
    }

    /// @inheritdoc ITaskRegistry
    function setParams(Params calldata p) external restricted {
        _setParams(p);
    }

    function _setParams(Params calldata p) private {
        if (
            p.maxCouncil == 0 ||
            p.maxCouncil > 10 ||
            p.councilWindow == 0 ||
            p.dpsDiscountBps + uint256(p.dpsReplenishBps) > TaskCommon.BPS ||
            p.councilFeeBps > 1_000 ||
            p.verifyWindowSec < 2 ||
            p.disputeWindowSec < 2 ||
            p.slashDps > type(uint96).max
        ) revert TaskInvalidParams();
        _s().params = p;
        emit ParamsSet(p);
    }

    // ─── keeper ────────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc IKeeperChecker
    function checker() public view returns (bool canExec, bytes memory execPayload) {
        (bytes4 sel, uint256 id) = _due();
        if (sel != bytes4(0)) (canExec, execPayload) = (true, abi.encodeWithSelector(sel, id));
    }

    /// @inheritdoc IKeeperUpkeep
    /// @dev `performData` is the same calldata `checker` returns (selector + task id).
    function checkUpkeep(bytes calldata) external view returns (bool upkeepNeeded, bytes memory performData) {
        return checker();
    }

    /// @inheritdoc IKeeperUpkeep
    /// @dev Runs `performData` (calldata `checker` returned) in this contract's own context, keeping the caller as
    ///      `msg.sender` (the expiry bounty goes to the keeper; restricted functions still check the real caller).
    ///      The target is this proxy itself, so the code run is always this implementation's.
    /// @custom:oz-upgrades-unsafe-allow delegatecall
    function performUpkeep(bytes calldata performData) external {
        (bool ok, bytes memory ret) = address(this).delegatecall(performData);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(ret, 32), mload(ret))
            }
        }
    }

    /// @dev Scans the newest `SCAN` tasks for due work: close bidding, expire, draw a council, finalise.
    function _due() private view returns (bytes4, uint256) {
        TaskRegistryStorage storage $ = _s();
        uint256 last = $.taskCount;
        uint256 first = last > SCAN ? last - SCAN + 1 : 1;
        for (uint256 id = last; id >= first && id != 0; --id) {
            Task storage k = $.tasks[id];
            Status st = k.status;
            if (st == Status.Bidding) {
                uint256 target = k.targetBlock;
                bool halted = block.timestamp > k.biddingEnds || (k.maxBids != 0 && k.bidCount >= k.maxBids);
                if (target == 0 ? halted : block.number > target) return (this.closeBidding.selector, id);
            } else if (st == Status.Running && block.timestamp > TaskPricing.dueBy($, id, k, k.commits)) {
                return (this.expire.selector, id);
            } else if (st >= Status.Running && st <= Status.Disputed) {
                Bisection storage d = $.bisections[id];
                uint8 ph = d.phase;
                if (ph != 0 && ph < 3) {
                    if (block.timestamp > d.moveEnds) return (this.timeoutDispute.selector, id);
                    continue;
                }
                if (TaskCommon.headOf($, id, k.round) == address(0) && block.number > k.targetBlock) {
                    return (this.drawCouncil.selector, id);
                }
                if (st != Status.Running && _finalizable($, id, k)) return (this.finalize.selector, id);
            }
        }
        return (bytes4(0), 0);
    }

    function _finalizable(TaskRegistryStorage storage $, uint256 id, Task storage k) private view returns (bool) {
        uint256 q = TaskCommon.quorum(k);
        if (k.agree >= q) return true;
        bool disputed = k.status == Status.Disputed || $.bisections[id].phase == 3;
        (, uint256 d) = TaskCommon.rival($, id, k);
        if (d >= q) return disputed || block.timestamp > k.votingEnds;
        // a dispute undecided past governance's grace ends Unresolved (TSK-05)
        return disputed && block.timestamp > uint256(k.votingEnds) + $.params.disputeWindowSec;
    }

    // ─── views ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc ITaskRegistry
    function keeperCredits(address keeper, Currency currency) external view returns (uint256) {
        return _s().keeperCredits[keeper][uint8(currency)];
    }

    /// @inheritdoc ITaskRegistry
    function getTask(uint256 taskId) external view returns (Task memory t) {
        t = _s().tasks[taskId];
        // @dev An accepted task's verdict is the executor's result: not stored (one fresh slot less in finalize).
        if (t.status == Status.Accepted) t.verdictHash = t.resultHash;
    }

    /// @inheritdoc ITaskRegistryViews
    function seatReleased(uint256 taskId, address member) external view returns (bool) {
        return _s().members[taskId][member] & TaskCommon.SEAT_RELEASED != 0;
    }

    /// @inheritdoc ITaskRegistryViews
    function reportedToClient(uint256 taskId) external view returns (bool, uint256, uint256) {
        uint256 w = _s().reportedToClient[taskId];
        return (w & 1 != 0, w >> 128, uint128(w) >> 1);
    }

    /// @inheritdoc ITaskRegistryViews
    function paymentTermsOf(uint256 taskId) external view returns (uint256 paymentParams, uint8 responseMode) {
        return TaskPricing.termsOf(_s(), taskId);
    }

    /// @inheritdoc ITaskRegistryViews
    function councilOf(uint256 taskId, uint8 round) external view returns (address[] memory) {
        TaskRegistryStorage storage $ = _s();
        return TaskCommon.council($, taskId, $.tasks[taskId], round);
    }

    /// @inheritdoc ITaskRegistryViews
    function leadingRival(uint256 taskId) external view returns (bytes32 resultHash, uint256 count) {
        TaskRegistryStorage storage $ = _s();
        return TaskCommon.rival($, taskId, $.tasks[taskId]);
    }

    /// @inheritdoc ITaskDisputes
    function bisectionOf(uint256 taskId) external view returns (Bisection memory) {
        return TaskDisputes.decoded(_s().bisections[taskId]);
    }

    /// @inheritdoc ITaskDisputes
    function bisectionBond(uint256 taskId) external view returns (uint256) {
        return TaskDisputes.bondOf(_s().tasks[taskId]);
    }

    /// @inheritdoc ITaskDisputes
    function appealBond(uint256 taskId) external view returns (uint256) {
        return TaskDisputes.appealBond(_s().tasks[taskId]);
    }

    /// @inheritdoc ITaskRegistryViews
    function taskCount() external view returns (uint256) {
        return _s().taskCount;
    }

    /// @inheritdoc ITaskRegistry
    function totalEscrow(Currency currency) external view returns (uint256) {
        return _s().totalEscrow[uint8(currency)];
    }

    /// @inheritdoc ITaskRegistryViews
    function replenishBacklog() external view returns (uint256) {
        return _s().replenishBacklogDps;
    }

    /// @inheritdoc ITaskRegistry
    function params() external view returns (Params memory) {
        return _s().params;
    }
}
