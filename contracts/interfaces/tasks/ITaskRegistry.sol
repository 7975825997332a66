// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistryErrors} from "./ITaskRegistryErrors.sol";
import {ITaskRegistryEvents} from "./ITaskRegistryEvents.sol";

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
///      Errors and events that name no task type live in `ITaskRegistryErrors` / `ITaskRegistryEvents` (inherited).
interface ITaskRegistry is ITaskRegistryErrors, ITaskRegistryEvents {
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
    /// @param responseMode 0: only the final result is due, by `deadline` (the checkpoints before it may come any time
    ///        until then); 1: a result hash per checkpoint, each due by its milestone — checkpoint i of N by
    ///        L + (deadline − L)·(i + 1)/N with L = the bid window's end plus half the run time — and a missed milestone
    ///        lets anyone `expire` the task at once (refund, executor slashed). Both are verified on the final hash.
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
    /// @param paymentParams The payment function f(I'), kind in bits 0..7 (docs/tasks.md "Payment functions and
    ///        response modes"; `TaskPricing`): 0 FLAT — the accepted bid (the default); 1 METERED, P = C·FLOPS·T —
    ///        bits 8..71 the declared work D (milli-CH of the workload class, > 0), price = bid × W / D for the work W
    ///        the accepted result carries in its low 64 bits, capped by the deposit after every council fee;
    ///        2 PROPORTIONAL — bits 8..71 the items of I (> 0), bits 72..87 the least share paid at all (bps ≤ 10,000),
    ///        price = bid × min(F, items) / items for the F items the accepted result carries, zero below the share.
    ///        Nothing is paid to a rejected executor; the unpaid remainder is refunded in the same settlement. Other
    ///        bits must be zero; variable prices are not allowed on CH tasks (a redemption's amount is fixed).
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
    ///         Verification is commit–reveal (issue 21 item 1): members commit until `commitEnds`, reveal until
    ///         `votingEnds`; `agree` counts reveals equal to the executor's `resultHash`, `disagree` the others;
    ///         `verdictHash` is the result the verdict accepted (the quorum's; zero when governance rejected without
    ///         one). `flags` bit 0: the first round's reveal window had closed when the dispute opened (its silent
    ///         members missed a deadline); bit 1: a CH redemption's failure-report bounty is held in escrow; bits
    ///         2–4: how many keeper bounties the task paid (≤ 5), so a client contract can tell the refund it was
    ///         paid from the task view (DeliveryOrders); bit 5: a bisection decides the task (`bisectionOf`; cleared
    ///         when its challenger lapsed); bit 6: the bisection is the client's appeal of the accepted result.
    ///         Once the task has ended, `commitEnds` holds the acceptance time while the client's appeal window is
    ///         open and the executor's duty lock held (0 otherwise; `appeal`, `closeAppeal`).
    struct Task {
        address client;
        Status status;
        Currency currency;
        uint8 councilSize;
        uint8 quorum;
        uint8 round;
        uint8 agree;
        uint8 disagree;
        uint40 commitEnds;
        address executor;
        uint40 biddingEnds;
        uint40 deadline;
        uint128 escrow;
        uint128 price;
        uint32 bidCount;
        uint16 workloadClass;
        uint16 region;
        uint40 votingEnds;
        uint8 checkpoints;
        uint8 commits;
        uint8 maxBids;
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
        uint8 flags;
        bytes32 verdictHash;
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

