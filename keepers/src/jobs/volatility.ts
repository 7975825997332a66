/**
 * Volatility job (docs/clearing.md "Risk engine", SPEC section 7): keeps every σ the margin rates are built from
 * current through the RiskEngine's permissionless updates, each when it is due.
 *
 * - The index σ: `updateVolatility()` when no update was made yet or `minUpdateInterval` seconds after the last one.
 *   Key `volatility.update:-:<lastUpdate>`.
 * - Each market with its own model (issue 20 item 3, `setMarketVolParams`): `updateMarketVolatility(market)` when
 *   the market has no reference price yet (a model just set) or `minUpdateInterval` seconds after its last update.
 *   Key `volatility.updateMarket:<market>:<lastUpdate>`. The markets are discovered from the RiskEngine's
 *   `MarketVolParamsSet` events (scanned incrementally from its deploy block, as the liquidations job discovers
 *   accounts), so a market governance gives a model later is picked up without a config change; a model set to
 *   zero (`staleAfterSec == 0`) is skipped. A market whose σ no keeper updates is margined at its stale σ once
 *   `staleAfterSec` passes: the work is still ordinary (gas ceiling, profit check), a late update only folds a
 *   longer return, scaled by the elapsed intervals.
 *
 * - Each tenor bucket of a futures market (docs/clearing.md "Per-tenor σ", `setTenorVolParams`):
 *   `updateTenorVolatility(market, bucket)` on the same rule (no reference price yet, or `minUpdateInterval` after its
 *   last update), every bucket that is due. Key `volatility.updateTenor:<market>/<bucket>:<lastUpdate>`. Buckets are
 *   discovered from `TenorVolParamsSet` events in the same scan; a removed bucket (`staleAfterSec == 0`) is skipped.
 *   The contract pays one bounty per bucket per interval, so racing keepers cannot farm more.
 *
 * Scan (at head − confirmations): `volatility()`, `volatilityParams()`, `marketVolatility(m)` per known market, the
 * block's timestamp. Racing keepers: the loser reverts `RiskUpdateTooEarly`: already done. A stale oracle makes both
 * revert until the feed recovers (expected: deferred with back-off).
 */
import { RiskEngine__factory } from "@chx/sdk";
import { ConfigError } from "../config.js";
import { addressOf, JobUnavailable } from "../deployments.js";
import { LogScanner } from "../chain/logs.js";
import { blockHash } from "../chain/blocks.js";
import type { Action, Candidate, JobContext, JobFactory, KeeperJob } from "./types.js";

export interface VolatilityJobOptions {
  /** RiskEngine deployment name (default "RiskEngine"). */
  contract?: string;
  /** Update the markets' own σ too (default true). */
  markets?: boolean;
  /** First block of the `MarketVolParamsSet` scan (default: the RiskEngine's deploy block). */
  fromBlock?: number;
}

const OPTION_KEYS = ["contract", "markets", "fromBlock"];

export const VOLATILITY_ACTION = "volatility.update";
export const MARKET_VOLATILITY_ACTION = "volatility.updateMarket";
export const TENOR_VOLATILITY_ACTION = "volatility.updateTenor";

export interface VolatilityWork {
  /** The market whose own σ is due; undefined for the index σ. */
  market?: string;
  /** The tenor bucket whose σ is due (with `market`); undefined for the market's own σ. */
  bucket?: number;
  lastUpdate: bigint;
  dueAt: bigint;
}

