// TaskRegistry: batch tasks, bids, executors, councils and votes, disputes, verification outcomes, slashes, council
// fees and CH redemptions through tasks. Per-currency escrow follows the contract's totalEscrow exactly:
// + maxPayment on submit, − (escrow − reserved fees) on finalisation, − the refund on close, − each claimed fee,
// + a bisection's bond on opening, − what leaves of it on its end (the referees' part moves into the task's escrow);
// an appeal's bond joins the task's escrow when its step is judged, and what AppealSettled pays out leaves.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  AppealOpened,
  AppealSettled,
  AppealWindowClosed,
  BisectionEnded,
  BisectionMoved,
  BisectionNarrowed,
  BisectionOpened,
  ChainCommitted,
  BiddingSealed,
  BidPlaced,
  BidWithdrawn,
  CouncilDrawn,
  CouncilFeeClaimed,
  DisputeOpened,
  ExecutorSelected,
  FaultSlashed,
  ParamsSet,
  RedemptionFailed,
  ReplenishmentDeferred,
  ReplenishmentFlushed,
  KeeperBountyPaid,
  KeeperCreditsClaimed,
  ResultCommitted,
  ResultRevealed,
  SilentMemberSlashed,
  TaskClosed,
  TaskFinalized,
  TaskPriced,
  TaskSubmitted,
} from "../../generated/TaskRegistry/TaskRegistry";
import {
  BisectionMove,
  Task,
  TaskBid,
  TaskBisection,
  TaskCouncil,
  TaskCouncilFeeClaim,
  TaskCouncilMember,
  TaskEvent,
  TaskRegistryState,
  TaskResultCommit,
  TaskSlash,
  TaskVote,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { currencyIndex, currencyName, getCurrencyStats, getTaskDay, idKey, taskStatusName } from "../lib/tasks";
import {
  initTask,
  initTaskBisection,
  initTaskCouncilMember,
  loadOrInitTaskRegistryState,
} from "../../generated/defaults";
import { earn, perCurrency } from "../lib/earnings";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

const BPS = BigInt.fromI32(10000);

function getState(address: Address): TaskRegistryState {
  return loadOrInitTaskRegistryState(address);
}

function memberKey(taskId: BigInt, member: Bytes): Bytes {
  return idKey(taskId).concat(member);
}

function councilKey(taskId: BigInt, round: i32): Bytes {
  return idKey(taskId).concatI32(round);
}

function taskEvent(event: ethereum.Event, task: Task, kind: string): TaskEvent {
  const e = new TaskEvent(eventId(event));
  e.task = task.id;
  e.kind = kind;
  e.status = task.status;
  stamp(e, event);
  return e;
}

/** One more bid / vote / dispute / slash: counted on the registry (`stateField`) and on the day (`dayField`). */
function tally(event: ethereum.Event, stateField: string, dayField: string): void {
  const s = getState(event.address);
  s.setI32(stateField, s.getI32(stateField) + 1);
  s.save();
  const d = getTaskDay(event);
  d.setI32(dayField, d.getI32(dayField) + 1);
  d.save();
}

export function handleParamsSet(event: ParamsSet): void {
  const p = event.params.params;
  const s = getState(event.address);
  s.councilFeeBps = p.councilFeeBps;
  s.dpsDiscountBps = p.dpsDiscountBps;
  s.dpsReplenishBps = p.dpsReplenishBps;
  s.maxCouncil = p.maxCouncil;
  s.councilWindow = p.councilWindow;
  s.verifyWindowSec = p.verifyWindowSec;
  s.disputeWindowSec = p.disputeWindowSec;
  s.redemptionGraceSec = p.redemptionGraceSec;
  s.slashDps = p.slashDps;
  s.save();
}

export function handleTaskSubmitted(event: TaskSubmitted): void {
  const p = event.params;
  const t = p.terms;
  const pr = p.prescription;
  const task = initTask(idKey(p.taskId));
  task.taskId = p.taskId;
  task.client = getOrCreateAccount(p.client, event.block).id;
  task.status = "Bidding";
  task.currency = currencyName(t.currency);
  task.responseMode = t.responseMode;
  task.councilSize = t.councilSize;
  task.quorum = t.quorum;
  task.checkpoints = t.checkpoints;
  task.maxBids = t.maxBids;
  task.workloadClass = t.workloadClass;
  task.region = t.region;
  task.bidWindowSec = t.bidWindowSec;
  task.deadline = t.deadline;
  task.maxPayment = t.maxPayment;
  task.capacityPflopsWad = t.capacityPflopsWad;
  task.paymentParams = t.paymentParams;
  task.paymentKind = t.paymentParams.bitAnd(BigInt.fromI32(255)).toI32();
  task.dataHash = pr.dataHash;
  task.modelHash = pr.modelHash;
  task.inputHash = pr.inputHash;
  task.outputFnHash = pr.outputFnHash;
  task.evalHash = pr.evalHash;
  task.uri = pr.uri;
  task.prescriptionHash = p.prescriptionHash;
  task.biddingEnds = p.biddingEnds;
  task.submittedAt = event.block.timestamp;
  task.escrow = t.maxPayment;
  task.save();

  const s = getState(event.address);
  s.taskCount = s.taskCount + 1;
  s.save();
  const c = getCurrencyStats(t.currency);
  c.escrow = c.escrow.plus(t.maxPayment);
  c.deposited = c.deposited.plus(t.maxPayment);
  c.taskCount = c.taskCount + 1;
  c.save();
  const d = getTaskDay(event);
  d.tasksSubmitted = d.tasksSubmitted + 1;
  d.save();
}

export function handleBidPlaced(event: BidPlaced): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return; // unreachable: bids need a task in Bidding
  task.bidCount = p.bidCount.toI32();
  const low = task.lowestBid;
  if (low === null || p.price.lt(low)) task.lowestBid = p.price;
  task.save();
  const b = new TaskBid(eventId(event));
  b.task = task.id;
  b.provider = getOrCreateAccount(p.provider, event.block).id;
  b.price = p.price;
  b.bidCount = p.bidCount.toI32();
  stamp(b, event);
  b.save();
  tally(event, "bidCount", "bids");
}

