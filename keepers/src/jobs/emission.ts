/**
 * Emission job (docs/emission.md, SPEC section 5): closes due 15-day epochs (`closeEpochs(n)`, liveness: priority)
 * and pages the GFL median rebalancing (`rebalance(n)`) through every provider after each close. When Emission
 * collects its samples from a sample source (the ProviderRegistry's rings, issue 18), an ended epoch first pages
 * through `collect(n)` (priority too: the close waits for it) until every provider with samples is collected; the
 * close and the rebalance pass follow on the next tick (a close sent while the collection is pending would collect
 * one batch and not close).
 *
 * Scan (at head − confirmations, on-chain state only): `currentEpoch`, `epochDue`, `epochStart` of the next two
 * epochs (how many are due), `rebalanceProgress` (cursor, total), `providerCount` / `providerAt` (batch labels)
 * and `keeperConfig` (the batch size governance proposes). Plan: the closes first (priority), then the batches of
 * the pass the closes start, or of the pass still under way. Idempotency keys: (action, cursor, epoch):
 *   emission.closeEpochs:-:<first epoch closed>      emission.rebalance:<cursor>:<open epoch>
 *   emission.collect:<collection cursor>:<ended epoch>
 * Racing keepers: `EmissionEpochNotDue` (the close was done), `EmissionRebalanceComplete` (the pass was done) and
 * `EmissionCollectionComplete` (the collection was done) are "already done". `rebalance(n)` works from the on-chain cursor, so the batches of one tick are pipelined in
 * nonce order; a keeper losing a race finds the pass further on and its surplus batches read already-done.
 */
import { getAddress, ZeroAddress } from "ethers";
import { Emission__factory, ProviderRegistry__factory } from "@chx/sdk";
import { ConfigError } from "../config.js";
import { addressOf, JobUnavailable } from "../deployments.js";
import { mapLimit } from "../util.js";
import type { Action, Candidate, JobContext, JobFactory, KeeperJob } from "./types.js";

/** Emission.sol constants the job must respect (MAX_BATCH, MAX_CLOSES, MAX_LAZY_CLOSES). */
export const EMISSION_MAX_BATCH = 200;
export const EMISSION_MAX_CLOSES = 256;
export const EMISSION_MAX_LAZY_CLOSES = 64;
/** EIP-7825 per-transaction gas cap. */
export const TX_GAS_CAP = 16_777_216;
/**
 * Gas model for the batch bound (bench suite `emission`, docs/emission.md "Gas"): a provider's first GFL ever costs
 * 50.4k (steady 33.1k), a lazily closed epoch ≈ 25k, the call itself with the funding mint ≈ 250k. Rounded up, so
 * `batch ≤ (maxTxGas − 300k − 30k × epochs still due) / 60k` (127 at the 8M default; the contract caps at 200).
 */
export const GAS_PER_PROVIDER = 60_000;
export const GAS_PER_EPOCH_CLOSE = 30_000;
export const GAS_PER_CALL = 300_000;

export interface EmissionJobOptions {
  /** Deployment name (default "Emission"). */
  contract?: string;
  /** Providers per `rebalance` transaction (default: the contract's `keeperBatchSize`); bounded, see maxTxGas. */
  batchSize?: number;
  /** Epochs per `closeEpochs` transaction (default 64). */
  maxEpochsPerTx?: number;
  /**
   * Gas budget of one transaction (default 8,000,000, at most 12,000,000): batches and close runs are cut so the
   * worst case stays under it — far under the 16,777,216 cap.
   */
  maxTxGas?: number;
  /**
   * Rebalance transactions planned per tick (default 20): bounds the simulations a tick runs; the next tick goes on
   * from the cursor (batches in flight are held back by their keys).
   */
  maxBatchesPerTick?: number;
  /** Native wei per 1 DPS (decimal string): turns DPS bounties into `rewardWei` for the profit check (default: unknown). */
  dpsPriceWei?: string;
}

interface CloseWork {
  kind: "close";
  /** First epoch this transaction closes. */
  fromEpoch: bigint;
  epochs: number;
}

interface CollectWork {
  kind: "collect";
  /** The ended open epoch being collected. */
  epoch: bigint;
  /** Index of the source's provider list this batch starts at (the cursor once the batches before it ran). */
  cursor: bigint;
  batch: number;
  /** Length of the source's provider list. */
  total: bigint;
}