    /// @notice A checkpoint chain and its bisection dispute (issue 21 item 2; docs/tasks.md "Disputes that narrow").
    ///         The executor's chain is a Merkle root over `n` checkpoint hashes (n a power of two ≤ 2^16, the last leaf
    ///         its final result). A challenger bonds and both parties reveal their leaf at the midpoint of
    ///         [`lo`, `hi`] with a proof against their own root; equal leaves move `lo` past it, different ones set `hi`
    ///         to it, until `lo` = `hi` = the first disagreeing step, which a freshly drawn referee council judges.
    /// @param challenger Who opened the bisection (a round-0 member that revealed another result, or the client).
    /// @param phase 0 none, 1 the executor's move, 2 the challenger's move, 3 referees judging, 4 ended (no verdict
    ///        yet on the task: the challenger let a move lapse), 5 settled with the task.
    /// @param moves Moves made so far (opening included).
    /// @param moveEnds Deadline of the pending move (the party to move loses after it: `timeoutDispute`).
    /// @param lo Lowest index that may still be the first disagreement.
    /// @param hi Index known to disagree (initially n − 1, the final results).
    /// @param n Checkpoints in the executor's chain (0: no chain committed).
    /// @param bond The challenger's bond, task currency.
    /// @param window Seconds each move may take (half the dispute window when the bisection opened).
    /// @param refereeShare Per referee siding with the verdict: its share of a false challenger's bond (claimed with
    ///        its council fee).
    /// @param depth log2 n (the proofs' length), fixed when the chain is committed.
    /// @param roles Storage only (`bisectionOf` returns the three leaves decoded): which of the `pending`,
    ///        `executorStep`, `challengerStep` slots holds each (bits 0–1: pending, 2–3: the executor's step), so a
    ///        disagreeing move rewrites one leaf slot instead of two (issue 21 item 8's `bisect:step` ≤ 80,000).
    /// @param root The executor's chain root.
    /// @param challengerRoot The challenger's chain root.
    /// @param pending The leaf the first mover revealed at the current midpoint.
    /// @param agreed The leaf both revealed at `lo` − 1 (while `lo` = 0: the task's prescription hash, i.e. its input).
    /// @param executorStep The executor's leaf at `hi`.
    /// @param challengerStep The challenger's leaf at `hi`.
    /// @param finalResult The executor's final result (the task's `resultHash` holds `executorStep` while judging).
    /// @param verdict The step output the referees' quorum revealed (zero until judged).
    struct Bisection {
        uint8 phase;
        uint8 moves;
        uint40 moveEnds;
        uint32 lo;
        uint32 hi;
        uint32 n;
        uint32 window;
        uint8 depth;
        uint8 roles;
        address challenger;
        uint96 bond;
        uint128 refereeShare;
        bytes32 root;
        bytes32 challengerRoot;
        bytes32 pending;
        bytes32 agreed;
        bytes32 executorStep;
        bytes32 challengerStep;
        bytes32 finalResult;
        bytes32 verdict;
    }

    // ─── errors ────────────────────────────────────────────────────────────────────────────────────────────

    /// @notice Thrown when a task is not in the status the action needs.
    /// @param taskId The task.
    /// @param status Its status.
    error TaskWrongStatus(uint256 taskId, Status status);
    /// @notice Thrown when work was already done by someone else (finalised, expired, closed) — keepers treat it as
    ///         success (OPS-01).
    /// @param taskId The task.
    /// @param status Its status.
    error TaskAlreadyDone(uint256 taskId, Status status);

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
    /// @notice Emitted when a task is closed without a verdict: no executor, a missed deadline, or a dispute left
    ///         without a quorum or governance verdict past its grace.
    /// @param taskId The task.
    /// @param status Cancelled, Expired or Unresolved.
    /// @param by The caller.
    /// @param refunded Refunded to the client.
    event TaskClosed(uint256 indexed taskId, Status status, address indexed by, uint256 refunded);
    /// @notice Emitted when governance sets the parameters.
    /// @param params The parameters.
    event ParamsSet(Params params);

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
    ///         meet). The council then draws from the same seed block, at once. The selecting (or cancelling) call
    ///         pays its caller the keeper bounty (0.1 % of the deposit; none for the client or executor).
    /// @param taskId The task.
    function closeBidding(uint256 taskId) external;

    /// @notice Draws the current round's council with the matcher from the committed seed block and the
    ///         registry's snapshot at the commit (TSK-07: nothing done after the commit, nor who calls, changes who
    ///         is drawn); re-commits a new block when the old hash is out of reach. Permissionless; a draw pays its
    ///         caller the keeper bounty (0.1 % of the deposit; none for the client or executor, nor for a re-commit).
    /// @param taskId The task.
    function drawCouncil(uint256 taskId) external;

    /// @notice Executor commits the result hash of checkpoint `checkpoint` (0-based, in order) before the deadline;
    ///         the last checkpoint starts verification.
    /// @param taskId The task.
    /// @param checkpoint Index.
    /// @param resultHash Result hash.
    function commit(uint256 taskId, uint8 checkpoint, bytes32 resultHash) external;

    /// @notice A current council member commits to its own result until `commitEnds` (the first half of the
    ///         verification window; may replace its commitment until then): `commitment` =
    ///         keccak256(abi.encode(taskId, member, resultHash, salt)).
    /// @param taskId The task.
    /// @param commitment The salted hash of the member's result.
    function commitResult(uint256 taskId, bytes32 commitment) external;

