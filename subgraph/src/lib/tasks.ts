// Shared by the TaskRegistry and StreamTasks mappings: currency and status names, per-currency totals and the
// task-layer day aggregate. Every value comes from the events (no eth_call).
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { TaskCurrencyStats, TaskDayData } from "../../generated/schema";
import { SECONDS_PER_DAY, ZERO } from "./common";

export const TASKS_ID = Bytes.fromUTF8("tasks");
/** ITaskRegistry.Currency (StreamTasks uses the same order). */
export const CURRENCIES = ["CH", "USDC", "DPS"];
/** ITaskRegistry.Status. */
export const TASK_STATUS = [
  "None",
  "Bidding",
  "Running",
  "Verifying",
  "Disputed",
  "Accepted",
  "Rejected",
  "Expired",
  "Cancelled",
  "Unresolved",
];
/** IStreamTasks.Status and Mode. */
export const STREAM_STATUS = ["None", "Open", "Live", "Interrupted", "Closed"];
export const STREAM_MODE = ["Optimistic", "Weighted", "Unanimous"];

export function currencyName(c: i32): string {
  return c >= 0 && c < CURRENCIES.length ? CURRENCIES[c] : "Unknown";
}
export function taskStatusName(s: i32): string {
  return s >= 0 && s < TASK_STATUS.length ? TASK_STATUS[s] : "Unknown";
}
export function streamStatusName(s: i32): string {
  return s >= 0 && s < STREAM_STATUS.length ? STREAM_STATUS[s] : "Unknown";
}
export function streamModeName(m: i32): string {
  return m >= 0 && m < STREAM_MODE.length ? STREAM_MODE[m] : "Unknown";
}
export function currencyIndex(name: string): i32 {
  for (let i = 0; i < CURRENCIES.length; i++) if (CURRENCIES[i] == name) return i;
  return -1;
}

/** Task / Stream id: the contract's uint256 id as 4 bytes LE (as RedemptionAssignment). */
export function idKey(id: BigInt): Bytes {
  return Bytes.fromI32(id.toI32());
}

export function getCurrencyStats(currency: i32): TaskCurrencyStats {
  const id = TASKS_ID.concatI32(currency);
  let s = TaskCurrencyStats.load(id);
  if (s == null) {
    s = new TaskCurrencyStats(id);
    s.currency = currencyName(currency);
    s.escrow = ZERO;
    s.deposited = ZERO;
    s.executorPaid = ZERO;
    s.councilReserved = ZERO;
    s.councilClaimed = ZERO;
    s.refunded = ZERO;
    s.replenished = ZERO;
    s.taskCount = 0;
    s.streamDeposit = ZERO;
    s.streamFunded = ZERO;
    s.streamPaid = ZERO;
    s.streamWithdrawn = ZERO;
    s.streamCount = 0;
  }
  return s;
}

export function getTaskDay(event: ethereum.Event): TaskDayData {
  const n = event.block.timestamp.toI32() / SECONDS_PER_DAY;
  const id = TASKS_ID.concatI32(n);
  let d = TaskDayData.load(id);
  if (d == null) {
    d = new TaskDayData(id);
    d.date = n * SECONDS_PER_DAY;
    d.tasksSubmitted = 0;
    d.tasksAccepted = 0;
    d.tasksRejected = 0;
    d.tasksExpired = 0;
    d.tasksCancelled = 0;
    d.bids = 0;
    d.votes = 0;
    d.disputes = 0;
    d.slashes = 0;
    d.slashedDps = ZERO;
    d.chRedeemed = ZERO;
    d.executorPaidUsdc = ZERO;
    d.executorPaidDps = ZERO;
    d.dpsReplenished = ZERO;
    d.councilFeesClaimedCh = ZERO;
    d.councilFeesClaimedUsdc = ZERO;
    d.councilFeesClaimedDps = ZERO;
    d.streamsOpened = 0;
    d.streamReceipts = 0;
    d.streamPaidCh = ZERO;
    d.streamPaidUsdc = ZERO;
    d.streamPaidDps = ZERO;
  }
  return d;
}
