/**
 * Liquidation job (docs/clearing.md, SPEC section 7): liquidates every account below maintenance margin through the
 * permissionless `LiquidationEngine.liquidate(account)`. Priority: a liquidation is bad-debt work, sent whatever the
 * gas price (OPS-02).
 *
 * The ClearingHouse keeps no enumerable list of accounts (it would cost every trade a storage write), so the job
 * builds one from its events: `PositionModified`, `PositionLiquidated` (both carry the size after) and
 * `AccountSettled`, read in pages from the ClearingHouse's deploy block up to `head − confirmations` and then
 * incrementally, tick by tick. The set (account → market → size, and the block of the account's last event) lives
 * in memory, checkpointed in the keeper's state database. A reorg deeper than the confirmations (at a lower, the
 * same or a higher head) is found by the hash of the scan's last block: the set is rewound to the fork from its
 * journal and the replaced blocks are scanned again (`AccountSet.rewind`); only a reorg past the journal's 256 blocks
 * rebuilds it from scratch.
 *
 * Check, at the same block: by default the deployless probe `LiquidationKeeperLens` (contracts/periphery): one
 * `eth_call` of its creation code per page of accounts tries `liquidate(account)` for each in a frame that reverts,
 * and returns which accounts are liquidatable and the gas each liquidation needs — so the keeper needs neither one
 * `isLiquidatable` call per account nor one `eth_estimateGas` per liquidation (a 1,000-account scan and 100
 * simulations took ~10 s of node time that way; the probe makes the tick fit in a block). `probe: false` goes back
 * to `isLiquidatable` per account and an estimate per liquidation.
 * Idempotency key: `liquidations.liquidate:<account>:<block of the account's last ClearingHouse event>`: a
 * liquidation emits `PositionLiquidated`, so a later liquidation of the same account (the price fell further) has
 * a new key, while a lagging scan repeats the old one and the memo holds it back. Racing keepers: the loser's call
 * reverts `LiquidationAccountHealthy` (the account is back at initial margin or closed): already done (OPS-01).
 */
import { AbiCoder, Contract, Interface, MaxUint256 } from "ethers";
import {
  ClearingHouse__factory,
  LiquidationEngine__factory,
  LiquidationKeeperLens__factory,
  RiskEngine__factory,
} from "@chx/sdk";
import { ConfigError } from "../config.js";
import { addressOf, JobUnavailable, type DeploymentInfo } from "../deployments.js";
import { mapLimit } from "../util.js";
import { LogScanner } from "../chain/logs.js";
import { blockHash } from "../chain/blocks.js";
import type { JobStore } from "../store.js";
import { keyString, type Action, type Candidate, type JobContext, type JobFactory, type KeeperJob } from "./types.js";

export interface LiquidationJobOptions {
  /** ClearingHouse deployment name (default "ClearingHouse"). */
  clearingHouse?: string;
  /** LiquidationEngine deployment name (default "LiquidationEngine"). */
  contract?: string;
  /** First block of the event scan (default: the ClearingHouse's deploy block, else 0). */
  fromBlock?: number;
  /**
   * Blocks of the first `eth_getLogs` page (default 2,000; 1 to 100,000): the range adapts — halved on "too many
   * results"/range caps/timeouts, doubled back after a run of good pages, up to `maxLogPageBlocks`.
   */
  logPageBlocks?: number;
  /** Largest `eth_getLogs` range (default 10,000; at least logPageBlocks). */
  maxLogPageBlocks?: number;
  /** Parallel checks: probe pages or `isLiquidatable` calls (default 8; 1 to 64). */
  concurrency?: number;
  /** Check with the deployless LiquidationKeeperLens probe (default true) or `isLiquidatable` per account. */
  probe?: boolean;
  /** Accounts per probe call (default 50; 1 to 200: each may cost one liquidation's gas in the call). */
  probePage?: number;
  /**
   * Pre-filter with a linear margin model per account (default true): only accounts the model puts near maintenance,
   * accounts without a model, and a rotating slice are checked on chain each tick.
   */
  model?: boolean;
  /** Model flags an account when equity − maintenance < modelBuffer × maintenance at the current price (default 0.5). */
  modelBuffer?: number;
  /** Accounts re-checked on chain each tick whatever the model says (default 50; 0 to 10,000). */
  revalidatePerTick?: number;
  /** PerpMarket deployment names whose unsettled funding is settled for accounts near maintenance (default: all). */
  perpMarkets?: string[];
}

const OPTION_KEYS = [
  "clearingHouse",
  "contract",
  "fromBlock",
  "logPageBlocks",
  "maxLogPageBlocks",
  "concurrency",
  "probe",
  "probePage",
  "model",
  "modelBuffer",
  "revalidatePerTick",
  "perpMarkets",
];

export const SETTLE_FUNDING_ACTION = "liquidations.settleFunding";
const PERP_FUNDING = new Interface([
  "function fundingOwedUsdc(address account) view returns (int256 owedUsdc)",
  "function settleFunding(address account) returns (int256 fundingUsdc)",
]);

/**
 * An account's margin headroom h(P) = equity − maintenance margin as a line a + b·P in the index price P, fitted from
 * two `marginStateAt` evaluations. Exact while the account's positions, collateral and the volatility stay as they
 * were (every market settles against the one CH index; margins are proportional to notional) — so a model is dropped
 * on any ClearingHouse event of the account and on any volatility update, and it is only ever a pre-filter: the
 * on-chain probe decides.
 */