export function handleExecutorSelected(event: ExecutorSelected): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const s = getState(event.address);
  task.status = "Running";
  task.executor = getOrCreateAccount(p.executor, event.block).id;
  task.price = p.price;
  // As _closeBidding: fee rounded down, capped so every fee of both rounds still fits the deposit less the keeper
  // bounties it reserves (5 × 0.1 %, issue 21 item 6).
  const fee = p.price.times(BigInt.fromI32(s.councilFeeBps)).div(BPS);
  const budget = task.maxPayment.minus(bountyOf(task).times(BigInt.fromI32(KEEPER_STEPS)));
  const cap = budget.minus(p.price).div(BigInt.fromI32(3 * task.councilSize + 1));
  task.councilFee = fee.lt(cap) ? fee : cap;
  task.targetBlock = p.targetBlock;
  task.assignmentId = p.assignmentId;
  if (!p.assignmentId.isZero()) task.redemption = idKey(p.assignmentId);
  task.save();
  const e = taskEvent(event, task, "executorSelected");
  e.account = p.executor;
  e.price = p.price;
  e.targetBlock = p.targetBlock;
  e.assignmentId = p.assignmentId;
  e.save();
}

export function handleCouncilDrawn(event: CouncilDrawn): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const round = p.round;
  const c = new TaskCouncil(councilKey(p.taskId, round));
  c.task = task.id;
  c.round = round;
  const members: Bytes[] = [];
  for (let i = 0; i < p.members.length; i++) {
    const a = p.members[i];
    members.push(a);
    const m = initTaskCouncilMember(memberKey(p.taskId, a));
    m.task = task.id;
    m.member = getOrCreateAccount(a, event.block).id;
    m.round = round;
    m.save();
  }
  // As TaskCouncil.drawCouncil: a council drawn after its commit window closed gets full windows from the draw
  // (not carried by the event). The commit window ends at start + w/2 where votingEnds = start + w.
  const st = task.status;
  if (st == "Verifying" || st == "Disputed") {
    const s = getState(event.address);
    const w = round == 0 ? s.verifyWindowSec : s.disputeWindowSec;
    const commitEnds = task.votingEnds.minus(w).plus(w.div(BigInt.fromI32(2)));
    if (event.block.timestamp.gt(commitEnds)) task.votingEnds = event.block.timestamp.plus(w);
    task.save();
  }
  c.members = members;
  c.quorum = p.quorum.toI32();
  c.seed = p.seed;
  c.blockNumber = event.block.number;
  c.timestamp = event.block.timestamp;
  c.transactionHash = event.transaction.hash;
  c.save();
}

