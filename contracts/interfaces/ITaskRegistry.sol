// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title ITaskRegistry
/// @notice Batch compute tasks (SPEC section 4, seed 004): a client escrows the maximum payment, providers bid while
///         the halting rule is open, the lowest valid bid executes, a council drawn by the ProviderMatcher from a
///         future block hash verifies the committed result hash, a quorum of distinct current members finalises
///         (TSK-01), the executor and the council are paid and the unused deposit refunded (TSK-02). Disagreement
///         opens a dispute judged by an enlarged council (then governance, then anyone's refund: TSK-05); the side
///         found wrong is slashed through ProviderRegistry.slash (TSK-03). Tasks paid in CH are CH redemptions: the
///         executor must owe CH, and accepted delivery burns the CH against its liability (TSK-04). Draws cannot be
///         steered once the seed is known (TSK-07) and open duties hold the stake their slash may take (TSK-08).
/// @dev Units: payment amounts in the task currency's smallest unit (CH and DPS 18 decimals, USDC 6); bps for
///      configuration; capacity PFLOPS WAD. See docs/tasks.md.
interface ITaskRegistry {
    /// @notice Payment currency of a task.
    enum Currency {
        CH,
        USDC,
        DPS
    }

    /// @notice Lifecycle. Bidding → Running (executor chosen) → Verifying (final result committed) → Accepted or
    ///         Rejected; Verifying → Disputed (enlarged council) → Accepted or Rejected, or Unresolved (no quorum and
    ///         no governance verdict by the end of the grace: refunded, nobody paid or slashed — TSK-05); Running →
    ///         Expired (missed deadline); Bidding → Cancelled (no valid bid, or bidding closed too late).
    enum Status {
        None,
        Bidding,
        Running,
        Verifying,
        Disputed,
        Accepted,
        Rejected,
        Expired,
        Cancelled,
        Unresolved
    }

    /// @notice The off-chain part of a prescription T = {D, M, I, f(I'), e(r, r'), H}: content hashes of the data
    ///         set D, the model / program M, the input I, the output function f and the evaluation procedure e.
    ///         Only their hash is stored; the event carries them all.
    /// @param dataHash Content hash of D.
    /// @param modelHash Content hash of M.
    /// @param inputHash Content hash of I.
    /// @param outputFnHash Content hash of f.
    /// @param evalHash Content hash of e's procedure (how the council compares r and r').
    /// @param uri Where the documents live (IPFS / Arweave / https).
    struct Prescription {
        bytes32 dataHash;
        bytes32 modelHash;
        bytes32 inputHash;
        bytes32 outputFnHash;
        bytes32 evalHash;
        string uri;
    }

    /// @notice The on-chain terms of a task (the halting rule H is `bidWindowSec` / `maxBids`).
    /// @param currency Payment currency.
    /// @param responseMode 0 final result only, 1 result hash per checkpoint (both verified on the final hash).
    /// @param councilSize Council members n (odd recommended; 1..maxCouncil).
    /// @param quorum Agreeing votes needed (> n/2, ≤ n).
    /// @param checkpoints Result-hash commits the executor must make (1..32); the last one is the result.
    /// @param maxBids Best of the first N bids (≤ 32; 0: window only, still at most 32 bids).
    /// @param workloadClass Workload class required.
    /// @param region Preferred region (0: any).
    /// @param bidWindowSec Bidding stays open this long (or until `maxBids` bids).
    /// @param deadline Timestamp by which the final result hash must be committed.
    /// @param maxPayment Deposit: the most the client will pay, executor and council together (bids above 2^96 are rejected).
    /// @param capacityPflopsWad Capacity the executor and the council need, PFLOPS WAD.
    /// @param paymentParams Payment-function parameters, opaque to v1 (which pays the full bid price on acceptance and
    ///        nothing otherwise); emitted for indexers and reserved for later payment functions (docs/tasks.md).
    struct Terms {
        Currency currency;
        uint8 responseMode;
        uint8 councilSize;
        uint8 quorum;
        uint8 checkpoints;
        uint8 maxBids;
        uint16 workloadClass;
        uint16 region;
        uint32 bidWindowSec;
        uint40 deadline;
        uint128 maxPayment;
        uint128 capacityPflopsWad;
        uint256 paymentParams;
    }

