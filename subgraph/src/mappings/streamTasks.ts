// StreamTasks: streams, subscriptions and settled receipts (stream payments). The deposit is the events'
// post-state; per-currency totals give Σ deposits = the StreamTasks balance of each token.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  ConsensusFailed,
  ReceiptSettled,
  SpecUpdated,
  StreamFunded,
  StreamOpened,
  StreamResumed,
  StreamRetracted,
  StreamWithdrawn,
  Subscribed,
  SubscriptionLockSet,
  Unsubscribed,
} from "../../generated/StreamTasks/StreamTasks";
import { Stream, StreamEvent, StreamReceipt, StreamSubscription, StreamTasksConfig } from "../../generated/schema";
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
import { initStream, initStreamSubscription } from "../../generated/defaults";
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
  const c = getCurrencyStats(t.currency);
  c.streamDeposit = c.streamDeposit.plus(t.deposit);
  c.streamFunded = c.streamFunded.plus(t.deposit);
  c.streamCount = c.streamCount + 1;
  c.save();
  const e = streamEvent(event, s, "opened");
  e.value = t.deposit;
  e.save();
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
  const e = streamEvent(event, s, "specUpdated");
  e.value = p.specVersion;
  e.save();
}

export function handleConsensusFailed(event: ConsensusFailed): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.failures = p.failures;
  s.status = streamStatusName(p.status);
  s.save();
  const e = streamEvent(event, s, "consensusFailed");
  e.value = BigInt.fromI32(p.failures);
  e.save();
}

export function handleStreamFunded(event: StreamFunded): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.deposit = p.deposit;
  s.funded = s.funded.plus(p.amount);
  s.save();
  const c = getCurrencyStats(currencyIndex(s.currency));
  c.streamDeposit = c.streamDeposit.plus(p.amount);
  c.streamFunded = c.streamFunded.plus(p.amount);
  c.save();
  const e = streamEvent(event, s, "funded");
  e.value = p.amount;
  e.save();
}

export function handleStreamRetracted(event: StreamRetracted): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.status = "Closed";
  s.closesAt = p.closesAt;
  s.save();
  const e = streamEvent(event, s, "retracted");
  e.value = p.closesAt;
  e.save();
}

export function handleStreamWithdrawn(event: StreamWithdrawn): void {
  const p = event.params;
  const s = Stream.load(idKey(p.streamId));
  if (s == null) return;
  s.deposit = ZERO;
  s.withdrawn = s.withdrawn.plus(p.amount);
  s.save();
  const c = getCurrencyStats(currencyIndex(s.currency));
  c.streamDeposit = c.streamDeposit.minus(p.amount);
  c.streamWithdrawn = c.streamWithdrawn.plus(p.amount);
  c.save();
  const e = streamEvent(event, s, "withdrawn");
  e.value = p.amount;
  e.save();
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
  const c = getCurrencyStats(currencyIndex(s.currency));
  c.streamDeposit = c.streamDeposit.minus(p.amount);
  c.streamPaid = c.streamPaid.plus(p.amount);
  c.save();
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
  let c = StreamTasksConfig.load(event.address);
  if (c == null) c = new StreamTasksConfig(event.address);
  c.subscriptionLockDps = event.params.lockDps;
  c.registry = event.params.registry;
  c.save();
}
