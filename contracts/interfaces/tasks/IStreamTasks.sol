// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {IERC5267} from "@openzeppelin/contracts/interfaces/IERC5267.sol";
import {IStreamTasksTypes} from "./IStreamTasksTypes.sol";
import {IStreamTasksErrors} from "./IStreamTasksErrors.sol";
import {IStreamTasksEvents} from "./IStreamTasksEvents.sol";

/// @title IStreamTasks
/// @notice Stream tasks (SPEC section 4, seed 004 section 3): a client opens a stream for input I and function f
///         with a deposit; providers subscribe with a per-request price; the stream is live while c subscribers
///         exist. Requests are answered off chain in one of three response modes — optimistic (one answer counts),
///         weighted (ceil(w·c) matching answers) or unanimous (all c) — and paid per answered request from the
///         deposit by batched settlement of client-signed EIP-712 receipts carrying, per provider, the cumulative
///         answered count and the cumulative amount owed for them (replay-safe: a receipt only ever pays the
///         increase over what was settled; the price of an answered request is fixed in the signed amount, so a
///         later re-subscription at another price cannot re-price it — issue 17 item 7).
/// @dev Units: prices and deposits in the currency's smallest unit; weights WAD. See docs/tasks.md.
///      EIP-712 domain: ERC-5267 `eip712Domain()` (OpenZeppelin EIP712Upgradeable; name "CHX StreamTasks", version "1").
///      On-chain consensus (issue 21 item 4): the client may put a request to the council on chain (`request`); the
///      members answer with committed hashes under the stream's mode, the most weighted answer is delivered, members
///      outside a strict majority (or silent) are slashed, and consensus answers the client leaves unpaid are claimed
///      from the deposit with a penalty. Types, errors and events of that part: IStreamTasksTypes/Errors/Events.
interface IStreamTasks is IERC5267, IStreamTasksTypes, IStreamTasksErrors, IStreamTasksEvents {
    /// @notice Response mode.
    enum Mode {
        Optimistic,
        Weighted,
        Unanimous
    }

    /// @notice Stream status: Open (collecting subscribers) → Live (c subscribers) → Interrupted (fewer than c, or
    ///         too many failed consensus reports) → Live again (c subscribers and, after failed consensus, the
    ///         client's `resume`), or Closed (client retracted; final settlement until `closesAt`).
    enum Status {
        None,
        Open,
        Live,
        Interrupted,
        Closed
    }

    /// @notice A stream.
    struct Stream {
        address client;
        Status status;
        Mode mode;
        uint8 currency;
        uint8 executors;
        uint8 subscribers;
        uint8 failures;
        uint8 maxFailures;
        uint32 specVersion;
        uint40 closesAt;
        uint64 weightWad;
        uint128 maxPrice;
        uint128 deposit;
        bytes32 inputHash;
        bytes32 fnHash;
    }

    /// @notice Terms of a new stream.
    /// @param currency 0 CH, 1 USDC, 2 DPS (the TaskRegistry's order).
    /// @param mode Response mode.
    /// @param executors c, subscribers needed to be live (1..16).
    /// @param weightWad w for Weighted (0 < w ≤ 1), ignored otherwise.
    /// @param maxPrice Largest per-request price a subscriber may ask.
    /// @param maxFailures Failed-consensus reports that interrupt the stream (0: never).
    /// @param deposit Initial deposit.
    /// @param inputHash Content hash of I.
    /// @param fnHash Content hash of f.
    struct StreamTerms {
        uint8 currency;
        Mode mode;
        uint8 executors;
        uint64 weightWad;
        uint128 maxPrice;
        uint8 maxFailures;
        uint128 deposit;
        bytes32 inputHash;
        bytes32 fnHash;
    }

    /// @notice A client-signed receipt: `provider` has answered `answered` requests of `streamId` in total, worth
    ///         `amount` in total at the prices in force when each was answered (≤ answered × maxPrice).
    struct Receipt {
        uint256 streamId;
        address provider;
        uint64 answered;
        uint128 amount;
    }

