// Mapping tests of the TaskRegistry data source (matchstick-as API; events from generated/factories/TaskRegistry.ts).
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
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
  ResultCommitted,
  TaskClosed,
  TaskFinalized,
  TaskPriced,
  TaskSubmitted,
  ResultRevealed,
  KeeperBountyPaid,
  SilentMemberSlashed,
} from "../generated/TaskRegistry/TaskRegistry";
import {
  handleAppealOpened,
  handleAppealSettled,
  handleAppealWindowClosed,
  handleBisectionEnded,
  handleBisectionMoved,
  handleBisectionNarrowed,
  handleBisectionOpened,
  handleChainCommitted,
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
  handleTaskPriced,
  handleTaskSubmitted,
  handleResultRevealed,
  handleKeeperBountyPaid,
  handleSilentMemberSlashed,
} from "../src/mappings/taskRegistry";
import { ALICE, BOB, CAROL, DAY, HOUR, lastEventId, T0, wad } from "./helpers";
import { TaskRegistryEvents } from "../generated/factories/TaskRegistry";

const REG = Address.fromString("0x0000000000000000000000000000000000007a5c");
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
function tuple(values: Array<ethereum.Value>): ethereum.Tuple {
  return changetype<ethereum.Tuple>(values);
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
  handleParamsSet(new TaskRegistryEvents(REG).ParamsSet(ts, p));
}

function submit(id: i32, currency: i32, council: i32, quorum: i32, maxPayment: BigInt, ts: i64): void {
  submitPaying(id, currency, council, quorum, maxPayment, n(0), ts);
}

/** `submit` with a payment function word (`Terms.paymentParams`, issue 21 item 5). */
function submitPaying(
  id: i32,
  currency: i32,
  council: i32,
  quorum: i32,
  maxPayment: BigInt,
  payment: BigInt,
  ts: i64,
): void {
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
    uv(payment),
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
    new TaskRegistryEvents(REG).TaskSubmitted(
      ts,
      n(id),
      ALICE,
      terms,
      pr,
      Bytes.fromHexString("0x" + "e2".repeat(32)),
      BigInt.fromI64(ts + 3600),
    ),
  );
}

function bid(id: i32, who: Address, price: BigInt, count: i32, ts: i64): void {
  handleBidPlaced(new TaskRegistryEvents(REG).BidPlaced(ts, n(id), who, price, n(count)));
}

function select(id: i32, price: BigInt, assignment: i32, ts: i64): void {
  handleExecutorSelected(new TaskRegistryEvents(REG).ExecutorSelected(ts, n(id), EXEC, price, n(2000), n(assignment)));
}

function council(id: i32, round: i32, members: Address[], quorum: i32, ts: i64): void {
  handleCouncilDrawn(
    new TaskRegistryEvents(REG).CouncilDrawn(
      ts,
      n(id),
      round,
      members,
      n(quorum),
      Bytes.fromHexString("0x" + "5e".repeat(32)),
    ),
  );
}

function commitFinal(id: i32, ts: i64): void {
  handleResultCommitted(
    new TaskRegistryEvents(REG).ResultCommitted(
      ts,
      n(id),
      0,
      Bytes.fromHexString("0x" + "aa".repeat(32)),
      true,
      BigInt.fromI64(ts + DAY),
    ),
  );
}

/** A council member's reveal (commit–reveal): `agree` = it revealed the executor's result. */
function vote(id: i32, who: Address, round: i32, agree: boolean, a: i32, d: i32, ts: i64): void {
  const result = Bytes.fromHexString("0x" + (agree ? "aa" : "bb").repeat(32));
  handleResultRevealed(new TaskRegistryEvents(REG).ResultRevealed(ts, n(id), who, round, result, agree, a, d));
}

function finalized(id: i32, status: i32, paid: BigInt, council: BigInt, refund: BigInt, repl: BigInt, ts: i64): void {
  handleTaskFinalized(new TaskRegistryEvents(REG).TaskFinalized(ts, n(id), status, paid, council, refund, repl));
}

function slashed(id: i32, who: Address, amount: BigInt, ts: i64): void {
  handleFaultSlashed(new TaskRegistryEvents(REG).FaultSlashed(ts, n(id), who, amount));
}

function closed(id: i32, status: i32, refund: BigInt, ts: i64): void {
  handleTaskClosed(new TaskRegistryEvents(REG).TaskClosed(ts, n(id), status, CAROL, refund));
}

