import { id as keccakText, isHexString, parseUnits } from "ethers";
import type { TaskRegistry } from "../../../types/ethers-contracts/index.js";
import { TaskError } from "../../lib.js";

export const CURRENCIES = ["CH", "USDC", "DPS"] as const;
export const STATUSES = [
  "None",
  "Bidding",
  "Running",
  "Verifying",
  "Disputed",
  "Accepted",
  "Rejected",
  "Expired",
  "Cancelled",
] as const;

/** Currency index from its name; throws a readable error otherwise. */
export function currencyIndex(name: string): number {
  const i = CURRENCIES.indexOf(name.toUpperCase() as (typeof CURRENCIES)[number]);
  if (i < 0) throw new Error(`unknown currency "${name}" (use CH, USDC or DPS)`);
  return i;
}

/** Decimals of a currency (CH and DPS 18, USDC 6). */
export function decimalsOf(currency: number): number {
  return currency === 1 ? 6 : 18;
}

export function amount(value: string, currency: number): bigint {
  return parseUnits(value, decimalsOf(currency));
}

/** A 32-byte hash given as hex, or the keccak256 of a string. */
export function hash32(value: string): string {
  return isHexString(value, 32) ? value : keccakText(value);
}

/** Checks a `--id` (a typed BIGINT option, 0 when not given) names a submitted task; a clear sentence otherwise. */
export async function requireTask(tasks: TaskRegistry, id: bigint): Promise<bigint> {
  if (id === 0n) throw new TaskError("Pass --id <task id> (1, 2, …; see chx:task:status).");
  const count = await tasks.taskCount();
  if (id > count) throw new TaskError(`Task ${id} does not exist (${count} task(s) submitted).`);
  return id;
}