    /// @notice Thrown on invalid stream terms.
    /// @param reason Short tag.
    error StreamInvalidTerms(bytes32 reason);
    /// @notice Thrown when the stream is not in the status the action needs.
    /// @param streamId The stream.
    /// @param status Its status.
    error StreamWrongStatus(uint256 streamId, Status status);
    /// @notice Thrown when the caller is not the stream's client.
    /// @param caller The caller.
    error StreamNotClient(address caller);
    /// @notice Thrown when a subscriber's price exceeds the stream's maximum.
    /// @param price The price.
    /// @param maxPrice The maximum.
    error StreamPriceTooHigh(uint256 price, uint256 maxPrice);
    /// @notice Thrown when a provider fails the matcher's hard filters.
    /// @param provider The provider.
    error StreamIneligible(address provider);
    /// @notice Thrown when a provider subscribes twice or unsubscribes without a subscription.
    /// @param provider The provider.
    error StreamSubscription(address provider);
    /// @notice Thrown when the stream already has c subscribers.
    /// @param streamId The stream.
    error StreamFull(uint256 streamId);
    /// @notice Thrown when a receipt's signature is not the client's.
    /// @param signer The recovered signer.
    error StreamBadSignature(address signer);
    /// @notice Thrown when a receipt pays a provider that never subscribed.
    /// @param provider The provider.
    error StreamNotSubscriber(address provider);
    /// @notice Thrown when the deposit does not cover a settlement.
    /// @param owed Amount owed.
    /// @param deposit Deposit left.
    error StreamDepositExhausted(uint256 owed, uint256 deposit);
    /// @notice Thrown when a receipt's cumulative amount exceeds its answered count at the stream's maximum price.
    /// @param amount The receipt's amount.
    /// @param cap answered × maxPrice.
    error StreamReceiptAboveMaxPrice(uint256 amount, uint256 cap);
    /// @notice Thrown when the remaining deposit is withdrawn before the settlement grace ends.
    /// @param closesAt End of the grace.
    error StreamStillSettling(uint256 closesAt);

    /// @notice Emitted when a stream opens.
    event StreamOpened(uint256 indexed streamId, address indexed client, StreamTerms terms);
    /// @notice Emitted on subscribe / unsubscribe with the post-state.
    event Subscribed(
        uint256 indexed streamId,
        address indexed provider,
        uint128 price,
        uint8 subscribers,
        Status status
    );
    /// @notice Emitted when a provider leaves.
    event Unsubscribed(uint256 indexed streamId, address indexed provider, uint8 subscribers, Status status);
    /// @notice Emitted when the client changes I and f.
    event SpecUpdated(uint256 indexed streamId, bytes32 inputHash, bytes32 fnHash, uint32 specVersion);
    /// @notice Emitted when the client resumes a stream its failed-consensus reports interrupted.
    /// @param streamId The stream.
    /// @param status Live when c subscribers are there, otherwise Interrupted (with a fresh count).
    event StreamResumed(uint256 indexed streamId, Status status);
    /// @notice Emitted when the client reports a failed consensus.
    event ConsensusFailed(uint256 indexed streamId, uint8 failures, Status status);
    /// @notice Emitted per settled receipt.
    event ReceiptSettled(
        uint256 indexed streamId,
        address indexed provider,
        uint64 answered,
        uint64 newlyPaid,
        uint256 amount,
        uint128 deposit
    );
    /// @notice Emitted on top-up.
    event StreamFunded(uint256 indexed streamId, uint256 amount, uint128 deposit);
    /// @notice Emitted when the client retracts.
    event StreamRetracted(uint256 indexed streamId, uint40 closesAt);
    /// @notice Emitted when the remaining deposit is withdrawn.
    event StreamWithdrawn(uint256 indexed streamId, uint256 amount);
    /// @notice Emitted when governance sets the stake a subscription locks (TSK-08).
    /// @param lockDps DPS each new subscription locks in the ProviderRegistry until it ends.
    /// @param registry The ProviderRegistry holding the locks (the matcher's).
    event SubscriptionLockSet(uint96 lockDps, address registry);