function hash(byte: string): Bytes {
  return Bytes.fromHexString("0x" + byte.repeat(32));
}

function opened(id: i32, nLeaves: i32, bond: BigInt, moveEnds: i64, ts: i64): void {
  handleBisectionOpened(
    new TaskRegistryEvents(REG).BisectionOpened(
      ts,
      n(id),
      CAROL,
      hash("cc"),
      n(nLeaves),
      bond,
      BigInt.fromI64(moveEnds),
    ),
  );
}

function moved(id: i32, who: Address, index: i32, lo: i32, hi: i32, moves: i32, moveEnds: i64, ts: i64): void {
  handleBisectionMoved(
    new TaskRegistryEvents(REG).BisectionMoved(
      ts,
      n(id),
      who,
      n(index),
      hash("1" + index.toString()),
      n(lo),
      n(hi),
      moves,
      BigInt.fromI64(moveEnds),
    ),
  );
}

function narrowed(id: i32, step: i32, moves: i32, ts: i64): void {
  handleBisectionNarrowed(
    new TaskRegistryEvents(REG).BisectionNarrowed(
      ts,
      n(id),
      n(step),
      hash("a0"),
      hash("aa"),
      hash("bb"),
      moves,
      n(777),
    ),
  );
}

function ended(
  id: i32,
  executorRight: boolean,
  byTimeout: boolean,
  toC: BigInt,
  toE: BigInt,
  toR: BigInt,
  toK: BigInt,
  ts: i64,
): void {
  handleBisectionEnded(
    new TaskRegistryEvents(REG).BisectionEnded(ts, n(id), executorRight, byTimeout, toC, toE, toR, toK),
  );
}

/** A USDC task of 100 (bond 10 %) run by EXEC, judged by a 3-member council, its result committed. */
function verifying(id: i32, ts: i64): void {
  submit(id, USDC, 3, 2, wad(100), ts);
  bid(id, EXEC, wad(50), 1, ts + 10);
  select(id, wad(50), 0, ts + HOUR + 1);
  council(id, 0, [M1, M2, M3], 2, ts + HOUR + 30);
  commitFinal(id, ts + 2 * HOUR);
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
      new TaskRegistryEvents(REG).CouncilFeeClaimed(T0 + 5 * HOUR, n(1), M1, wad(1).div(n(2)), wad(1).div(n(2))),
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
    handleDisputeOpened(new TaskRegistryEvents(REG).DisputeOpened(T0 + 2 * HOUR + 2, n(1), CAROL, n(3000)));
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
    // the rejected CH redemption holds its failure report's keeper bounty: 0.1 % of 10 CH = 0.01
    assert.fieldEquals("TaskCurrencyStats", stats(CH), "escrow", wad(17).div(n(100)).toString());
    assert.fieldEquals("Task", key(1), "heldReportBounty", wad(1).div(n(100)).toString());
    assert.fieldEquals("TaskCouncilMember", member(1, M1), "slashedDps", wad(100).toString());
    assert.fieldEquals("TaskCouncilMember", member(1, M1), "withVerdict", "false");
    assert.fieldEquals("TaskCouncilMember", member(1, M3), "withVerdict", "true");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "chRedeemed", "0");
    handleRedemptionFailed(new TaskRegistryEvents(REG).RedemptionFailed(T0 + 3 * DAY, n(1), n(7), wad(22)));
    assert.fieldEquals("Task", key(1), "assignmentId", "0");
    assert.fieldEquals("Task", key(1), "redemptionFailed", "true");
    // reported by the client (no bounty): the held slice went back to it
    assert.fieldEquals("TaskCurrencyStats", stats(CH), "escrow", wad(16).div(n(100)).toString());
    assert.fieldEquals("Task", key(1), "heldReportBounty", "0");
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
    const ev = new TaskRegistryEvents(REG);
    params(T0);
    submit(7, USDC, 1, 1, n(100000000), T0);
    bid(7, BOB, n(60000000), 1, T0 + 1);
    handleBidWithdrawn(changetype<BidWithdrawn>(ev.BidWithdrawn(T0 + 2, n(7), BOB, BigInt.zero())));
    handleBiddingSealed(changetype<BiddingSealed>(ev.BiddingSealed(T0 + 3601, n(7), n(1234), n(9))));
    assert.fieldEquals("Task", key(7), "targetBlock", "1234");
    assert.fieldEquals("Task", key(7), "status", "Bidding");
    assert.entityCount("TaskEvent", 2);
    handleReplenishmentDeferred(
      changetype<ReplenishmentDeferred>(ev.ReplenishmentDeferred(T0 + 3602, wad(9), wad(12))),
    );
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "replenishBacklog", wad(12).toString());
    handleReplenishmentFlushed(changetype<ReplenishmentFlushed>(ev.ReplenishmentFlushed(T0 + 3603, wad(12))));
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "replenishBacklog", "0");
    // a disputed task nobody decided: status 9 Unresolved, full refund, counted apart from cancellations
    submit(8, USDC, 1, 1, n(50000000), T0 + 3604);
    closed(8, 9, n(50000000), T0 + 10 * DAY);
    assert.fieldEquals("Task", key(8), "status", "Unresolved");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "unresolved", "1");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "cancelled", "0");
  });
});

