/**
 * Liquidation job (docs/clearing.md, SPEC section 7): liquidates every account below maintenance margin through the
 * permissionless `LiquidationEngine.liquidate(account)`. Priority: a liquidation is bad-debt work, sent whatever the
 * gas price (OPS-02).
 *
 * The ClearingHouse keeps no enumerable list of accounts (it would cost every trade a storage write), so the job
 * builds one from its events: `PositionModified`, `PositionLiquidated` (both carry the size after) and
 * `AccountSettled`, read in pages from the ClearingHouse's deploy block up to `head − confirmations` and then
 * incrementally, tick by tick. The set (account → market → size, and the block of the account's last event) lives
 * in memory; a keeper restart rebuilds it. If the scanned block moves backwards (a reorg deeper than the
 * confirmations, or a test node rewound) the set is rebuilt from scratch.
 *
 * Each account with an open position is checked with the view `isLiquidatable(account)` at the same block.
 * Idempotency key: `liquidations.liquidate:<account>:<block of the account's last ClearingHouse event>`: a
 * liquidation emits `PositionLiquidated`, so a later liquidation of the same account (the price fell further) has
 * a new key, while a lagging scan repeats the old one and the memo holds it back. Racing keepers: the loser's call
 * reverts `LiquidationAccountHealthy` (the account is back at initial margin or closed): already done (OPS-01).
 */
import { ClearingHouse__factory, LiquidationEngine__factory } from "../../../types/ethers-contracts/index.js";
import { ConfigError } from "../config.js";
import { addressOf, JobUnavailable, type DeploymentInfo } from "../deployments.js";
import { mapLimit } from "../util.js";
import type { Action, Candidate, JobContext, JobFactory, KeeperJob } from "./types.js";

export interface LiquidationJobOptions {
  /** ClearingHouse deployment name (default "ClearingHouse"). */
  clearingHouse?: string;
  /** LiquidationEngine deployment name (default "LiquidationEngine"). */
  contract?: string;
  /** First block of the event scan (default: the ClearingHouse's deploy block, else 0). */
  fromBlock?: number;
  /** Blocks per `eth_getLogs` page (default 5,000; 1 to 100,000). */
  logPageBlocks?: number;
  /** Parallel `isLiquidatable` calls (default 8; 1 to 64). */
  concurrency?: number;
}

const OPTION_KEYS = ["clearingHouse", "contract", "fromBlock", "logPageBlocks", "concurrency"];

export const LIQUIDATE_ACTION = "liquidations.liquidate";

export interface LiquidationWork {
  account: string;
  equityUsdc: bigint;
  maintenanceMarginUsdc: bigint;
}

interface Tracked {
  /** market (lower-case) → size after the last event (CH WAD). */
  sizes: Map<string, bigint>;
  /** Block of the account's last ClearingHouse event (the key's epoch). */
  lastBlock: number;
}

/**
 * The accounts with positions, from ClearingHouse events: fed pages of logs in block order, it keeps
 * account → market → size; `open()` is the accounts with a non-zero position.
 */
export class AccountSet {
  readonly accounts = new Map<string, Tracked>();
  /** Last block included (−1: nothing yet). */
  scannedTo = -1;

  reset(): void {
    this.accounts.clear();
    this.scannedTo = -1;
  }

  apply(account: string, market: string, sizeCh: bigint | undefined, block: number): void {
    const a = account.toLowerCase();
    let t = this.accounts.get(a);
    if (t === undefined) {
      t = { sizes: new Map(), lastBlock: block };
      this.accounts.set(a, t);
    }
    t.lastBlock = Math.max(t.lastBlock, block);
    if (sizeCh !== undefined) {
      if (sizeCh === 0n) t.sizes.delete(market.toLowerCase());
      else t.sizes.set(market.toLowerCase(), sizeCh);
    }
  }

  /** Accounts with at least one open position, each with the block of its last event. */
  open(): Array<{ account: string; lastBlock: number }> {
    const out: Array<{ account: string; lastBlock: number }> = [];
    for (const [account, t] of this.accounts) if (t.sizes.size > 0) out.push({ account, lastBlock: t.lastBlock });
    return out;
  }
}

function intOption(name: string, v: unknown, dflt: number, lo: number, hi: number): number {
  const x = v ?? dflt;
  if (typeof x !== "number" || !Number.isInteger(x) || x < lo || x > hi) {
    throw new ConfigError(
      `Config "jobs.liquidations.${name}" must be an integer from ${lo} to ${hi} (got ${String(v)}).`,
    );
  }
  return x;
}