    /// @notice Stored task state (packed). `executor`, `price`, `councilFee` (per member who votes with the verdict)
    ///         and `faultDps` (the DPS each duty of this task locks and each fault slashes, `params.slashDps` then)
    ///         are set when bidding closes. `targetBlock` is the seed block of the next draw; the draw reads the
    ///         ProviderRegistry's snapshot as of block `targetBlock − 1` (its commit), with `candidates` the draw
    ///         list's length and `seedTime` the timestamp then (TSK-07).
    struct Task {
        address client;
        Status status;
        Currency currency;
        uint8 councilSize;
        uint8 quorum;
        uint8 checkpoints;
        uint8 commits;
        uint8 maxBids;
        uint8 round;
        uint8 agree;
        uint8 disagree;
        address executor;
        uint40 biddingEnds;
        uint40 deadline;
        uint128 escrow;
        uint128 price;
        uint32 bidCount;
        uint16 workloadClass;
        uint16 region;
        uint40 votingEnds;
        uint128 maxPayment;
        uint128 capacityPflopsWad;
        uint128 councilFee;
        uint64 targetBlock;
        uint64 assignmentId;
        bytes32 resultHash;
        bytes32 prescriptionHash;
        uint96 faultDps;
        uint32 candidates;
        uint40 seedTime;
    }

    /// @notice Governance parameters.
    /// @param councilFeeBps Fee per council member who votes with the outcome, bps of the executor's price.
    /// @param dpsDiscountBps Discount a DPS-paying client gets on the executor's price.
    /// @param dpsReplenishBps Share of a DPS payment returned to the Emission reward pool.
    /// @param maxCouncil Largest first-round council (the dispute council is 2n + 1).
    /// @param councilWindow Draw samples a council draw may reject (ineligible, excluded or repeated candidates)
    ///        beyond one per seat before it gives up (`TaskCouncilUnavailable`); bounds the draw's gas.
    /// @param verifyWindowSec Time the council has to vote after the final commit (also the executor's appeal window).
    /// @param disputeWindowSec Time the enlarged council has to vote before governance may resolve; after as long
    ///        again without a verdict anyone may end the dispute with a refund (`finalize`, TSK-05).
    /// @param redemptionGraceSec Delivery deadline of a CH redemption beyond the task deadline.
    /// @param slashDps DPS slashed from the side found wrong (executor or council member), per fault; also the stake
    ///        each executor and council seat locks until its task ends (TSK-08). ≤ 2^96.
    struct Params {
        uint16 councilFeeBps;
        uint16 dpsDiscountBps;
        uint16 dpsReplenishBps;
        uint8 maxCouncil;
        uint8 councilWindow;
        uint32 verifyWindowSec;
        uint32 disputeWindowSec;
        uint32 redemptionGraceSec;
        uint128 slashDps;
    }

    // ─── errors ────────────────────────────────────────────────────────────────────────────────────────────