export function handleResultCommitted(event: ResultCommitted): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.commits = p.checkpoint + 1;
  task.resultHash = p.resultHash;
  if (p.isFinal) {
    task.status = "Verifying";
    task.votingEnds = p.votingEnds;
  }
  task.save();
  const r = new TaskResultCommit(eventId(event));
  r.task = task.id;
  r.checkpoint = p.checkpoint;
  r.resultHash = p.resultHash;
  r.isFinal = p.isFinal;
  r.votingEnds = p.votingEnds;
  stamp(r, event);
  r.save();
}

/** Keeper bounty of one paid step: 0.1 % of the deposit (TaskCommon.KEEPER_BOUNTY_BPS), rounded down. */
const KEEPER_STEPS = 5;
function bountyOf(task: Task): BigInt {
  return task.maxPayment.times(BigInt.fromI32(10)).div(BPS);
}

/**
 * Commit–reveal (issue 21 item 1): a member's reveal is its vote; `agree` = it revealed the executor's result.
 * (Commitments themselves are not indexed: they carry no information until revealed.)
 */
export function handleResultRevealed(event: ResultRevealed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.agree = p.agreeCount;
  task.disagree = p.disagreeCount;
  task.save();
  const m = TaskCouncilMember.load(memberKey(p.taskId, p.member));
  if (m != null) {
    m.voted = true;
    m.agree = p.matchesExecutor;
    m.save();
  }
  const v = new TaskVote(eventId(event));
  v.task = task.id;
  v.member = getOrCreateAccount(p.member, event.block).id;
  v.round = p.round;
  v.agree = p.matchesExecutor;
  v.resultHash = p.resultHash;
  v.agreeCount = p.agreeCount;
  v.disagreeCount = p.disagreeCount;
  stamp(v, event);
  v.save();
  tally(event, "voteCount", "votes");
}

export function handleDisputeOpened(event: DisputeOpened): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const s = getState(event.address);
  task.status = "Disputed";
  task.round = 1;
  task.agree = 0;
  task.disagree = 0;
  task.targetBlock = p.targetBlock;
  // Not carried by the event: the contract sets votingEnds = now + disputeWindowSec.
  task.votingEnds = event.block.timestamp.plus(s.disputeWindowSec);
  task.disputedBy = p.by;
  task.save();
  const e = taskEvent(event, task, "disputeOpened");
  e.account = p.by;
  e.targetBlock = p.targetBlock;
  e.save();
  tally(event, "disputeCount", "disputes");
}

/** Marks each council member who voted with (or against) the verdict; bounded by the council sizes (≤ 3·maxCouncil + 1). */
function judgeMembers(task: Task, accepted: boolean): void {
  for (let r = 0; r < 2; r++) {
    const c = TaskCouncil.load(councilKey(task.taskId, r));
    if (c == null) continue;
    const members = c.members;
    for (let i = 0; i < members.length; i++) {
      const m = TaskCouncilMember.load(memberKey(task.taskId, members[i]));
      if (m == null || !m.voted) continue;
      m.withVerdict = m.agree == accepted;
      m.save();
    }
  }
}

