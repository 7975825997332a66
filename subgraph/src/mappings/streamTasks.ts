// StreamTasks: streams, subscriptions, settled receipts (stream payments) and on-chain consensus requests (issue 21
// item 4: answers, challenges, verdicts, slashes, claims of unpaid answers, held duty locks). The deposit is the events'
// post-state; per-currency totals give Σ deposits = the StreamTasks balance of each token.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  AnswerCommitted,
  AnswerDelivered,
  AnswerRevealed,
  ChallengeBondPaid,
  ConsensusFailed,
  ConsensusParamsSet,
  DutyLockHeld,
  DutyLockReleased,
  ReceiptSettled,
  RequestChallenged,
  RequestOpened,
  RequestResolved,
  SpecUpdated,
  StreamFunded,
  StreamOpened,
  StreamProviderSlashed,
  StreamResumed,
  StreamRetracted,
  StreamWithdrawn,
  Subscribed,
  SubscriptionLockSet,
  Unsubscribed,
  UnpaidClaimed,
} from "../../generated/StreamTasks/StreamTasks";
import {
  Stream,
  StreamEvent,
  StreamReceipt,
  StreamRequest,
  StreamSubscription,
  StreamTasksConfig,
  TaskCurrencyStats,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import {
  currencyIndex,
  currencyName,
  getCurrencyStats,
  getTaskDay,
  idKey,
  streamModeName,
  streamStatusName,
} from "../lib/tasks";
import { initStream, initStreamRequest, initStreamSubscription } from "../../generated/defaults";
import { earn, perCurrency } from "../lib/earnings";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function streamEvent(event: ethereum.Event, s: Stream, kind: string): StreamEvent {
  const e = new StreamEvent(eventId(event));
  e.stream = s.id;
  e.kind = kind;
  e.status = s.status;
  stamp(e, event);
  return e;
}

/** A stream event whose one detail is `value` (saved: immutable). */
function streamValueEvent(event: ethereum.Event, s: Stream, kind: string, value: BigInt): void {
  const e = streamEvent(event, s, kind);
  e.value = value;
  e.save();
}

/**
 * A stream deposit's move in its currency's totals (unsaved): `amount` in (opened, funded) or out (withdrawn, paid)
 * of streamDeposit, and summed into `flow` (streamFunded / streamWithdrawn / streamPaid).
 */
function streamTotals(currency: i32, amount: BigInt, inflow: boolean, flow: string): TaskCurrencyStats {
  const c = getCurrencyStats(currency);
  c.streamDeposit = inflow ? c.streamDeposit.plus(amount) : c.streamDeposit.minus(amount);
  c.setBigInt(flow, c.getBigInt(flow).plus(amount));
  return c;
}

export function handleStreamOpened(event: StreamOpened): void {
  const p = event.params;
  const t = p.terms;
  const s = initStream(idKey(p.streamId));
  s.streamId = p.streamId;
  s.client = getOrCreateAccount(p.client, event.block).id;
  s.currency = currencyName(t.currency);
  s.mode = streamModeName(t.mode);
  s.executors = t.executors;
  // As the contract: the weight is kept for Weighted streams only.
  s.weightWad = t.mode == 1 ? t.weightWad : ZERO;
  s.maxPrice = t.maxPrice;
  s.maxFailures = t.maxFailures;
  s.status = "Open";
  s.subscribers = 0;
  s.failures = 0;
  s.specVersion = 0;
  s.inputHash = t.inputHash;
  s.fnHash = t.fnHash;
  s.deposit = t.deposit;
  s.funded = t.deposit;
  s.paid = ZERO;
  s.withdrawn = ZERO;
  s.answeredPaid = ZERO;
  s.receiptCount = 0;
  s.closesAt = ZERO;
  s.openedAt = event.block.timestamp;
  s.save();
  const c = streamTotals(t.currency, t.deposit, true, "streamFunded");
  c.streamCount = c.streamCount + 1;
  c.save();
  streamValueEvent(event, s, "opened", t.deposit);
  const d = getTaskDay(event);
  d.streamsOpened = d.streamsOpened + 1;
  d.save();
}

function subKey(streamId: Bytes, provider: Bytes): Bytes {
  return streamId.concat(provider);
}

export function handleSubscribed(event: Subscribed): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.subscribers = p.subscribers;
  // Subscribing never resets the failed-consensus count (only the client's resume does, issue 17 item 21).
  s.status = streamStatusName(p.status);
  s.save();
  const id = subKey(s.id, p.provider);
  let sub = StreamSubscription.load(id);
  if (sub == null) {
    sub = initStreamSubscription(id);
    sub.stream = s.id;
    sub.provider = getOrCreateAccount(p.provider, event.block).id;
  }
  const cfg = StreamTasksConfig.load(event.address);
  sub.lockedDps = cfg == null ? ZERO : cfg.subscriptionLockDps;
  sub.price = p.price;
  sub.active = true;
  sub.subscribedAt = event.block.timestamp;
  sub.updatedAt = event.block.timestamp;
  sub.save();
  const e = streamEvent(event, s, "subscribed");
  e.provider = p.provider;
  e.value = p.price;
  e.subscribers = p.subscribers;
  e.save();
}