interface RebalanceWork {
  kind: "rebalance";
  /** Open epoch during the pass (providers are rebalanced for `epoch − 1`). */
  epoch: bigint;
  cursor: bigint;
  batch: number;
  total: bigint;
  /** Provider at `cursor` (for logs), when known. */
  first?: string;
}

export type EmissionWork = CloseWork | CollectWork | RebalanceWork;

/**
 * Emission's collection word (ERC-7201 namespace chx.storage.Emission, slot 19 of EmissionStorage: `sampleSource`,
 * `collectCursor`, `collectedCount`, `collectDone`; storage-layouts/Emission.json pins it). Emission exposes no view
 * of it (its size target has no room); the job reads the word to plan exactly the batches still needed.
 */
export const EMISSION_COLLECT_SLOT = 0x404a79aa38836b97905b69fae1af4f085be047fdfd4dc0d44c8aa3317c5f7600n + 19n;

export interface CollectState {
  source: string;
  cursor: bigint;
  collected: bigint;
  done: boolean;
}

/** Decodes the collection word. */
export function decodeCollectWord(word: string): CollectState {
  const w = BigInt(word);
  const mask32 = (1n << 32n) - 1n;
  return {
    source: getAddress("0x" + (w & ((1n << 160n) - 1n)).toString(16).padStart(40, "0")),
    cursor: (w >> 160n) & mask32,
    collected: (w >> 192n) & mask32,
    done: ((w >> 224n) & 0xffn) !== 0n,
  };
}

/**
 * Collection batches of `batch` providers still needed, at most: the list left from the cursor, and the providers
 * with samples left to collect (a batch collects at most `batch`), whichever needs fewer — never a surplus batch
 * that would revert; a sparse list finishes on a later tick.
 */
export function collectBatches(s: CollectState, length: bigint, sampled: bigint, batch: number): number {
  if (s.done || sampled <= s.collected || s.cursor >= length) return 0;
  const b = BigInt(batch);
  const byList = (length - s.cursor + b - 1n) / b;
  const bySamples = (sampled - s.collected + b - 1n) / b;
  return Number(byList < bySamples ? byList : bySamples);
}

export interface EmissionLimits {
  batchSize: number;
  maxEpochsPerTx: number;
  maxTxGas: number;
  maxBatchesPerTick: number;
}

/** Validates the options and derives the per-transaction bounds (throws one clear sentence). */
export function emissionLimits(opts: EmissionJobOptions, onChainBatch?: number, lazyCloses = 0): EmissionLimits {
  const int = (name: string, v: unknown, lo: number, hi: number): number => {
    if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > hi) {
      throw new ConfigError(
        `Config "jobs.emission.${name}" must be an integer from ${lo} to ${hi} (got ${String(v)}).`,
      );
    }
    return v;
  };
  const maxTxGas = int("maxTxGas", opts.maxTxGas ?? 8_000_000, 1_000_000, 12_000_000);
  const gasBatch = Math.floor((maxTxGas - GAS_PER_CALL - lazyCloses * GAS_PER_EPOCH_CLOSE) / GAS_PER_PROVIDER);
  const gasCloses = Math.floor((maxTxGas - GAS_PER_CALL) / GAS_PER_EPOCH_CLOSE);
  const wantBatch = opts.batchSize ?? onChainBatch ?? 100;
  const batchSize = Math.min(int("batchSize", wantBatch, 1, EMISSION_MAX_BATCH), Math.max(1, gasBatch));
  const wantCloses = int("maxEpochsPerTx", opts.maxEpochsPerTx ?? 64, 1, EMISSION_MAX_CLOSES);
  const maxBatchesPerTick = int("maxBatchesPerTick", opts.maxBatchesPerTick ?? 20, 1, 1_000);
  return { batchSize, maxEpochsPerTx: Math.min(wantCloses, Math.max(1, gasCloses)), maxTxGas, maxBatchesPerTick };
}

const OPTION_KEYS = ["contract", "batchSize", "maxEpochsPerTx", "maxTxGas", "maxBatchesPerTick", "dpsPriceWei"];

export const CLOSE_ACTION = "emission.closeEpochs";
export const REBALANCE_ACTION = "emission.rebalance";
export const COLLECT_ACTION = "emission.collect";