export function handleTaskFinalized(event: TaskFinalized): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const status = taskStatusName(p.status);
  const accepted = status == "Accepted";
  const cur = currencyIndex(task.currency);
  const c = getCurrencyStats(cur);
  // A rejected CH redemption holds its failure report's keeper bounty (TaskSettlement._holdReport).
  let hold = ZERO;
  if (!accepted && !task.assignmentId.isZero()) {
    const room = task.escrow.minus(p.councilPaid);
    hold = bountyOf(task).lt(room) ? bountyOf(task) : room;
  }
  task.heldReportBounty = hold;
  c.escrow = c.escrow.minus(task.escrow.minus(p.councilPaid).minus(hold));
  c.executorPaid = c.executorPaid.plus(p.executorPaid);
  c.councilReserved = c.councilReserved.plus(p.councilPaid);
  c.refunded = c.refunded.plus(p.refunded);
  c.replenished = c.replenished.plus(p.replenishedDps);
  c.save();
  task.status = status;
  task.escrow = p.councilPaid.plus(hold);
  task.executorPaid = p.executorPaid;
  task.councilReserved = p.councilPaid;
  task.refunded = p.refunded;
  task.replenishedDps = p.replenishedDps;
  task.closedAt = event.block.timestamp;
  task.save();
  const executor = task.executor;
  if (executor !== null && !p.executorPaid.isZero())
    earn(executor, perCurrency("executorPaid", task.currency), p.executorPaid, event);
  judgeMembers(task, accepted);
  const e = taskEvent(event, task, "finalized");
  e.executorPaid = p.executorPaid;
  e.councilPaid = p.councilPaid;
  e.refunded = p.refunded;
  e.replenishedDps = p.replenishedDps;
  e.save();

  const s = getState(event.address);
  const d = getTaskDay(event);
  if (accepted) {
    s.accepted = s.accepted + 1;
    d.tasksAccepted = d.tasksAccepted + 1;
    if (task.currency == "CH") {
      s.chRedeemed = s.chRedeemed.plus(p.executorPaid);
      d.chRedeemed = d.chRedeemed.plus(p.executorPaid);
    } else if (task.currency == "USDC") d.executorPaidUsdc = d.executorPaidUsdc.plus(p.executorPaid);
    else d.executorPaidDps = d.executorPaidDps.plus(p.executorPaid);
  } else {
    s.rejected = s.rejected + 1;
    d.tasksRejected = d.tasksRejected + 1;
  }
  s.dpsReplenished = s.dpsReplenished.plus(p.replenishedDps);
  d.dpsReplenished = d.dpsReplenished.plus(p.replenishedDps);
  s.save();
  d.save();
}

export function handleTaskClosed(event: TaskClosed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const c = getCurrencyStats(currencyIndex(task.currency));
  c.escrow = c.escrow.minus(p.refunded);
  c.refunded = c.refunded.plus(p.refunded);
  c.save();
  task.status = taskStatusName(p.status);
  // an expired CH redemption keeps its report bounty in escrow; every other close empties it
  task.heldReportBounty = task.escrow.minus(p.refunded);
  task.escrow = task.escrow.minus(p.refunded);
  task.refunded = p.refunded;
  task.closedBy = p.by;
  task.closedAt = event.block.timestamp;
  task.save();
  const e = taskEvent(event, task, "closed");
  e.account = p.by;
  e.refunded = p.refunded;
  e.save();
  const s = getState(event.address);
  const d = getTaskDay(event);
  if (task.status == "Expired") {
    s.expired = s.expired + 1;
    d.tasksExpired = d.tasksExpired + 1;
  } else if (task.status == "Unresolved") {
    // TSK-05: a dispute nobody decided; a CH redemption's assignment is released (RedemptionReleased)
    s.unresolved = s.unresolved + 1;
    task.assignmentId = ZERO;
    task.save();
  } else {
    s.cancelled = s.cancelled + 1;
    d.tasksCancelled = d.tasksCancelled + 1;
  }
  s.save();
  d.save();
}