export function handleUnsubscribed(event: Unsubscribed): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.subscribers = p.subscribers;
  s.status = streamStatusName(p.status);
  s.save();
  const sub = StreamSubscription.load(subKey(s.id, p.provider));
  if (sub != null) {
    sub.active = false;
    sub.lockedDps = ZERO;
    sub.updatedAt = event.block.timestamp;
    sub.save();
  }
  const e = streamEvent(event, s, "unsubscribed");
  e.provider = p.provider;
  e.subscribers = p.subscribers;
  e.save();
}

export function handleSpecUpdated(event: SpecUpdated): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.inputHash = p.inputHash;
  s.fnHash = p.fnHash;
  s.specVersion = p.specVersion.toI32();
  s.save();
  streamValueEvent(event, s, "specUpdated", p.specVersion);
}

export function handleConsensusFailed(event: ConsensusFailed): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.failures = p.failures;
  s.status = streamStatusName(p.status);
  s.save();
  streamValueEvent(event, s, "consensusFailed", BigInt.fromI32(p.failures));
}

export function handleStreamFunded(event: StreamFunded): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.deposit = p.deposit;
  s.funded = s.funded.plus(p.amount);
  s.save();
  streamTotals(currencyIndex(s.currency), p.amount, true, "streamFunded").save();
  streamValueEvent(event, s, "funded", p.amount);
}

export function handleStreamRetracted(event: StreamRetracted): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.status = "Closed";
  s.closesAt = p.closesAt;
  s.save();
  streamValueEvent(event, s, "retracted", p.closesAt);
}

export function handleStreamWithdrawn(event: StreamWithdrawn): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.deposit = ZERO;
  s.withdrawn = s.withdrawn.plus(p.amount);
  s.save();
  streamTotals(currencyIndex(s.currency), p.amount, false, "streamWithdrawn").save();
  streamValueEvent(event, s, "withdrawn", p.amount);
}

export function handleReceiptSettled(event: ReceiptSettled): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.deposit = p.deposit;
  s.paid = s.paid.plus(p.amount);
  s.answeredPaid = s.answeredPaid.plus(p.newlyPaid);
  s.receiptCount = s.receiptCount + 1;
  s.save();
  const sub = StreamSubscription.load(subKey(s.id, p.provider));
  if (sub != null) {
    // as the contract: the paid count only moves up with the receipt's count
    if (!p.newlyPaid.isZero()) sub.paidRequests = p.answered;
    sub.amountPaid = sub.amountPaid.plus(p.amount);
    sub.updatedAt = event.block.timestamp;
    sub.save();
  }
  earn(p.provider, perCurrency("streamPaid", s.currency), p.amount, event);
  const r = new StreamReceipt(eventId(event));
  r.stream = s.id;
  r.provider = getOrCreateAccount(p.provider, event.block).id;
  r.answered = p.answered;
  r.newlyPaid = p.newlyPaid;
  r.amount = p.amount;
  r.depositAfter = p.deposit;
  stamp(r, event);
  r.save();
  streamTotals(currencyIndex(s.currency), p.amount, false, "streamPaid").save();
  const d = getTaskDay(event);
  d.streamReceipts = d.streamReceipts + 1;
  if (s.currency == "CH") d.streamPaidCh = d.streamPaidCh.plus(p.amount);
  else if (s.currency == "USDC") d.streamPaidUsdc = d.streamPaidUsdc.plus(p.amount);
  else d.streamPaidDps = d.streamPaidDps.plus(p.amount);
  d.save();
}

