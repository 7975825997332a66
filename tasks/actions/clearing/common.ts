/** Helpers shared by the clearing task actions. */
import { formatUnits, getAddress, isAddress, parseUnits } from "ethers";
import { TaskError } from "../../lib.js";

export function usdcAmount(value: string, what = "--amount"): bigint {
  if (value === "") throw new TaskError(`Pass ${what} (USDC, e.g. 100 or 12.5).`);
  let amount: bigint;
  try {
    amount = parseUnits(value, 6);
  } catch {
    throw new TaskError(`${what} "${value}" is not a USDC amount (up to 6 decimals).`);
  }
  if (amount <= 0n) throw new TaskError(`${what} must be positive.`);
  return amount;
}

export function address(value: string, what: string, fallback?: string): string {
  if (value === "") {
    if (fallback !== undefined) return fallback;
    throw new TaskError(`Pass ${what} (an address).`);
  }
  if (!isAddress(value)) throw new TaskError(`${what} "${value}" is not an address.`);
  return getAddress(value);
}

export const fmtUsdc = (v: bigint): string => `${formatUnits(v, 6)} USDC`;