interface MarginModel {
  a: number;
  b: number;
  /** Maintenance margin per unit of price (it is proportional to notional): the buffer's scale. */
  m: number;
  lastBlock: number;
  volatilityAt: bigint;
}

/** Gas of a `liquidate(address)` transaction beyond the probe's execution figure: intrinsic 21,000 + calldata. */
const TX_OVERHEAD_GAS = 21_000n + 600n;
const PROBE_TYPE = [
  "tuple(address account, uint8 outcome, uint256 gasUsed, int256 equityUsdc, uint256 maintenanceMarginUsdc, bytes revertData)[]",
];

export const LIQUIDATE_ACTION = "liquidations.liquidate";
/** Auto-deleveraging (docs/clearing.md): nominate ranked candidates during a claim's window, execute after it. */
export const ADL_NOMINATE_ACTION = "liquidations.nominateAdl";
export const ADL_EXECUTE_ACTION = "liquidations.executeAdl";
/**
 * The liquidator of an account holding token collateral (CH, DPS) buys that collateral at its haircut value: the
 * ClearingHouse pulls the USDC from the caller (`seizeTokenCollateral`, buyer = the keeper), so the keeper approves
 * USDC to the ClearingHouse once (max) before its first liquidation. Key `liquidations.approveUsdc:<ch>:<keeper>:<allowance>`.
 */
export const APPROVE_ACTION = "liquidations.approveUsdc";
const ERC20_APPROVE = new Interface([
  "function approve(address spender, uint256 amount) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address owner) view returns (uint256)",
]);
/** LiquidationEngine.ADL_MAX_NOMINEES. */
const ADL_MAX_NOMINEES = 8;

export interface LiquidationWork {
  account: string;
  /** From `isLiquidatable` (probe: false); the probe does not report them for liquidatable accounts. */
  equityUsdc?: bigint;
  maintenanceMarginUsdc?: bigint;
  /** Execution gas the probe measured (undefined: the runner estimates). */
  gasUsed?: bigint;
  /** Set for a funding settlement instead of a liquidation: the PerpMarket to call `settleFunding(account)` on. */
  settleMarket?: string;
  owedUsdc?: bigint;
  /** Set for auto-deleveraging: nominate `candidate` for the bankrupt `account`'s claim, or execute its round. */
  adl?: { kind: "nominate" | "execute"; candidate?: string; scoreUsdc?: bigint };
  /** Set for the keeper's USDC approval of the ClearingHouse (token-collateral liquidations): the USDC address. */
  approveToken?: string;
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
 *
 * Reorgs: every change is journaled with the account's state before it, and every scanned page end with its block
 * hash, for the last `depth` blocks. `rewind(block)` undoes the changes of every later block — the set is then
 * exactly what it was when the scan had reached `block` — so a reorg deeper than the confirmations costs a rescan of
 * the replaced blocks, not of the whole history (docs/keepers.md, "Reorgs and the account set").
 */
export class AccountSet {
  readonly accounts = new Map<string, Tracked>();
  /** Last block included (−1: nothing yet). */
  scannedTo = -1;
  /** Rewinds done (a reorg within the journal) and rebuilds from scratch (`reset`), for logs and tests. */
  rewinds = 0;
  rebuilds = 0;
  /** Each change's block, account and the account's state before it (undefined: it was not tracked), oldest first. */
  private journal: Array<{ block: number; account: string; prev: Tracked | undefined }> = [];
  /** Scanned page ends still in the journal window, oldest first: the points a rewind can return to. */
  private cursorLog: Array<{ block: number; hash: string }> = [];
  /** Every event from this block on is journaled (a restored checkpoint's history is not). */
  private journalFrom = 0;

  /**
   * @param depth blocks of history a rewind can undo (older journal entries are dropped as the scan advances); 0: no
   *        journal (a one-off scan).
   */
  constructor(readonly depth = 256) {}

  reset(): void {
    this.accounts.clear();
    this.scannedTo = -1;
    this.journal = [];
    this.cursorLog = [];
    this.journalFrom = 0;
    this.rebuilds++;
  }