/** The client reset its stream's failed-consensus count (live again with c subscribers). */
export function handleStreamResumed(event: StreamResumed): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.failures = 0;
  s.status = streamStatusName(p.status);
  s.save();
  const e = streamEvent(event, s, "resumed");
  e.save();
}

/** Governance set the stake each new subscription locks (TSK-08). */
export function handleSubscriptionLockSet(event: SubscriptionLockSet): void {
  const c = config(event.address);
  c.subscriptionLockDps = event.params.lockDps;
  c.registry = event.params.registry;
  c.save();
}

// ─── on-chain consensus (issue 21 item 4) ────────────────────────────────────────────────────────────────

function requestKey(streamId: BigInt, requestId: BigInt): Bytes {
  return idKey(streamId).concatI32(requestId.toI32());
}

function consensusEvent(event: ethereum.Event, s: Stream, kind: string, requestId: BigInt): StreamEvent {
  const e = streamEvent(event, s, kind);
  e.requestId = requestId;
  return e;
}

function config(address: Bytes): StreamTasksConfig {
  let c = StreamTasksConfig.load(address);
  if (c == null) {
    c = new StreamTasksConfig(address);
    c.subscriptionLockDps = ZERO;
    c.registry = Bytes.empty();
    c.slashDps = ZERO;
    c.clientPenaltyBps = 0;
    c.challengeBondRequests = 0;
  }
  return c;
}

/** Governance set the consensus parameters (slash per fault, client penalty, challenge bond). */
export function handleConsensusParamsSet(event: ConsensusParamsSet): void {
  const p = event.params.p;
  const c = config(event.address);
  c.slashDps = p.slashDps;
  c.clientPenaltyBps = p.clientPenaltyBps;
  c.challengeBondRequests = p.challengeBondRequests;
  c.registry = event.params.registry;
  c.save();
}

export function handleRequestOpened(event: RequestOpened): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.requestCount = s.requestCount + 1;
  s.save();
  const q = initStreamRequest(requestKey(p.streamId, p.requestId));
  q.stream = s.id;
  q.requestId = p.requestId;
  q.inputHash = p.inputHash;
  q.council = p.council;
  q.phase = "Answering";
  q.commitEnd = p.commitEnd;
  q.revealEnd = p.revealEnd;
  q.createdAt = event.block.timestamp;
  q.save();
}

export function handleAnswerCommitted(event: AnswerCommitted): void {
  const p = event.params;
  const q = StreamRequest.load(requestKey(p.streamId, p.requestId));
  if (q == null) return;
  q.commits = p.commits;
  q.save();
}

export function handleAnswerRevealed(event: AnswerRevealed): void {
  const p = event.params;
  const q = StreamRequest.load(requestKey(p.streamId, p.requestId));
  if (q == null) return;
  q.reveals = p.reveals;
  q.topWeight = p.topWeight;
  q.revealedWeight = q.revealedWeight.plus(p.weight);
  q.save();
}

/** Optimistic: the first answer is delivered at once; the challenge window runs to `challengeEnd`. */
export function handleAnswerDelivered(event: AnswerDelivered): void {
  const p = event.params;
  const q = StreamRequest.load(requestKey(p.streamId, p.requestId));
  if (q == null) return;
  q.first = p.provider;
  q.answer = p.answer;
  q.revealEnd = p.challengeEnd;
  q.save();
}

export function handleRequestChallenged(event: RequestChallenged): void {
  const p = event.params;
  const q = StreamRequest.load(requestKey(p.streamId, p.requestId));
  if (q == null) return;
  q.phase = "Challenged";
  q.challenger = p.challenger;
  q.bond = p.bond;
  q.commitEnd = p.commitEnd;
  q.revealEnd = p.revealEnd;
  q.save();
  const s = Stream.load(q.stream);
  if (s == null) return;
  const c = getCurrencyStats(currencyIndex(s.currency));
  c.streamBonds = c.streamBonds.plus(p.bond);
  c.save();
}