    /// @notice Thrown when the terms are invalid (council, quorum, checkpoints, deadline, payment).
    /// @param reason Which term (short tag).
    error TaskInvalidTerms(bytes32 reason);
    /// @notice Thrown when a task is not in the status the action needs.
    /// @param taskId The task.
    /// @param status Its status.
    error TaskWrongStatus(uint256 taskId, Status status);
    /// @notice Thrown when a bid arrives after the halting rule closed bidding.
    /// @param taskId The task.
    /// @param biddingEnds End of the bid window.
    error TaskBiddingClosed(uint256 taskId, uint256 biddingEnds);
    /// @notice Thrown when bidding is closed before the halting rule allows it.
    /// @param taskId The task.
    /// @param biddingEnds End of the bid window.
    error TaskBiddingOpen(uint256 taskId, uint256 biddingEnds);
    /// @notice Thrown when a bid is too high for the deposit (price plus every council fee must fit).
    /// @param price The bid.
    /// @param maxPrice The largest valid bid.
    error TaskBidTooHigh(uint256 price, uint256 maxPrice);
    /// @notice Thrown when a bid is withdrawn by someone other than its bidder (or the index holds no bid).
    /// @param taskId The task.
    /// @param index The bid index.
    /// @param caller The caller.
    error TaskNotBidder(uint256 taskId, uint256 index, address caller);
    /// @notice Thrown when the client bids on its own task.
    /// @param taskId The task.
    error TaskClientCannotBid(uint256 taskId);
    /// @notice Thrown when the caller is not the task's executor.
    /// @param caller The caller.
    /// @param executor The executor.
    error TaskNotExecutor(address caller, address executor);
    /// @notice Thrown when a commit names a checkpoint other than the next one.
    /// @param expected Next checkpoint index.
    /// @param given Index given.
    error TaskBadCheckpoint(uint256 expected, uint256 given);
    /// @notice Thrown when the action comes after the task deadline.
    /// @param deadline The deadline.
    error TaskDeadlinePassed(uint256 deadline);
    /// @notice Thrown when a deadline-enforcement call (or governance's dispute resolution) comes too early.
    /// @param deadline The deadline.
    error TaskDeadlineNotPassed(uint256 deadline);
    /// @notice Thrown when the executor is selected before the seed block committed at the seal is mined.
    /// @param taskId The task.
    /// @param targetBlock The seed block.
    error TaskSeedPending(uint256 taskId, uint256 targetBlock);
    /// @notice Thrown when the council is drawn before its seed block is mined or when already drawn.
    /// @param taskId The task.
    /// @param targetBlock The seed block.
    error TaskCouncilNotDrawable(uint256 taskId, uint256 targetBlock);
    /// @notice Thrown when the matcher finds fewer eligible members than the council needs.
    /// @param needed Members needed.
    /// @param found Members found.
    error TaskCouncilUnavailable(uint256 needed, uint256 found);
    /// @notice Thrown when the caller is not a member of the task's current council.
    /// @param taskId The task.
    /// @param caller The caller.
    error TaskNotCouncilMember(uint256 taskId, address caller);
    /// @notice Thrown when a current member votes twice (the first vote counts once).
    /// @param taskId The task.
    /// @param member The member.
    error TaskAlreadyVoted(uint256 taskId, address member);
    /// @notice Thrown when the task is finalised without a quorum either way.
    /// @param taskId The task.
    /// @param agree Agreeing votes.
    /// @param disagree Disagreeing votes.
    /// @param quorum Votes needed.
    error TaskNoQuorum(uint256 taskId, uint256 agree, uint256 disagree, uint256 quorum);
    /// @notice Thrown when work was already done by someone else (finalised, expired, closed) — keepers treat it as
    ///         success (OPS-01).
    /// @param taskId The task.
    /// @param status Its status.
    error TaskAlreadyDone(uint256 taskId, Status status);
    /// @notice Thrown when a rejection is finalised inside the executor's appeal window.
    /// @param taskId The task.
    /// @param votingEnds End of the window.
    error TaskAppealWindowOpen(uint256 taskId, uint256 votingEnds);
    /// @notice Thrown when a dispute is opened while the council may still reach a quorum in time.
    /// @param taskId The task.
    error TaskNoDisagreement(uint256 taskId);
    /// @notice Thrown when a CH redemption failure is reported twice or for a task without one.
    /// @param taskId The task.
    error TaskNoOpenRedemption(uint256 taskId);
    /// @notice Thrown when a council fee is claimed by someone who did not vote with the verdict, or twice.
    /// @param taskId The task.
    /// @param member The caller.
    error TaskNothingToClaim(uint256 taskId, address member);
    /// @notice Thrown when parameters are out of range.
    error TaskInvalidParams();
    /// @notice Thrown when `performUpkeep` data names no due action.
    error TaskUnknownUpkeep();
    /// @notice Thrown when `flushReplenishment` finds no deferred DPS.
    error TaskNothingToFlush();

    // ─── events ────────────────────────────────────────────────────────────────────────────────────────────

