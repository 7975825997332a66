import { formatUnits, parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import { TaskError } from "../../lib.js";

export async function signerAt(connection: NetworkConnection, index: string): Promise<HardhatEthersSigner> {
  const i = Number(index);
  const signers = await connection.ethers.getSigners();
  const s = Number.isInteger(i) ? signers[i] : undefined;
  if (s === undefined) throw new TaskError(`--signer ${index}: there is no local account with that index.`);
  return s;
}

export function parseAmount(value: string, decimals: number, what: string): bigint {
  if (value === "") throw new TaskError(`Pass ${what} (no default: this moves money).`);
  try {
    return parseUnits(value, decimals);
  } catch {
    throw new TaskError(`${what} "${value}" is not a number.`);
  }
}

/** `--side long|short` and a positive `--size` → the signed size (+ long, − short). */
export function sideSize(side: string, size: string): bigint {
  if (side !== "long" && side !== "short") throw new TaskError(`Pass --side long or --side short (got "${side}").`);
  const s = parseAmount(size, 18, "--size");
  if (s <= 0n) throw new TaskError("--size must be positive (the side gives the direction).");
  return side === "long" ? s : -s;
}

export function parseSlippageBps(value: number | string): bigint {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 10_000) throw new TaskError(`--slippage ${value}: give 0..10000 bps.`);
  return BigInt(n);
}

/** The worst fill price accepted for a trade of `size` quoted at `fillWad`. */
export function limitPrice(size: bigint, fillWad: bigint, slippageBps: bigint): bigint {
  return size > 0n ? (fillWad * (10_000n + slippageBps)) / 10_000n : (fillWad * (10_000n - slippageBps)) / 10_000n;
}

export const ch = (x: bigint): string => formatUnits(x, 18);
export const px = (x: bigint): string => formatUnits(x, 18);
export const usd = (x: bigint): string => formatUnits(x, 6);
