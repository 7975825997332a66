// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {EIP712Upgradeable} from "@openzeppelin/contracts-upgradeable/utils/cryptography/EIP712Upgradeable.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksCouncil} from "../../interfaces/tasks/IStreamTasksCouncil.sol";
import {IStreamTasksLifecycle} from "../../interfaces/tasks/IStreamTasksLifecycle.sol";
import {IStreamTasksViews} from "../../interfaces/tasks/IStreamTasksViews.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {IProviderMatcher} from "../../interfaces/compute/IProviderMatcher.sol";
import {StreamClient} from "../../libraries/tasks/StreamClient.sol";
import {StreamConsensus} from "../../libraries/tasks/StreamConsensus.sol";
import {StreamDuties} from "../../libraries/tasks/StreamDuties.sol";
import {StreamSettlement} from "../../libraries/tasks/StreamSettlement.sol";
import {StreamStorage, StreamTasksStorage} from "../../libraries/tasks/StreamStorage.sol";
import {StreamRequests} from "../../libraries/tasks/StreamRequests.sol";
import {StreamSubscriptions} from "../../libraries/tasks/StreamSubscriptions.sol";
import {StreamVerdict} from "../../libraries/tasks/StreamVerdict.sol";

/// @title StreamTasks
/// @notice Subscriptions, live/interrupted streams and batched receipt settlement. See IStreamTasks. The entry keeps
///         storage, access, pauses and deposits; the client's status changes live in StreamClient (internal), the
///         mechanisms in the linked
///         StreamSubscriptions (councils, subscription locks), StreamSettlement (receipts), StreamConsensus (requests
///         and answers), StreamVerdict (resolution and slashing) and StreamDuties (unpaid claims, duty locks).
contract StreamTasks is ChxUpgradeable, EIP712Upgradeable, StreamTasksStorage, IStreamTasks {
    using SafeERC20 for IERC20;

    /// @dev The EIP-712 domain name and version (ERC-5267 `eip712Domain()`; the SDK reads them from there).
    string private constant EIP712_NAME = "CHX StreamTasks";
    string private constant EIP712_VERSION = "1";
    bytes32 private constant OPEN = keccak256("stream.open");
    bytes32 private constant SUBSCRIBE = keccak256("stream.subscribe");
    bytes32 private constant REQUEST = keccak256("stream.request");
    uint256 private constant BPS = 10_000;
    uint256 private constant WAD = 1e18;
    uint256 private constant MAX_EXECUTORS = 16;

    /// @notice Initialises the proxy.
    /// @param authority The protocol AccessManager.
    /// @param matcher_ ProviderMatcher (subscriber eligibility).
    /// @param tokens_ CH, USDC, DPS (the TaskRegistry's currency order).
    /// @param settleGraceSec How long receipts may still settle after the client retracts.
    function initialize(
        address authority,
        address matcher_,
        address[3] calldata tokens_,
        uint32 settleGraceSec
    ) external initializer {
        __ChxUpgradeable_init(authority);
        __EIP712_init(EIP712_NAME, EIP712_VERSION);
        if (matcher_ == address(0)) revert ChxZeroAddress();
        for (uint256 i; i < 3; ++i) if (tokens_[i] == address(0)) revert ChxZeroAddress();
        Layout storage $ = StreamStorage.layout();
        ($.matcher, $.tokens, $.settleGraceSec) = (matcher_, tokens_, settleGraceSec);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function open(StreamTerms calldata t) external nonReentrant whenActive(OPEN) returns (uint256 id) {
        if (t.currency > 2) revert StreamInvalidTerms("currency");
        if (t.executors == 0 || t.executors > MAX_EXECUTORS) revert StreamInvalidTerms("executors");
        if (t.mode == Mode.Weighted && (t.weightWad == 0 || t.weightWad > WAD)) revert StreamInvalidTerms("weight");
        if (t.maxPrice == 0 || t.deposit == 0) revert StreamInvalidTerms("amount");
        Layout storage $ = StreamStorage.layout();
        id = ++$.streamCount;
        Stream storage s = $.streams[id];
        s.client = msg.sender;
        s.status = Status.Open;
        s.mode = t.mode;
        s.currency = t.currency;
        s.executors = t.executors;
        s.maxFailures = t.maxFailures;
        s.weightWad = t.mode == Mode.Weighted ? t.weightWad : 0;
        s.maxPrice = t.maxPrice;
        s.deposit = t.deposit;
        s.inputHash = t.inputHash;
        s.fnHash = t.fnHash;
        emit StreamOpened(id, msg.sender, t);
        IERC20($.tokens[t.currency]).safeTransferFrom(msg.sender, address(this), t.deposit);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function subscribe(uint256 id, uint128 price) external whenActive(SUBSCRIBE) {
        StreamSubscriptions.subscribe(id, price);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function unsubscribe(uint256 id) external {
        StreamSubscriptions.unsubscribe(id);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function updateSpec(uint256 id, bytes32 inputHash, bytes32 fnHash) external {
        StreamClient.updateSpec(id, inputHash, fnHash);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function reportFailedConsensus(uint256 id) external {
        StreamClient.reportFailedConsensus(id);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function resume(uint256 id) external {
        StreamClient.resume(id);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function fund(uint256 id, uint128 amount) external nonReentrant {
        Layout storage $ = StreamStorage.layout();
        Stream storage s = StreamClient.client(id);
        if (s.status == Status.Closed) revert StreamWrongStatus(id, Status.Closed);
        uint128 d = s.deposit + amount;
        s.deposit = d;
        emit StreamFunded(id, amount, d);
        IERC20($.tokens[s.currency]).safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function retract(uint256 id) external {
        StreamClient.retract(id);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function withdraw(uint256 id) external nonReentrant {
        Layout storage $ = StreamStorage.layout();
        Stream storage s = StreamClient.client(id);
        if (s.status != Status.Closed) revert StreamWrongStatus(id, s.status);
        if (block.timestamp <= s.closesAt) revert StreamStillSettling(s.closesAt);
        uint256 amount = s.deposit;
        s.deposit = 0;
        emit StreamWithdrawn(id, amount);
        if (amount != 0) IERC20($.tokens[s.currency]).safeTransfer(s.client, amount);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function settle(Receipt[] calldata receipts, bytes[] calldata signatures) external nonReentrant {
        StreamSettlement.settle(receipts, signatures, _domainSeparatorV4());
    }

    // ─── on-chain consensus (issue 21 item 4) ───────────────────────────────────────────────────────────────

    /// @inheritdoc IStreamTasksCouncil
    function setConsensusParams(ConsensusParams calldata p) external restricted {
        Layout storage $ = StreamStorage.layout();
        if (p.answerWindowSec == 0 || p.revealWindowSec == 0 || p.challengeWindowSec == 0) {
            revert IStreamTasksErrors.StreamConsensusParams("window");
        }
        if (p.clientPenaltyBps > BPS) revert IStreamTasksErrors.StreamConsensusParams("penalty");
        if (p.challengeBondRequests == 0) revert IStreamTasksErrors.StreamConsensusParams("bond");
        if (p.slashDps > $.subscriptionLockDps) revert IStreamTasksErrors.StreamConsensusParams("slash");
        address reg = IProviderMatcher($.matcher).registry();
        ($.registry, $.consensus) = (reg, p);
        emit ConsensusParamsSet(p, reg);
    }

    /// @inheritdoc IStreamTasksViews
    function consensusParams() external view returns (ConsensusParams memory) {
        return StreamStorage.layout().consensus;
    }

    /// @inheritdoc IStreamTasksCouncil
    function request(uint256 id, bytes32 inputHash) external whenActive(REQUEST) returns (uint32) {
        Layout storage $ = StreamStorage.layout();
        return StreamConsensus.open($.book, $.consensus, StreamClient.client(id), id, inputHash);
    }

    /// @inheritdoc IStreamTasksCouncil
    function answer(uint256 id, uint32 r, bytes32 answerHash) external {
        Layout storage $ = StreamStorage.layout();
        StreamConsensus.answerFirst($.book, $.consensus, $.streams[id], id, r, answerHash);
    }

    /// @inheritdoc IStreamTasksCouncil
    function challenge(uint256 id, uint32 r) external nonReentrant {
        Layout storage $ = StreamStorage.layout();
        Stream storage s = $.streams[id];
        StreamConsensus.challenge($.book, $.consensus, s, $.tokens[s.currency], id, r);
    }

    /// @inheritdoc IStreamTasksCouncil
    function commitAnswer(uint256 id, uint32 r, bytes32 commitment) external {
        Layout storage $ = StreamStorage.layout();
        StreamConsensus.commit($.book, $.streams[id], id, r, commitment);
    }

    /// @inheritdoc IStreamTasksCouncil
    function revealAnswer(uint256 id, uint32 r, bytes32 answerHash, bytes32 salt) external {
        Layout storage $ = StreamStorage.layout();
        StreamConsensus.reveal($.book, $.streams[id], $.registry, id, r, answerHash, salt);
    }

    /// @inheritdoc IStreamTasksCouncil
    function resolve(uint256 id, uint32 r) external nonReentrant {
        Layout storage $ = StreamStorage.layout();
        Stream storage s = $.streams[id];
        StreamVerdict.resolve($.book, s, $.tokens[s.currency], id, r);
    }

    /// @inheritdoc IStreamTasksCouncil
    function slashFaulty(uint256 id, uint32 r, address provider) external nonReentrant {
        Layout storage $ = StreamStorage.layout();
        StreamVerdict.slashFaulty($.book, $.consensus, $.streams[id], $.registry, id, r, provider);
    }

    /// @inheritdoc IStreamTasksCouncil
    function claimUnpaid(uint256 id, uint32[] calldata requestIds) external nonReentrant {
        Layout storage $ = StreamStorage.layout();
        Stream storage s = $.streams[id];
        StreamDuties.claim($.book, $.consensus, s, $.subs[id][msg.sender], $.tokens[s.currency], id, requestIds);
    }

    /// @inheritdoc IStreamTasksCouncil
    function releaseDutyLock(uint256 id, address provider) external {
        Layout storage $ = StreamStorage.layout();
        StreamDuties.releaseLock($.book, $.subs[id][provider], $.registry, id, provider);
    }

    /// @inheritdoc IStreamTasksViews
    function getRequest(uint256 id, uint32 r) external view returns (Request memory) {
        return StreamStorage.layout().book.requests[id][r];
    }

    /// @inheritdoc IStreamTasksViews
    function answerOf(uint256 id, uint32 r, address provider) external view returns (Answer memory) {
        return StreamStorage.layout().book.answers[id][r][provider];
    }

    /// @inheritdoc IStreamTasksViews
    function dutyOf(uint256 id, address provider) external view returns (Duty memory) {
        return StreamStorage.layout().book.duties[id][provider];
    }

    /// @inheritdoc IStreamTasksViews
    function requestCount(uint256 id) external view returns (uint32) {
        return StreamStorage.layout().book.count[id];
    }

    /// @inheritdoc IStreamTasksViews
    function answerCommitment(
        uint256 id,
        uint32 r,
        address provider,
        bytes32 answerHash,
        bytes32 salt
    ) external pure returns (bytes32) {
        return StreamRequests.commitmentOf(id, r, provider, answerHash, salt);
    }

    /// @inheritdoc IStreamTasksLifecycle
    function setSubscriptionLock(uint96 lockDps) external restricted {
        Layout storage $ = StreamStorage.layout();
        address reg = IProviderMatcher($.matcher).registry();
        ($.registry, $.subscriptionLockDps) = (reg, lockDps);
        emit SubscriptionLockSet(lockDps, reg);
    }

    /// @inheritdoc IStreamTasksViews
    function subscriptionLock() external view returns (uint96) {
        return StreamStorage.layout().subscriptionLockDps;
    }

    /// @dev The domain name as a constant: a receipt's digest then reads no storage for it (OpenZeppelin's documented
    ///      override; `__EIP712_init` stores the same strings).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Name() internal pure override returns (string memory) {
        return EIP712_NAME;
    }

    /// @dev The domain version as a constant (see `_EIP712Name`).
    // solhint-disable-next-line func-name-mixedcase
    function _EIP712Version() internal pure override returns (string memory) {
        return EIP712_VERSION;
    }

    /// @inheritdoc IStreamTasksViews
    function receiptDigest(Receipt calldata r) external view returns (bytes32) {
        return StreamSettlement.digest(r, _domainSeparatorV4());
    }

    /// @inheritdoc IStreamTasksViews
    function getStream(uint256 id) external view returns (Stream memory) {
        return StreamStorage.layout().streams[id];
    }

    /// @inheritdoc IStreamTasksViews
    function subscription(
        uint256 id,
        address provider
    ) external view returns (uint128 price, uint64 paid, uint128 paidAmount, uint96 lockedDps) {
        Sub storage sub = StreamStorage.layout().subs[id][provider];
        return (sub.price, sub.paid, sub.paidAmount, sub.lockedDps);
    }

    /// @inheritdoc IStreamTasksViews
    function answersPerRequest(uint256 id) external view returns (uint256) {
        Stream storage s = StreamStorage.layout().streams[id];
        if (s.mode == Mode.Optimistic) return 1;
        if (s.mode == Mode.Unanimous) return s.executors;
        // @dev ceil(w·c): rounds up, a weighted answer never needs fewer than w·c executors.
        return (uint256(s.weightWad) * s.executors + WAD - 1) / WAD;
    }
}
