import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
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
  ResultCommitted,
  TaskClosed,
  TaskFinalized,
  TaskSubmitted,
  Voted,
} from "../generated/TaskRegistry/TaskRegistry";
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
} from "../generated/StreamTasks/StreamTasks";
import {
  handleBiddingSealed,
  handleBidPlaced,
  handleBidWithdrawn,
  handleCouncilDrawn,
  handleCouncilFeeClaimed,
  handleDisputeOpened,
  handleExecutorSelected,
  handleFaultSlashed,
  handleParamsSet,
  handleRedemptionFailed,
  handleReplenishmentDeferred,
  handleReplenishmentFlushed,
  handleResultCommitted,
  handleTaskClosed,
  handleTaskFinalized,
  handleTaskSubmitted,
  handleVoted,
} from "../src/mappings/taskRegistry";
import {
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
import {
  addressParam,
  ALICE,
  BOB,
  boolParam,
  bytesParam,
  CAROL,
  DAY,
  HOUR,
  i32Param,
  mockEvent,
  T0,
  uintParam,
  wad,
} from "./helpers";

const REG = Address.fromString("0x0000000000000000000000000000000000007a5c");
const STREAMS = Address.fromString("0x0000000000000000000000000000000000057ea4");
const EXEC = Address.fromString("0x000000000000000000000000000000000000e8ec");
const M1 = Address.fromString("0x0000000000000000000000000000000000000c01");
const M2 = Address.fromString("0x0000000000000000000000000000000000000c02");
const M3 = Address.fromString("0x0000000000000000000000000000000000000c03");
const CH = 0;
const USDC = 1;
const DPS = 2;

function uv(x: BigInt): ethereum.Value {
  return ethereum.Value.fromUnsignedBigInt(x);
}
function iv(x: i32): ethereum.Value {
  return ethereum.Value.fromI32(x);
}
function tuple(values: Array<ethereum.Value>): ethereum.Value {
  return ethereum.Value.fromTuple(changetype<ethereum.Tuple>(values));
}
function n(x: i32): BigInt {
  return BigInt.fromI32(x);
}
function key(id: i32): string {
  return Bytes.fromI32(id).toHexString();
}
function member(id: i32, a: Address): string {
  return Bytes.fromI32(id).concat(a).toHexString();
}
function stats(currency: i32): string {
  return Bytes.fromUTF8("tasks").concatI32(currency).toHexString();
}
function day(ts: i64): string {
  return Bytes.fromUTF8("tasks")
    .concatI32(<i32>(ts / DAY))
    .toHexString();
}

/** The deployed defaults: fee 1 %, DPS discount 10 %, replenish 20 %, 7 members, 1 day to vote, 3 days to dispute, 100 DPS slash. */
function params(ts: i64): void {
  const p = tuple([
    iv(100),
    iv(1000),
    iv(2000),
    iv(7),
    iv(64),
    uv(n(86400)),
    uv(n(3 * 86400)),
    uv(n(86400)),
    uv(wad(100)),
  ]);
  handleParamsSet(changetype<ParamsSet>(mockEvent(REG, ts, [new ethereum.EventParam("params", p)])));
}

function submit(id: i32, currency: i32, council: i32, quorum: i32, maxPayment: BigInt, ts: i64): void {
  const terms = tuple([
    iv(currency),
    iv(0),
    iv(council),
    iv(quorum),
    iv(1),
    iv(0),
    iv(1),
    iv(0),
    uv(n(3600)),
    uv(BigInt.fromI64(ts + 2 * DAY)),
    uv(maxPayment),
    uv(wad(1)),
    uv(n(0)),
  ]);
  const h = Bytes.fromHexString("0x" + "d1".repeat(32));
  const pr = tuple([
    ethereum.Value.fromFixedBytes(h),
    ethereum.Value.fromFixedBytes(h),
    ethereum.Value.fromFixedBytes(h),
    ethereum.Value.fromFixedBytes(h),
    ethereum.Value.fromFixedBytes(h),
    ethereum.Value.fromString("ipfs://task"),
  ]);
  handleTaskSubmitted(
    changetype<TaskSubmitted>(
      mockEvent(REG, ts, [
        uintParam("taskId", n(id)),
        addressParam("client", ALICE),
        new ethereum.EventParam("terms", terms),
        new ethereum.EventParam("prescription", pr),
        bytesParam("prescriptionHash", Bytes.fromHexString("0x" + "e2".repeat(32))),
        uintParam("biddingEnds", BigInt.fromI64(ts + 3600)),
      ]),
    ),
  );
}

function bid(id: i32, who: Address, price: BigInt, count: i32, ts: i64): void {
  handleBidPlaced(
    changetype<BidPlaced>(
      mockEvent(REG, ts, [
        uintParam("taskId", n(id)),
        addressParam("provider", who),
        uintParam("price", price),
        uintParam("bidCount", n(count)),
      ]),
    ),
  );
}

function select(id: i32, price: BigInt, assignment: i32, ts: i64): void {
  handleExecutorSelected(
    changetype<ExecutorSelected>(
      mockEvent(REG, ts, [
        uintParam("taskId", n(id)),
        addressParam("executor", EXEC),
        uintParam("price", price),
        uintParam("targetBlock", n(2000)),
        uintParam("assignmentId", n(assignment)),
      ]),
    ),
  );
}

function council(id: i32, round: i32, members: Address[], quorum: i32, ts: i64): void {
  handleCouncilDrawn(
    changetype<CouncilDrawn>(
      mockEvent(REG, ts, [
        uintParam("taskId", n(id)),
        i32Param("round", round),
        new ethereum.EventParam("members", ethereum.Value.fromAddressArray(members)),
        uintParam("quorum", n(quorum)),
        bytesParam("seed", Bytes.fromHexString("0x" + "5e".repeat(32))),
      ]),
    ),
  );
}

function commitFinal(id: i32, ts: i64): void {
  handleResultCommitted(
    changetype<ResultCommitted>(
      mockEvent(REG, ts, [
        uintParam("taskId", n(id)),
        i32Param("checkpoint", 0),
        bytesParam("resultHash", Bytes.fromHexString("0x" + "aa".repeat(32))),
        boolParam("isFinal", true),
        uintParam("votingEnds", BigInt.fromI64(ts + DAY)),
      ]),
    ),
  );
}

function vote(id: i32, who: Address, round: i32, agree: boolean, a: i32, d: i32, ts: i64): void {
  handleVoted(
    changetype<Voted>(
      mockEvent(REG, ts, [
        uintParam("taskId", n(id)),
        addressParam("member", who),
        i32Param("round", round),
        boolParam("agree", agree),
        i32Param("agreeCount", a),
        i32Param("disagreeCount", d),
      ]),
    ),
  );
}

function finalized(id: i32, status: i32, paid: BigInt, council: BigInt, refund: BigInt, repl: BigInt, ts: i64): void {
  handleTaskFinalized(
    changetype<TaskFinalized>(
      mockEvent(REG, ts, [
        uintParam("taskId", n(id)),
        i32Param("status", status),
        uintParam("executorPaid", paid),
        uintParam("councilPaid", council),
        uintParam("refunded", refund),
        uintParam("replenishedDps", repl),
      ]),
    ),
  );
}

function slashed(id: i32, who: Address, amount: BigInt, ts: i64): void {
  handleFaultSlashed(
    changetype<FaultSlashed>(
      mockEvent(REG, ts, [uintParam("taskId", n(id)), addressParam("provider", who), uintParam("slashedDps", amount)]),
    ),
  );
}

function closed(id: i32, status: i32, refund: BigInt, ts: i64): void {
  handleTaskClosed(
    changetype<TaskClosed>(
      mockEvent(REG, ts, [
        uintParam("taskId", n(id)),
        i32Param("status", status),
        addressParam("by", CAROL),
        uintParam("refunded", refund),
      ]),
    ),
  );
}

describe("TaskRegistry", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a DPS task accepted by its council: escrow, executor share, pool share, fees, claims, day data", () => {
    params(T0);
    submit(1, DPS, 3, 2, wad(100), T0 + 10);
    bid(1, EXEC, wad(50), 1, T0 + 20);
    bid(1, BOB, wad(60), 2, T0 + 30);
    assert.fieldEquals("Task", key(1), "lowestBid", wad(50).toString());
    select(1, wad(50), 0, T0 + HOUR + 1);
    // fee = min(50 × 1 % = 0.5, (100 − 50) / (3·3 + 1) = 5) = 0.5 DPS
    assert.fieldEquals("Task", key(1), "councilFee", wad(1).div(n(2)).toString());
    assert.fieldEquals("Task", key(1), "status", "Running");
    council(1, 0, [M1, M2, M3], 2, T0 + HOUR + 30);
    commitFinal(1, T0 + 2 * HOUR);
    assert.fieldEquals("Task", key(1), "status", "Verifying");
    vote(1, M1, 0, true, 1, 0, T0 + 3 * HOUR);
    vote(1, M2, 0, false, 1, 1, T0 + 3 * HOUR);
    vote(1, M3, 0, true, 2, 1, T0 + 3 * HOUR);
    // cost = ceil(50 × 0.9) = 45, of which 20 % (9) returns to the pool, 36 to the executor; 2 fees of 0.5 reserved;
    // refund = 100 − 1 − 45 = 54
    finalized(1, 5, wad(36), wad(1), wad(54), wad(9), T0 + 4 * HOUR);
    assert.fieldEquals("Task", key(1), "status", "Accepted");
    assert.fieldEquals("Task", key(1), "escrow", wad(1).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(DPS), "escrow", wad(1).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(DPS), "replenished", wad(9).toString());
    assert.fieldEquals("TaskCouncilMember", member(1, M1), "withVerdict", "true");
    assert.fieldEquals("TaskCouncilMember", member(1, M2), "withVerdict", "false");
    handleCouncilFeeClaimed(
      changetype<CouncilFeeClaimed>(
        mockEvent(REG, T0 + 5 * HOUR, [
          uintParam("taskId", n(1)),
          addressParam("member", M1),
          uintParam("fee", wad(1).div(n(2))),
          uintParam("escrowLeft", wad(1).div(n(2))),
        ]),
      ),
    );
    assert.fieldEquals("TaskCurrencyStats", stats(DPS), "escrow", wad(1).div(n(2)).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(DPS), "councilClaimed", wad(1).div(n(2)).toString());
    assert.fieldEquals("TaskCouncilMember", member(1, M1), "feeClaimed", wad(1).div(n(2)).toString());
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "accepted", "1");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "voteCount", "3");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "dpsReplenished", wad(9).toString());
    assert.fieldEquals("TaskDayData", day(T0), "tasksSubmitted", "1");
    assert.fieldEquals("TaskDayData", day(T0), "bids", "2");
    assert.fieldEquals("TaskDayData", day(T0), "executorPaidDps", wad(36).toString());
    assert.fieldEquals("TaskDayData", day(T0), "councilFeesClaimedDps", wad(1).div(n(2)).toString());
    assert.entityCount("TaskVote", 3);
    assert.entityCount("TaskBid", 2);
  });

  test("a CH redemption disputed and rejected: council slash, failed redemption; cancelled and expired tasks", () => {
    params(T0);
    submit(1, CH, 1, 1, wad(10), T0);
    select(1, wad(8), 7, T0 + HOUR + 1);
    assert.fieldEquals("Task", key(1), "redemption", Bytes.fromI32(7).toHexString());
    // fee = min(8 × 1 % = 0.08, (10 − 8) / 4 = 0.5) = 0.08 CH
    assert.fieldEquals("Task", key(1), "councilFee", wad(8).div(n(100)).toString());
    council(1, 0, [M1], 1, T0 + HOUR + 20);
    commitFinal(1, T0 + 2 * HOUR);
    vote(1, M1, 0, true, 1, 0, T0 + 2 * HOUR + 1);
    handleDisputeOpened(
      changetype<DisputeOpened>(
        mockEvent(REG, T0 + 2 * HOUR + 2, [
          uintParam("taskId", n(1)),
          addressParam("by", CAROL),
          uintParam("targetBlock", n(3000)),
        ]),
      ),
    );
    assert.fieldEquals("Task", key(1), "status", "Disputed");
    assert.fieldEquals("Task", key(1), "round", "1");
    assert.fieldEquals("Task", key(1), "agree", "0");
    assert.fieldEquals("Task", key(1), "votingEnds", BigInt.fromI64(T0 + 2 * HOUR + 2 + 3 * DAY).toString());
    council(1, 1, [M2, M3, BOB], 2, T0 + 3 * HOUR);
    vote(1, M2, 1, false, 0, 1, T0 + 3 * HOUR);
    vote(1, M3, 1, false, 0, 2, T0 + 3 * HOUR);
    // the first-round member who agreed is found wrong and slashed before TaskFinalized
    slashed(1, M1, wad(100), T0 + 4 * HOUR);
    // rejected: winners 2 × 0.08 reserved, the rest (9.84) refunded
    finalized(1, 6, BigInt.zero(), wad(16).div(n(100)), wad(984).div(n(100)), BigInt.zero(), T0 + 4 * HOUR);
    assert.fieldEquals("Task", key(1), "status", "Rejected");
    assert.fieldEquals("TaskCurrencyStats", stats(CH), "escrow", wad(16).div(n(100)).toString());
    assert.fieldEquals("TaskCouncilMember", member(1, M1), "slashedDps", wad(100).toString());
    assert.fieldEquals("TaskCouncilMember", member(1, M1), "withVerdict", "false");
    assert.fieldEquals("TaskCouncilMember", member(1, M3), "withVerdict", "true");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "chRedeemed", "0");
    handleRedemptionFailed(
      changetype<RedemptionFailed>(
        mockEvent(REG, T0 + 3 * DAY, [
          uintParam("taskId", n(1)),
          uintParam("assignmentId", n(7)),
          uintParam("compensationDps", wad(22)),
        ]),
      ),
    );
    assert.fieldEquals("Task", key(1), "assignmentId", "0");
    assert.fieldEquals("Task", key(1), "redemptionFailed", "true");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "redemptionCompensationDps", wad(22).toString());

    // a USDC task without bids is cancelled, another expires and its executor is slashed
    submit(2, USDC, 1, 1, n(5000000), T0 + DAY);
    closed(2, 8, n(5000000), T0 + DAY + HOUR + 1);
    submit(3, USDC, 1, 1, n(7000000), T0 + DAY);
    select(3, n(6000000), 0, T0 + DAY + HOUR + 1);
    closed(3, 7, n(7000000), T0 + 3 * DAY + 1);
    slashed(3, EXEC, wad(100), T0 + 3 * DAY + 1);
    assert.fieldEquals("Task", key(2), "status", "Cancelled");
    assert.fieldEquals("Task", key(3), "status", "Expired");
    assert.fieldEquals("Task", key(3), "escrow", "0");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", "0");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "refunded", "12000000");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "slashCount", "2");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "slashedDps", wad(200).toString());
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "cancelled", "1");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "expired", "1");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "taskCount", "3");
    assert.fieldEquals("TaskDayData", day(T0 + 3 * DAY), "tasksExpired", "1");
    assert.fieldEquals("TaskDayData", day(T0 + 3 * DAY), "slashedDps", wad(100).toString());
    assert.entityCount("TaskSlash", 2);
  });

  test("an accepted CH task counts as CH redeemed", () => {
    params(T0);
    submit(1, CH, 1, 1, wad(10), T0);
    select(1, wad(8), 3, T0 + HOUR + 1);
    council(1, 0, [M1], 1, T0 + HOUR + 20);
    commitFinal(1, T0 + 2 * HOUR);
    vote(1, M1, 0, true, 1, 0, T0 + 2 * HOUR + 1);
    // 8 CH burned against the liability, one fee of 0.08 reserved, 1.92 refunded
    finalized(1, 5, wad(8), wad(8).div(n(100)), wad(192).div(n(100)), BigInt.zero(), T0 + 3 * HOUR);
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "chRedeemed", wad(8).toString());
    assert.fieldEquals("TaskDayData", day(T0), "chRedeemed", wad(8).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(CH), "executorPaid", wad(8).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(CH), "escrow", wad(8).div(n(100)).toString());
  });
});

