import { formatUnits, parseUnits } from "ethers";
import { TaskError } from "../../lib.js";

/** USDC has 6 decimals; insurance shares carry 12 (6 + the fund's virtual-share offset of 6). */
export const USDC_DECIMALS = 6;
export const SHARE_DECIMALS = 12;

export function usdc(amount: string): bigint {
  try {
    const v = parseUnits(amount, USDC_DECIMALS);
    if (v <= 0n) throw new Error("not positive");
    return v;
  } catch {
    throw new TaskError(`"${amount}" is not a positive USDC amount (up to 6 decimals).`);
  }
}

export function shares(amount: string): bigint {
  try {
    const v = parseUnits(amount, SHARE_DECIMALS);
    if (v <= 0n) throw new Error("not positive");
    return v;
  } catch {
    throw new TaskError(`"${amount}" is not a positive share amount (up to 12 decimals).`);
  }
}

export const fmtUsdc = (v: bigint): string => `${formatUnits(v, USDC_DECIMALS)} USDC`;
export const fmtShares = (v: bigint): string => `${formatUnits(v, SHARE_DECIMALS)} shares`;

export function when(sec: bigint): string {
  return sec === 0n ? "-" : new Date(Number(sec) * 1000).toISOString();
}