describe("TaskRegistry: issue 21 events", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a metered task: its payment kind, the units and the price of the accepted result", () => {
    params(T0);
    submit(2, USDC, 1, 1, n(5000000), T0);
    assert.fieldEquals("Task", key(2), "paymentKind", "0");
    assert.fieldEquals("Task", key(2), "pricedUnits", "0");
    assert.fieldEquals("Task", key(2), "pricedPrice", "0");
    // METERED (kind 1), 1,000 milli-CH declared: the kind is the low byte of paymentParams
    submitPaying(1, USDC, 1, 1, n(5000000), BigInt.fromI32(1 | (1000 << 8)), T0);
    assert.fieldEquals("Task", key(1), "paymentKind", "1");
    handleTaskPriced(new TaskRegistryEvents(REG).TaskPriced(T0 + DAY, n(1), 1, n(500), n(2000000), n(1000000)));
    assert.fieldEquals("Task", key(1), "pricedUnits", "500");
    assert.fieldEquals("Task", key(1), "pricedPrice", "1000000");
    handleTaskPriced(new TaskRegistryEvents(REG).TaskPriced(T0 + DAY, n(9), 1, n(1), n(1), n(1)));
    assert.notInStore("Task", key(9));
  });

  test("keeper bounties leave the task's escrow; a silent member's slice is a slash", () => {
    params(T0);
    submit(1, USDC, 1, 1, n(5000000), T0);
    handleKeeperBountyPaid(
      new TaskRegistryEvents(REG).KeeperBountyPaid(
        T0 + HOUR + 1,
        n(1),
        CAROL,
        Bytes.fromHexString("0x7b5d9b24"),
        1,
        n(5000),
        n(4995000),
      ),
    );
    assert.fieldEquals("Task", key(1), "escrow", "4995000");
    assert.fieldEquals("Task", key(1), "keeperBounties", "5000");
    // credited, not paid: the keeper's credit stays in the contract's totalEscrow until claimed (issue 21 item 6)
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", "5000000");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "keeperBounties", "5000");
    handleSilentMemberSlashed(new TaskRegistryEvents(REG).SilentMemberSlashed(T0 + 2 * DAY, n(1), M1, wad(25)));
    assert.fieldEquals("Task", key(1), "slashedDps", wad(25).toString());
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "slashedDps", wad(25).toString());
    assert.entityCount("TaskSlash", 1);
  });

  test("a bisection the executor wins: bond held in escrow, moves, the narrowed step, the referees' half into the task's escrow", () => {
    params(T0);
    verifying(1, T0);
    handleChainCommitted(new TaskRegistryEvents(REG).ChainCommitted(T0 + 2 * HOUR, n(1), hash("ee"), n(8)));
    const b = key(1);
    assert.fieldEquals("TaskBisection", b, "phase", "Committed");
    assert.fieldEquals("TaskBisection", b, "executorRoot", hash("ee").toHexString());
    assert.fieldEquals("TaskBisection", b, "n", "8");
    assert.fieldEquals("Task", key(1), "bisection", b);
    // bond 10 % of 100 = 10, into totalEscrow (not the task's escrow)
    opened(1, 8, wad(10), T0 + 3 * HOUR + 12 * HOUR, T0 + 3 * HOUR);
    assert.fieldEquals("TaskBisection", b, "phase", "ExecutorMove");
    assert.fieldEquals("TaskBisection", b, "challenger", CAROL.toHexString());
    assert.fieldEquals("TaskBisection", b, "bond", wad(10).toString());
    assert.fieldEquals("TaskBisection", b, "lo", "0");
    assert.fieldEquals("TaskBisection", b, "hi", "7");
    assert.fieldEquals("TaskBisection", b, "moves", "1");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(110).toString());
    assert.fieldEquals("Task", key(1), "escrow", wad(100).toString());
    // [0, 7] → executor agrees at 3 → [4, 7]; challenger disagrees at 5 → [4, 5]; executor agrees at 4 → step 5
    moved(1, EXEC, 3, 4, 7, 2, T0 + 4 * HOUR + 12 * HOUR, T0 + 4 * HOUR);
    assert.fieldEquals("TaskBisection", b, "phase", "ChallengerMove");
    moved(1, CAROL, 5, 4, 5, 3, T0 + 5 * HOUR + 12 * HOUR, T0 + 5 * HOUR);
    assert.fieldEquals("TaskBisection", b, "phase", "ExecutorMove");
    assert.fieldEquals("TaskBisection", b, "hi", "5");
    const last = new TaskRegistryEvents(REG).BisectionMoved(
      T0 + 6 * HOUR,
      n(1),
      EXEC,
      n(4),
      hash("14"),
      n(5),
      n(5),
      4,
      n(0),
    );
    handleBisectionMoved(last);
    assert.fieldEquals("TaskBisection", b, "phase", "Judging");
    assert.fieldEquals("TaskBisection", b, "moveEnds", "0");
    narrowed(1, 5, 4, T0 + 6 * HOUR);
    assert.fieldEquals("TaskBisection", b, "step", "5");
    assert.fieldEquals("TaskBisection", b, "executorStep", hash("aa").toHexString());
    assert.fieldEquals("TaskBisection", b, "challengerStep", hash("bb").toHexString());
    assert.fieldEquals("TaskBisection", b, "refereeTargetBlock", "777");
    assert.fieldEquals("Task", key(1), "round", "1");
    assert.entityCount("BisectionMove", 3);
    assert.fieldEquals("BisectionMove", lastEventId(last), "role", "Executor");
    assert.fieldEquals("BisectionMove", lastEventId(last), "mover", EXEC.toHexString());
    assert.fieldEquals("BisectionMove", lastEventId(last), "lo", "5");
    assert.fieldEquals("BisectionMove", lastEventId(last), "moves", "4");
    // accepted: executor 45, 2 fees reserved, refund 53 → escrow 110 − (100 − 2) = 12 (2 fees + the bond)
    finalized(1, 5, wad(45), wad(2), wad(53), n(0), T0 + 8 * HOUR);
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(12).toString());
    // the challenger proven wrong: 2 referees × 2.5 = 5 stay (now the task's), 5 to the executor
    ended(1, true, false, n(0), wad(5), wad(5), n(0), T0 + 8 * HOUR);
    assert.fieldEquals("TaskBisection", b, "phase", "Ended");
    assert.fieldEquals("TaskBisection", b, "outcome", "ExecutorRight");
    assert.fieldEquals("TaskBisection", b, "bondToReferees", wad(5).toString());
    assert.fieldEquals("TaskBisection", b, "bondToExecutor", wad(5).toString());
    assert.fieldEquals("TaskBisection", b, "byTimeout", "false");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(7).toString());
    assert.fieldEquals("Task", key(1), "escrow", wad(7).toString());
  });

  test("a lapsed challenger forfeits its bond; a lapsed executor without a chain; a one-checkpoint chain left undecided", () => {
    params(T0);
    // 1: the challenger lets its move lapse: 0.1 (keeper) + 9.9 (executor) leave escrow; verification goes on
    verifying(1, T0);
    handleChainCommitted(new TaskRegistryEvents(REG).ChainCommitted(T0 + 2 * HOUR, n(1), hash("ee"), n(4)));
    opened(1, 4, wad(10), T0 + 15 * HOUR, T0 + 3 * HOUR);
    moved(1, EXEC, 1, 2, 3, 2, T0 + 16 * HOUR, T0 + 4 * HOUR);
    ended(1, true, true, n(0), wad(99).div(n(10)), n(0), wad(1).div(n(10)), T0 + 17 * HOUR);
    assert.fieldEquals("TaskBisection", key(1), "phase", "Lapsed");
    assert.fieldEquals("TaskBisection", key(1), "outcome", "ExecutorRight");
    assert.fieldEquals("TaskBisection", key(1), "bondToKeeper", wad(1).div(n(10)).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(100).toString());
    assert.fieldEquals("Task", key(1), "escrow", wad(100).toString());
    // 2: no chain committed: the executor's move is due at once and lapses; rejected, the bond back to the challenger
    verifying(2, T0 + DAY);
    opened(2, 0, wad(10), T0 + DAY + 15 * HOUR, T0 + DAY + 3 * HOUR);
    assert.fieldEquals("TaskBisection", key(2), "phase", "ExecutorMove");
    assert.fieldEquals("TaskBisection", key(2), "n", "0");
    assert.fieldEquals("TaskBisection", key(2), "hi", "0");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(210).toString());
    finalized(2, 6, n(0), n(0), wad(100), n(0), T0 + DAY + 16 * HOUR);
    ended(2, false, true, wad(10), n(0), n(0), n(0), T0 + DAY + 16 * HOUR);
    assert.fieldEquals("TaskBisection", key(2), "phase", "Ended");
    assert.fieldEquals("TaskBisection", key(2), "outcome", "ChallengerRight");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(100).toString());
    // 3: a one-checkpoint chain narrows inside the opening (BisectionNarrowed first), then no verdict
    verifying(3, T0 + 2 * DAY);
    handleChainCommitted(new TaskRegistryEvents(REG).ChainCommitted(T0 + 2 * DAY + 2 * HOUR, n(3), hash("ee"), n(1)));
    narrowed(3, 0, 1, T0 + 2 * DAY + 3 * HOUR);
    opened(3, 1, wad(10), 0, T0 + 2 * DAY + 3 * HOUR);
    assert.fieldEquals("TaskBisection", key(3), "phase", "Judging");
    assert.fieldEquals("TaskBisection", key(3), "step", "0");
    assert.fieldEquals("TaskBisection", key(3), "hi", "0");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(210).toString());
    ended(3, false, false, wad(10), n(0), n(0), n(0), T0 + 6 * DAY);
    closed(3, 9, wad(100), T0 + 6 * DAY);
    assert.fieldEquals("TaskBisection", key(3), "outcome", "Undecided");
    assert.fieldEquals("TaskBisection", key(3), "bondToChallenger", wad(10).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(100).toString());
    assert.fieldEquals("Task", key(3), "status", "Unresolved");
    assert.entityCount("TaskBisection", 3);
  });
});