export function handleCouncilFeeClaimed(event: CouncilFeeClaimed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.escrow = p.escrowLeft;
  task.councilClaimed = task.councilClaimed.plus(p.fee);
  task.save();
  const c = getCurrencyStats(currencyIndex(task.currency));
  c.escrow = c.escrow.minus(p.fee);
  c.councilClaimed = c.councilClaimed.plus(p.fee);
  c.save();
  const m = TaskCouncilMember.load(memberKey(p.taskId, p.member));
  if (m != null) {
    m.feeClaimed = m.feeClaimed.plus(p.fee);
    m.save();
  }
  earn(p.member, perCurrency("councilFees", task.currency), p.fee, event);
  const f = new TaskCouncilFeeClaim(eventId(event));
  f.task = task.id;
  f.member = getOrCreateAccount(p.member, event.block).id;
  f.fee = p.fee;
  f.escrowLeft = p.escrowLeft;
  stamp(f, event);
  f.save();
  const d = getTaskDay(event);
  if (task.currency == "CH") d.councilFeesClaimedCh = d.councilFeesClaimedCh.plus(p.fee);
  else if (task.currency == "USDC") d.councilFeesClaimedUsdc = d.councilFeesClaimedUsdc.plus(p.fee);
  else d.councilFeesClaimedDps = d.councilFeesClaimedDps.plus(p.fee);
  d.save();
}

export function handleFaultSlashed(event: FaultSlashed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.slashedDps = task.slashedDps.plus(p.slashedDps);
  task.save();
  const executor = task.executor;
  const isExecutor = executor !== null && executor.equals(p.provider);
  if (!isExecutor) {
    const m = TaskCouncilMember.load(memberKey(p.taskId, p.provider));
    if (m != null) {
      m.slashedDps = m.slashedDps.plus(p.slashedDps);
      m.save();
    }
  }
  const x = new TaskSlash(eventId(event));
  x.task = task.id;
  x.provider = getOrCreateAccount(p.provider, event.block).id;
  x.role = isExecutor ? "executor" : "council";
  x.slashedDps = p.slashedDps;
  stamp(x, event);
  x.save();
  const s = getState(event.address);
  s.slashCount = s.slashCount + 1;
  s.slashedDps = s.slashedDps.plus(p.slashedDps);
  s.save();
  const d = getTaskDay(event);
  d.slashes = d.slashes + 1;
  d.slashedDps = d.slashedDps.plus(p.slashedDps);
  d.save();
}

export function handleRedemptionFailed(event: RedemptionFailed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.assignmentId = ZERO;
  // what the report's keeper did not take of the held bounty went back to the client (TaskSettlement)
  const back = task.heldReportBounty;
  if (!back.isZero()) {
    const c = getCurrencyStats(currencyIndex(task.currency));
    c.escrow = c.escrow.minus(back);
    c.refunded = c.refunded.plus(back);
    c.save();
    task.escrow = task.escrow.minus(back);
    task.heldReportBounty = ZERO;
  }
  task.redemptionFailed = true;
  task.compensationDps = p.compensationDps;
  task.save();
  const e = taskEvent(event, task, "redemptionFailed");
  e.assignmentId = p.assignmentId;
  e.compensationDps = p.compensationDps;
  e.save();
  const s = getState(event.address);
  s.redemptionFailures = s.redemptionFailures + 1;
  s.redemptionCompensationDps = s.redemptionCompensationDps.plus(p.compensationDps);
  s.save();
}

/** First closeBidding call (or a re-seal): bids sealed, the seed block and the draw snapshot committed. */
export function handleBiddingSealed(event: BiddingSealed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.targetBlock = p.targetBlock;
  task.save();
  const e = taskEvent(event, task, "biddingSealed");
  e.targetBlock = p.targetBlock;
  e.candidates = p.candidates;
  e.save();
}

/** A bidder withdrew its bid while bidding was open (the slot still counts toward maxBids). */
export function handleBidWithdrawn(event: BidWithdrawn): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const e = taskEvent(event, task, "bidWithdrawn");
  e.account = p.provider;
  e.bidIndex = p.index.toI32();
  e.save();
}

/** The reward pool's replenish failed: the DPS waits at Emission (the verdict went through). */
export function handleReplenishmentDeferred(event: ReplenishmentDeferred): void {
  const s = getState(event.address);
  s.replenishBacklog = event.params.backlogDps;
  s.save();
}

export function handleReplenishmentFlushed(event: ReplenishmentFlushed): void {
  const s = getState(event.address);
  s.replenishBacklog = ZERO;
  s.save();
}

