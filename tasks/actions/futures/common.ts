import { formatUnits, parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import type { FuturesMarket } from "../../../types/ethers-contracts/index.js";
import { TaskError } from "../../lib.js";

export const TENORS = ["daily", "weekly", "monthly", "quarterly"] as const;

export async function signerAt(connection: NetworkConnection, index: string): Promise<HardhatEthersSigner> {
  const i = Number(index);
  const signers = await connection.ethers.getSigners();
  const s = Number.isInteger(i) ? signers[i] : undefined;
  if (s === undefined) throw new TaskError(`--signer ${index}: there is no local account with that index.`);
  return s;
}

export function parseSeries(v: string): bigint {
  if (v === "") throw new TaskError("Pass --series <id> (see chx:futures:status).");
  if (!/^[0-9]+$/.test(v) || v === "0") throw new TaskError(`--series ${v}: give a series id (1, 2, …).`);
  return BigInt(v);
}

export function parseCh(v: string, what: string): bigint {
  if (v === "") throw new TaskError(`Pass ${what} (CH; no default).`);
  try {
    return parseUnits(v, 18);
  } catch {
    throw new TaskError(`${what} ${v}: not a CH amount.`);
  }
}

export const fmtCh = (v: bigint): string => `${formatUnits(v, 18)} CH`;
export const fmtPrice = (v: bigint): string => `${formatUnits(v, 18)} USDC/CH`;
export const fmtUsdc = (v: bigint): string => `${formatUnits(v, 6)} USDC`;
export const fmtTime = (t: bigint): string => (t === 0n ? "—" : new Date(Number(t) * 1000).toISOString());

/** Throws a clear sentence when the series does not exist. */
export async function requireSeries(futures: FuturesMarket, id: bigint): Promise<void> {
  const [count] = await futures.seriesCount();
  if (id > count) throw new TaskError(`Series ${id} does not exist (${count} listed; see chx:futures:status).`);
}