    /// @notice A member that committed reveals its result after `commitEnds` and until `votingEnds`. The accepted
    ///         result is the one a quorum of distinct members reveals (TSK-01): the executor's hash is accepted only
    ///         when the quorum's equals it, and a quorum on another hash proves the executor wrong.
    /// @param taskId The task.
    /// @param resultHash The member's result hash.
    /// @param salt The salt of its commitment.
    function revealResult(uint256 taskId, bytes32 resultHash, bytes32 salt) external;

    /// @notice Opens a dispute (enlarged council of 2n + 1): when votes split so no quorum is possible, when the
    ///         vote window ends without a quorum, or by the executor against a rejection inside the window.
    /// @param taskId The task.
    function openDispute(uint256 taskId) external;

    /// @notice Finalises on a quorum: pays the executor, reserves the fees of the members who voted with the
    ///         outcome (pull: `claimCouncilFee`), slashes the side found wrong, refunds the rest. A dispute still
    ///         without a quorum `disputeWindowSec` after its vote window (governance's grace) ends Unresolved: the
    ///         client is refunded in full, nobody is paid or slashed, every duty lock and a CH redemption's
    ///         assignment are released (TSK-05, issue 17 item 9). Members silent past their reveal window lose a
    ///         bounded slice (25 % of the fault amount). Permissionless, paying the caller the keeper bounty (0.1 %
    ///         of the deposit; none for the client or executor); a second call reverts with TaskAlreadyDone.
    /// @param taskId The task.
    function finalize(uint256 taskId) external;

    /// @notice A council member who revealed the verdict's result (either round) claims its fee, once.
    /// @param taskId The task.
    /// @return fee Amount paid.
    function claimCouncilFee(uint256 taskId) external returns (uint256 fee);

    /// @notice Pays the caller's credited keeper bounties in `currency` to `to` (issue 21 item 6: the maintenance
    ///         steps credit their bounty instead of transferring it). Permissionless; only the caller's own credit.
    /// @param currency The currency to claim.
    /// @param to The recipient (non-zero).
    /// @return amount Amount paid.
    function claimKeeperCredits(Currency currency, address to) external returns (uint256 amount);

    /// @notice Keeper bounties credited to `keeper` in `currency` and not yet claimed.
    /// @param keeper The keeper.
    /// @param currency The currency.
    /// @return The amount.
    function keeperCredits(address keeper, Currency currency) external view returns (uint256);

    /// @notice Enforces a missed deadline: slashes the executor (the caller gets the registry's finder fee as a
    ///         bounded bounty — none when the caller is the executor itself; CH tasks: the registry compensates the
    ///         client instead) and refunds the client.
    /// @param taskId The task.
    function expire(uint256 taskId) external;

    /// @notice Reports a rejected CH redemption as failed once its delivery deadline passed (the registry slashes
    ///         the executor and compensates the client at the index price plus the penalty). Permissionless; pays
    ///         the caller the report bounty held in escrow when the task ended (to the client instead when the
    ///         caller is the client or executor).
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

    /// @notice A task's payment function and response mode as submitted (issue 21 item 5; immutable once submitted).
    /// @param taskId The task.
    /// @return paymentParams The payment-function word (`Terms.paymentParams`).
    /// @return responseMode The response mode (`Terms.responseMode`).
    function paymentTermsOf(uint256 taskId) external view returns (uint256 paymentParams, uint8 responseMode);

    /// @notice A council.
    /// @param taskId The task.
    /// @param round 0 or 1.
    /// @return The members.
    function councilOf(uint256 taskId, uint8 round) external view returns (address[] memory);

    /// @notice The current round's most revealed result other than the executor's (a quorum on it rejects).
    /// @param taskId The task.
    /// @return resultHash The result (zero when every reveal matched the executor's).
    /// @return count Members of the current round who revealed it.
    function leadingRival(uint256 taskId) external view returns (bytes32 resultHash, uint256 count);

    /// @notice Number of tasks submitted.
    /// @return The count.
    function taskCount() external view returns (uint256);

    /// @notice Total held per currency: task escrows, bisection bonds and unclaimed keeper credits (TSK-02: equals
    ///         this contract's balance of that token).
    /// @param currency The currency.
    /// @return The amount.
    function totalEscrow(Currency currency) external view returns (uint256);

    /// @notice The parameters.
    /// @return The parameters.
    function params() external view returns (Params memory);

    // ─── checkpoint chains and bisection (issue 21 item 2) ─────────────────────────────────────────────────