export function emissionJob(address: string, opts: EmissionJobOptions = {}): KeeperJob<EmissionWork> {
  const iface = Emission__factory.createInterface();
  // Fail at startup, in one sentence, on a bad or misspelt option.
  for (const k of Object.keys(opts)) {
    if (!OPTION_KEYS.includes(k)) {
      throw new ConfigError(`Unknown option "jobs.emission.${k}" (known: ${OPTION_KEYS.join(", ")}).`);
    }
  }
  emissionLimits(opts);
  if (opts.dpsPriceWei !== undefined && !/^\d+$/.test(String(opts.dpsPriceWei))) {
    throw new ConfigError(
      `Config "jobs.emission.dpsPriceWei" must be a decimal string of wei per DPS (got ${JSON.stringify(opts.dpsPriceWei)}).`,
    );
  }
  const price = opts.dpsPriceWei === undefined ? undefined : BigInt(opts.dpsPriceWei);
  const name = opts.contract ?? "Emission";
  return {
    name: "emission",
    summary:
      `close due epochs (priority) and rebalance GFL in batches on ${name} at ${address}` +
      (opts.batchSize === undefined ? " (batch: the contract's keeperBatchSize)" : ` (batch ${opts.batchSize})`),
    alreadyDoneErrors: ["EmissionEpochNotDue", "EmissionRebalanceComplete", "EmissionCollectionComplete"],
    async scan(ctx: JobContext): Promise<Candidate<EmissionWork>[]> {
      const blockTag = ctx.safeBlock;
      const read = <T>(label: string, fn: (e: ReturnType<typeof Emission__factory.connect>) => Promise<T>) =>
        ctx.client.read(label, (p) => fn(Emission__factory.connect(address, p)));
      const [current, due, [cursor, total], count, [, , onChainBatch]] = await Promise.all([
        read("currentEpoch", (e) => e.currentEpoch({ blockTag })),
        read("epochDue", (e) => e.epochDue({ blockTag })),
        read("rebalanceProgress", (e) => e.rebalanceProgress({ blockTag })),
        read("providerCount", (e) => e.providerCount({ blockTag })),
        read("keeperConfig", (e) => e.keeperConfig({ blockTag })),
      ]);
      const closeLimits = emissionLimits(opts, Number(onChainBatch));
      const out: Candidate<EmissionWork>[] = [];

      // 0. The ended epoch's collection (sample source set, providers with samples not collected yet): its batches
      //    first (priority: the close waits for them); the close and the rebalance pass follow next tick.
      if (due) {
        const word = await ctx.client.read("getStorage", (p) => p.getStorage(address, EMISSION_COLLECT_SLOT, blockTag));
        const state = decodeCollectWord(word);
        if (state.source !== ZeroAddress && !state.done) {
          const [length, sampled] = await ctx.client.read("capacitySamplesAt", (p) =>
            ProviderRegistry__factory.connect(state.source, p).capacitySamplesAt(0n, 0n, current, { blockTag }),
          );
          const batch = closeLimits.batchSize;
          const n = Math.min(collectBatches(state, length!, sampled!, batch), closeLimits.maxBatchesPerTick);
          for (let i = 0; i < n; i++) {
            const from = state.cursor + BigInt(i * batch);
            out.push({
              key: { action: COLLECT_ACTION, id: from.toString(), epoch: current.toString() },
              priority: true,
              data: { kind: "collect", epoch: current, cursor: from, batch, total: length! },
            });
          }
          if (n > 0) return price === undefined ? out : priced(out);
        }
      }

      // 1. Epoch closes: liveness work, never skipped on a gas spike.
      let dueEpochs = 0n;
      if (due) {
        const ts =
          ctx.safeBlock === ctx.head.number
            ? ctx.head.timestamp
            : ((await ctx.client.read("getBlock", (p) => p.getBlock(blockTag)))?.timestamp ?? ctx.head.timestamp);
        const [next, after] = await Promise.all([
          read("epochStart", (e) => e.epochStart(current + 1n, { blockTag })),
          read("epochStart", (e) => e.epochStart(current + 2n, { blockTag })),
        ]);
        dueEpochs = (BigInt(ts) - next) / (after - next) + 1n;
        const perTx = BigInt(closeLimits.maxEpochsPerTx);
        for (let from = current; from < current + dueEpochs; from += perTx) {
          const left = current + dueEpochs - from;
          const epochs = Number(left < perTx ? left : perTx);
          out.push({
            key: { action: CLOSE_ACTION, id: "-", epoch: from.toString() },
            priority: true,
            data: { kind: "close", fromEpoch: from, epochs },
          });
        }
      }

      // 2. The rebalance pass: the one the closes start (from 0), or the one under way. Providers the pass does not
      //    reach are settled lazily by the contract, so this is ordinary (gas-ceiling) work. Beyond 64 due epochs
      //    `rebalance` would revert EmissionEpochsBehind until the closes land: plan it on the next tick.
      const openEpoch = current + dueEpochs;
      const providers = count < total ? total : count;
      const start = dueEpochs > 0n ? 0n : cursor;
      if (openEpoch > 0n && start < providers && dueEpochs <= BigInt(EMISSION_MAX_LAZY_CLOSES)) {
        // The first batch closes on its way whatever epochs are still due when it runs (if our close failed).
        const limits = emissionLimits(opts, Number(onChainBatch), Number(dueEpochs));
        const batch = BigInt(limits.batchSize);
        const starts: bigint[] = [];
        for (let c = start; c < providers && starts.length < limits.maxBatchesPerTick; c += batch) starts.push(c);
        const firsts = await mapLimit(starts, 8, (c) =>
          c < count ? read("providerAt", (e) => e.providerAt(c, { blockTag })) : Promise.resolve(undefined),
        );
        starts.forEach((c, i) => {
          out.push({
            key: { action: REBALANCE_ACTION, id: c.toString(), epoch: openEpoch.toString() },
            priority: false,
            data: {
              kind: "rebalance",
              epoch: openEpoch,
              cursor: c,
              batch: limits.batchSize,
              total: providers,
              first: firsts[i],
            },
          });
        });
      }

      return price === undefined || out.length === 0 ? out : priced(out);

      // Expected bounties, when the operator gives a DPS price (else the gas ceiling alone decides).
      async function priced(cands: Candidate<EmissionWork>[]): Promise<Candidate<EmissionWork>[]> {
        const [[bounty], [, budget]] = await Promise.all([
          read("keeperConfig", (e) => e.keeperConfig({ blockTag })),
          read("pools", (e) => e.pools({ blockTag })),
        ]);
        let left = budget;
        for (const c of cands) {
          const d = c.data;
          let dps =
            d.kind === "close"
              ? bounty.closeBountyDps * BigInt(d.epochs)
              : bounty.perProviderBountyDps * BigInt(Math.min(d.batch, Number(d.total - d.cursor)));
          if (dps > bounty.maxBountyDps) dps = bounty.maxBountyDps;
          if (dps > left) dps = left;
          left -= dps;
          c.rewardWei = (dps * price!) / 10n ** 18n;
        }
        return cands;
      }
    },
    async plan(_ctx, candidates): Promise<Action[]> {
      return candidates.map((c) => {
        const d = c.data;
        const common = { key: c.key, priority: c.priority, rewardWei: c.rewardWei, to: address };
        if (d.kind === "close") {
          const last = d.fromEpoch + BigInt(d.epochs) - 1n;
          return {
            ...common,
            data: iface.encodeFunctionData("closeEpochs", [d.epochs]),
            description: `closeEpochs(${d.epochs}): close epoch ${d.fromEpoch === last ? d.fromEpoch : `${d.fromEpoch}-${last}`} (priority)`,
          };
        }
        const end = d.cursor + BigInt(d.batch) < d.total ? d.cursor + BigInt(d.batch) : d.total;
        if (d.kind === "collect") {
          return {
            ...common,
            data: iface.encodeFunctionData("collect", [d.batch]),
            description: `collect(${d.batch}): providers ${d.cursor}-${end - 1n} of ${d.total} for epoch ${d.epoch} (priority)`,
          };
        }
        return {
          ...common,
          data: iface.encodeFunctionData("rebalance", [d.batch]),
          description:
            `rebalance(${d.batch}): providers ${d.cursor}-${end - 1n} of ${d.total}` +
            `${d.first === undefined ? "" : ` from ${d.first}`} for epoch ${d.epoch - 1n}`,
        };
      });
    },
  };
}

export const emissionFactory: JobFactory = {
  name: "emission",
  description:
    "Emission: collect the ended epoch's samples and close due 15-day epochs (priority), then page the GFL median rebalancing.",
  covers: ["Emission"],
  create({ deployment, config }) {
    const opts = config.options as EmissionJobOptions;
    const contract = opts.contract ?? "Emission";
    if (deployment.contracts[contract] === undefined)
      throw new JobUnavailable(`${contract} is not in ${deployment.file}`);
    return emissionJob(addressOf(deployment, contract), opts);
  },
};