    /// @notice Opens a stream and escrows `deposit` (approve first).
    /// @param t The terms.
    /// @return streamId The id.
    function open(StreamTerms calldata t) external returns (uint256 streamId);

    /// @notice Subscribes the caller at `price` per answered request (must pass the matcher's filters). The
    ///         subscription locks `subscriptionLock()` DPS of the caller's stake until it unsubscribes (TSK-08).
    function subscribe(uint256 streamId, uint128 price) external;

    /// @notice Leaves the stream (releasing the subscription's stake lock); below c subscribers a live stream is
    ///         interrupted.
    function unsubscribe(uint256 streamId) external;

    /// @notice Sets the DPS each new subscription locks (0: none); existing subscriptions keep their lock. ADMIN only.
    /// @param lockDps DPS per subscription.
    function setSubscriptionLock(uint96 lockDps) external;

    /// @notice The DPS each new subscription locks.
    /// @return lockDps The amount.
    function subscriptionLock() external view returns (uint96 lockDps);

    /// @notice Client changes I and f (bumps the spec version).
    function updateSpec(uint256 streamId, bytes32 inputHash, bytes32 fnHash) external;

    /// @notice Client reports a request whose consensus failed under the mode; `maxFailures` interrupt the stream
    ///         until the client `resume`s it (subscribers leaving and re-joining do not: issue 17 item 21).
    function reportFailedConsensus(uint256 streamId) external;

    /// @notice Client resets the failed-consensus count of its interrupted stream: live again with c subscribers.
    /// @param streamId The stream.
    function resume(uint256 streamId) external;

    /// @notice Client adds to the deposit.
    function fund(uint256 streamId, uint128 amount) external;

    /// @notice Client retracts: no new subscriptions; receipts settle for `settleGraceSec`, then the rest returns.
    function retract(uint256 streamId) external;

    /// @notice Client withdraws the remaining deposit after retraction and the grace.
    function withdraw(uint256 streamId) external;

    /// @notice Settles a batch of client-signed receipts (anyone may submit): each pays its cumulative amount minus
    ///         what was already paid to that provider for the stream, from the deposit.
    function settle(Receipt[] calldata receipts, bytes[] calldata signatures) external;

    /// @notice EIP-712 digest the client signs for a receipt (domain "CHX StreamTasks", version "1").
    function receiptDigest(Receipt calldata r) external view returns (bytes32);

    /// @notice A stream.
    function getStream(uint256 streamId) external view returns (Stream memory);

    /// @notice A subscriber's latest price (0: never subscribed), requests and amount already paid, and the stake its
    ///         subscription locks (0 when not subscribed).
    function subscription(
        uint256 streamId,
        address provider
    ) external view returns (uint128 price, uint64 paid, uint128 paidAmount, uint96 lockedDps);

    /// @notice Answers needed per request under the stream's mode: 1, ceil(w·c) or c.
    function answersPerRequest(uint256 streamId) external view returns (uint256);

    // ─── on-chain consensus (issue 21 item 4; docs/tasks.md "Stream consensus") ─────────────────────────────

    /// @notice Sets the consensus parameters and caches the ProviderRegistry slashed through. ADMIN only.
    /// @dev `slashDps` must not exceed the subscription lock (a fault's slash is covered by the stake it locks).
    /// @param p The parameters.
    function setConsensusParams(ConsensusParams calldata p) external;

    /// @notice The consensus parameters.
    /// @return p The parameters.
    function consensusParams() external view returns (ConsensusParams memory p);

    /// @notice Client asks its live stream's council a request on chain; every current subscriber is a member.
    /// @dev The deposit must cover the request for every member at `maxPrice` plus the client penalty.
    /// @param streamId The stream.
    /// @param inputHash Content hash of the request.
    /// @return requestId The request (1-based per stream).
    function request(uint256 streamId, bytes32 inputHash) external returns (uint32 requestId);

