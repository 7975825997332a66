// Mapping tests of the StreamTasks data source (matchstick-as API; events from generated/factories/StreamTasks.ts).
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  ConsensusFailed,
  ConsensusParamsSet,
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
} from "../generated/StreamTasks/StreamTasks";
import {
  handleAnswerCommitted,
  handleAnswerDelivered,
  handleAnswerRevealed,
  handleChallengeBondPaid,
  handleConsensusParamsSet,
  handleDutyLockHeld,
  handleDutyLockReleased,
  handleRequestChallenged,
  handleRequestOpened,
  handleRequestResolved,
  handleStreamProviderSlashed,
  handleUnpaidClaimed,
  handleConsensusFailed,
  handleReceiptSettled,
  handleSpecUpdated,
  handleStreamFunded,
  handleStreamOpened,
  handleStreamResumed,
  handleStreamRetracted,
  handleStreamWithdrawn,
  handleSubscribed,
  handleSubscriptionLockSet,
  handleUnsubscribed,
} from "../src/mappings/streamTasks";
import { ALICE, BOB, CAROL, DAY, HOUR, T0, wad } from "./helpers";
import { StreamTasksEvents } from "../generated/factories/StreamTasks";

const STREAMS = Address.fromString("0x0000000000000000000000000000000000057ea4");
const USDC = 1;

function uv(x: BigInt): ethereum.Value {
  return ethereum.Value.fromUnsignedBigInt(x);
}
function iv(x: i32): ethereum.Value {
  return ethereum.Value.fromI32(x);
}
function tuple(values: Array<ethereum.Value>): ethereum.Tuple {
  return changetype<ethereum.Tuple>(values);
}
function n(x: i32): BigInt {
  return BigInt.fromI32(x);
}
function key(id: i32): string {
  return Bytes.fromI32(id).toHexString();
}
function stats(currency: i32): string {
  return Bytes.fromUTF8("tasks").concatI32(currency).toHexString();
}
function day(ts: i64): string {
  return Bytes.fromUTF8("tasks")
    .concatI32(<i32>(ts / DAY))
    .toHexString();
}

function subscribed(id: i32, who: Address, price: BigInt, subs: i32, status: i32, ts: i64): void {
  handleSubscribed(new StreamTasksEvents(STREAMS).Subscribed(ts, n(id), who, price, subs, status));
}

function receipt(id: i32, who: Address, answered: i32, fresh: i32, amount: BigInt, deposit: BigInt, ts: i64): void {
  handleReceiptSettled(
    new StreamTasksEvents(STREAMS).ReceiptSettled(ts, n(id), who, n(answered), n(fresh), amount, deposit),
  );
}