describe("TaskRegistry: issue 17 events", () => {
  beforeEach(() => {
    clearStore();
  });

  test("sealing, a withdrawn bid, a deferred and flushed replenishment, and an unresolved dispute", () => {
    params(T0);
    submit(7, USDC, 1, 1, n(100000000), T0);
    bid(7, BOB, n(60000000), 1, T0 + 1);
    handleBidWithdrawn(
      changetype<BidWithdrawn>(
        mockEvent(REG, T0 + 2, [uintParam("taskId", n(7)), addressParam("provider", BOB), i32Param("index", 0)]),
      ),
    );
    handleBiddingSealed(
      changetype<BiddingSealed>(
        mockEvent(REG, T0 + 3601, [
          uintParam("taskId", n(7)),
          uintParam("targetBlock", n(1234)),
          uintParam("candidates", n(9)),
        ]),
      ),
    );
    assert.fieldEquals("Task", key(7), "targetBlock", "1234");
    assert.fieldEquals("Task", key(7), "status", "Bidding");
    assert.entityCount("TaskEvent", 2);
    handleReplenishmentDeferred(
      changetype<ReplenishmentDeferred>(
        mockEvent(REG, T0 + 3602, [uintParam("amountDps", wad(9)), uintParam("backlogDps", wad(12))]),
      ),
    );
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "replenishBacklog", wad(12).toString());
    handleReplenishmentFlushed(
      changetype<ReplenishmentFlushed>(mockEvent(REG, T0 + 3603, [uintParam("amountDps", wad(12))])),
    );
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "replenishBacklog", "0");
    // a disputed task nobody decided: status 9 Unresolved, full refund, counted apart from cancellations
    submit(8, USDC, 1, 1, n(50000000), T0 + 3604);
    closed(8, 9, n(50000000), T0 + 10 * DAY);
    assert.fieldEquals("Task", key(8), "status", "Unresolved");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "unresolved", "1");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "cancelled", "0");
  });
});

