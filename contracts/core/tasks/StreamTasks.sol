// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712Upgradeable} from "@openzeppelin/contracts-upgradeable/utils/cryptography/EIP712Upgradeable.sol";
import {ChxUpgradeable} from "../base/ChxUpgradeable.sol";
import {IStreamTasks} from "../../interfaces/tasks/IStreamTasks.sol";
import {IStreamTasksErrors} from "../../interfaces/tasks/IStreamTasksErrors.sol";
import {IProviderMatcher} from "../../interfaces/compute/IProviderMatcher.sol";
import {IProviderRegistry} from "../../interfaces/compute/IProviderRegistry.sol";
import {StreamConsensus} from "../../libraries/tasks/StreamConsensus.sol";

/// @title StreamTasks
/// @notice Subscriptions, live/interrupted streams and batched receipt settlement. See IStreamTasks.
contract StreamTasks is ChxUpgradeable, EIP712Upgradeable, IStreamTasks {
    using SafeERC20 for IERC20;

    /// @custom:storage-location erc7201:chx.storage.StreamTasks
    struct StreamTasksStorage {
        address matcher;
        address[3] tokens;
        uint32 settleGraceSec;
        uint256 streamCount;
        mapping(uint256 streamId => Stream) streams;
        mapping(uint256 streamId => mapping(address provider => StreamConsensus.Sub)) subs;
        /// @dev The matcher's ProviderRegistry (cached by setSubscriptionLock) and the DPS a subscription locks.
        address registry;
        uint96 subscriptionLockDps;
        /// @dev Issue 21 item 4: on-chain consensus requests, answers and council duties (StreamConsensus).
        StreamConsensus.Book book;
        ConsensusParams consensus;
    }

    // keccak256(abi.encode(uint256(keccak256("chx.storage.StreamTasks")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant STREAM_TASKS_STORAGE_LOCATION =
        0xa6bb5737be2e76814f566dc53853b18d2ebc3eedb01f47eeed2cc6f40abcf900;

    /// @dev The EIP-712 domain name and version (ERC-5267 `eip712Domain()`; the SDK reads them from there).
    string private constant EIP712_NAME = "CHX StreamTasks";
    string private constant EIP712_VERSION = "1";
    bytes32 private constant RECEIPT_TYPEHASH = keccak256(
        "Receipt(uint256 streamId,address provider,uint64 answered,uint128 amount)"
    );
    bytes32 private constant OPEN = keccak256("stream.open");
    bytes32 private constant SUBSCRIBE = keccak256("stream.subscribe");
    bytes32 private constant REQUEST = keccak256("stream.request");
    uint256 private constant BPS = 10_000;
    uint256 private constant WAD = 1e18;
    uint256 private constant MAX_EXECUTORS = 16;

    function _s() private pure returns (StreamTasksStorage storage $) {
        assembly {
            $.slot := STREAM_TASKS_STORAGE_LOCATION
        }
    }

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
        StreamTasksStorage storage $ = _s();
        ($.matcher, $.tokens, $.settleGraceSec) = (matcher_, tokens_, settleGraceSec);
    }

    /// @inheritdoc IStreamTasks
    function open(StreamTerms calldata t) external nonReentrant whenActive(OPEN) returns (uint256 id) {
        if (t.currency > 2) revert StreamInvalidTerms("currency");
        if (t.executors == 0 || t.executors > MAX_EXECUTORS) revert StreamInvalidTerms("executors");
        if (t.mode == Mode.Weighted && (t.weightWad == 0 || t.weightWad > WAD)) revert StreamInvalidTerms("weight");
        if (t.maxPrice == 0 || t.deposit == 0) revert StreamInvalidTerms("amount");
        StreamTasksStorage storage $ = _s();
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

    /// @inheritdoc IStreamTasks
    function subscribe(uint256 id, uint128 price) external whenActive(SUBSCRIBE) {
        StreamTasksStorage storage $ = _s();
        Stream storage s = $.streams[id];
        Status st = s.status;
        if (st != Status.Open && st != Status.Interrupted) {
            if (st == Status.Live) revert StreamFull(id);
            revert StreamWrongStatus(id, st);
        }
        if (msg.sender == s.client) revert StreamIneligible(msg.sender);
        if (price == 0 || price > s.maxPrice) revert StreamPriceTooHigh(price, s.maxPrice);
        StreamConsensus.Sub storage sub = $.subs[id][msg.sender];
        if (sub.active) revert StreamSubscription(msg.sender);
        _checkEligible($, msg.sender);
        uint96 leftover = _join($, id, sub);
        // @dev A returning subscriber keeps its paid count (receipts are cumulative) and takes the new price.
        (sub.price, sub.active) = (price, true);
        uint8 n = s.subscribers + 1;
        s.subscribers = n;
        // @dev Live at c subscribers — unless failed consensus interrupted it: only the client's `resume` resets that
        //      count (item 21: a subscriber leaving and re-joining must not clear the client's verdict).
        if (n >= s.executors && !_consensusHalted(s)) {
            st = Status.Live;
            s.status = st;
        }
        uint96 lockDps = $.subscriptionLockDps;
        if (lockDps != 0) sub.lockedDps = lockDps;
        emit Subscribed(id, msg.sender, price, n, st);
        // @dev TSK-08: the subscription holds stake until it ends (the registry is a protocol module).
        if (leftover != 0) IProviderRegistry($.registry).releaseStake(_one(msg.sender), leftover);
        if (lockDps != 0) IProviderRegistry($.registry).lockStake(_one(msg.sender), lockDps);
    }

    /// @dev Council membership from the next request on; a duty from an earlier subscription that is still slashable
    ///      blocks re-joining (its lock is then still held). Returns a past lock to release (its duty is over).
    function _join(
        StreamTasksStorage storage $,
        uint256 id,
        StreamConsensus.Sub storage sub
    ) private returns (uint96 leftover) {
        Duty storage d = $.book.duties[id][msg.sender];
        if (d.lockUntil >= block.timestamp) revert IStreamTasksErrors.StreamDutyPending(d.lockUntil);
        (d.fromRequest, d.toRequest, d.lockUntil) = ($.book.count[id] + 1, type(uint32).max, 0);
        leftover = sub.lockedDps;
        sub.lockedDps = 0;
    }

    function _checkEligible(StreamTasksStorage storage $, address provider) private view {
        IProviderMatcher.Query memory q = IProviderMatcher.Query({
            mode: IProviderMatcher.Mode.Executor,
            workloadClass: type(uint16).max,
            region: 0,
            regionStrict: false,
            budgetPriceWad: 0,
            requiredCapacityPflopsWad: 0,
            requiredCh: 0
        });
        (bool[] memory ok, ) = IProviderMatcher($.matcher).scoreCandidates(q, _one(provider), bytes32(0));
        if (!ok[0]) revert StreamIneligible(provider);
    }

    /// @inheritdoc IStreamTasks
    function unsubscribe(uint256 id) external {
        StreamTasksStorage storage $ = _s();
        Stream storage s = $.streams[id];
        StreamConsensus.Sub storage sub = $.subs[id][msg.sender];
        if (!sub.active) revert StreamSubscription(msg.sender);
        // @dev The price stays recorded so receipts for requests already answered still settle.
        sub.active = false;
        uint8 n = s.subscribers - 1;
        s.subscribers = n;
        Status st = s.status;
        if (st == Status.Live && n < s.executors) {
            st = Status.Interrupted;
            s.status = st;
        }
        emit Unsubscribed(id, msg.sender, n, st);
        // @dev TSK-08: a member of requests asked so far keeps its lock until their slash window ends.
        uint96 locked = StreamConsensus.leave($.book, $.consensus, sub, id);
        if (locked != 0) IProviderRegistry($.registry).releaseStake(_one(msg.sender), locked);
    }

    /// @inheritdoc IStreamTasks
    function updateSpec(uint256 id, bytes32 inputHash, bytes32 fnHash) external {
        Stream storage s = _client(id);
        if (s.status == Status.Closed) revert StreamWrongStatus(id, Status.Closed);
        uint32 v = s.specVersion + 1;
        (s.inputHash, s.fnHash, s.specVersion) = (inputHash, fnHash, v);
        emit SpecUpdated(id, inputHash, fnHash, v);
    }

    /// @inheritdoc IStreamTasks
    function reportFailedConsensus(uint256 id) external {
        Stream storage s = _client(id);
        Status st = s.status;
        if (st != Status.Live) revert StreamWrongStatus(id, st);
        uint8 f = s.failures + 1;
        s.failures = f;
        if (s.maxFailures != 0 && f >= s.maxFailures) {
            st = Status.Interrupted;
            s.status = st;
        }
        emit ConsensusFailed(id, f, st);
    }

    /// @inheritdoc IStreamTasks
    function resume(uint256 id) external {
        Stream storage s = _client(id);
        Status st = s.status;
        if (st != Status.Interrupted || !_consensusHalted(s)) revert StreamWrongStatus(id, st);
        s.failures = 0;
        if (s.subscribers >= s.executors) {
            st = Status.Live;
            s.status = st;
        }
        emit StreamResumed(id, st);
    }

    function _consensusHalted(Stream storage s) private view returns (bool) {
        uint8 max = s.maxFailures;
        return max != 0 && s.failures >= max;
    }

    /// @inheritdoc IStreamTasks
    function fund(uint256 id, uint128 amount) external nonReentrant {
        StreamTasksStorage storage $ = _s();
        Stream storage s = _client(id);
        if (s.status == Status.Closed) revert StreamWrongStatus(id, Status.Closed);
        uint128 d = s.deposit + amount;
        s.deposit = d;
        emit StreamFunded(id, amount, d);
        IERC20($.tokens[s.currency]).safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @inheritdoc IStreamTasks
    function retract(uint256 id) external {
        Stream storage s = _client(id);
        if (s.status == Status.Closed) revert StreamWrongStatus(id, Status.Closed);
        StreamTasksStorage storage $ = _s();
        uint256 grace = $.settleGraceSec;
        uint256 closesAt = block.timestamp + grace;
        // @dev Item 4: the deposit stays until providers could claim every on-chain answer the client left unpaid.
        uint256 lastAt = $.book.lastAt[id];
        if (lastAt != 0) {
            uint256 claimable = lastAt + StreamConsensus.lifetime($.consensus) + $.consensus.payGraceSec + grace;
            if (claimable > closesAt) closesAt = claimable;
        }
        s.status = Status.Closed;
        s.closesAt = uint40(closesAt);
        emit StreamRetracted(id, uint40(closesAt));
    }

    /// @inheritdoc IStreamTasks
    function withdraw(uint256 id) external nonReentrant {
        StreamTasksStorage storage $ = _s();
        Stream storage s = _client(id);
        if (s.status != Status.Closed) revert StreamWrongStatus(id, s.status);
        if (block.timestamp <= s.closesAt) revert StreamStillSettling(s.closesAt);
        uint256 amount = s.deposit;
        s.deposit = 0;
        emit StreamWithdrawn(id, amount);
        if (amount != 0) IERC20($.tokens[s.currency]).safeTransfer(s.client, amount);
    }

    /// @inheritdoc IStreamTasks
    function settle(Receipt[] calldata receipts, bytes[] calldata signatures) external nonReentrant {
        StreamTasksStorage storage $ = _s();
        uint256 n = receipts.length;
        if (n != signatures.length) revert StreamInvalidTerms("length");
        for (uint256 i; i < n; ++i) _settleOne($, receipts[i], signatures[i]);
    }

    /// @dev Pays the increase of a cumulative receipt: a replayed or older receipt pays nothing (idempotent). The
    ///      amount is the client's signed total, so what an answered request is worth never follows a later price.
    function _settleOne(StreamTasksStorage storage $, Receipt calldata r, bytes calldata sig) private {
        Stream storage s = $.streams[r.streamId];
        _checkReceipt(s, r, sig);
        StreamConsensus.Sub storage sub = $.subs[r.streamId][r.provider];
        if (sub.price == 0) revert StreamNotSubscriber(r.provider);
        uint128 settled = sub.paidAmount;
        if (r.amount <= settled) return;
        uint256 amount = r.amount - settled;
        uint128 d = _debit(s, amount);
        uint64 paid = sub.paid;
        uint64 fresh = r.answered > paid ? r.answered - paid : 0;
        if (fresh != 0) sub.paid = r.answered;
        sub.paidAmount = r.amount;
        emit ReceiptSettled(r.streamId, r.provider, r.answered, fresh, amount, d);
        IERC20($.tokens[s.currency]).safeTransfer(r.provider, amount);
    }

    /// @dev The stream still settles, the client signed, and the amount is at most answered × maxPrice.
    function _checkReceipt(Stream storage s, Receipt calldata r, bytes calldata sig) private view {
        if (s.status == Status.Closed && block.timestamp > s.closesAt) revert StreamWrongStatus(r.streamId, s.status);
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(_digest(r), sig);
        if (err != ECDSA.RecoverError.NoError || signer != s.client) revert StreamBadSignature(signer);
        uint256 cap = uint256(r.answered) * s.maxPrice;
        if (r.amount > cap) revert StreamReceiptAboveMaxPrice(r.amount, cap);
    }

    function _debit(Stream storage s, uint256 amount) private returns (uint128 d) {
        d = s.deposit;
        if (amount > d) revert StreamDepositExhausted(amount, d);
        d -= uint128(amount);
        s.deposit = d;
    }

    // ─── on-chain consensus (issue 21 item 4) ───────────────────────────────────────────────────────────────

    /// @inheritdoc IStreamTasks
    function setConsensusParams(ConsensusParams calldata p) external restricted {
        StreamTasksStorage storage $ = _s();
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

    /// @inheritdoc IStreamTasks
    function consensusParams() external view returns (ConsensusParams memory) {
        return _s().consensus;
    }

    /// @inheritdoc IStreamTasks
    function request(uint256 id, bytes32 inputHash) external whenActive(REQUEST) returns (uint32) {
        StreamTasksStorage storage $ = _s();
        return StreamConsensus.open($.book, $.consensus, _client(id), id, inputHash);
    }

    /// @inheritdoc IStreamTasks
    function answer(uint256 id, uint32 r, bytes32 answerHash) external {
        StreamTasksStorage storage $ = _s();
        StreamConsensus.answerFirst($.book, $.consensus, $.streams[id], id, r, answerHash);
    }

    /// @inheritdoc IStreamTasks
    function challenge(uint256 id, uint32 r) external nonReentrant {
        StreamTasksStorage storage $ = _s();
        Stream storage s = $.streams[id];
        StreamConsensus.challenge($.book, $.consensus, s, $.tokens[s.currency], id, r);
    }

    /// @inheritdoc IStreamTasks
    function commitAnswer(uint256 id, uint32 r, bytes32 commitment) external {
        StreamTasksStorage storage $ = _s();
        StreamConsensus.commit($.book, $.streams[id], id, r, commitment);
    }

    /// @inheritdoc IStreamTasks
    function revealAnswer(uint256 id, uint32 r, bytes32 answerHash, bytes32 salt) external {
        StreamTasksStorage storage $ = _s();
        StreamConsensus.reveal($.book, $.streams[id], $.registry, id, r, answerHash, salt);
    }

    /// @inheritdoc IStreamTasks
    function resolve(uint256 id, uint32 r) external nonReentrant {
        StreamTasksStorage storage $ = _s();
        Stream storage s = $.streams[id];
        StreamConsensus.resolve($.book, s, $.tokens[s.currency], id, r);
    }

    /// @inheritdoc IStreamTasks
    function slashFaulty(uint256 id, uint32 r, address provider) external nonReentrant {
        StreamTasksStorage storage $ = _s();
        StreamConsensus.slashFaulty($.book, $.consensus, $.streams[id], $.registry, id, r, provider);
    }

    /// @inheritdoc IStreamTasks
    function claimUnpaid(uint256 id, uint32[] calldata requestIds) external nonReentrant {
        StreamTasksStorage storage $ = _s();
        Stream storage s = $.streams[id];
        StreamConsensus.claim($.book, $.consensus, s, $.subs[id][msg.sender], $.tokens[s.currency], id, requestIds);
    }

    /// @inheritdoc IStreamTasks
    function releaseDutyLock(uint256 id, address provider) external {
        StreamTasksStorage storage $ = _s();
        StreamConsensus.releaseLock($.book, $.subs[id][provider], $.registry, id, provider);
    }

    /// @inheritdoc IStreamTasks
    function getRequest(uint256 id, uint32 r) external view returns (Request memory) {
        return _s().book.requests[id][r];
    }

    /// @inheritdoc IStreamTasks
    function answerOf(uint256 id, uint32 r, address provider) external view returns (Answer memory) {
        return _s().book.answers[id][r][provider];
    }

    /// @inheritdoc IStreamTasks
    function dutyOf(uint256 id, address provider) external view returns (Duty memory) {
        return _s().book.duties[id][provider];
    }

    /// @inheritdoc IStreamTasks
    function requestCount(uint256 id) external view returns (uint32) {
        return _s().book.count[id];
    }

    /// @inheritdoc IStreamTasks
    function answerCommitment(
        uint256 id,
        uint32 r,
        address provider,
        bytes32 answerHash,
        bytes32 salt
    ) external pure returns (bytes32) {
        return StreamConsensus.commitmentOf(id, r, provider, answerHash, salt);
    }

    /// @inheritdoc IStreamTasks
    function setSubscriptionLock(uint96 lockDps) external restricted {
        StreamTasksStorage storage $ = _s();
        address reg = IProviderMatcher($.matcher).registry();
        ($.registry, $.subscriptionLockDps) = (reg, lockDps);
        emit SubscriptionLockSet(lockDps, reg);
    }

    /// @inheritdoc IStreamTasks
    function subscriptionLock() external view returns (uint96) {
        return _s().subscriptionLockDps;
    }

    function _one(address who) private pure returns (address[] memory list) {
        list = new address[](1);
        list[0] = who;
    }

    function _client(uint256 id) private view returns (Stream storage s) {
        s = _s().streams[id];
        if (msg.sender != s.client) revert StreamNotClient(msg.sender);
    }

    function _digest(Receipt calldata r) private view returns (bytes32) {
        return _hashTypedDataV4(keccak256(abi.encode(RECEIPT_TYPEHASH, r.streamId, r.provider, r.answered, r.amount)));
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

    /// @inheritdoc IStreamTasks
    function receiptDigest(Receipt calldata r) external view returns (bytes32) {
        return _digest(r);
    }

    /// @inheritdoc IStreamTasks
    function getStream(uint256 id) external view returns (Stream memory) {
        return _s().streams[id];
    }

    /// @inheritdoc IStreamTasks
    function subscription(
        uint256 id,
        address provider
    ) external view returns (uint128 price, uint64 paid, uint128 paidAmount, uint96 lockedDps) {
        StreamConsensus.Sub storage sub = _s().subs[id][provider];
        return (sub.price, sub.paid, sub.paidAmount, sub.lockedDps);
    }

    /// @inheritdoc IStreamTasks
    function answersPerRequest(uint256 id) external view returns (uint256) {
        Stream storage s = _s().streams[id];
        if (s.mode == Mode.Optimistic) return 1;
        if (s.mode == Mode.Unanimous) return s.executors;
        // @dev ceil(w·c): rounds up, a weighted answer never needs fewer than w·c executors.
        return (uint256(s.weightWad) * s.executors + WAD - 1) / WAD;
    }
}