  apply(account: string, market: string, sizeCh: bigint | undefined, block: number): void {
    const a = account.toLowerCase();
    let t = this.accounts.get(a);
    if (this.depth > 0) {
      this.journal.push({ block, account: a, prev: t && { sizes: new Map(t.sizes), lastBlock: t.lastBlock } });
    }
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

  /** The scan has included every event up to `block` (whose hash is `hash`): a point a rewind can return to. */
  commit(block: number, hash: string): void {
    this.scannedTo = block;
    if (hash !== "") this.cursorLog.push({ block, hash });
    const floor = block - this.depth;
    if (floor >= this.journalFrom) {
      this.journalFrom = floor + 1;
      this.journal = this.journal.filter((j) => j.block > floor);
      this.cursorLog = this.cursorLog.filter((c) => c.block >= floor);
    }
  }

  /** A restored checkpoint: everything up to `block` is in the set, none of it journaled. */
  restoredAt(block: number, hash: string): void {
    this.scannedTo = block;
    this.journal = [];
    this.cursorLog = [{ block, hash }];
    this.journalFrom = block + 1;
  }

  /** The points a rewind can return to, newest first (each with the hash its block had when scanned). */
  cursors(): Array<{ block: number; hash: string }> {
    return [...this.cursorLog].reverse();
  }

  /**
   * Undoes every change of the blocks after `block` (a point in `cursors()`); returns the accounts whose state
   * changed. Throws when the journal does not reach back that far (the caller rebuilds instead).
   */
  rewind(block: number): Set<string> {
    if (block < this.journalFrom - 1) throw new Error(`the account journal does not reach block ${block}`);
    const touched = new Set<string>();
    while (this.journal.length > 0 && this.journal[this.journal.length - 1]!.block > block) {
      const j = this.journal.pop()!;
      if (j.prev === undefined) this.accounts.delete(j.account);
      else this.accounts.set(j.account, j.prev);
      touched.add(j.account);
    }
    this.cursorLog = this.cursorLog.filter((c) => c.block <= block);
    this.scannedTo = block;
    this.rewinds++;
    return touched;
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
  perpMarketAddresses: string[] = [],
): KeeperJob<LiquidationWork> & {
  readonly set: AccountSet;
  readonly modelCount: () => number;
  readonly scanner: LogScanner;
} {
  for (const k of Object.keys(opts)) {
    if (!OPTION_KEYS.includes(k)) {
      throw new ConfigError(`Unknown option "jobs.liquidations.${k}" (known: ${OPTION_KEYS.join(", ")}).`);
    }
  }
  const fromBlock = intOption("fromBlock", opts.fromBlock, deployBlock, 0, Number.MAX_SAFE_INTEGER);
  const page = intOption("logPageBlocks", opts.logPageBlocks, 2_000, 1, 100_000);
  const maxPage = intOption("maxLogPageBlocks", opts.maxLogPageBlocks, Math.max(10_000, page), page, 100_000);
  const scanner = new LogScanner({ initialRange: page, maxRange: maxPage });
  const concurrency = intOption("concurrency", opts.concurrency, 8, 1, 64);
  const probePage = intOption("probePage", opts.probePage, 50, 1, 200);
  if (opts.probe !== undefined && typeof opts.probe !== "boolean") {
    throw new ConfigError(`Config "jobs.liquidations.probe" must be true or false.`);
  }
  const useProbe = opts.probe ?? true;
  if (opts.model !== undefined && typeof opts.model !== "boolean") {
    throw new ConfigError(`Config "jobs.liquidations.model" must be true or false.`);
  }
  const useModel = opts.model ?? true;
  const modelBuffer = opts.modelBuffer ?? 0.5;
  if (typeof modelBuffer !== "number" || !(modelBuffer >= 0 && modelBuffer <= 10)) {
    throw new ConfigError(`Config "jobs.liquidations.modelBuffer" must be a number from 0 to 10.`);
  }
  const revalidate = intOption("revalidatePerTick", opts.revalidatePerTick, 50, 0, 10_000);
  const models = new Map<string, MarginModel>();
  let rotation = 0;
  let building: Promise<void> | undefined;
  let revalidating: Promise<void> | undefined;
  /** Set by close(): background fits and re-validation stop at their next account. */
  let closed = false;
  /** Accounts the background re-validation found liquidatable although their model did not: checked next tick. */
  const suspects = new Set<string>();
  let riskEngine: string | undefined;
  const lensFactory = new LiquidationKeeperLens__factory();
  const coder = AbiCoder.defaultAbiCoder();
  /** key → measured gas of this tick's candidates (the simulate hook answers from it). */
  const measured = new Map<string, bigint>();
  const chIface = ClearingHouse__factory.createInterface();
  const engineIface = LiquidationEngine__factory.createInterface();
  const topics = [
    chIface.getEvent("PositionModified").topicHash,
    chIface.getEvent("PositionLiquidated").topicHash,
    chIface.getEvent("AccountSettled").topicHash,
    chIface.getEvent("PositionDeleveraged").topicHash,
  ];
  const set = new AccountSet();
  /** Bankrupt accounts whose ADL claim was opened (LiquidationEngine.AdlRoundOpened); dropped once it is closed. */
  const adlClaims = new Set<string>();
  const adlTopic = engineIface.getEvent("AdlRoundOpened").topicHash;

  /** The checkpoint the store holds (scanned block, its hash, every tracked account) was loaded / checked. */
  let restored = false;

  const saveAccounts = (store: JobStore, accounts: Iterable<string>, cursor: { block: number; hash: string }) => {
    const rows: Array<[string, string]> = [];
    const del: string[] = [];
    for (const a of accounts) {
      const t = set.accounts.get(a);
      if (t === undefined || t.sizes.size === 0) {
        del.push(`acct:${a}`);
        continue;
      }
      rows.push([
        `acct:${a}`,
        JSON.stringify({ b: t.lastBlock, s: Object.fromEntries([...t.sizes].map(([m, v]) => [m, String(v)])) }),
      ]);
    }
    rows.push(["cursor", JSON.stringify(cursor)]);
    store.batch(rows, del);
  };

  /**
   * A restarted keeper resumes from its checkpoint: the account set and the block it was scanned to, if that block is
   * still on the chain with the same hash (otherwise — a reorg past it, another chain — it rebuilds from scratch).
   */
  async function restore(ctx: JobContext): Promise<void> {
    restored = true;
    const store = ctx.store;
    if (store === undefined || set.scannedTo >= 0) return;
    const raw = store.get("cursor");
    if (raw === undefined) return;
    const cursor = JSON.parse(raw) as { block: number; hash: string };
    const block = await ctx.client.read("getBlock", (p) => p.getBlock(cursor.block));
    if (block?.hash !== cursor.hash) {
      ctx.log.warn({ checkpoint: cursor.block }, "account-scan checkpoint is not on this chain any more: rebuilding");
      store.clear();
      return;
    }
    for (const [k, v] of store.entries("acct:")) {
      const a = JSON.parse(v) as { b: number; s: Record<string, string> };
      set.accounts.set(k.slice(5), {
        lastBlock: a.b,
        sizes: new Map(Object.entries(a.s).map(([m, x]) => [m, BigInt(x)])),
      });
    }
    for (const [k] of store.entries("adl:")) adlClaims.add(k.slice(4));
    set.restoredAt(cursor.block, cursor.hash);
    ctx.log.info({ from: cursor.block, accounts: set.accounts.size }, "account scan resumed from its checkpoint");
  }

  /** Claims the ADL work dropped as closed, with the head it read that at: a reorg past that head restores them. */
  let droppedClaims: Array<{ head: number; bankrupt: string }> = [];
  /** The head the scan's last block was last found canonical under (no re-check while the head stays). */
  let checkedHead = "";

  /**
   * A reorg deeper than the confirmations replaced blocks the scan had read — at a lower head, the same or a higher
   * one: the newest scanned page end whose block the chain still has with the same hash is where the chain forked.
   * The set is rewound there (its journal undoes the later blocks' changes) and the replaced blocks are scanned again;
   * when no page end in the journal is canonical any more, the set is rebuilt from scratch.
   */
  async function followReorg(ctx: JobContext, to: number): Promise<void> {
    if (set.scannedTo < 0 || ctx.head.hash === checkedHead) return;
    const hashAt = (n: number) => blockHash(ctx.client, ctx.head, n);
    let fork: number | undefined;
    for (const c of set.cursors()) {
      if (c.block > to) continue;
      if ((await hashAt(c.block)) === c.hash) {
        fork = c.block;
        break;
      }
    }
    if (fork === set.scannedTo) {
      checkedHead = ctx.head.hash;
      return;
    }
    if (fork === undefined) {
      ctx.log.warn(
        { scannedTo: set.scannedTo, safeBlock: to },
        "the account scan's blocks are not on this chain any more (a reorg past its journal): rebuilding the set",
      );
      set.reset();
      adlClaims.clear();
      models.clear();
      suspects.clear();
      droppedClaims = [];
      ctx.store?.clear();
      return;
    }
    const touched = set.rewind(fork);
    // The touched accounts' state came back from the journal: their models describe another branch; check them now.
    for (const a of touched) {
      models.delete(a);
      if (set.accounts.get(a)?.sizes.size) suspects.add(a);
    }
    // Claims dropped as closed under the replaced blocks may be open again on this branch (adlWork re-reads them).
    const back = droppedClaims.filter((d) => d.head > fork);
    droppedClaims = droppedClaims.filter((d) => d.head <= fork);
    for (const d of back) adlClaims.add(d.bankrupt);
    if (back.length > 0)
      ctx.store?.batch(
        back.map((d): [string, string] => [`adl:${d.bankrupt}`, "1"]),
        [],
      );
    const hash = await hashAt(fork);
    if (ctx.store !== undefined) saveAccounts(ctx.store, touched, { block: fork, hash });
    ctx.log.warn(
      { from: fork + 1, accounts: touched.size },
      "a reorg replaced scanned blocks: the account set is rewound to the fork and the new blocks scanned",
    );
  }

  async function sync(ctx: JobContext): Promise<void> {
    if (!restored) await restore(ctx);
    const to = ctx.safeBlock;
    await followReorg(ctx, to);
    const start = Math.max(fromBlock, set.scannedTo + 1);
    if (start > to) return;
    // One getLogs for both contracts: the ClearingHouse's position events and the engine's AdlRoundOpened.
    const filter = { address: [clearingHouse, engine], topics: [[...topics, adlTopic]] };
    await scanner.scan(ctx.client, filter, start, to, async (logs, end) => {
      const touched = new Set<string>();
      const claims: Array<[string, string]> = [];
      for (const l of logs) {
        if (l.topics[0] === adlTopic) {
          const bankrupt = (engineIface.parseLog(l)!.args.bankrupt as string).toLowerCase();
          adlClaims.add(bankrupt);
          claims.push([`adl:${bankrupt}`, "1"]);
          continue;
        }
        const ev = chIface.parseLog(l);
        if (ev === null) continue;
        if (ev.name === "PositionDeleveraged") {
          // an ADL step reduced the candidate (the bankrupt holds no position any more)
          set.apply(
            ev.args.candidate as string,
            ev.args.market as string,
            ev.args.candidateSizeCh as bigint,
            l.blockNumber,
          );
          touched.add((ev.args.candidate as string).toLowerCase());
          continue;
        }
        const sizeCh = ev.name === "AccountSettled" ? undefined : (ev.args.sizeCh as bigint);
        set.apply(ev.args.account as string, ev.args.market as string, sizeCh, l.blockNumber);
        touched.add((ev.args.account as string).toLowerCase());
      }
      // The page end is named by hash: a restart (the checkpoint) and a later reorg (the journal) can tell whether
      // it is still canonical.
      const hash = await blockHash(ctx.client, ctx.head, end);
      set.commit(end, hash);
      if (ctx.store !== undefined) {
        if (claims.length > 0) ctx.store.batch(claims, []);
        saveAccounts(ctx.store, touched, { block: end, hash });
      }
    });
  }

  async function volatilityAt(ctx: JobContext): Promise<bigint> {
    riskEngine ??= (
      await ctx.client.read("modules", (p) => ClearingHouse__factory.connect(clearingHouse, p).modules())
    )[2];
    const v = await ctx.client.read("volatility", (p) =>
      RiskEngine__factory.connect(riskEngine!, p).volatility({ blockTag: ctx.safeBlock }),
    );
    return v[3];
  }

  /**
   * The accounts to check on chain this tick: no (current) model, the model puts them near maintenance, or the
   * background re-validation caught them.
   */
  async function prefilter(
    ctx: JobContext,
    open: Array<{ account: string; lastBlock: number }>,
  ): Promise<Array<{ account: string; lastBlock: number }>> {
    const blockTag = ctx.safeBlock;
    const [[, priceWad], vol] = await Promise.all([
      ctx.client.read("liquidationState", (p) =>
        ClearingHouse__factory.connect(clearingHouse, p).liquidationState(open[0]!.account, { blockTag }),
      ),
      volatilityAt(ctx),
    ]);
    const price = Number(priceWad) / 1e18;
    const due = (o: { account: string; lastBlock: number }): boolean => {
      const m = models.get(o.account);
      if (m === undefined || m.lastBlock !== o.lastBlock || m.volatilityAt !== vol) return true;
      if (suspects.delete(o.account)) return true;
      const headroom = m.a + m.b * price;
      return headroom < modelBuffer * m.m * price;
    };
    return open.filter(due);
  }

  /**
   * Off the tick's critical path: `isLiquidatable` for the next `revalidatePerTick` accounts in rotation, whatever
   * their model says. One found liquidatable loses its model (the line did not describe it) and is checked by the
   * next tick's probe.
   */
  async function revalidateSlice(ctx: JobContext): Promise<void> {
    const open = set.open();
    if (open.length === 0 || revalidate === 0) return;
    const start = rotation % open.length;
    rotation = start + revalidate;
    const slice = Array.from({ length: Math.min(revalidate, open.length) }, (_, i) => open[(start + i) % open.length]!);
    const blockTag = ctx.safeBlock;
    await mapLimit(slice, concurrency, async (o) => {
      if (closed) return;
      const [liquidatable] = await ctx.client.read("isLiquidatable", (p) =>
        LiquidationEngine__factory.connect(engine, p).isLiquidatable(o.account, { blockTag }),
      );
      if (liquidatable) {
        models.delete(o.account);
        suspects.add(o.account);
      }
    });
  }

  /** Fits a model for every open account without a current one: marginStateAt at the price and at 1.5 × it. */
  async function buildModels(ctx: JobContext): Promise<void> {
    const open = set.open();
    if (open.length === 0) return;
    const blockTag = ctx.safeBlock;
    const vol = await volatilityAt(ctx);
    const [, priceWad] = await ctx.client.read("liquidationState", (p) =>
      ClearingHouse__factory.connect(clearingHouse, p).liquidationState(open[0]!.account, { blockTag }),
    );
    if (priceWad === 0n) return;
    const p1 = priceWad;
    const p2 = (priceWad * 3n) / 2n;
    const stale = open.filter((o) => {
      const m = models.get(o.account);
      return m === undefined || m.lastBlock !== o.lastBlock || m.volatilityAt !== vol;
    });
    const ch = (p: Parameters<typeof ClearingHouse__factory.connect>[1]) =>
      ClearingHouse__factory.connect(clearingHouse, p);
    await mapLimit(stale, concurrency, async (o) => {
      if (closed) return;
      const [s1, s2] = await Promise.all([
        ctx.client.read("marginStateAt", (p) => ch(p).marginStateAt(o.account, p1, { blockTag })),
        ctx.client.read("marginStateAt", (p) => ch(p).marginStateAt(o.account, p2, { blockTag })),
      ]);
      const h1 = Number(s1.equityUsdc - BigInt(s1.maintenanceMarginUsdc));
      const h2 = Number(s2.equityUsdc - BigInt(s2.maintenanceMarginUsdc));
      const x1 = Number(p1) / 1e18;
      const x2 = Number(p2) / 1e18;
      const b = (h2 - h1) / (x2 - x1);
      const m = Number(s1.maintenanceMarginUsdc) / x1;
      models.set(o.account, { a: h1 - b * x1, b, m, lastBlock: o.lastBlock, volatilityAt: vol });
    });
    for (const a of models.keys()) if (!set.accounts.get(a)?.sizes.size) models.delete(a);
  }

  /**
   * Auto-deleveraging (docs/clearing.md): the claims come from the engine's AdlRoundOpened events; for each open claim
   * whose window is open, the keeper ranks the opposite positions it tracks off-chain (rankAdlCandidates: the engine's
   * own score) and nominates from the top until the claim's size is covered; once the window is over it executes the
   * round. A claim exists only when the insurance fund could not pay (and execution retries the fund first).
   */
  async function adlWork(ctx: JobContext): Promise<Candidate<LiquidationWork>[]> {
    if (adlClaims.size === 0) return [];
    const le = (p: Parameters<typeof LiquidationEngine__factory.connect>[1]) =>
      LiquidationEngine__factory.connect(engine, p);
    const ch = (p: Parameters<typeof ClearingHouse__factory.connect>[1]) =>
      ClearingHouse__factory.connect(clearingHouse, p);
    const window = await ctx.client.read("adlWindow", (p) => le(p).adlWindow());
    const out: Candidate<LiquidationWork>[] = [];
    for (const bankrupt of [...adlClaims]) {
      const c = await ctx.client.read("adlClaim", (p) => le(p).adlClaim(bankrupt));
      if (c.market === "0x0000000000000000000000000000000000000000") {
        // Dropped only once closed at the safe block as well: followReorg sees reorgs of the scanned blocks only, so a
        // close in the last `confirmations` blocks that a shallower reorg orphans would otherwise be lost for good.
        const safe =
          ctx.safeBlock >= ctx.head.number
            ? c
            : await ctx.client.read("adlClaim", (p) => le(p).adlClaim(bankrupt, { blockTag: ctx.safeBlock }));
        if (safe.market !== "0x0000000000000000000000000000000000000000") continue; // closed above it: no work yet
        adlClaims.delete(bankrupt);
        droppedClaims.push({ head: ctx.head.number, bankrupt });
        if (droppedClaims.length > 256) droppedClaims.shift();
        ctx.store?.batch([], [`adl:${bankrupt}`]);
        continue;
      }
      const epoch = String(c.roundStartSec);
      if (ctx.head.timestamp >= Number(c.roundStartSec + window)) {
        out.push({
          key: { action: ADL_EXECUTE_ACTION, id: bankrupt, epoch },
          priority: true,
          data: { account: bankrupt, adl: { kind: "execute" } },
        });
        continue;
      }
      const market = c.market.toLowerCase();
      const nominated = new Set(c.nominees.map((n) => n.toLowerCase()));
      const holders = [...set.accounts]
        .filter(([a, t]) => a !== bankrupt && (t.sizes.get(market) ?? 0n) !== 0n)
        .map(([a]) => a);
      const [, priceWad] = await ctx.client.read("liquidationState", (p) => ch(p).liquidationState(bankrupt));
      const rows = await mapLimit(holders, concurrency, async (a) => {
        const [pos, margin] = await Promise.all([
          ctx.client.read("positionOf", (p) => ch(p).positionOf(a, c.market)),
          ctx.client.read("marginStateAt", (p) => ch(p).marginStateAt(a, priceWad)),
        ]);
        return { account: a, sizeCh: pos.sizeCh, openNotionalUsdc: pos.openNotionalUsdc, margin };
      });
      let need = c.sizeCh;
      let k = 0;
      for (const cand of rankAdlCandidates(rows, c.bankruptLong, priceWad)) {
        if (need <= 0n || k >= ADL_MAX_NOMINEES) break;
        need -= cand.remainingCh;
        k++;
        if (nominated.has(cand.account)) continue;
        out.push({
          key: { action: ADL_NOMINATE_ACTION, id: `${bankrupt}@${cand.account}`, epoch },
          priority: true,
          data: { account: bankrupt, adl: { kind: "nominate", candidate: cand.account, scoreUsdc: cand.scoreUsdc } },
        });
      }
    }
    return out;
  }

  const perps = new Set(perpMarketAddresses.map((a) => a.toLowerCase()));
  /** Healthy, but equity below (1 + modelBuffer) × maintenance margin. */
  const isNear = (equity: bigint, mm: bigint): boolean =>
    perps.size > 0 && Number(equity) < (1 + modelBuffer) * Number(mm);

  /**
   * docs/perps.md: `liquidationState` does not see unsettled perp funding, so for an account near maintenance with a
   * PerpMarket position that owes funding, `settleFunding(account)` (permissionless) first; the settlement's
   * AccountSettled event drops the account's model and the next tick checks it with the funding in.
   */
  async function fundingSettlements(
    ctx: JobContext,
    near: Array<{ account: string; lastBlock: number }>,
  ): Promise<Candidate<LiquidationWork>[]> {
    const pairs = near.flatMap((o) =>
      [...(set.accounts.get(o.account)?.sizes.keys() ?? [])].filter((m) => perps.has(m)).map((m) => ({ ...o, m })),
    );
    const blockTag = ctx.safeBlock;
    const owed = await mapLimit(pairs, concurrency, (x) =>
      ctx.client.read(
        "fundingOwedUsdc",
        (p) =>
          new Contract(x.m, PERP_FUNDING, p).getFunction("fundingOwedUsdc")(x.account, { blockTag }) as Promise<bigint>,
      ),
    );
    const out: Candidate<LiquidationWork>[] = [];
    pairs.forEach((x, i) => {
      if (owed[i]! <= 0n) return;
      out.push({
        key: { action: SETTLE_FUNDING_ACTION, id: `${x.account}@${x.m}`, epoch: String(x.lastBlock) },
        priority: true,
        data: { account: x.account, settleMarket: x.m, owedUsdc: owed[i]! },
      });
    });
    return out;
  }

  /** USDC of the ClearingHouse (read once). */
  let usdcAddress: string | undefined;
  /** Set once this keeper's allowance is the maximum: no further reads (liquidation ticks are latency-sensitive). */
  let approvedMax = false;
  /**
   * The approval a token-collateral liquidation needs (APPROVE_ACTION): when the keeper holds USDC and its allowance
   * to the ClearingHouse is below that balance. USDC-only accounts do not need it; it is sent before the first
   * liquidation either way (one transaction per keeper, harmless: the ClearingHouse pulls only from its caller).
   */
  async function approval(ctx: JobContext): Promise<Candidate<LiquidationWork>[]> {
    if (approvedMax) return [];
    const blockTag = ctx.safeBlock;
    usdcAddress ??= (
      await ctx.client.read("modules", (p) => ClearingHouse__factory.connect(clearingHouse, p).modules({ blockTag }))
    )[0];
    const usdc = usdcAddress;
    const read = (fn: "allowance" | "balanceOf", args: string[]) =>
      ctx.client.read(`usdc.${fn}`, async (p) => {
        const raw = await p.call({ to: usdc, data: ERC20_APPROVE.encodeFunctionData(fn, args), blockTag });
        return ERC20_APPROVE.decodeFunctionResult(fn, raw)[0] as bigint;
      });
    const [allowance, balance] = await Promise.all([
      read("allowance", [ctx.keeper, clearingHouse]),
      read("balanceOf", [ctx.keeper]),
    ]);
    // a max allowance stays above any balance even where the token spends it down (an operator who revokes it
    // by hand restarts the keeper, which reads it again)
    approvedMax = allowance === MaxUint256;
    if (balance === 0n || allowance >= balance) return [];
    return [
      {
        // per keeper: each keeper's own allowance (two keepers approving is two pieces of work, not a double action)
        key: {
          action: APPROVE_ACTION,
          id: `${clearingHouse.toLowerCase()}:${ctx.keeper.toLowerCase()}`,
          epoch: allowance.toString(),
        },
        priority: true,
        data: { account: ctx.keeper, approveToken: usdc },
      },
    ];
  }

  return {
    name: "liquidations",
    summary: `liquidate accounts below maintenance margin (priority) through ${engine}, accounts from ClearingHouse ${clearingHouse} events`,
    alreadyDoneErrors: ["LiquidationAccountHealthy", "AdlAlreadyNominated", "AdlNoClaim", "AdlNominationsClosed"],
    expectedErrors: [/^Oracle/],
    contested: true,
    set,
    scanner,
    modelCount: () => models.size,
    async scan(ctx: JobContext): Promise<Candidate<LiquidationWork>[]> {
      await sync(ctx);
      const blockTag = ctx.safeBlock;
      let open = set.open();
      const out: Candidate<LiquidationWork>[] = [];
      const key = (o: { account: string; lastBlock: number }) => ({
        action: LIQUIDATE_ACTION,
        id: o.account,
        epoch: String(o.lastBlock),
      });
      measured.clear();
      const near: Array<{ account: string; lastBlock: number }> = [];
      if (useModel && open.length > 0) open = await prefilter(ctx, open);
      if (useProbe) {
        const pages: Array<typeof open> = [];
        for (let i = 0; i < open.length; i += probePage) pages.push(open.slice(i, i + probePage));
        const results = await mapLimit(pages, concurrency, async (page) => {
          const tx = await lensFactory.getDeployTransaction(
            engine,
            page.map((o) => o.account),
          );
          const raw = await ctx.client.read("liquidationProbe", (p) => p.call({ data: tx.data, blockTag }));
          return coder.decode(PROBE_TYPE, raw)[0] as Array<{
            outcome: bigint;
            gasUsed: bigint;
            equityUsdc: bigint;
            maintenanceMarginUsdc: bigint;
          }>;
        });
        results.flat().forEach((r, i) => {
          const o = open[i]!;
          if (Number(r.outcome) === 0) {
            if (isNear(r.equityUsdc, r.maintenanceMarginUsdc)) near.push(o);
            return;
          }
          const c: Candidate<LiquidationWork> = {
            key: key(o),
            priority: true,
            data: { account: o.account, gasUsed: Number(r.outcome) === 1 ? r.gasUsed : undefined },
          };
          if (c.data.gasUsed !== undefined) measured.set(keyString(c.key), c.data.gasUsed + TX_OVERHEAD_GAS);
          out.push(c);
        });
      } else {
        const states = await mapLimit(open, concurrency, (o) =>
          ctx.client.read("isLiquidatable", (p) =>
            LiquidationEngine__factory.connect(engine, p).isLiquidatable(o.account, { blockTag }),
          ),
        );
        open.forEach((o, i) => {
          const [liquidatable, equityUsdc, maintenanceMarginUsdc] = states[i]!;
          if (!liquidatable) {
            if (isNear(equityUsdc, maintenanceMarginUsdc)) near.push(o);
            return;
          }
          out.push({ key: key(o), priority: true, data: { account: o.account, equityUsdc, maintenanceMarginUsdc } });
        });
      }
      if (out.length > 0) out.unshift(...(await approval(ctx)));
      out.push(...(await fundingSettlements(ctx, near)));
      out.push(...(await adlWork(ctx)));
      // Models for the accounts that have none, fitted in the background, and the rotating re-validation: never on
      // a tick's critical path.
      if (useModel && revalidating === undefined && !closed) {
        revalidating = revalidateSlice(ctx).finally(() => (revalidating = undefined));
        revalidating.catch((e: unknown) => ctx.log.warn({ err: String(e) }, "margin re-validation failed"));
      }
      if (useModel && building === undefined && !closed) {
        building = buildModels(ctx).finally(() => (building = undefined));
        building.catch((e: unknown) =>
          ctx.log.warn({ err: String(e) }, "margin models: fit failed, retrying next tick"),
        );
      }
      return out;
    },
    /** Background fits and re-validation end at their next account; resolves when both have. */
    async close() {
      closed = true;
      await Promise.allSettled([building, revalidating]);
    },
    /** The probe already ran each liquidation: its gas is the estimate (a failed probe goes to eth_estimateGas). */
    async simulate(_ctx, action) {
      const gas = measured.get(keyString(action.key));
      return gas === undefined ? undefined : { ok: true as const, gas };
    },
    async plan(_ctx, candidates): Promise<Action[]> {
      return candidates.map((c) =>
        c.data.approveToken !== undefined
          ? {
              key: c.key,
              priority: true,
              to: c.data.approveToken,
              data: ERC20_APPROVE.encodeFunctionData("approve", [clearingHouse, MaxUint256]),
              description: `approve(ClearingHouse ${clearingHouse}, max) on USDC: a token-collateral liquidation pulls the collateral's price from the liquidator`,
            }
          : c.data.adl !== undefined
            ? {
                key: c.key,
                priority: true,
                to: engine,
                data:
                  c.data.adl.kind === "execute"
                    ? engineIface.encodeFunctionData("executeAdl", [c.data.account])
                    : engineIface.encodeFunctionData("nominateAdl", [c.data.account, c.data.adl.candidate!]),
                description:
                  c.data.adl.kind === "execute"
                    ? `executeAdl(${c.data.account}): the insurance fund is exhausted, the nomination window is over`
                    : `nominateAdl(${c.data.account}, ${c.data.adl.candidate}): score ${c.data.adl.scoreUsdc} (PnL × leverage, USDC 6 dp)`,
              }
            : c.data.settleMarket !== undefined
              ? {
                  key: c.key,
                  priority: true,
                  to: c.data.settleMarket,
                  data: PERP_FUNDING.encodeFunctionData("settleFunding", [c.data.account]),
                  description: `settleFunding(${c.data.account}) on ${c.data.settleMarket}: owes ${c.data.owedUsdc} USDC (6 dp) of funding, near maintenance (priority)`,
                }
              : {
                  key: c.key,
                  priority: true,
                  rewardWei: c.rewardWei,
                  to: engine,
                  data: engineIface.encodeFunctionData("liquidate", [c.data.account]),
                  description:
                    c.data.equityUsdc === undefined
                      ? `liquidate(${c.data.account}): below maintenance margin (probe: ${c.data.gasUsed ?? "failed"} gas; priority)`
                      : `liquidate(${c.data.account}): equity ${c.data.equityUsdc} < maintenance ${c.data.maintenanceMarginUsdc} (USDC 6 dp, priority)`,
                },
      );
    },
  };
}

function deployBlockOf(d: DeploymentInfo, name: string): number {
  return d.contracts[name]?.deployBlock ?? 0;
}

export const liquidationsFactory: JobFactory = {
  name: "liquidations",
  description: "LiquidationEngine: liquidate accounts below maintenance margin (priority), accounts from events.",
  covers: ["LiquidationChecker"],
  create({ deployment, config }) {
    const opts = config.options as LiquidationJobOptions;
    const ch = opts.clearingHouse ?? "ClearingHouse";
    const le = opts.contract ?? "LiquidationEngine";
    for (const n of [ch, le]) {
      if (deployment.contracts[n] === undefined) throw new JobUnavailable(`${n} is not in ${deployment.file}`);
    }
    // PerpMarkets: the named ones, or every deployment of the PerpMarket contract (their funding is settled first).
    const perpNames =
      opts.perpMarkets ??
      Object.entries(deployment.contracts)
        .filter(([, r]) => r.contract === "PerpMarket")
        .map(([n]) => n);
    if (!Array.isArray(perpNames)) throw new ConfigError(`Config "jobs.liquidations.perpMarkets" must be a list.`);
    return liquidationJob(
      addressOf(deployment, ch),
      addressOf(deployment, le),
      opts,
      deployBlockOf(deployment, ch),
      perpNames.map((n) => addressOf(deployment, n)),
    );
  },
};

/** One account's position in an ADL claim's market and its margin state (ClearingHouse.positionOf + marginState). */
export interface AdlRow {
  account: string;
  sizeCh: bigint;
  openNotionalUsdc: bigint;
  margin: { equityUsdc: bigint; maintenanceMarginUsdc: bigint; grossNotionalUsdc: bigint };
}

/** A ranked ADL candidate; `remainingCh` is for the caller's bookkeeping across claims (starts at |size|). */
export interface AdlCandidate {
  account: string;
  scoreUsdc: bigint;
  sizeCh: bigint;
  remainingCh: bigint;
}

/** ⌊a / b⌋ for b > 0 (bigint division truncates toward zero). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

/**
 * The off-chain ranking of ADL candidates for a claim (docs/clearing.md, "Auto-deleveraging"), the same rule the
 * LiquidationEngine applies to nominations: only positions on the side opposite the bankrupt, profitable at the index
 * (size × price − cost basis, rounded down), held by accounts at or above maintenance margin with positive equity;
 * score = unrealised PnL × gross notional / equity (PnL × leverage), best first. The keeper nominates from the top
 * until the claim's size is covered (at most LiquidationEngine.ADL_MAX_NOMINEES).
 */
export function rankAdlCandidates(rows: AdlRow[], bankruptLong: boolean, priceWad: bigint): AdlCandidate[] {
  const out: AdlCandidate[] = [];
  for (const r of rows) {
    if (bankruptLong ? r.sizeCh >= 0n : r.sizeCh <= 0n) continue;
    const pnl = floorDiv(r.sizeCh * priceWad, 10n ** 30n) - r.openNotionalUsdc;
    const { equityUsdc, maintenanceMarginUsdc, grossNotionalUsdc } = r.margin;
    if (pnl <= 0n || equityUsdc <= 0n || equityUsdc < maintenanceMarginUsdc) continue;
    const abs = r.sizeCh < 0n ? -r.sizeCh : r.sizeCh;
    out.push({
      account: r.account,
      scoreUsdc: (pnl * grossNotionalUsdc) / equityUsdc,
      sizeCh: r.sizeCh,
      remainingCh: abs,
    });
  }
  return out.sort((x, y) => (x.scoreUsdc > y.scoreUsdc ? -1 : x.scoreUsdc < y.scoreUsdc ? 1 : 0));
}