function subscribed(id: i32, who: Address, price: BigInt, subs: i32, status: i32, ts: i64): void {
  handleSubscribed(
    changetype<Subscribed>(
      mockEvent(STREAMS, ts, [
        uintParam("streamId", n(id)),
        addressParam("provider", who),
        uintParam("price", price),
        i32Param("subscribers", subs),
        i32Param("status", status),
      ]),
    ),
  );
}

function receipt(id: i32, who: Address, answered: i32, fresh: i32, amount: BigInt, deposit: BigInt, ts: i64): void {
  handleReceiptSettled(
    changetype<ReceiptSettled>(
      mockEvent(STREAMS, ts, [
        uintParam("streamId", n(id)),
        addressParam("provider", who),
        uintParam("answered", n(answered)),
        uintParam("newlyPaid", n(fresh)),
        uintParam("amount", amount),
        uintParam("deposit", deposit),
      ]),
    ),
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
    handleStreamOpened(
      changetype<StreamOpened>(
        mockEvent(STREAMS, T0, [
          uintParam("streamId", n(1)),
          addressParam("client", ALICE),
          new ethereum.EventParam("terms", terms),
        ]),
      ),
    );
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
    handleStreamFunded(
      changetype<StreamFunded>(
        mockEvent(STREAMS, T0 + DAY + 3, [
          uintParam("streamId", n(1)),
          uintParam("amount", n(52000000)),
          uintParam("deposit", n(1000000000)),
        ]),
      ),
    );
    handleSpecUpdated(
      changetype<SpecUpdated>(
        mockEvent(STREAMS, T0 + DAY + 4, [
          uintParam("streamId", n(1)),
          bytesParam("inputHash", Bytes.fromHexString("0x" + "03".repeat(32))),
          bytesParam("fnHash", Bytes.fromHexString("0x" + "04".repeat(32))),
          uintParam("specVersion", n(1)),
        ]),
      ),
    );
    handleConsensusFailed(
      changetype<ConsensusFailed>(
        mockEvent(STREAMS, T0 + DAY + 5, [uintParam("streamId", n(1)), i32Param("failures", 1), i32Param("status", 2)]),
      ),
    );
    handleUnsubscribed(
      changetype<Unsubscribed>(
        mockEvent(STREAMS, T0 + DAY + 6, [
          uintParam("streamId", n(1)),
          addressParam("provider", CAROL),
          i32Param("subscribers", 1),
          i32Param("status", 3),
        ]),
      ),
    );
    assert.fieldEquals("Stream", key(1), "status", "Interrupted");
    assert.fieldEquals("Stream", key(1), "failures", "1");
    assert.fieldEquals("StreamSubscription", Bytes.fromI32(1).concat(CAROL).toHexString(), "active", "false");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "streamDeposit", "1000000000");
    handleStreamRetracted(
      changetype<StreamRetracted>(
        mockEvent(STREAMS, T0 + 2 * DAY, [
          uintParam("streamId", n(1)),
          uintParam("closesAt", BigInt.fromI64(T0 + 3 * DAY)),
        ]),
      ),
    );
    handleStreamWithdrawn(
      changetype<StreamWithdrawn>(
        mockEvent(STREAMS, T0 + 3 * DAY + 1, [uintParam("streamId", n(1)), uintParam("amount", n(1000000000))]),
      ),
    );
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
    handleSubscriptionLockSet(
      changetype<SubscriptionLockSet>(
        mockEvent(STREAMS, T0, [uintParam("lockDps", wad(100)), addressParam("registry", CAROL)]),
      ),
    );
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
    handleStreamOpened(
      changetype<StreamOpened>(
        mockEvent(STREAMS, T0, [
          uintParam("streamId", n(2)),
          addressParam("client", ALICE),
          new ethereum.EventParam("terms", terms),
        ]),
      ),
    );
    subscribed(2, BOB, n(1000000), 1, 2, T0 + 1);
    const sub = Bytes.fromI32(2).concat(BOB).toHexString();
    assert.fieldEquals("StreamSubscription", sub, "lockedDps", wad(100).toString());
    handleConsensusFailed(
      changetype<ConsensusFailed>(
        mockEvent(STREAMS, T0 + 2, [uintParam("streamId", n(2)), i32Param("failures", 1), i32Param("status", 3)]),
      ),
    );
    // leaving and re-joining keeps the count (the contract no longer resets it)
    handleUnsubscribed(
      changetype<Unsubscribed>(
        mockEvent(STREAMS, T0 + 3, [
          uintParam("streamId", n(2)),
          addressParam("provider", BOB),
          i32Param("subscribers", 0),
          i32Param("status", 3),
        ]),
      ),
    );
    assert.fieldEquals("StreamSubscription", sub, "lockedDps", "0");
    subscribed(2, BOB, n(1000000), 1, 3, T0 + 4);
    assert.fieldEquals("Stream", key(2), "failures", "1");
    assert.fieldEquals("Stream", key(2), "status", "Interrupted");
    handleStreamResumed(
      changetype<StreamResumed>(mockEvent(STREAMS, T0 + 5, [uintParam("streamId", n(2)), i32Param("status", 2)])),
    );
    assert.fieldEquals("Stream", key(2), "failures", "0");
    assert.fieldEquals("Stream", key(2), "status", "Live");
    // a receipt with a higher amount but no new answers keeps the paid count
    receipt(2, BOB, 3, 3, n(3000000), n(997000000), T0 + 6);
    receipt(2, BOB, 3, 0, n(500000), n(996500000), T0 + 7);
    assert.fieldEquals("StreamSubscription", sub, "paidRequests", "3");
    assert.fieldEquals("StreamSubscription", sub, "amountPaid", "3500000");
  });
});