/** A maintenance step credited its caller out of the task's escrow (issue 21 item 6). The credit stays in the
 *  contract's totalEscrow until the keeper claims it (KeeperCreditsClaimed), so the currency escrow is unchanged. */
export function handleKeeperBountyPaid(event: KeeperBountyPaid): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const c = getCurrencyStats(currencyIndex(task.currency));
  c.keeperBounties = c.keeperBounties.plus(p.amount);
  c.save();
  // the report's bounty comes out of the slice held for it
  if (!task.heldReportBounty.isZero()) task.heldReportBounty = task.heldReportBounty.minus(p.amount);
  task.escrow = p.escrowLeft;
  task.keeperBounties = task.keeperBounties.plus(p.amount);
  task.save();
}

/** A keeper claimed its credited bounties of one currency: they leave the contract's totalEscrow. */
export function handleKeeperCreditsClaimed(event: KeeperCreditsClaimed): void {
  const p = event.params;
  const c = getCurrencyStats(p.currency);
  c.escrow = c.escrow.minus(p.amount);
  c.save();
}

/** A council member silent past its reveal window lost the bounded slice (issue 21 item 1). */
export function handleSilentMemberSlashed(event: SilentMemberSlashed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.slashedDps = task.slashedDps.plus(p.slashedDps);
  task.save();
  const m = TaskCouncilMember.load(memberKey(p.taskId, p.member));
  if (m != null) {
    m.slashedDps = m.slashedDps.plus(p.slashedDps);
    m.save();
  }
  const x = new TaskSlash(eventId(event));
  x.task = task.id;
  x.provider = getOrCreateAccount(p.member, event.block).id;
  x.role = "silent";
  x.slashedDps = p.slashedDps;
  stamp(x, event);
  x.save();
  const s = getState(event.address);
  s.slashCount = s.slashCount + 1;
  s.slashedDps = s.slashedDps.plus(p.slashedDps);
  s.save();
}

// ─── checkpoint chains and bisection disputes (issue 21) ─────────────────────────────────────────────────────────

/** The task's bisection entity, created (and linked from the task) on its first event. */
function getBisection(task: Task): TaskBisection {
  const b = TaskBisection.load(task.id);
  if (b != null) return b;
  const n = initTaskBisection(task.id);
  n.task = task.id;
  n.phase = "Committed";
  task.bisection = task.id;
  task.save();
  return n;
}

export function handleChainCommitted(event: ChainCommitted): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const b = getBisection(task);
  b.executorRoot = p.root;
  b.n = p.n.toI32();
  b.committedAt = event.block.timestamp;
  b.save();
}

/**
 * The bond is pulled into the registry's escrow. A one-checkpoint chain narrows at once (BisectionNarrowed precedes
 * this event in the same call, moveEnds = 0): the phase it set is kept.
 */
export function handleBisectionOpened(event: BisectionOpened): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const b = getBisection(task);
  b.challenger = getOrCreateAccount(p.challenger, event.block).id;
  b.challengerRoot = p.challengerRoot;
  b.n = p.n.toI32();
  b.bond = p.bond;
  b.openedAt = event.block.timestamp;
  b.moves = 1;
  b.lo = 0;
  b.hi = b.n == 0 ? 0 : b.n - 1;
  b.moveEnds = p.moveEnds;
  if (!p.moveEnds.isZero()) b.phase = "ExecutorMove";
  else b.phase = "Judging";
  b.save();
  const c = getCurrencyStats(currencyIndex(task.currency));
  c.escrow = c.escrow.plus(p.bond);
  c.save();
}