export function handleRequestResolved(event: RequestResolved): void {
  const p = event.params;
  const q = StreamRequest.load(requestKey(p.streamId, p.requestId));
  if (q == null) return;
  q.phase = "Resolved";
  if (!p.answer.equals(Bytes.fromHexString("0x" + "00".repeat(32)))) q.answer = p.answer;
  q.consensus = p.consensus;
  q.decided = p.decided;
  q.reveals = p.reveals;
  q.topWeight = p.topWeight;
  q.revealedWeight = p.revealedWeight;
  q.resolvedAt = event.block.timestamp;
  q.save();
  const s = Stream.load(q.stream);
  if (s == null) return;
  s.failures = p.failures;
  s.save();
  const e = consensusEvent(event, s, p.consensus ? "resolved" : "resolvedNoConsensus", p.requestId);
  e.value = BigInt.fromI32(p.reveals);
  e.save();
}

export function handleChallengeBondPaid(event: ChallengeBondPaid): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  const c = getCurrencyStats(currencyIndex(s.currency));
  c.streamBonds = c.streamBonds.minus(p.bond);
  c.save();
  const e = consensusEvent(event, s, "bondPaid", p.requestId);
  e.provider = p.to;
  e.value = p.bond;
  e.save();
}

export function handleStreamProviderSlashed(event: StreamProviderSlashed): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.slashedDps = s.slashedDps.plus(p.slashedDps);
  s.save();
  const q = StreamRequest.load(requestKey(p.streamId, p.requestId));
  if (q != null) {
    q.slashes = q.slashes + 1;
    q.slashedDps = q.slashedDps.plus(p.slashedDps);
    q.save();
  }
  const sub = StreamSubscription.load(subKey(s.id, p.provider));
  if (sub != null) {
    sub.slashedDps = sub.slashedDps.plus(p.slashedDps);
    sub.updatedAt = event.block.timestamp;
    sub.save();
  }
  const e = consensusEvent(event, s, "slashed", p.requestId);
  e.provider = p.provider;
  e.value = p.slashedDps;
  e.save();
}

/** A provider claimed proven answers the client left unpaid, plus the client's penalty, from the deposit. */
export function handleUnpaidClaimed(event: UnpaidClaimed): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  const total = p.amount.plus(p.penalty);
  s.deposit = p.deposit;
  s.paid = s.paid.plus(total);
  s.penaltiesPaid = s.penaltiesPaid.plus(p.penalty);
  s.answeredPaid = s.answeredPaid.plus(p.unpaid);
  s.save();
  const sub = StreamSubscription.load(subKey(s.id, p.provider));
  if (sub != null) {
    // as the contract: the paid count becomes the credited count, the paid amount grows by the price part
    sub.credited = p.credited;
    sub.paidRequests = p.credited;
    sub.amountPaid = sub.amountPaid.plus(p.amount);
    sub.claimed = sub.claimed.plus(total);
    sub.updatedAt = event.block.timestamp;
    sub.save();
  }
  earn(p.provider, perCurrency("streamPaid", s.currency), total, event);
  const c = getCurrencyStats(currencyIndex(s.currency));
  c.streamDeposit = c.streamDeposit.minus(total);
  c.streamPaid = c.streamPaid.plus(total);
  c.save();
  const e = streamEvent(event, s, "unpaidClaimed");
  e.provider = p.provider;
  e.value = total;
  e.save();
}

/** TSK-08: a leaving member's lock stays for the requests it is bound to (after its Unsubscribed event). */
export function handleDutyLockHeld(event: DutyLockHeld): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  const sub = StreamSubscription.load(subKey(s.id, p.provider));
  if (sub != null) {
    sub.lockedDps = p.lockedDps;
    sub.lockUntil = p.lockUntil;
    sub.updatedAt = event.block.timestamp;
    sub.save();
  }
  const e = streamEvent(event, s, "lockHeld");
  e.provider = p.provider;
  e.value = p.lockUntil;
  e.save();
}

export function handleDutyLockReleased(event: DutyLockReleased): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  const sub = StreamSubscription.load(subKey(s.id, p.provider));
  if (sub != null) {
    sub.lockedDps = ZERO;
    sub.lockUntil = ZERO;
    sub.updatedAt = event.block.timestamp;
    sub.save();
  }
  const e = streamEvent(event, s, "lockReleased");
  e.provider = p.provider;
  e.value = p.lockedDps;
  e.save();
}
