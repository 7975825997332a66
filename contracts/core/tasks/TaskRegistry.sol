// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {ITaskRegistry} from "../../interfaces/ITaskRegistry.sol";
import {IProviderRegistry} from "../../interfaces/IProviderRegistry.sol";
import {IProviderMatcher} from "../../interfaces/IProviderMatcher.sol";
import {IRewardPool} from "../../interfaces/IEmissionHooks.sol";
import {IKeeperCompatible, IKeeperChecker, IKeeperUpkeep} from "../../interfaces/IKeeperCompatible.sol";

/// @title TaskRegistry
/// @notice Batch compute tasks with council consensus and CH redemption (SPEC section 4). See ITaskRegistry.
contract TaskRegistry is ChxUpgradeable, ITaskRegistry, IKeeperCompatible {
    using SafeERC20 for IERC20;

    /// @custom:storage-location erc7201:chx.storage.TaskRegistry
    struct TaskRegistryStorage {
        address registry;
        address matcher;
        address emission;
        address[3] tokens;
        Params params;
        uint256 taskCount;
        uint256[3] totalEscrow;
        mapping(uint256 taskId => Task) tasks;
        /// @dev Packed bids: price << 160 | bidder, in arrival order (≤ MAX_BIDS per task).
        mapping(uint256 taskId => mapping(uint256 index => uint256 bid)) bids;
        mapping(uint256 taskId => mapping(uint8 round => address[])) councils;
        /// @dev bit r: member of round r; bit 2 + r: voted in round r; bit 4 + r: voted "equal" in round r.
        mapping(uint256 taskId => mapping(address member => uint8 bits)) members;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.TaskRegistry")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant TASK_REGISTRY_STORAGE_LOCATION =
        0x594014470d997d78f129109bd55ca25d1bac153c594e77036730af191a075300;

    uint256 private constant BPS = 10_000;
    uint256 private constant MAX_CHECKPOINTS = 32;
    uint256 private constant SCAN = 64;
    uint256 private constant MAX_BIDS = 32;
    bytes32 private constant SUBMIT = keccak256("task.submit");
    bytes32 private constant BID = keccak256("task.bid");

    function _s() private pure returns (TaskRegistryStorage storage $) {
        assembly {
            $.slot := TASK_REGISTRY_STORAGE_LOCATION
        }
    }

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
        TaskRegistryStorage storage $ = _s();
        _validateTerms($, t);
        taskId = ++$.taskCount;
        bytes32 prHash = keccak256(abi.encode(pr));
        uint40 ends = uint40(block.timestamp + t.bidWindowSec);
        Task storage k = $.tasks[taskId];
        k.client = msg.sender;
        k.status = Status.Bidding;
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
        $.totalEscrow[uint8(t.currency)] += t.maxPayment;
        emit TaskSubmitted(taskId, msg.sender, t, pr, prHash, ends);
        IERC20($.tokens[uint8(t.currency)]).safeTransferFrom(msg.sender, address(this), t.maxPayment);
    }

    function _validateTerms(TaskRegistryStorage storage $, Terms calldata t) private view {
        uint256 n = t.councilSize;
        if (n == 0 || n > $.params.maxCouncil) revert TaskInvalidTerms("councilSize");
        if (t.quorum <= n / 2 || t.quorum > n) revert TaskInvalidTerms("quorum");
        if (t.checkpoints == 0 || t.checkpoints > MAX_CHECKPOINTS) revert TaskInvalidTerms("checkpoints");
        if (t.maxBids > MAX_BIDS) revert TaskInvalidTerms("maxBids");
        if (t.bidWindowSec == 0 || t.deadline <= block.timestamp + t.bidWindowSec) revert TaskInvalidTerms("deadline");
        if (t.maxPayment == 0) revert TaskInvalidTerms("maxPayment");
    }

    /// @inheritdoc ITaskRegistry
    function bid(uint256 taskId, uint128 price) external whenActive(BID) {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        if (k.status != Status.Bidding) _revertStatus(taskId, k.status);
        uint32 count = k.bidCount;
        uint256 cap = k.maxBids == 0 ? MAX_BIDS : k.maxBids;
        if (block.timestamp > k.biddingEnds || count >= cap) revert TaskBiddingClosed(taskId, k.biddingEnds);
        if (msg.sender == k.client) revert TaskClientCannotBid(taskId);
        uint256 maxPrice = _maxBid($, k);
        // @dev ≤ 2^96 so the price packs beside its bidder in one slot.
        if (price == 0 || price > maxPrice || price > type(uint96).max) revert TaskBidTooHigh(price, maxPrice);
        // @dev Eligibility is checked once for all bids when bidding closes (one matcher call), keeping bids O(1).
        // @dev Indexed by the bid count (already in the task's slot): no separate array length to write.
        $.bids[taskId][count] = (uint256(price) << 160) | uint160(msg.sender);
        k.bidCount = ++count;
        emit BidPlaced(taskId, msg.sender, price, count);
    }

    /// @dev Lowest valid bid: the matcher's hard filters (Executor mode; CH tasks also need outstanding CH ≥ price),
    ///      equal prices to the higher score, then to the earlier bid.
    function _bestBid(
        TaskRegistryStorage storage $,
        uint256 taskId,
        Task storage k
    ) private view returns (address best, uint256 bestPrice, uint256 bestScore) {
        mapping(uint256 => uint256) storage list = $.bids[taskId];
        uint256 n = k.bidCount;
        if (n == 0) return (address(0), 0, 0);
        address[] memory who = new address[](n);
        for (uint256 i; i < n; ++i) who[i] = address(uint160(list[i]));
        (bool[] memory ok, uint256[] memory scores) = IProviderMatcher($.matcher).scoreCandidates(
            _query(k, IProviderMatcher.Mode.Executor),
            who,
            bytes32(0)
        );
        bool isCh = k.currency == Currency.CH;
        for (uint256 i; i < n; ++i) {
            uint256 price = list[i] >> 160;
            if (
                !ok[i] || (best != address(0) && (price > bestPrice || (price == bestPrice && scores[i] <= bestScore)))
            ) {
                continue;
            }
            if (isCh && IProviderRegistry($.registry).matchingProfile(who[i]).outstandingCh < price) continue;
            (best, bestPrice, bestScore) = (who[i], price, scores[i]);
        }
    }

    /// @inheritdoc ITaskRegistry
    function closeBidding(uint256 taskId) external nonReentrant {
        _closeBidding(taskId);
    }

    function _closeBidding(uint256 taskId) private {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        if (k.status != Status.Bidding) _revertStatus(taskId, k.status);
        if (block.timestamp <= k.biddingEnds && (k.maxBids == 0 || k.bidCount < k.maxBids)) {
            revert TaskBiddingOpen(taskId, k.biddingEnds);
        }
        (address executor, uint256 price, ) = _bestBid($, taskId, k);
        if (executor == address(0) || block.timestamp >= k.deadline) {
            k.status = Status.Cancelled;
            uint256 refund = _release($, k);
            emit TaskClosed(taskId, Status.Cancelled, msg.sender, refund);
            _pay($, k.currency, k.client, refund);
            return;
        }
        k.status = Status.Running;
        k.executor = executor;
        k.price = uint128(price);
        // @dev Fee fixed at close (rounded down), capped so every fee of both rounds still fits the deposit.
        uint256 fee = (price * $.params.councilFeeBps) / BPS;
        uint256 cap = (uint256(k.maxPayment) - price) / (3 * uint256(k.councilSize) + 1);
        k.councilFee = uint128(fee < cap ? fee : cap);
        uint64 target = uint64(block.number + 1);
        k.targetBlock = target;
        uint256 assignmentId;
        if (k.currency == Currency.CH) {
            assignmentId = IProviderRegistry($.registry).assignRedemption(
                executor,
                k.price,
                uint256(k.deadline) + $.params.redemptionGraceSec
            );
            k.assignmentId = uint64(assignmentId);
        }
        emit ExecutorSelected(taskId, executor, k.price, target, assignmentId);
    }

    /// @inheritdoc ITaskRegistry
    function drawCouncil(uint256 taskId) external {
        _drawCouncil(taskId);
    }

    function _drawCouncil(uint256 taskId) private {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        Status st = k.status;
        if (st < Status.Running || st > Status.Disputed) _revertStatus(taskId, st);
        uint8 round = k.round;
        uint256 target = k.targetBlock;
        if (target == 0 || block.number <= target || $.councils[taskId][round].length != 0) {
            revert TaskCouncilNotDrawable(taskId, target);
        }
        if (block.number > target + 256) {
            // @dev The committed hash is out of reach: commit a fresh future block (nobody chose the old outcome).
            k.targetBlock = uint64(block.number + 1);
            return;
        }
        bytes32 seed = IProviderMatcher($.matcher).blockSeed(
            keccak256(abi.encode(taskId, k.executor, k.price, round)),
            target
        );
        uint256 size = round == 0 ? k.councilSize : 2 * uint256(k.councilSize) + 1;
        address[] memory picked = IProviderMatcher($.matcher).selectFromRegistry(
            _query(k, IProviderMatcher.Mode.Council),
            $.params.councilWindow,
            _excluded($, taskId, k),
            seed,
            size
        );
        if (picked.length < size) revert TaskCouncilUnavailable(size, picked.length);
        mapping(address => uint8) storage bits = $.members[taskId];
        uint8 flag = uint8(1 << round);
        for (uint256 i; i < size; ++i) bits[picked[i]] |= flag;
        $.councils[taskId][round] = picked;
        emit CouncilDrawn(taskId, round, picked, _quorum(k), seed);
    }

    /// @dev Client, executor and caller never sit on the council; a dispute council excludes the first council.
    function _excluded(
        TaskRegistryStorage storage $,
        uint256 taskId,
        Task storage k
    ) private view returns (address[] memory ex) {
        address[] storage first = $.councils[taskId][0];
        uint256 extra = k.round == 0 ? 0 : first.length;
        ex = new address[](3 + extra);
        (ex[0], ex[1], ex[2]) = (k.client, k.executor, msg.sender);
        for (uint256 i; i < extra; ++i) ex[3 + i] = first[i];
    }

    /// @inheritdoc ITaskRegistry
    function commit(uint256 taskId, uint8 checkpoint, bytes32 resultHash) external {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        if (k.status != Status.Running) _revertStatus(taskId, k.status);
        if (msg.sender != k.executor) revert TaskNotExecutor(msg.sender, k.executor);
        if (block.timestamp > k.deadline) revert TaskDeadlinePassed(k.deadline);
        uint8 commits = k.commits;
        if (checkpoint != commits) revert TaskBadCheckpoint(commits, checkpoint);
        commits += 1;
        k.commits = commits;
        k.resultHash = resultHash;
        bool isFinal = commits == k.checkpoints;
        uint40 votingEnds;
        if (isFinal) {
            votingEnds = uint40(block.timestamp + $.params.verifyWindowSec);
            k.votingEnds = votingEnds;
            k.status = Status.Verifying;
        }
        emit ResultCommitted(taskId, checkpoint, resultHash, isFinal, votingEnds);
    }

    /// @inheritdoc ITaskRegistry
    function vote(uint256 taskId, bool agree) external {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        Status st = k.status;
        if (st < Status.Verifying || st > Status.Disputed) _revertStatus(taskId, st);
        if (block.timestamp > k.votingEnds) revert TaskDeadlinePassed(k.votingEnds);
        uint8 round = k.round;
        uint8 b = $.members[taskId][msg.sender];
        // @dev TSK-01: only current members count, and each at most once.
        if (b & (1 << round) == 0) revert TaskNotCouncilMember(taskId, msg.sender);
        if (b & (4 << round) != 0) revert TaskAlreadyVoted(taskId, msg.sender);
        b |= uint8(4 << round);
        uint8 a = k.agree;
        uint8 d = k.disagree;
        if (agree) {
            b |= uint8(16 << round);
            k.agree = ++a;
        } else {
            k.disagree = ++d;
        }
        $.members[taskId][msg.sender] = b;
        emit Voted(taskId, msg.sender, round, agree, a, d);
    }

    /// @inheritdoc ITaskRegistry
    function openDispute(uint256 taskId) external {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        if (k.status != Status.Verifying) _revertStatus(taskId, k.status);
        uint256 q = k.quorum;
        uint256 a = k.agree;
        uint256 d = k.disagree;
        bool windowOver = block.timestamp > k.votingEnds;
        if (a >= q) revert TaskNoDisagreement(taskId);
        if (d >= q) {
            // @dev A rejection may only be appealed by the executor, inside the window.
            if (msg.sender != k.executor || windowOver) revert TaskNoDisagreement(taskId);
        } else {
            uint256 left = uint256(k.councilSize) - a - d;
            if (!windowOver && (a + left >= q || d + left >= q)) revert TaskNoDisagreement(taskId);
        }
        k.status = Status.Disputed;
        k.round = 1;
        k.agree = 0;
        k.disagree = 0;
        uint64 target = uint64(block.number + 1);
        k.targetBlock = target;
        k.votingEnds = uint40(block.timestamp + $.params.disputeWindowSec);
        emit DisputeOpened(taskId, msg.sender, target);
    }

    /// @inheritdoc ITaskRegistry
    function finalize(uint256 taskId) external nonReentrant {
        _finalize(taskId);
    }

    function _finalize(uint256 taskId) private {
        Task storage k = _s().tasks[taskId];
        Status st = k.status;
        if (st < Status.Verifying || st > Status.Disputed) _revertStatus(taskId, st);
        uint256 q = _quorum(k);
        if (k.agree >= q) return _settle(taskId, true);
        if (k.disagree >= q) {
            if (st == Status.Verifying && block.timestamp <= k.votingEnds) {
                revert TaskAppealWindowOpen(taskId, k.votingEnds);
            }
            return _settle(taskId, false);
        }
        revert TaskNoQuorum(taskId, k.agree, k.disagree, q);
    }

    /// @inheritdoc ITaskRegistry
    function expire(uint256 taskId) external nonReentrant {
        _expire(taskId);
    }

    function _expire(uint256 taskId) private {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        if (k.status != Status.Running) _revertStatus(taskId, k.status);
        if (block.timestamp <= k.deadline) revert TaskDeadlineNotPassed(k.deadline);
        k.status = Status.Expired;
        uint256 refund = _release($, k);
        emit TaskClosed(taskId, Status.Expired, msg.sender, refund);
        // @dev TSK-03: the executor accepted this deadline and missed it. CH tasks are compensated by the registry
        //      through reportRedemptionFailure once the delivery deadline passes.
        if (k.currency != Currency.CH) {
            _slash($, taskId, k.executor, msg.sender);
            IProviderRegistry($.registry).recordTaskOutcome(k.executor, false);
        }
        _pay($, k.currency, k.client, refund);
    }

    /// @inheritdoc ITaskRegistry
    function reportRedemptionFailure(uint256 taskId) external nonReentrant {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        uint256 id = k.assignmentId;
        // @dev Only Rejected and Expired tasks (Cancelled ones never had an assignment) may report a failure.
        if (id == 0 || k.status < Status.Rejected) revert TaskNoOpenRedemption(taskId);
        k.assignmentId = 0;
        uint256 comp = IProviderRegistry($.registry).reportDeliveryFailure(id, k.client);
        emit RedemptionFailed(taskId, id, comp);
    }

    // ─── settlement ────────────────────────────────────────────────────────────────────────────────────────

    /// @dev Pays the executor, slashes the side found wrong, reserves the fees of the members who voted with the
    ///      verdict (claimed with `claimCouncilFee`) and refunds the rest. Effects first, then transfers.
    function _settle(uint256 taskId, bool executorCorrect) private {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        Status outcome = executorCorrect ? Status.Accepted : Status.Rejected;
        k.status = outcome;
        uint256 winners = executorCorrect ? k.agree : k.disagree;
        if (k.round == 1) winners += _judgeFirstRound($, taskId, executorCorrect);
        uint256 reserved = winners * k.councilFee;
        uint256 executorCost;
        uint256 executorPaid;
        uint256 replenished;
        if (executorCorrect) (executorCost, executorPaid, replenished) = _executorShare($, k.currency, k.price);
        uint256 escrow = k.escrow;
        uint256 refund = escrow - reserved - executorCost;
        k.escrow = uint128(reserved);
        $.totalEscrow[uint8(k.currency)] -= escrow - reserved;
        emit TaskFinalized(taskId, outcome, executorPaid, reserved, refund, replenished);
        if (executorCorrect) {
            _payExecutor($, k, executorPaid, replenished);
            IProviderRegistry($.registry).recordTaskOutcome(k.executor, true);
        } else if (k.currency != Currency.CH) {
            _slash($, taskId, k.executor, address(0));
            IProviderRegistry($.registry).recordTaskOutcome(k.executor, false);
        }
        _pay($, k.currency, k.client, refund);
    }

    /// @dev Executor's share: CH and USDC get the price; DPS clients pay price × (1 − discount) (rounded up, the
    ///      executor is not short-changed by rounding), of which `dpsReplenishBps` (rounded down) returns to the
    ///      reward pool.
    function _executorShare(
        TaskRegistryStorage storage $,
        Currency cur,
        uint256 price
    ) private view returns (uint256 cost, uint256 paid, uint256 replenished) {
        if (cur != Currency.DPS) return (price, price, 0);
        cost = (price * (BPS - $.params.dpsDiscountBps) + BPS - 1) / BPS;
        if ($.emission != address(0)) replenished = (cost * $.params.dpsReplenishBps) / BPS;
        paid = cost - replenished;
    }

    function _payExecutor(TaskRegistryStorage storage $, Task storage k, uint256 paid, uint256 replenished) private {
        Currency cur = k.currency;
        if (cur == Currency.CH) {
            // @dev Redemption: the CH goes to the registry, which burns it against the executor's liability.
            IERC20($.tokens[0]).safeTransfer($.registry, paid);
            IProviderRegistry($.registry).confirmDelivery(k.assignmentId);
            return;
        }
        _pay($, cur, k.executor, paid);
        if (replenished != 0) {
            IERC20($.tokens[2]).safeTransfer($.emission, replenished);
            IRewardPool($.emission).replenish(replenished);
        }
    }

    /// @dev After a dispute: slashes first-round members who voted against the verdict (the side found wrong,
    ///      TSK-03) and counts those who voted with it. Bounded by maxCouncil members.
    function _judgeFirstRound(
        TaskRegistryStorage storage $,
        uint256 taskId,
        bool executorCorrect
    ) private returns (uint256 right) {
        mapping(address => uint8) storage bits = $.members[taskId];
        address[] storage c = $.councils[taskId][0];
        uint256 n = c.length;
        for (uint256 i; i < n; ++i) {
            address m = c[i];
            uint8 b = bits[m];
            if (b & 4 == 0) continue; // did not vote
            if ((b & 16 != 0) == executorCorrect) ++right;
            else _slash($, taskId, m, address(0));
        }
    }

    /// @inheritdoc ITaskRegistry
    function claimCouncilFee(uint256 taskId) external nonReentrant returns (uint256 fee) {
        TaskRegistryStorage storage $ = _s();
        Task storage k = $.tasks[taskId];
        Status st = k.status;
        if (st != Status.Accepted && st != Status.Rejected) _revertStatus(taskId, st);
        bool correct = st == Status.Accepted;
        uint8 b = $.members[taskId][msg.sender];
        // @dev A member sits in one round only (the dispute council excludes round 0); bit 6 marks a claim.
        uint8 r = b & 2 != 0 ? 1 : 0;
        if (b & 64 != 0 || b & (4 << r) == 0 || (b & (16 << r) != 0) != correct) {
            revert TaskNothingToClaim(taskId, msg.sender);
        }
        $.members[taskId][msg.sender] = b | 64;
        fee = k.councilFee;
        uint128 left = k.escrow - uint128(fee);
        k.escrow = left;
        $.totalEscrow[uint8(k.currency)] -= fee;
        emit CouncilFeeClaimed(taskId, msg.sender, fee, left);
        _pay($, k.currency, msg.sender, fee);
    }

    function _slash(TaskRegistryStorage storage $, uint256 taskId, address provider, address finder) private {
        uint256 amount = $.params.slashDps;
        if (amount == 0) return;
        uint256 slashed = IProviderRegistry($.registry).slash(
            provider,
            amount,
            finder,
            keccak256(abi.encode("chx.task", taskId))
        );
        emit FaultSlashed(taskId, provider, slashed);
    }

    /// @dev Releases the whole remaining escrow of `k` (returned amount goes to the client).
    function _release(TaskRegistryStorage storage $, Task storage k) private returns (uint256 amount) {
        amount = k.escrow;
        k.escrow = 0;
        $.totalEscrow[uint8(k.currency)] -= amount;
    }

    function _pay(TaskRegistryStorage storage $, Currency cur, address to, uint256 amount) private {
        if (amount != 0) IERC20($.tokens[uint8(cur)]).safeTransfer(to, amount);
    }

    // ─── governance ────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc ITaskRegistry
    function resolveDispute(uint256 taskId, bool executorCorrect) external restricted nonReentrant {
        Task storage k = _s().tasks[taskId];
        if (k.status != Status.Disputed) _revertStatus(taskId, k.status);
        if (block.timestamp <= k.votingEnds) revert TaskDeadlineNotPassed(k.votingEnds);
        _settle(taskId, executorCorrect);
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
            p.dpsDiscountBps + uint256(p.dpsReplenishBps) > BPS ||
            p.councilFeeBps > 1_000 ||
            p.verifyWindowSec == 0 ||
            p.disputeWindowSec == 0
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
                if (block.timestamp > k.biddingEnds || (k.maxBids != 0 && k.bidCount >= k.maxBids)) {
                    return (this.closeBidding.selector, id);
                }
            } else if (st == Status.Running && block.timestamp > k.deadline) {
                return (this.expire.selector, id);
            } else if (st >= Status.Running && st <= Status.Disputed) {
                if ($.councils[id][k.round].length == 0 && block.number > k.targetBlock) {
                    return (this.drawCouncil.selector, id);
                }
                if (st != Status.Running && _finalizable(k)) return (this.finalize.selector, id);
            }
        }
        return (bytes4(0), 0);
    }

    function _finalizable(Task storage k) private view returns (bool) {
        uint256 q = _quorum(k);
        if (k.agree >= q) return true;
        return k.disagree >= q && (k.status == Status.Disputed || block.timestamp > k.votingEnds);
    }

    // ─── views ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @inheritdoc ITaskRegistry
    function getTask(uint256 taskId) external view returns (Task memory) {
        return _s().tasks[taskId];
    }

    /// @inheritdoc ITaskRegistry
    function councilOf(uint256 taskId, uint8 round) external view returns (address[] memory) {
        return _s().councils[taskId][round];
    }

    /// @inheritdoc ITaskRegistry
    function taskCount() external view returns (uint256) {
        return _s().taskCount;
    }

    /// @inheritdoc ITaskRegistry
    function totalEscrow(Currency currency) external view returns (uint256) {
        return _s().totalEscrow[uint8(currency)];
    }

    /// @inheritdoc ITaskRegistry
    function params() external view returns (Params memory) {
        return _s().params;
    }

    /// @dev Largest price whose fees for both councils (n + 2n + 1 members) fit the deposit; rounds down.
    function _maxBid(TaskRegistryStorage storage $, Task storage k) private view returns (uint256) {
        uint256 feeBps = (3 * uint256(k.councilSize) + 1) * $.params.councilFeeBps;
        return (uint256(k.maxPayment) * BPS) / (BPS + feeBps);
    }

    function _quorum(Task storage k) private view returns (uint256) {
        return k.round == 0 ? k.quorum : uint256(k.councilSize) + 1;
    }

    /// @dev Executor or Council query for a task (class, region preference, capacity; price ignored).
    function _query(Task storage k, IProviderMatcher.Mode mode) private view returns (IProviderMatcher.Query memory) {
        return IProviderMatcher.Query(mode, k.workloadClass, k.region, false, 0, k.capacityPflopsWad, 0);
    }

    function _revertStatus(uint256 taskId, Status st) private pure {
        if (st >= Status.Accepted) revert TaskAlreadyDone(taskId, st);
        revert TaskWrongStatus(taskId, st);
    }
}
