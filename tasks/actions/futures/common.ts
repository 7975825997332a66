import { Contract, formatUnits, parseUnits, type ContractTransactionResponse } from "ethers";
import { readFile } from "node:fs/promises";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import type { FuturesMarket } from "../../../types/ethers-contracts/index.js";
import type { FuturesOrder, Protocol } from "@chx/sdk";
import { TaskError } from "../../lib.js";

export const TENORS = ["daily", "weekly", "monthly", "quarterly"] as const;

export async function signerAt(connection: NetworkConnection, index: string): Promise<HardhatEthersSigner> {
  const i = Number(index);
  const signers = await connection.ethers.getSigners();
  const s = Number.isInteger(i) ? signers[i] : undefined;
  if (s === undefined) throw new TaskError(`--signer ${index}: there is no local account with that index.`);
  return s;
}

/** `--series` is a typed BIGINT option whose default 0 means "not given" (series ids start at 1). */
export function parseSeries(v: bigint): bigint {
  if (v === 0n) throw new TaskError("Pass --series <id> (see chx:futures:status).");
  if (v < 0n) throw new TaskError(`--series ${v}: give a series id (1, 2, …).`);
  return v;
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

/**
 * After a commit (two-step orders, docs/futures.md): prints when the order fills; with `wait`, waits until it is
 * executable and, unless a keeper executed it meanwhile, executes it with `trader` (at the oracle round in force at its
 * price time). Returns whether it filled; throws a TaskError with the reason when the execution cancelled it.
 */
export async function followOrder(
  protocol: Protocol,
  trader: HardhatEthersSigner,
  seriesId: bigint,
  commit: ContractTransactionResponse,
  wait: boolean,
): Promise<boolean> {
  const futures = protocol.futures.connect(trader);
  const rc = await commit.wait();
  const ev = rc!.logs.map((l) => futures.interface.parseLog(l)).find((e) => e?.name === "OrderCommitted");
  if (ev === undefined || ev === null) throw new TaskError("the commit emitted no OrderCommitted event");
  const priceTime = ev.args.priceTime as bigint;
  const provider = trader.provider;
  if (provider === null) throw new TaskError("the signer has no provider");
  console.log(
    `order committed on series ${seriesId}: fills at the CH index in force at ` +
      `${new Date(Number(priceTime) * 1000).toISOString()} plus the series premium at execution (executable for ` +
      `${Number(ev.args.expiresAt as bigint) - Number(priceTime)} s), execution fee ` +
      `${formatUnits(ev.args.feeUsdc as bigint, 6)} USDC`,
  );
  if (!wait) return false;
  // the chain's clock may run ahead of this machine's (time-travelled local nodes): wait by the chain's clock
  const lead = BigInt((await provider.getBlock("latest"))!.timestamp) - BigInt(Math.floor(Date.now() / 1000));
  const chainNow = () => BigInt(Math.floor(Date.now() / 1000)) + (lead > 0n ? lead : 0n);
  while (chainNow() <= priceTime + 1n) await new Promise((r) => setTimeout(r, 1_000));
  const from = rc!.blockNumber + 1;
  if ((await futures.pendingOrder(seriesId, trader.address)).commitTime !== 0n) {
    await (await futures.executeOrder(trader.address, seriesId, await protocol.oracle.roundAt(priceTime))).wait();
  }
  const executed = await futures.queryFilter(futures.filters.OrderExecuted(seriesId, trader.address), from, "latest");
  if (executed.length > 0) return true;
  const cancelled = await futures.queryFilter(futures.filters.OrderCancelled(seriesId, trader.address), from, "latest");
  const reason = cancelled[0]?.args.reason;
  const parsed = reason === undefined ? null : futures.interface.parseError(reason);
  throw new TaskError(`the order was cancelled: ${parsed === null ? "unknown reason" : parsed.name}`);
}

/** A signed futures order as `chx:futures:order` writes it, parsed for `fillOrder` / `matchOrders`. */
export interface SignedFuturesOrder {
  order: FuturesOrder;
  signature: string;
}

/** Reads a signed order JSON file (from `chx:futures:order`); `flag` names the option in errors. */
export async function readSignedOrder(path: string, flag: string): Promise<SignedFuturesOrder> {
  let signed: { order: Record<string, string>; signature: string };
  try {
    signed = JSON.parse(await readFile(path, "utf8")) as typeof signed;
  } catch {
    throw new TaskError(`${flag} ${path}: not a signed futures order JSON file (see chx:futures:order).`);
  }
  const o = signed.order;
  return {
    order: {
      maker: o.maker ?? "",
      seriesId: BigInt(o.seriesId ?? "0"),
      isBuy: o.isBuy === "true",
      sizeCh: BigInt(o.sizeCh ?? "0"),
      priceWad: BigInt(o.priceWad ?? "0"),
      nonce: BigInt(o.nonce ?? "0"),
      expiry: BigInt(o.expiry ?? "0"),
      taker: o.taker ?? "",
    },
    signature: signed.signature,
  };
}

/** The settlement TWAP window (FuturesSettlement.TWAP_WINDOW_SEC). */
export const TWAP_WINDOW_SEC = 3600n;

const AGGREGATOR_ABI = [
  "function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)",
  "function getRoundData(uint80) view returns (uint80, int256, uint256, uint256, uint80)",
];

/**
 * The hints of `fixSettlementPriceAt` for a series expiring at `expiry`: the market's own search
 * (`settlementTwapHints`), else — once the oracle's round look-back no longer reaches the window — read from the
 * feed's rounds, walking back from the latest (the market verifies them either way).
 */
export async function settlementHints(
  protocol: Protocol,
  futures: FuturesMarket,
  id: bigint,
  expiry: bigint,
): Promise<{ first: bigint; changes: bigint[] }> {
  const [first, changes] = await futures.settlementTwapHints(id);
  if (first !== 0n) return { first, changes: [...changes] };
  const feedAddr = (await protocol.oracle.feedConfig()).feed;
  const feed = new Contract(feedAddr, AGGREGATOR_ABI, protocol.oracle.runner);
  const start = expiry - TWAP_WINDOW_SEC;
  let [round, , , at] = (await feed.getFunction("latestRoundData")()) as [bigint, bigint, bigint, bigint];
  const inWindow: bigint[] = [];
  while (at > start) {
    if (at < expiry) inWindow.unshift(at);
    if (round <= 1n) throw new TaskError(`The feed has no round in force at the window start ${fmtTime(start)}.`);
    round -= 1n;
    [, , , at] = (await feed.getFunction("getRoundData")(round)) as [bigint, bigint, bigint, bigint];
  }
  return { first: round, changes: inWindow };
}