    /// @notice Emitted when a task is submitted and its deposit escrowed.
    /// @param taskId The id.
    /// @param client The client.
    /// @param terms The on-chain terms.
    /// @param prescription The off-chain part (hashes, URI).
    /// @param prescriptionHash keccak256(abi.encode(prescription)).
    /// @param biddingEnds End of the bid window.
    event TaskSubmitted(
        uint256 indexed taskId,
        address indexed client,
        Terms terms,
        Prescription prescription,
        bytes32 prescriptionHash,
        uint256 biddingEnds
    );
    /// @notice Emitted on a bid.
    /// @param taskId The task.
    /// @param provider The bidder.
    /// @param price The bid.
    /// @param bidCount Bids after.
    event BidPlaced(uint256 indexed taskId, address indexed provider, uint256 price, uint32 bidCount);
    /// @notice Emitted when a bidder withdraws its bid while bidding is open.
    /// @param taskId The task.
    /// @param provider The bidder.
    /// @param index The bid's index (its `BidPlaced.bidCount` − 1).
    event BidWithdrawn(uint256 indexed taskId, address indexed provider, uint32 index);
    /// @notice Emitted when bidding is sealed after the halting rule (or re-sealed when the seed aged out): the
    ///         executor is selected once `targetBlock` is mined, from its hash and the registry snapshot at the seal.
    /// @param taskId The task.
    /// @param targetBlock The seed block.
    /// @param candidates The draw list's length at the seal (what the council draw samples).
    event BiddingSealed(uint256 indexed taskId, uint256 targetBlock, uint256 candidates);
    /// @notice Emitted when bidding closes with an executor.
    /// @param taskId The task.
    /// @param executor The executor (lowest valid bid).
    /// @param price Its price.
    /// @param targetBlock Block whose hash seeds the council.
    /// @param assignmentId CH redemption assignment (0 unless paid in CH).
    event ExecutorSelected(
        uint256 indexed taskId,
        address indexed executor,
        uint256 price,
        uint256 targetBlock,
        uint256 assignmentId
    );
    /// @notice Emitted when a council is drawn.
    /// @param taskId The task.
    /// @param round 0 first council, 1 dispute council.
    /// @param members The members.
    /// @param quorum Votes needed.
    /// @param seed The matcher seed.
    event CouncilDrawn(uint256 indexed taskId, uint8 round, address[] members, uint256 quorum, bytes32 seed);
    /// @notice Emitted on a checkpoint commit.
    /// @param taskId The task.
    /// @param checkpoint Index (0-based).
    /// @param resultHash The committed hash.
    /// @param isFinal Whether this was the last checkpoint (verification starts).
    /// @param votingEnds End of the vote window (0 unless final).
    event ResultCommitted(
        uint256 indexed taskId,
        uint8 checkpoint,
        bytes32 resultHash,
        bool isFinal,
        uint256 votingEnds
    );
    /// @notice Emitted on a council vote.
    /// @param taskId The task.
    /// @param member The member.
    /// @param round The round.
    /// @param agree True: the member's result equals the committed hash.
    /// @param agreeCount Agreeing votes after.
    /// @param disagreeCount Disagreeing votes after.
    event Voted(
        uint256 indexed taskId,
        address indexed member,
        uint8 round,
        bool agree,
        uint8 agreeCount,
        uint8 disagreeCount
    );
    /// @notice Emitted when a dispute opens.
    /// @param taskId The task.
    /// @param by Who opened it.
    /// @param targetBlock Block whose hash seeds the enlarged council.
    event DisputeOpened(uint256 indexed taskId, address indexed by, uint256 targetBlock);
    /// @notice Emitted when a task is finalised.
    /// @param taskId The task.
    /// @param status Accepted or Rejected.
    /// @param executorPaid Paid to the executor (net of the DPS pool share; CH: burned against its liability).
    /// @param councilPaid Reserved for the council members who voted with the verdict (claimed by each).
    /// @param refunded Refunded to the client.
    /// @param replenishedDps DPS returned to the reward pool.
    event TaskFinalized(
        uint256 indexed taskId,
        Status status,
        uint256 executorPaid,
        uint256 councilPaid,
        uint256 refunded,
        uint256 replenishedDps
    );
    /// @notice Emitted when a council member claims its fee.
    /// @param taskId The task.
    /// @param member The member.
    /// @param fee Amount paid.
    /// @param escrowLeft Fees of the task still unclaimed.
    event CouncilFeeClaimed(uint256 indexed taskId, address indexed member, uint256 fee, uint256 escrowLeft);
    /// @notice Emitted when a side is found wrong and slashed.
    /// @param taskId The task.
    /// @param provider The provider slashed.
    /// @param slashedDps DPS slashed.
    event FaultSlashed(uint256 indexed taskId, address indexed provider, uint256 slashedDps);
    /// @notice Emitted when a task is closed without a verdict: no executor, a missed deadline, or a dispute left
    ///         without a quorum or governance verdict past its grace.
    /// @param taskId The task.
    /// @param status Cancelled, Expired or Unresolved.
    /// @param by The caller.
    /// @param refunded Refunded to the client.
    event TaskClosed(uint256 indexed taskId, Status status, address indexed by, uint256 refunded);
    /// @notice Emitted when a failed CH redemption is reported (the registry slashes and compensates the client).
    /// @param taskId The task.
    /// @param assignmentId The assignment.
    /// @param compensationDps DPS paid to the client.
    event RedemptionFailed(uint256 indexed taskId, uint256 assignmentId, uint256 compensationDps);
    /// @notice Emitted when governance sets the parameters.
    /// @param params The parameters.
    event ParamsSet(Params params);
    /// @notice Emitted when the reward pool's `replenish` failed (paused, or Emission far behind): the DPS was
    ///         transferred to the pool and is accounted later, so the verdict is not blocked (issue 17 item 17).
    /// @param amountDps This settlement's share.
    /// @param backlogDps DPS at the pool awaiting `replenish` after this one.
    event ReplenishmentDeferred(uint256 amountDps, uint256 backlogDps);
    /// @notice Emitted when the deferred DPS is accounted (by `flushReplenishment` or the next replenishment).
    /// @param amountDps DPS accounted.
    event ReplenishmentFlushed(uint256 amountDps);