export function liquidationJob(
  clearingHouse: string,
  engine: string,
  opts: LiquidationJobOptions = {},
  deployBlock = 0,
): KeeperJob<LiquidationWork> & { readonly set: AccountSet } {
  for (const k of Object.keys(opts)) {
    if (!OPTION_KEYS.includes(k)) {
      throw new ConfigError(`Unknown option "jobs.liquidations.${k}" (known: ${OPTION_KEYS.join(", ")}).`);
    }
  }
  const fromBlock = intOption("fromBlock", opts.fromBlock, deployBlock, 0, Number.MAX_SAFE_INTEGER);
  const page = intOption("logPageBlocks", opts.logPageBlocks, 5_000, 1, 100_000);
  const concurrency = intOption("concurrency", opts.concurrency, 8, 1, 64);
  const chIface = ClearingHouse__factory.createInterface();
  const engineIface = LiquidationEngine__factory.createInterface();
  const topics = [
    chIface.getEvent("PositionModified").topicHash,
    chIface.getEvent("PositionLiquidated").topicHash,
    chIface.getEvent("AccountSettled").topicHash,
  ];
  const set = new AccountSet();

  async function sync(ctx: JobContext): Promise<void> {
    const to = ctx.safeBlock;
    if (to < set.scannedTo) {
      ctx.log.warn({ scannedTo: set.scannedTo, safeBlock: to }, "chain behind the account scan: rebuilding the set");
      set.reset();
    }
    for (let from = Math.max(fromBlock, set.scannedTo + 1); from <= to; from += page) {
      const end = Math.min(to, from + page - 1);
      const logs = await ctx.client.read("getLogs", (p) =>
        p.getLogs({ address: clearingHouse, topics: [topics], fromBlock: from, toBlock: end }),
      );
      const sorted = [...logs].sort((a, b) => a.blockNumber - b.blockNumber || a.index - b.index);
      for (const l of sorted) {
        const ev = chIface.parseLog(l);
        if (ev === null) continue;
        const sizeCh = ev.name === "AccountSettled" ? undefined : (ev.args.sizeCh as bigint);
        set.apply(ev.args.account as string, ev.args.market as string, sizeCh, l.blockNumber);
      }
      set.scannedTo = end;
    }
  }

  return {
    name: "liquidations",
    summary: `liquidate accounts below maintenance margin (priority) through ${engine}, accounts from ClearingHouse ${clearingHouse} events`,
    alreadyDoneErrors: ["LiquidationAccountHealthy"],
    set,
    async scan(ctx: JobContext): Promise<Candidate<LiquidationWork>[]> {
      await sync(ctx);
      const blockTag = ctx.safeBlock;
      const open = set.open();
      const states = await mapLimit(open, concurrency, (o) =>
        ctx.client.read("isLiquidatable", (p) =>
          LiquidationEngine__factory.connect(engine, p).isLiquidatable(o.account, { blockTag }),
        ),
      );
      const out: Candidate<LiquidationWork>[] = [];
      open.forEach((o, i) => {
        const [liquidatable, equityUsdc, maintenanceMarginUsdc] = states[i]!;
        if (!liquidatable) return;
        out.push({
          key: { action: LIQUIDATE_ACTION, id: o.account, epoch: String(o.lastBlock) },
          priority: true,
          data: { account: o.account, equityUsdc, maintenanceMarginUsdc },
        });
      });
      return out;
    },
    async plan(_ctx, candidates): Promise<Action[]> {
      return candidates.map((c) => ({
        key: c.key,
        priority: true,
        rewardWei: c.rewardWei,
        to: engine,
        data: engineIface.encodeFunctionData("liquidate", [c.data.account]),
        description: `liquidate(${c.data.account}): equity ${c.data.equityUsdc} < maintenance ${c.data.maintenanceMarginUsdc} (USDC 6 dp, priority)`,
      }));
    },
  };
}

function deployBlockOf(d: DeploymentInfo, name: string): number {
  return d.contracts[name]?.deployBlock ?? 0;
}

export const liquidationsFactory: JobFactory = {
  name: "liquidations",
  description: "LiquidationEngine: liquidate accounts below maintenance margin (priority), accounts from events.",
  create({ deployment, config }) {
    const opts = config.options as LiquidationJobOptions;
    const ch = opts.clearingHouse ?? "ClearingHouse";
    const le = opts.contract ?? "LiquidationEngine";
    for (const n of [ch, le]) {
      if (deployment.contracts[n] === undefined) throw new JobUnavailable(`${n} is not in ${deployment.file}`);
    }
    return liquidationJob(addressOf(deployment, ch), addressOf(deployment, le), opts, deployBlockOf(deployment, ch));
  },
};