/** The client (ALICE) appeals: AppealOpened, then BisectionOpened with it as the challenger (same call). */
function appealOpen(id: i32, bond: BigInt, moveEnds: i64, ts: i64): void {
  handleAppealOpened(new TaskRegistryEvents(REG).AppealOpened(ts, n(id), ALICE, bond, BigInt.fromI64(ts + 3 * DAY)));
  handleBisectionOpened(
    new TaskRegistryEvents(REG).BisectionOpened(ts, n(id), ALICE, hash("cc"), n(8), bond, BigInt.fromI64(moveEnds)),
  );
}

function appealSettled(
  id: i32,
  executorWrong: boolean,
  byTimeout: boolean,
  slashedDps: BigInt,
  toClient: BigInt,
  toExecutor: BigInt,
  refereeFees: BigInt,
  ts: i64,
): void {
  handleAppealSettled(
    new TaskRegistryEvents(REG).AppealSettled(
      ts,
      n(id),
      executorWrong,
      byTimeout,
      slashedDps,
      toClient,
      toExecutor,
      refereeFees,
    ),
  );
}

/** `verifying`, a chain of 8, two round-0 members revealing the executor's result, accepted with `fees` reserved. */
function accepted(id: i32, fees: BigInt, ts: i64): void {
  verifying(id, ts);
  handleChainCommitted(new TaskRegistryEvents(REG).ChainCommitted(ts + 2 * HOUR, n(id), hash("ee"), n(8)));
  vote(id, M1, 0, true, 1, 0, ts + 3 * HOUR);
  vote(id, M2, 0, true, 2, 0, ts + 4 * HOUR);
  finalized(id, 5, wad(45), fees, wad(100).minus(wad(45)).minus(fees), n(0), ts + DAY + 3 * HOUR);
}