    // ─── client and provider actions ───────────────────────────────────────────────────────────────────────

    /// @notice Submits a task and escrows `terms.maxPayment` of its currency (approve first).
    /// @param terms On-chain terms.
    /// @param prescription Hashes and URI of D, M, I, f, e.
    /// @return taskId The new id.
    function submit(Terms calldata terms, Prescription calldata prescription) external returns (uint256 taskId);

    /// @notice Bids `price` (task currency) while the halting rule is open (at most 32 bids per task). Eligibility
    ///         is checked when bidding closes (see `closeBidding`).
    /// @param taskId The task.
    /// @param price Total executor payment asked.
    function bid(uint256 taskId, uint128 price) external;

    /// @notice Withdraws the caller's bid at `index` (its `BidPlaced.bidCount` − 1) while the halting rule is open
    ///         (issue 17 item 22). The slot still counts toward `maxBids`. Never paused.
    /// @param taskId The task.
    /// @param index The bid's index.
    function withdrawBid(uint256 taskId, uint32 index) external;

    /// @notice Closes bidding once the window ended or N bids arrived, in two calls (permissionless): the first
    ///         seals the bids and commits the next block as the seed block (no bids: cancels and refunds); once that
    ///         block is mined the second selects the executor — the lowest bid eligible by its registry snapshot at
    ///         the seal, equal prices to the higher keccak256(seed, bidder) (TSK-07, issue 17 item 20) — or cancels
    ///         and refunds when there is none. Either call after half the promised run time (deadline − end of the
    ///         bid window) has passed cancels and refunds instead (item 22: no executor gets a deadline it cannot
    ///         meet). The council then draws from the same seed block, at once.
    /// @param taskId The task.
    function closeBidding(uint256 taskId) external;

    /// @notice Draws the current round's council with the matcher from the committed seed block and the
    ///         registry's snapshot at the commit (TSK-07: nothing done after the commit, nor who calls, changes who
    ///         is drawn); re-commits a new block when the old hash is out of reach. Permissionless.
    /// @param taskId The task.
    function drawCouncil(uint256 taskId) external;