describe("StreamTasks", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a weighted USDC stream: live, paid receipts, top-up, interruption, retraction and withdrawal", () => {
    const terms = tuple([
      iv(USDC),
      iv(1),
      iv(2),
      uv(wad(1).div(n(2))),
      uv(n(5000000)),
      iv(2),
      uv(n(1000000000)),
      ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x" + "01".repeat(32))),
      ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x" + "02".repeat(32))),
    ]);
    handleStreamOpened(new StreamTasksEvents(STREAMS).StreamOpened(T0, n(1), ALICE, terms));
    assert.fieldEquals("Stream", key(1), "mode", "Weighted");
    assert.fieldEquals("Stream", key(1), "status", "Open");
    subscribed(1, BOB, n(3000000), 1, 1, T0 + 1);
    subscribed(1, CAROL, n(2000000), 2, 2, T0 + 2);
    assert.fieldEquals("Stream", key(1), "status", "Live");
    // Bob answered 10 requests at 3 USDC: 30 USDC; then a replayed-older receipt is not emitted; then 4 more: 12
    receipt(1, BOB, 10, 10, n(30000000), n(970000000), T0 + HOUR);
    receipt(1, BOB, 14, 4, n(12000000), n(958000000), T0 + DAY + 1);
    receipt(1, CAROL, 5, 5, n(10000000), n(948000000), T0 + DAY + 2);
    assert.fieldEquals("StreamSubscription", Bytes.fromI32(1).concat(BOB).toHexString(), "paidRequests", "14");
    assert.fieldEquals("StreamSubscription", Bytes.fromI32(1).concat(BOB).toHexString(), "amountPaid", "42000000");
    assert.fieldEquals("Stream", key(1), "answeredPaid", "19");
    handleStreamFunded(new StreamTasksEvents(STREAMS).StreamFunded(T0 + DAY + 3, n(1), n(52000000), n(1000000000)));
    handleSpecUpdated(
      new StreamTasksEvents(STREAMS).SpecUpdated(
        T0 + DAY + 4,
        n(1),
        Bytes.fromHexString("0x" + "03".repeat(32)),
        Bytes.fromHexString("0x" + "04".repeat(32)),
        n(1),
      ),
    );
    handleConsensusFailed(new StreamTasksEvents(STREAMS).ConsensusFailed(T0 + DAY + 5, n(1), 1, 2));
    handleUnsubscribed(new StreamTasksEvents(STREAMS).Unsubscribed(T0 + DAY + 6, n(1), CAROL, 1, 3));
    assert.fieldEquals("Stream", key(1), "status", "Interrupted");
    assert.fieldEquals("Stream", key(1), "failures", "1");
    assert.fieldEquals("StreamSubscription", Bytes.fromI32(1).concat(CAROL).toHexString(), "active", "false");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "streamDeposit", "1000000000");
    handleStreamRetracted(
      new StreamTasksEvents(STREAMS).StreamRetracted(T0 + 2 * DAY, n(1), BigInt.fromI64(T0 + 3 * DAY)),
    );
    handleStreamWithdrawn(new StreamTasksEvents(STREAMS).StreamWithdrawn(T0 + 3 * DAY + 1, n(1), n(1000000000)));
    assert.fieldEquals("Stream", key(1), "status", "Closed");
    assert.fieldEquals("Stream", key(1), "deposit", "0");
    assert.fieldEquals("Stream", key(1), "specVersion", "1");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "streamDeposit", "0");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "streamPaid", "52000000");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "streamFunded", "1052000000");
    assert.fieldEquals("TaskDayData", day(T0), "streamsOpened", "1");
    assert.fieldEquals("TaskDayData", day(T0), "streamPaidUsdc", "30000000");
    assert.fieldEquals("TaskDayData", day(T0 + DAY), "streamReceipts", "2");
    assert.fieldEquals("TaskDayData", day(T0 + DAY), "streamPaidUsdc", "22000000");
    assert.entityCount("StreamEvent", 9);
    assert.entityCount("StreamReceipt", 3);
  });

  test("a subscription's stake lock, and the client's resume after failed consensus", () => {
    const ev = new StreamTasksEvents(STREAMS);
    handleSubscriptionLockSet(changetype<SubscriptionLockSet>(ev.SubscriptionLockSet(T0, wad(100), CAROL)));
    const terms = tuple([
      iv(USDC),
      iv(2),
      iv(1),
      uv(n(0)),
      uv(n(5000000)),
      iv(1),
      uv(n(1000000)),
      ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x" + "01".repeat(32))),
      ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x" + "02".repeat(32))),
    ]);
    handleStreamOpened(ev.StreamOpened(T0, n(2), ALICE, terms));
    subscribed(2, BOB, n(1000000), 1, 2, T0 + 1);
    const sub = Bytes.fromI32(2).concat(BOB).toHexString();
    assert.fieldEquals("StreamSubscription", sub, "lockedDps", wad(100).toString());
    handleConsensusFailed(ev.ConsensusFailed(T0 + 2, n(2), 1, 3));
    // leaving and re-joining keeps the count (the contract no longer resets it)
    handleUnsubscribed(ev.Unsubscribed(T0 + 3, n(2), BOB, 0, 3));
    assert.fieldEquals("StreamSubscription", sub, "lockedDps", "0");
    subscribed(2, BOB, n(1000000), 1, 3, T0 + 4);
    assert.fieldEquals("Stream", key(2), "failures", "1");
    assert.fieldEquals("Stream", key(2), "status", "Interrupted");
    handleStreamResumed(changetype<StreamResumed>(ev.StreamResumed(T0 + 5, n(2), 2)));
    assert.fieldEquals("Stream", key(2), "failures", "0");
    assert.fieldEquals("Stream", key(2), "status", "Live");
    // a receipt with a higher amount but no new answers keeps the paid count
    receipt(2, BOB, 3, 3, n(3000000), n(997000000), T0 + 6);
    receipt(2, BOB, 3, 0, n(500000), n(996500000), T0 + 7);
    assert.fieldEquals("StreamSubscription", sub, "paidRequests", "3");
    assert.fieldEquals("StreamSubscription", sub, "amountPaid", "3500000");
  });

  test("on-chain consensus: a challenged optimistic request, a slash, a claim of unpaid answers and a held lock", () => {
    const ev = new StreamTasksEvents(STREAMS);
    handleSubscriptionLockSet(changetype<SubscriptionLockSet>(ev.SubscriptionLockSet(T0, wad(100), CAROL)));
    const params = tuple([
      uv(n(600)),
      uv(n(600)),
      uv(n(3600)),
      uv(n(86400)),
      uv(n(86400)),
      iv(5000),
      iv(10),
      uv(wad(100)),
    ]);
    handleConsensusParamsSet(changetype<ConsensusParamsSet>(ev.ConsensusParamsSet(T0, params, CAROL)));
    assert.fieldEquals("StreamTasksConfig", STREAMS.toHexString(), "clientPenaltyBps", "5000");
    assert.fieldEquals("StreamTasksConfig", STREAMS.toHexString(), "subscriptionLockDps", wad(100).toString());
    const terms = tuple([
      iv(USDC),
      iv(0),
      iv(2),
      uv(n(0)),
      uv(n(2000000)),
      iv(3),
      uv(n(1000000000)),
      ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x" + "01".repeat(32))),
      ethereum.Value.fromFixedBytes(Bytes.fromHexString("0x" + "02".repeat(32))),
    ]);
    handleStreamOpened(ev.StreamOpened(T0, n(3), ALICE, terms));
    subscribed(3, BOB, n(1000000), 1, 1, T0 + 1);
    subscribed(3, CAROL, n(1000000), 2, 2, T0 + 2);
    const prompt = Bytes.fromHexString("0x" + "0a".repeat(32));
    const wrong = Bytes.fromHexString("0x" + "0b".repeat(32));
    const right = Bytes.fromHexString("0x" + "0c".repeat(32));
    handleRequestOpened(ev.RequestOpened(T0 + 10, n(3), n(1), prompt, 2, BigInt.fromI64(T0 + 610), n(0)));
    const q = Bytes.fromI32(3).concatI32(1).toHexString();
    assert.fieldEquals("StreamRequest", q, "phase", "Answering");
    assert.fieldEquals("Stream", key(3), "requestCount", "1");
    handleAnswerDelivered(ev.AnswerDelivered(T0 + 20, n(3), n(1), BOB, wrong, BigInt.fromI64(T0 + 3620)));
    assert.fieldEquals("StreamRequest", q, "answer", wrong.toHexString());
    handleRequestChallenged(
      ev.RequestChallenged(
        T0 + 30,
        n(3),
        n(1),
        ALICE,
        n(20000000),
        BigInt.fromI64(T0 + 630),
        BigInt.fromI64(T0 + 1230),
      ),
    );
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "streamBonds", "20000000");
    handleAnswerCommitted(ev.AnswerCommitted(T0 + 40, n(3), n(1), CAROL, 1));
    handleAnswerRevealed(ev.AnswerRevealed(T0 + 50, n(3), n(1), CAROL, right, n(1), 1, right, n(1)));
    handleRequestResolved(ev.RequestResolved(T0 + 60, n(3), n(1), right, true, true, 1, n(1), n(1), 0));
    handleChallengeBondPaid(ev.ChallengeBondPaid(T0 + 60, n(3), n(1), ALICE, n(20000000)));
    assert.fieldEquals("StreamRequest", q, "phase", "Resolved");
    assert.fieldEquals("StreamRequest", q, "answer", right.toHexString());
    assert.fieldEquals("StreamRequest", q, "consensus", "true");
    assert.fieldEquals("StreamRequest", q, "commits", "1");
    assert.fieldEquals("StreamRequest", q, "revealedWeight", "1");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "streamBonds", "0");
    handleStreamProviderSlashed(ev.StreamProviderSlashed(T0 + 70, n(3), n(1), BOB, wad(100), CAROL));
    assert.fieldEquals("StreamRequest", q, "slashes", "1");
    assert.fieldEquals("Stream", key(3), "slashedDps", wad(100).toString());
    const carol = Bytes.fromI32(3).concat(CAROL).toHexString();
    assert.fieldEquals(
      "StreamSubscription",
      Bytes.fromI32(3).concat(BOB).toHexString(),
      "slashedDps",
      wad(100).toString(),
    );
    // Carol's proven answer went unpaid: 1 USDC plus the 50 % penalty from the deposit
    handleUnpaidClaimed(
      ev.UnpaidClaimed(T0 + DAY + 2000, n(3), CAROL, n(1), n(1), n(1000000), n(500000), n(998500000)),
    );
    assert.fieldEquals("Stream", key(3), "deposit", "998500000");
    assert.fieldEquals("Stream", key(3), "penaltiesPaid", "500000");
    assert.fieldEquals("StreamSubscription", carol, "claimed", "1500000");
    assert.fieldEquals("StreamSubscription", carol, "paidRequests", "1");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "streamDeposit", "998500000");
    // Carol leaves with a duty still slashable: the lock is held, then released
    handleUnsubscribed(ev.Unsubscribed(T0 + DAY + 3000, n(3), CAROL, 1, 3));
    handleDutyLockHeld(ev.DutyLockHeld(T0 + DAY + 3000, n(3), CAROL, wad(100), BigInt.fromI64(T0 + 2 * DAY)));
    assert.fieldEquals("StreamSubscription", carol, "lockedDps", wad(100).toString());
    assert.fieldEquals("StreamSubscription", carol, "active", "false");
    handleDutyLockReleased(ev.DutyLockReleased(T0 + 2 * DAY + 1, n(3), CAROL, wad(100)));
    assert.fieldEquals("StreamSubscription", carol, "lockedDps", "0");
    assert.fieldEquals("StreamSubscription", carol, "lockUntil", "0");
  });
});