export function handleBisectionMoved(event: BisectionMoved): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const b = getBisection(task);
  let byChallenger = false;
  const challenger = b.challenger;
  if (challenger) byChallenger = challenger.equals(p.mover);
  b.lo = p.lo.toI32();
  b.hi = p.hi.toI32();
  b.moves = p.moves;
  b.moveEnds = p.moveEnds;
  // the turn passes to the other party; a move that isolates the step hands it to the referees
  if (p.moveEnds.isZero()) b.phase = "Judging";
  else b.phase = byChallenger ? "ExecutorMove" : "ChallengerMove";
  b.save();
  const m = new BisectionMove(eventId(event));
  m.bisection = b.id;
  m.task = task.id;
  m.mover = getOrCreateAccount(p.mover, event.block).id;
  m.role = byChallenger ? "Challenger" : "Executor";
  m.index = p.index.toI32();
  m.leaf = p.leaf;
  m.lo = b.lo;
  m.hi = b.hi;
  m.moves = p.moves;
  m.moveEnds = p.moveEnds;
  stamp(m, event);
  m.save();
}

export function handleBisectionNarrowed(event: BisectionNarrowed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const b = getBisection(task);
  b.phase = "Judging";
  b.step = p.step.toI32();
  b.hi = p.step.toI32();
  b.agreed = p.agreed;
  b.executorStep = p.executorStep;
  b.challengerStep = p.challengerStep;
  b.moves = p.moves;
  b.moveEnds = ZERO;
  b.refereeTargetBlock = p.targetBlock;
  b.narrowedAt = event.block.timestamp;
  b.save();
  // the referee council is round 1, drawn from this seed block (CouncilDrawn follows when it is drawn)
  task.round = 1;
  task.targetBlock = p.targetBlock;
  if (b.isAppeal) {
    // TaskBisectionGame.narrowed: an appeal's step is judged like a dispute's — the accepted task reopens Disputed, the
    // bond joins its escrow (still in the currency's escrow: no change there), fresh votes and window
    task.status = "Disputed";
    task.escrow = task.escrow.plus(b.bond);
    task.agree = 0;
    task.disagree = 0;
    task.votingEnds = event.block.timestamp.plus(getState(event.address).disputeWindowSec);
  }
  task.save();
}

/**
 * What leaves escrow: the bond back to the challenger, to the executor and the keeper's bounty. The referees' part
 * stays in escrow, now the task's (TaskSettlement._settleBond: k.escrow += toReferees; it follows TaskFinalized,
 * which set Task.escrow to the reserved council fees).
 */
export function handleBisectionEnded(event: BisectionEnded): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const b = getBisection(task);
  const out = p.bondToChallenger.plus(p.bondToExecutor).plus(p.bondToKeeper);
  const c = getCurrencyStats(currencyIndex(task.currency));
  c.escrow = c.escrow.minus(out);
  c.save();
  if (!p.bondToReferees.isZero()) {
    task.escrow = task.escrow.plus(p.bondToReferees);
    task.save();
  }
  // A lapsed challenger ends the bisection only (TaskDisputes.timeout; the task's ordinary verification goes on);
  // every other end follows TaskFinalized (Accepted / Rejected), or, without a verdict (TaskSettlement._unresolved),
  // gives the bond back before the task closes Unresolved.
  b.phase = p.executorRight && task.status != "Accepted" ? "Lapsed" : "Ended";
  if (p.executorRight) b.outcome = "ExecutorRight";
  else if (p.byTimeout || task.status == "Rejected") b.outcome = "ChallengerRight";
  else b.outcome = "Undecided";
  b.byTimeout = p.byTimeout;
  b.bondToChallenger = p.bondToChallenger;
  b.bondToExecutor = p.bondToExecutor;
  b.bondToReferees = p.bondToReferees;
  b.bondToKeeper = p.bondToKeeper;
  b.moveEnds = ZERO;
  b.endedAt = event.block.timestamp;
  b.save();
}

/**
 * Issue 21 item 5: an accepted METERED or PROPORTIONAL task's price (emitted before TaskFinalized, in the same
 * settlement; the amounts paid and refunded come with TaskFinalized as for every task).
 */
export function handleTaskPriced(event: TaskPriced): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.pricedUnits = p.units;
  task.pricedPrice = p.price;
  task.save();
}

// ─── the client's appeal of an accepted result (issue 21 item 2) ────────────────────────────────────────────────