    /// @notice Executor commits the result hash of checkpoint `checkpoint` (0-based, in order) before the deadline;
    ///         the last checkpoint starts verification.
    /// @param taskId The task.
    /// @param checkpoint Index.
    /// @param resultHash Result hash.
    function commit(uint256 taskId, uint8 checkpoint, bytes32 resultHash) external;

    /// @notice A current council member votes whether its own result equals the committed hash.
    /// @param taskId The task.
    /// @param agree True for equal.
    function vote(uint256 taskId, bool agree) external;

    /// @notice Opens a dispute (enlarged council of 2n + 1): when votes split so no quorum is possible, when the
    ///         vote window ends without a quorum, or by the executor against a rejection inside the window.
    /// @param taskId The task.
    function openDispute(uint256 taskId) external;

    /// @notice Finalises on a quorum: pays the executor, reserves the fees of the members who voted with the
    ///         outcome (pull: `claimCouncilFee`), slashes the side found wrong, refunds the rest. A dispute still
    ///         without a quorum `disputeWindowSec` after its vote window (governance's grace) ends Unresolved: the
    ///         client is refunded in full, nobody is paid or slashed, every duty lock and a CH redemption's
    ///         assignment are released (TSK-05, issue 17 item 9). Permissionless; a second call reverts with
    ///         TaskAlreadyDone.
    /// @param taskId The task.
    function finalize(uint256 taskId) external;

    /// @notice A council member who voted with the verdict (either round) claims its fee, once.
    /// @param taskId The task.
    /// @return fee Amount paid.
    function claimCouncilFee(uint256 taskId) external returns (uint256 fee);

    /// @notice Enforces a missed deadline: slashes the executor (the caller gets the registry's finder fee as a
    ///         bounded bounty — none when the caller is the executor itself; CH tasks: the registry compensates the
    ///         client instead) and refunds the client.
    /// @param taskId The task.
    function expire(uint256 taskId) external;

    /// @notice Reports a rejected CH redemption as failed once its delivery deadline passed (the registry slashes
    ///         the executor and compensates the client at the index price plus the penalty). Permissionless.
    /// @param taskId The task.
    function reportRedemptionFailure(uint256 taskId) external;

    /// @notice Accounts the DPS whose replenishment failed at the reward pool (see ReplenishmentDeferred); the next
    ///         accepted DPS task retries it anyway. Permissionless; reverts while the pool still fails.
    /// @return amountDps DPS accounted.
    function flushReplenishment() external returns (uint256 amountDps);

    /// @notice DPS transferred to the reward pool whose `replenish` is still pending.
    /// @return The amount.
    function replenishBacklog() external view returns (uint256);

    // ─── governance ────────────────────────────────────────────────────────────────────────────────────────

    /// @notice Resolves a dispute the enlarged council left without a quorum, after its vote window and until
    ///         anyone ends it Unresolved (`finalize`, after the grace). ADMIN only.
    /// @param taskId The task.
    /// @param executorCorrect The verdict.
    function resolveDispute(uint256 taskId, bool executorCorrect) external;

    /// @notice Sets the parameters. ADMIN only.
    /// @param p The parameters.
    function setParams(Params calldata p) external;

    // ─── views ─────────────────────────────────────────────────────────────────────────────────────────────

    /// @notice A task.
    /// @param taskId The id.
    /// @return The task.
    function getTask(uint256 taskId) external view returns (Task memory);

    /// @notice A council.
    /// @param taskId The task.
    /// @param round 0 or 1.
    /// @return The members.
    function councilOf(uint256 taskId, uint8 round) external view returns (address[] memory);

    /// @notice Number of tasks submitted.
    /// @return The count.
    function taskCount() external view returns (uint256);

    /// @notice Total escrowed per currency (TSK-02: equals this contract's balance of that token).
    /// @param currency The currency.
    /// @return The amount.
    function totalEscrow(Currency currency) external view returns (uint256);

    /// @notice The parameters.
    /// @return The parameters.
    function params() external view returns (Params memory);
}