export function volatilityJob(
  address: string,
  opts: VolatilityJobOptions = {},
  deployBlock = 0,
): KeeperJob<VolatilityWork> & { readonly markets: () => string[]; readonly tenors: () => string[] } {
  for (const k of Object.keys(opts)) {
    if (!OPTION_KEYS.includes(k))
      throw new ConfigError(`Unknown option "jobs.volatility.${k}" (known: ${OPTION_KEYS.join(", ")}).`);
  }
  if (opts.markets !== undefined && typeof opts.markets !== "boolean")
    throw new ConfigError(`Config "jobs.volatility.markets" must be true or false.`);
  if (opts.fromBlock !== undefined && (!Number.isSafeInteger(opts.fromBlock) || opts.fromBlock < 0))
    throw new ConfigError(`Config "jobs.volatility.fromBlock" must be a block number.`);
  const withMarkets = opts.markets ?? true;
  const fromBlock = opts.fromBlock ?? deployBlock;
  const iface = RiskEngine__factory.createInterface();
  const paramsTopic = iface.getEvent("MarketVolParamsSet").topicHash;
  const tenorTopic = iface.getEvent("TenorVolParamsSet").topicHash;
  const scanner = new LogScanner({ initialRange: 2_000, maxRange: 10_000 });
  /** Markets with a model (lower-case address → display address), and the last block scanned for models. */
  const known = new Map<string, string>();
  /** Tenor buckets with a model: "<market lower-case>/<bucket>" → [market, bucket]. */
  const tenors = new Map<string, [string, number]>();
  let scannedTo = -1;
  /** The hash the scan's last block had, and the head under which it was last found canonical. */
  let scannedHash = "";
  let checkedHead = "";

  async function discover(ctx: JobContext): Promise<void> {
    const to = ctx.safeBlock;
    if (scannedTo >= 0 && ctx.head.hash !== checkedHead) {
      // A reorg deeper than the confirmations replaced the scan's last block — at a lower head or at the same or a
      // higher one (a model set in the replaced blocks may be gone, one set in the new blocks not yet read): rebuild.
      // Governance events are few, so the rebuild is a short scan (docs/keepers.md, "Reorgs and the account set").
      if (to < scannedTo || (await blockHash(ctx.client, ctx.head, scannedTo)) !== scannedHash) {
        known.clear();
        tenors.clear();
        scannedTo = -1;
        scannedHash = "";
      } else checkedHead = ctx.head.hash;
    }
    const start = Math.max(fromBlock, scannedTo + 1);
    if (start > to) return;
    const before = scannedTo;
    await scanner.scan(ctx.client, { address, topics: [[paramsTopic, tenorTopic]] }, start, to, (logs, end) => {
      for (const l of logs) {
        const parsed = iface.parseLog(l)!;
        const market = parsed.args.market as string;
        if (parsed.name === "TenorVolParamsSet") {
          const bucket = Number(parsed.args.bucket as bigint);
          tenors.set(`${market.toLowerCase()}/${bucket}`, [market, bucket]);
        } else known.set(market.toLowerCase(), market);
      }
      scannedTo = end;
    });
    if (scannedTo !== before) {
      scannedHash = await blockHash(ctx.client, ctx.head, scannedTo);
      checkedHead = ctx.head.hash;
    }
  }

  return {
    name: "volatility",
    summary:
      `update the EWMA volatility when due on ${opts.contract ?? "RiskEngine"} at ${address}` +
      (withMarkets ? " (the index σ and every market with its own σ model)" : " (the index σ only)"),
    alreadyDoneErrors: ["RiskUpdateTooEarly"],
    // A stale / out-of-bounds / sequencer-down oracle makes the update revert until the feed recovers: a warning
    // with back-off, not an error every tick (issue 25).
    expectedErrors: [/^Oracle/],
    markets: () => [...known.values()],
    tenors: () => [...tenors.keys()],
    async scan(ctx: JobContext): Promise<Candidate<VolatilityWork>[]> {
      const blockTag = ctx.safeBlock;
      const risk = (p: Parameters<typeof RiskEngine__factory.connect>[1]) => RiskEngine__factory.connect(address, p);
      const [[, , , lastUpdate], [, interval], ts] = await Promise.all([
        ctx.client.read("volatility", (p) => risk(p).volatility({ blockTag })),
        ctx.client.read("volatilityParams", (p) => risk(p).volatilityParams({ blockTag })),
        ctx.safeBlock === ctx.head.number
          ? Promise.resolve(ctx.head.timestamp)
          : ctx.client.read("getBlock", (p) => p.getBlock(blockTag)).then((b) => b?.timestamp ?? ctx.head.timestamp),
      ]);
      const out: Candidate<VolatilityWork>[] = [];
      const dueAt = lastUpdate === 0n ? 0n : lastUpdate + interval;
      if (BigInt(ts) >= dueAt) {
        out.push({
          key: { action: VOLATILITY_ACTION, id: "-", epoch: lastUpdate.toString() },
          priority: false,
          data: { lastUpdate, dueAt },
        });
      }
      if (!withMarkets) return out;
      await discover(ctx);
      const markets = [...known.values()];
      const states = await Promise.all(
        markets.map((m) => ctx.client.read("marketVolatility", (p) => risk(p).marketVolatility(m, { blockTag }))),
      );
      for (const [i, market] of markets.entries()) {
        const [params, state] = states[i]!;
        if (params.staleAfterSec === 0n) continue; // the model was removed: the market uses the index σ
        // no reference price yet (a model just set): due at once; then one update per interval
        const due = state.lastPriceWad === 0n ? 0n : state.lastUpdate + interval;
        if (BigInt(ts) < due) continue;
        out.push({
          key: { action: MARKET_VOLATILITY_ACTION, id: market.toLowerCase(), epoch: state.lastUpdate.toString() },
          priority: false,
          data: { market, lastUpdate: state.lastUpdate, dueAt: due },
        });
      }
      const buckets = [...tenors.entries()];
      const tenorStates = await Promise.all(
        buckets.map(([, [m, b]]) =>
          ctx.client.read("tenorVolatility", (p) => risk(p).tenorVolatility(m, b, { blockTag })),
        ),
      );
      for (const [i, [id, [market, bucket]]] of buckets.entries()) {
        const [params, state] = tenorStates[i]!;
        if (params.staleAfterSec === 0n) continue; // the bucket was removed
        const due = state.lastPriceWad === 0n ? 0n : state.lastUpdate + interval;
        if (BigInt(ts) < due) continue;
        out.push({
          key: { action: TENOR_VOLATILITY_ACTION, id, epoch: state.lastUpdate.toString() },
          priority: false,
          data: { market, bucket, lastUpdate: state.lastUpdate, dueAt: due },
        });
      }
      return out;
    },
    async plan(_ctx, candidates): Promise<Action[]> {
      return candidates.map((c) => {
        const { market, bucket, dueAt, lastUpdate } = c.data;
        const [data, call] =
          market === undefined
            ? [iface.encodeFunctionData("updateVolatility"), "updateVolatility()"]
            : bucket === undefined
              ? [iface.encodeFunctionData("updateMarketVolatility", [market]), `updateMarketVolatility(${market})`]
              : [
                  iface.encodeFunctionData("updateTenorVolatility", [market, bucket]),
                  `updateTenorVolatility(${market}, ${bucket})`,
                ];
        return {
          key: c.key,
          priority: false,
          rewardWei: c.rewardWei,
          to: address,
          data,
          description: `${call}: due since ${dueAt} (last update ${lastUpdate})`,
        };
      });
    },
  };
}

export const volatilityFactory: JobFactory = {
  name: "volatility",
  description:
    "RiskEngine: the permissionless EWMA volatility updates when due (the index σ, every market's own σ and every futures tenor bucket's).",
  covers: ["VolatilityChecker"],
  create({ deployment, config }) {
    const opts = config.options as VolatilityJobOptions;
    const contract = opts.contract ?? "RiskEngine";
    if (deployment.contracts[contract] === undefined)
      throw new JobUnavailable(`${contract} is not in ${deployment.file}`);
    return volatilityJob(addressOf(deployment, contract), opts, deployment.contracts[contract]?.deployBlock ?? 0);
  },
};