    /// @notice Optimistic mode: the first member's answer, delivered at once and challengeable for
    ///         `challengeWindowSec`. Within the answer window only.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param answer The answer hash (non-zero).
    function answer(uint256 streamId, uint32 requestId, bytes32 answer) external;

    /// @notice Anyone challenges an optimistic first answer inside its challenge window, bonding
    ///         `challengeBondRequests × maxPrice` in the stream's currency (approve first); the other members then
    ///         commit and reveal.
    /// @param streamId The stream.
    /// @param requestId The request.
    function challenge(uint256 streamId, uint32 requestId) external;

    /// @notice A member commits to its answer: `answerCommitment(streamId, requestId, member, answer, salt)`.
    ///         Weighted and unanimous requests, and challenged optimistic ones (not the first answerer).
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param commitment The commitment.
    function commitAnswer(uint256 streamId, uint32 requestId, bytes32 commitment) external;

    /// @notice A member reveals its committed answer: after the commit window (or once every member committed),
    ///         within the reveal window.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param answer The answer hash (non-zero).
    /// @param salt The commitment's salt.
    function revealAnswer(uint256 streamId, uint32 requestId, bytes32 answer, bytes32 salt) external;

    /// @notice Anyone resolves a request after its deadline (or once every answer is in): delivers the most weighted
    ///         answer, records the mode's consensus (a failure counts as a failed consensus of the stream) and pays
    ///         out a challenge bond.
    /// @param streamId The stream.
    /// @param requestId The request.
    function resolve(uint256 streamId, uint32 requestId) external;

    /// @notice Anyone slashes a member found at fault in a resolved request (silent, or outside a strict weighted
    ///         majority; an overturned optimistic first answer), `slashDps` through ProviderRegistry.slash with the
    ///         caller as finder, within `slashWindowSec` of the request's last deadline (TSK-03).
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param provider The member.
    function slashFaulty(uint256 streamId, uint32 requestId, address provider) external;

    /// @notice A provider proves consensus answers of resolved requests (older than `payGraceSec`); if the receipts
    ///         settled for it count fewer answers than proven, the shortfall is paid from the deposit at its
    ///         subscription price plus `clientPenaltyBps` of it (capped by the deposit). Until the stream closes.
    /// @param streamId The stream.
    /// @param requestIds Requests the caller answered in consensus.
    function claimUnpaid(uint256 streamId, uint32[] calldata requestIds) external;

    /// @notice Releases a leaving member's subscription lock once its last duty's slash window is over.
    /// @param streamId The stream.
    /// @param provider The former member.
    function releaseDutyLock(uint256 streamId, address provider) external;

    /// @notice A request.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @return q The request.
    function getRequest(uint256 streamId, uint32 requestId) external view returns (Request memory q);

    /// @notice A member's answer to a request.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param provider The member.
    /// @return a The answer record.
    function answerOf(uint256 streamId, uint32 requestId, address provider) external view returns (Answer memory a);

    /// @notice A subscriber's council duty on a stream.
    /// @param streamId The stream.
    /// @param provider The provider.
    /// @return d The duty.
    function dutyOf(uint256 streamId, address provider) external view returns (Duty memory d);

    /// @notice Requests asked on a stream so far.
    /// @param streamId The stream.
    /// @return count The count.
    function requestCount(uint256 streamId) external view returns (uint32 count);

    /// @notice The commitment a member posts for `answer` with `salt`.
    /// @param streamId The stream.
    /// @param requestId The request.
    /// @param provider The member.
    /// @param answer The answer hash.
    /// @param salt A secret salt.
    /// @return The commitment.
    function answerCommitment(
        uint256 streamId,
        uint32 requestId,
        address provider,
        bytes32 answer,
        bytes32 salt
    ) external pure returns (bytes32);
}