/**
 * The client appeals its accepted task: emitted before BisectionOpened (and before BisectionNarrowed when a
 * one-checkpoint chain narrows at once), so the bisection is marked an appeal and given its bond here; the bond
 * enters the currency's escrow with BisectionOpened, as every bisection's.
 */
export function handleAppealOpened(event: AppealOpened): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const b = getBisection(task);
  b.isAppeal = true;
  b.bond = p.bond;
  b.save();
  task.appealed = true;
  task.appealEnds = p.appealEnds;
  task.appealBond = p.bond;
  task.appealedAt = event.block.timestamp;
  task.save();
  const e = taskEvent(event, task, "appealOpened");
  e.account = p.client;
  e.save();
}

/**
 * An appeal ends (TaskAppeals.endAppeal, or a lapsed client in timeout). A lapsed client's bond already left with
 * BisectionEnded (same call, before this event): nothing more moves. Otherwise (_appealEscrow) the bond joins the
 * task's escrow unless the judged step's already did, finalize's keeper credit came out of it (KeeperBountyPaid,
 * before this event), the round-0 fees still owed and the referees' fees stay, and toClient + toExecutor leave.
 */
export function handleAppealSettled(event: AppealSettled): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  const b = getBisection(task);
  const clientLapsed = b.endedAt !== null;
  if (!clientLapsed) {
    const judged = b.phase == "Judging";
    const rest = p.toClient.plus(p.toExecutor);
    let escrow = task.escrow;
    if (!judged) escrow = escrow.plus(b.bond);
    task.escrow = escrow.minus(rest);
    const c = getCurrencyStats(currencyIndex(task.currency));
    c.escrow = c.escrow.minus(rest);
    c.save();
    b.phase = "Ended";
    b.moveEnds = ZERO;
    b.byTimeout = p.byTimeout;
    b.endedAt = event.block.timestamp;
    if (p.executorWrong) b.outcome = "ChallengerRight";
    else if (p.byTimeout || decided(task, p.toExecutor)) b.outcome = "ExecutorRight";
    else b.outcome = "Undecided";
    b.save();
    // the referees' and round 0's standing against the final verdict (an overturn forfeits round 0's fees)
    if (judged || p.executorWrong) judgeMembers(task, !p.executorWrong);
  }
  let outcome = "Undecided";
  if (p.executorWrong) outcome = "Overturned";
  else if (clientLapsed) outcome = "Lapsed";
  else if (decided(task, p.toExecutor)) outcome = "Upheld";
  task.appealOutcome = outcome;
  task.appealByTimeout = p.byTimeout;
  task.appealSlashedDps = p.slashedDps;
  task.appealToClient = p.toClient;
  task.appealToExecutor = p.toExecutor;
  task.appealRefereeFees = p.refereeFees;
  task.appealClosedAt = event.block.timestamp;
  const wasAccepted = task.status != "Rejected";
  task.status = p.executorWrong ? "Rejected" : "Accepted";
  task.save();
  const e = taskEvent(event, task, "appealSettled");
  e.refunded = p.toClient;
  e.executorPaid = p.toExecutor;
  e.councilPaid = p.refereeFees;
  e.save();
  if (p.executorWrong && wasAccepted) {
    // the acceptance TaskFinalized counted is overturned
    const s = getState(event.address);
    s.accepted = s.accepted - 1;
    s.rejected = s.rejected + 1;
    s.save();
    const d = getTaskDay(event);
    d.tasksRejected = d.tasksRejected + 1;
    d.save();
  }
}

/** A referee quorum (councilSize + 1, TaskCommon.quorum in round 1) revealed the executor's step output: upheld. */
function decided(task: Task, toExecutor: BigInt): boolean {
  return !toExecutor.isZero() || task.agree >= task.councilSize + 1;
}

/** The unused appeal window closed (closeAppeal): the executor's duty lock is released; no money moves. */
export function handleAppealWindowClosed(event: AppealWindowClosed): void {
  const p = event.params;
  const task = Task.load(idKey(p.taskId));
  if (task == null) return;
  task.appealClosedAt = event.block.timestamp;
  task.save();
  const e = taskEvent(event, task, "appealWindowClosed");
  e.account = p.executor;
  e.save();
}
