/**
 * Gas pricing and the per-job spending policy. A quote is taken once per tick (EIP-1559: max fee = 2 × base fee +
 * tip; legacy chains: gas price). Non-priority work is skipped above the job's ceiling or when its bounty does not
 * cover the expected cost; priority work (bad debt, liveness) is never skipped for price.
 */
import { parseUnits } from "ethers";
import type { ChainClient } from "./client.js";

export interface FeeQuote {
  baseFeeWei: bigint;
  priorityFeeWei: bigint;
  maxFeeWei: bigint;
  /** Fee the transaction is expected to actually pay per gas (base + tip, capped at max). */
  effectiveWei: bigint;
  legacy: boolean;
}

export function gwei(n: number): bigint {
  return parseUnits(n.toFixed(9), "gwei");
}

/**
 * The fee quote at `latest`. `head` is the latest block when the caller has just read it (the tick's head): its base
 * fee is used instead of reading the block again (null: a pre-London chain, priced by eth_gasPrice).
 */
export async function quoteFees(
  client: ChainClient,
  defaultPriorityFeeGwei: number,
  head?: { baseFeePerGas: bigint | null },
): Promise<FeeQuote> {
  const block =
    head !== undefined
      ? { baseFeePerGas: head.baseFeePerGas ?? undefined }
      : await client.send<{ baseFeePerGas?: string } | null>("eth_getBlockByNumber", ["latest", false]);
  if (block?.baseFeePerGas === undefined || block.baseFeePerGas === null) {
    const price = BigInt(await client.send<string>("eth_gasPrice", []));
    return { baseFeeWei: price, priorityFeeWei: 0n, maxFeeWei: price, effectiveWei: price, legacy: true };
  }
  const baseFeeWei = BigInt(block.baseFeePerGas);
  let priorityFeeWei: bigint;
  try {
    priorityFeeWei = BigInt(await client.send<string>("eth_maxPriorityFeePerGas", []));
  } catch {
    priorityFeeWei = gwei(defaultPriorityFeeGwei);
  }
  const maxFeeWei = 2n * baseFeeWei + priorityFeeWei;
  return { baseFeeWei, priorityFeeWei, maxFeeWei, effectiveWei: baseFeeWei + priorityFeeWei, legacy: false };
}

export interface SpendDecision {
  send: boolean;
  /** Why it was skipped (one clause), or why a priority action goes ahead despite the price. */
  reason?: string;
}

/**
 * @param gasUnits estimated gas of the action
 * @param rewardWei the bounty the action is expected to earn (undefined: unknown, only the ceiling applies)
 */
export function decideSpend(
  quote: FeeQuote,
  gasUnits: bigint,
  opts: { priority: boolean; ceilingWei: bigint; minProfitFactor: number; rewardWei?: bigint },
): SpendDecision {
  const costWei = gasUnits * quote.effectiveWei;
  const overCeiling = quote.maxFeeWei > opts.ceilingWei;
  const factorPpm = BigInt(Math.round(opts.minProfitFactor * 1e6));
  const unprofitable = opts.rewardWei !== undefined && opts.rewardWei * 1_000_000n < costWei * factorPpm;
  if (opts.priority) {
    if (overCeiling || unprofitable) {
      return { send: true, reason: "priority work goes ahead above the gas ceiling / at a loss" };
    }
    return { send: true };
  }
  if (overCeiling) {
    return { send: false, reason: `max fee ${quote.maxFeeWei} wei/gas is above the job ceiling ${opts.ceilingWei}` };
  }
  if (unprofitable) {
    return { send: false, reason: `expected cost ${costWei} wei exceeds the bounty ${opts.rewardWei} wei` };
  }
  return { send: true };
}

/** Fees for the next replacement: at least `bumpPercent` above the last, and at least the current quote. */
export function bumpFees(
  last: { maxFeeWei: bigint; priorityFeeWei: bigint },
  quote: FeeQuote,
  bumpPercent: number,
): { maxFeeWei: bigint; priorityFeeWei: bigint } {
  const b = BigInt(100 + bumpPercent);
  const tip = (last.priorityFeeWei * b) / 100n + 1n;
  const max = (last.maxFeeWei * b) / 100n + 1n;
  const priorityFeeWei = tip > quote.priorityFeeWei ? tip : quote.priorityFeeWei;
  let maxFeeWei = max > quote.maxFeeWei ? max : quote.maxFeeWei;
  if (maxFeeWei < priorityFeeWei) maxFeeWei = priorityFeeWei;
  return { maxFeeWei, priorityFeeWei };
}
