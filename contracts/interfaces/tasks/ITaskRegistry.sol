// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ITaskRegistryErrors} from "./ITaskRegistryErrors.sol";
import {ITaskRegistryEvents} from "./ITaskRegistryEvents.sol";
import {ITaskRegistryTypes} from "./ITaskRegistryTypes.sol";
import {ITaskRegistryActions} from "./ITaskRegistryActions.sol";
import {ITaskRegistryViews} from "./ITaskRegistryViews.sol";
import {ITaskDisputes} from "./ITaskDisputes.sol";

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
///      Errors and events that name no task type live in `ITaskRegistryErrors` / `ITaskRegistryEvents`, the bisection
///      record in `ITaskRegistryTypes`, the functions that name no task type in `ITaskRegistryActions`,
///      `ITaskRegistryViews` and `ITaskDisputes` (all inherited: one ABI). Selectors code takes as
///      `ITaskRegistry.f.selector` stay declared here.
interface ITaskRegistry is
    ITaskRegistryErrors,
    ITaskRegistryEvents,
    ITaskRegistryTypes,
    ITaskRegistryActions,
    ITaskRegistryViews,
    ITaskDisputes
{
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
    ///         `councilHead` is the first member of the first round's council (zero: not drawn yet); its other
    ///         members follow the member words' links, the dispute council's head is `councilHeads[taskId][1]`. It
    ///         shares the slot of `targetBlock`, which the draw reads anyway: drawing writes no fresh slot for it.
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
        uint48 targetBlock;
        uint48 assignmentId;
        address councilHead;
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

    /// @notice Total held per currency: task escrows, bisection bonds and unclaimed keeper credits (TSK-02: equals
    ///         this contract's balance of that token).
    /// @param currency The currency.
    /// @return The amount.
    function totalEscrow(Currency currency) external view returns (uint256);

    /// @notice The parameters.
    /// @return The parameters.
    function params() external view returns (Params memory);

    /// @notice Ends a bisection whose pending move lapsed (permissionless): a lapsed challenger forfeits its bond
    ///         (the caller's keeper bounty out of it, the rest to the executor) and the task's verification goes on;
    ///         a lapsed executor is rejected and slashed the full fault amount (the caller is the slash's finder),
    ///         the bond goes back to the challenger and the client is refunded.
    /// @param taskId The task.
    function timeoutDispute(uint256 taskId) external;
}