    /// @notice The executor commits its checkpoint chain once its final result is committed (status Verifying, before
    ///         any bisection): the Merkle root over `n` checkpoint hashes, `n` a power of two ≤ 2^16, with the proof
    ///         that leaf n − 1 is the committed final result. Without a chain the executor cannot answer a bisection.
    /// @param taskId The task.
    /// @param root The chain root.
    /// @param n Checkpoints.
    /// @param lastProof Merkle proof of leaf n − 1 (= the final result), bottom up.
    function commitChain(uint256 taskId, bytes32 root, uint32 n, bytes32[] calldata lastProof) external;

    /// @notice Opens the task's bisection (one per task, while Verifying in round 0) by a round-0 member that
    ///         revealed a result other than the executor's, or by the client; pulls the bond (`bisectionBond`, task
    ///         currency; approve first). The challenger commits its own chain of the same length: its final leaf
    ///         (≠ the executor's result) and its leaf at the first midpoint, each with a proof against `root`.
    /// @param taskId The task.
    /// @param root The challenger's chain root.
    /// @param finalLeaf The challenger's final leaf.
    /// @param finalProof Its proof.
    /// @param midLeaf The challenger's leaf at the first midpoint ((n − 1) / 2).
    /// @param midProof Its proof.
    function openBisection(
        uint256 taskId,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) external;

    /// @notice One bisection move by the party whose turn it is, before `moveEnds`: its leaf at the current midpoint
    ///         (proof against its own root) narrows [lo, hi]; unless that isolates the step, its leaf at the next
    ///         midpoint hands the turn to the other party. Isolating the step commits the referee council's seed
    ///         (drawn with `drawCouncil`, judging by commit–reveal of the step's output, settled by `finalize`).
    /// @param taskId The task.
    /// @param leaf The mover's leaf at the current midpoint.
    /// @param proof Its proof.
    /// @param nextLeaf The mover's leaf at the next midpoint (ignored when the step is isolated).
    /// @param nextProof Its proof.
    function bisect(
        uint256 taskId,
        bytes32 leaf,
        bytes32[] calldata proof,
        bytes32 nextLeaf,
        bytes32[] calldata nextProof
    ) external;

    /// @notice Ends a bisection whose pending move lapsed (permissionless): a lapsed challenger forfeits its bond
    ///         (the caller's keeper bounty out of it, the rest to the executor) and the task's verification goes on;
    ///         a lapsed executor is rejected and slashed the full fault amount (the caller is the slash's finder),
    ///         the bond goes back to the challenger and the client is refunded.
    /// @param taskId The task.
    function timeoutDispute(uint256 taskId) external;

    /// @notice A task's checkpoint chain and bisection.
    /// @param taskId The task.
    /// @return The record.
    function bisectionOf(uint256 taskId) external view returns (Bisection memory);

    /// @notice The bond a challenger posts to open a bisection on `taskId` (task currency).
    /// @param taskId The task.
    /// @return The bond.
    function bisectionBond(uint256 taskId) external view returns (uint256);

    /// @notice The client appeals its accepted task (issue 21 item 2) within the appeal window (`disputeWindowSec`
    ///         from acceptance; non-CH tasks without an earlier bisection): a bisection against the executor's
    ///         committed chain opens exactly as `openBisection` does, with the client as challenger proving its own
    ///         leaves, and pulls `appealBond` (approve first). The executor's duty lock (TSK-08) has been held since
    ///         acceptance, so its stake answers for the slash. Executor proven wrong (or lapsed): the task becomes
    ///         Rejected, the executor is slashed (scaled by severity, full on a lapse) to the client, the bond comes
    ///         back and the round-0 members who accepted lose their unclaimed fee to the client. Client proven wrong
    ///         (or lapsed): the acceptance stands and the bond pays the referees, the keeper and the executor.
    /// @param taskId The task.
    /// @param root The client's chain root.
    /// @param finalLeaf The client's final leaf (≠ the executor's result).
    /// @param finalProof Its proof.
    /// @param midLeaf The client's leaf at the first midpoint ((n − 1) / 2).
    /// @param midProof Its proof.
    function appeal(
        uint256 taskId,
        bytes32 root,
        bytes32 finalLeaf,
        bytes32[] calldata finalProof,
        bytes32 midLeaf,
        bytes32[] calldata midProof
    ) external;

    /// @notice Closes an accepted task's appeal window once it has ended without an appeal (permissionless) and
    ///         releases the executor's duty lock.
    /// @param taskId The task.
    function closeAppeal(uint256 taskId) external;

    /// @notice The bond a client posts to appeal `taskId`: the larger of `bisectionBond` and the referee council's
    ///         cost (2n + 1 council fees and two keeper bounties).
    /// @param taskId The task.
    /// @return The bond.
    function appealBond(uint256 taskId) external view returns (uint256);
}