describe("TaskRegistry: the client's appeal (issue 21 item 2)", () => {
  beforeEach(() => {
    clearStore();
  });

  test("an appeal overturned by the referees: the task reopens Disputed, the bond joins its escrow, then Rejected", () => {
    params(T0);
    accepted(1, wad(2), T0);
    const t = key(1);
    assert.fieldEquals("Task", t, "status", "Accepted");
    assert.fieldEquals("Task", t, "appealed", "false");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(2).toString());
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "accepted", "1");
    // the bond enters the currency's escrow, not yet the task's
    const ts = T0 + 2 * DAY;
    appealOpen(1, wad(10), ts + 12 * HOUR, ts);
    assert.fieldEquals("Task", t, "appealed", "true");
    assert.fieldEquals("Task", t, "appealBond", wad(10).toString());
    assert.fieldEquals("Task", t, "appealEnds", (ts + 3 * DAY).toString());
    assert.fieldEquals("Task", t, "appealedAt", ts.toString());
    assert.fieldEquals("Task", t, "status", "Accepted");
    assert.fieldEquals("TaskBisection", t, "isAppeal", "true");
    assert.fieldEquals("TaskBisection", t, "challenger", ALICE.toHexString());
    assert.fieldEquals("TaskBisection", t, "phase", "ExecutorMove");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(12).toString());
    assert.fieldEquals("Task", t, "escrow", wad(2).toString());
    // the step isolated: Disputed for the referees, the bond now in the task's escrow, fresh window
    narrowed(1, 5, 4, ts + HOUR);
    assert.fieldEquals("Task", t, "status", "Disputed");
    assert.fieldEquals("Task", t, "escrow", wad(12).toString());
    assert.fieldEquals("Task", t, "round", "1");
    assert.fieldEquals("Task", t, "agree", "0");
    assert.fieldEquals("Task", t, "votingEnds", (ts + HOUR + 3 * DAY).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(12).toString());
    // the draw's and finalize's keeper credits (0.1 each) come out of the task's escrow, credited (stay in totalEscrow)
    const tenth = wad(1).div(n(10));
    handleKeeperBountyPaid(
      new TaskRegistryEvents(REG).KeeperBountyPaid(
        ts + 2 * HOUR,
        n(1),
        CAROL,
        Bytes.fromHexString("0x7b5d9b24"),
        1,
        tenth,
        wad(12).minus(tenth),
      ),
    );
    handleKeeperBountyPaid(
      new TaskRegistryEvents(REG).KeeperBountyPaid(
        ts + DAY,
        n(1),
        CAROL,
        Bytes.fromHexString("0x4bb278f3"),
        1,
        tenth,
        wad(12).minus(tenth).minus(tenth),
      ),
    );
    slashed(1, EXEC, wad(75), ts + DAY);
    // overturned: round 0's fees forfeited, 4 referees' fees stay (4), the rest 11.8 − 4 = 7.8 back to the client
    const rest = wad(12).minus(tenth).minus(tenth).minus(wad(4));
    appealSettled(1, true, false, wad(75), rest, n(0), wad(4), ts + DAY);
    assert.fieldEquals("Task", t, "status", "Rejected");
    assert.fieldEquals("Task", t, "appealOutcome", "Overturned");
    assert.fieldEquals("Task", t, "appealByTimeout", "false");
    assert.fieldEquals("Task", t, "appealSlashedDps", wad(75).toString());
    assert.fieldEquals("Task", t, "appealToClient", rest.toString());
    assert.fieldEquals("Task", t, "appealToExecutor", "0");
    assert.fieldEquals("Task", t, "appealRefereeFees", wad(4).toString());
    assert.fieldEquals("Task", t, "appealClosedAt", (ts + DAY).toString());
    assert.fieldEquals("Task", t, "escrow", wad(4).toString());
    assert.fieldEquals("Task", t, "slashedDps", wad(75).toString());
    // the two keeper credits (0.2) stay in the currency's escrow until claimed
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(4).plus(tenth).plus(tenth).toString());
    assert.fieldEquals("TaskBisection", t, "phase", "Ended");
    assert.fieldEquals("TaskBisection", t, "outcome", "ChallengerRight");
    assert.fieldEquals("TaskBisection", t, "endedAt", (ts + DAY).toString());
    // the round-0 members who accepted no longer side with the verdict
    assert.fieldEquals("TaskCouncilMember", member(1, M1), "withVerdict", "false");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "accepted", "0");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "rejected", "1");
    assert.fieldEquals("TaskDayData", day(ts + DAY), "tasksRejected", "1");
    assert.entityCount("TaskEvent", 4); // executorSelected, finalized, appealOpened, appealSettled
  });

  test("appeals the client loses or lets lapse, an executor lapse before judging, an unused window closed", () => {
    params(T0);
    const tenth = wad(1).div(n(10));
    // 1: the client lets its move lapse: BisectionEnded moved the bond out (keeper 0.1, executor 9.9) first
    accepted(1, n(0), T0);
    appealOpen(1, wad(10), T0 + 2 * DAY + 12 * HOUR, T0 + 2 * DAY);
    moved(1, EXEC, 3, 4, 7, 2, T0 + 3 * DAY, T0 + 2 * DAY + HOUR);
    ended(1, true, true, n(0), wad(10).minus(tenth), n(0), tenth, T0 + 3 * DAY + HOUR);
    appealSettled(1, false, true, n(0), n(0), wad(10).minus(tenth), n(0), T0 + 3 * DAY + HOUR);
    assert.fieldEquals("Task", key(1), "status", "Accepted");
    assert.fieldEquals("Task", key(1), "appealOutcome", "Lapsed");
    assert.fieldEquals("Task", key(1), "appealByTimeout", "true");
    assert.fieldEquals("Task", key(1), "appealToExecutor", wad(10).minus(tenth).toString());
    assert.fieldEquals("Task", key(1), "escrow", "0");
    assert.fieldEquals("TaskBisection", key(1), "phase", "Ended");
    assert.fieldEquals("TaskBisection", key(1), "outcome", "ExecutorRight");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", "0");
    // 2: upheld by a referee quorum: round 0's unclaimed fees (2) and the referees' (4) stay, 12 − 6 to the executor
    accepted(2, wad(2), T0 + 10 * DAY);
    appealOpen(2, wad(10), T0 + 12 * DAY + 12 * HOUR, T0 + 12 * DAY);
    narrowed(2, 0, 4, T0 + 12 * DAY + HOUR);
    assert.fieldEquals("Task", key(2), "status", "Disputed");
    assert.fieldEquals("Task", key(2), "escrow", wad(12).toString());
    appealSettled(2, false, false, n(0), n(0), wad(6), wad(4), T0 + 13 * DAY);
    assert.fieldEquals("Task", key(2), "status", "Accepted");
    assert.fieldEquals("Task", key(2), "appealOutcome", "Upheld");
    assert.fieldEquals("Task", key(2), "escrow", wad(6).toString());
    assert.fieldEquals("TaskBisection", key(2), "outcome", "ExecutorRight");
    assert.fieldEquals("TaskCouncilMember", member(2, M1), "withVerdict", "true");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(6).toString());
    // 3: the executor lets its first move lapse: the bond joins the escrow at the end, all 12 back to the client
    accepted(3, wad(2), T0 + 20 * DAY);
    appealOpen(3, wad(10), T0 + 22 * DAY + 12 * HOUR, T0 + 22 * DAY);
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(18).toString());
    slashed(3, EXEC, wad(100), T0 + 23 * DAY);
    appealSettled(3, true, true, wad(100), wad(12), n(0), n(0), T0 + 23 * DAY);
    assert.fieldEquals("Task", key(3), "status", "Rejected");
    assert.fieldEquals("Task", key(3), "appealOutcome", "Overturned");
    assert.fieldEquals("Task", key(3), "appealToClient", wad(12).toString());
    assert.fieldEquals("Task", key(3), "escrow", "0");
    assert.fieldEquals("TaskBisection", key(3), "outcome", "ChallengerRight");
    assert.fieldEquals("TaskBisection", key(3), "byTimeout", "true");
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(6).toString());
    // 4: nobody appealed: the window closed, the executor's lock released, nothing moves
    accepted(4, wad(2), T0 + 30 * DAY);
    handleAppealWindowClosed(new TaskRegistryEvents(REG).AppealWindowClosed(T0 + 34 * DAY, n(4), EXEC));
    assert.fieldEquals("Task", key(4), "appealed", "false");
    assert.fieldEquals("Task", key(4), "appealClosedAt", (T0 + 34 * DAY).toString());
    assert.fieldEquals("Task", key(4), "escrow", wad(2).toString());
    assert.fieldEquals("TaskCurrencyStats", stats(USDC), "escrow", wad(8).toString());
    assert.fieldEquals("TaskBisection", key(4), "isAppeal", "false");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "accepted", "3");
    assert.fieldEquals("TaskRegistryState", REG.toHexString(), "rejected", "1");
  });
});
