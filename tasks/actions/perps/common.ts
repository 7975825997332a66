import { formatUnits, parseUnits, type ContractTransactionResponse } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import { TaskError } from "../../lib.js";
import type { Protocol } from "@chx/sdk";

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

/**
 * After a commit (IDelayedOrders): prints when the order fills; with `wait`, waits until it is executable and, unless a
 * keeper executed it meanwhile, executes it with `trader` (at the oracle round in force at its price time; the
 * execution fee comes back to the trader), then prints the outcome. Returns whether the order filled.
 */
export async function followOrder(
  protocol: Protocol,
  trader: HardhatEthersSigner,
  commit: ContractTransactionResponse,
  wait: boolean,
): Promise<boolean> {
  const perp = protocol.perpMarket.connect(trader);
  const rc = await commit.wait();
  const ev = rc!.logs.map((l) => perp.interface.parseLog(l)).find((e) => e?.name === "OrderCommitted");
  if (ev === undefined || ev === null) throw new TaskError("the commit emitted no OrderCommitted event");
  const priceTime = ev.args.priceTime as bigint;
  const provider = trader.provider;
  if (provider === null) throw new TaskError("the signer has no provider");
  console.log(
    `order committed: fills at the CH index in force at ${new Date(Number(priceTime) * 1000).toISOString()} ` +
      `(executable for ${Number(ev.args.expiresAt as bigint) - Number(priceTime)} s), execution fee ` +
      `${usd(ev.args.feeUsdc as bigint)} USDC`,
  );
  if (!wait) return false;
  // the chain's clock may run ahead of this machine's (time-travelled local nodes): wait by the chain's clock, which a
  // new block takes from the wall clock plus that lead
  const lead = BigInt((await provider.getBlock("latest"))!.timestamp) - BigInt(Math.floor(Date.now() / 1000));
  const chainNow = () => BigInt(Math.floor(Date.now() / 1000)) + (lead > 0n ? lead : 0n);
  while (chainNow() <= priceTime + 1n) await new Promise((r) => setTimeout(r, 1_000));
  const from = rc!.blockNumber + 1;
  if ((await perp.pendingOrder(trader.address)).commitTime !== 0n) {
    await (await perp.executeOrder(trader.address, await protocol.oracle.roundAt(priceTime))).wait();
  }
  const executed = await perp.queryFilter(perp.filters.OrderExecuted(trader.address), from, "latest");
  if (executed.length > 0) return true;
  const cancelled = await perp.queryFilter(perp.filters.OrderCancelled(trader.address), from, "latest");
  const reason = cancelled[0]?.args.reason;
  const parsed = reason === undefined ? null : perp.interface.parseError(reason);
  throw new TaskError(`the order was cancelled: ${parsed === null ? "unknown reason" : parsed.name}`);
}

export const ch = (x: bigint): string => formatUnits(x, 18);
export const px = (x: bigint): string => formatUnits(x, 18);
export const usd = (x: bigint): string => formatUnits(x, 6);
