// Shared by the TaskRegistry and StreamTasks mappings: currency and status names, per-currency totals and the
// task-layer day aggregate. Every value comes from the events (no eth_call).
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { TaskCurrencyStats, TaskDayData } from "../../generated/schema";
import { Series } from "./buckets";
import { ZERO } from "./common";
import { initTaskCurrencyStats } from "../../generated/defaults";

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
    s = initTaskCurrencyStats(id);
    s.currency = currencyName(currency);
  }
  return s;
}

/** TaskDayData (daily only, one series for the whole task layer) */
const SERIES = new Series("TaskDayData", "", "date", "", "");

/** The day bucket of `event` (created zeroed); the caller changes its fields and saves it. */
export function getTaskDay(event: ethereum.Event): TaskDayData {
  return changetype<TaskDayData>(SERIES.open(TASKS_ID, event)[0].e);
}
