/**
 * The real keeper program (keepers/src: the same Keeper runner, job registry, config rules, simulation, gas policy,
 * idempotency memo and pino JSON logs as `npm run keeper`) run in-process against the demo's chain.
 *
 * - In-process chain (default): the keeper reaches it through a loopback JSON-RPC bridge (scripts/demo/rpc-bridge.ts)
 *   in front of the connection's EIP-1193 provider; with `--network localhost` it talks to the node's own URL.
 * - Jobs: every job of the keeper build whose contracts the deploy record holds (no "jobs" section), exactly as the
 *   CLI decides; the startup summary (on/off and why) goes into the report.
 * - Ticks are driven by the demo (after each move of chain time and where a scene waits for upkeep) and wait for
 *   their receipts, so a seed replays the same chain.
 * - Its signer is a fresh key derived from the seed, funded by the deployer: it holds no role, like any keeper.
 */
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { keccak256, parseEther, toUtf8Bytes, Wallet } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import {
  applyConfig,
  defaultConfig,
  discoverCheckers,
  jobFactories,
  Keeper,
  createLogger,
  type ActionResult,
  type DeploymentInfo,
  type JobFactory,
  type KeeperConfig,
  type TickReport,
} from "@chx/keeper";
import { startRpcBridge, type RpcBridge } from "./rpc-bridge.js";
import { type DeploymentRecord } from "@chx/sdk";
import { defaultRelayConfig, startRelay, type RunningRelay } from "@chx/relay";
import { pino } from "pino";

/** Outcomes that mean the keeper failed to do due work (the demo test asserts there are none). */
export const FAILED_OUTCOMES = new Set(["simulation-failed", "reverted", "timeout", "nonce-consumed", "failed"]);

export interface KeeperJobStats {
  job: string;
  /** Count per outcome (success, already-done, skipped-gas, …). */
  outcomes: Record<string, number>;
  /** Scan errors of this job. */
  errors: number;
  /** First few successful actions, for the report. */
  examples: string[];
}

export interface DemoKeeperOptions {
  connection: NetworkConnection;
  record: DeploymentRecord;
  deployer: HardhatEthersSigner;
  seed: number;
  /** keeper.log goes here. */
  out: string;
  /** Called with one line per successful action (the demo's run log). */
  onAction?: (line: string) => void;
}

/**
 * The order relay (relay/, docs/relay.md) beside the keeper, on the same endpoint, its database in memory: the spot
 * scene posts orders to it and the keeper's spot-matcher job matches them. SQLite (node:sqlite, Node ≥ 22) when this
 * Node has it, else PostgreSQL's engine (PGlite).
 */
async function startDemoRelay(url: string, record: DeploymentRecord): Promise<RunningRelay> {
  let database = "sqlite::memory:";
  try {
    await import("node:sqlite");
  } catch {
    database = "pglite:memory";
  }
  const cfg = {
    ...defaultRelayConfig("localhost"),
    rpcUrl: url,
    database,
    port: 0,
    pollMs: 200,
    logLevel: "silent",
    // the demo's actors post from one process: the per-IP and per-maker limits are for the public
    ipRateLimit: { max: 1_000_000, windowMs: 60_000 },
    makerRateLimit: { perSecond: 1_000, burst: 1_000 },
  };
  return startRelay(cfg, { record, logger: pino({ level: "silent" }) });
}

async function endpointOf(connection: NetworkConnection): Promise<{ url: string; bridge?: RpcBridge }> {
  const cfg = connection.networkConfig as { type: string; url?: unknown };
  if (cfg.type === "http" && cfg.url !== undefined) {
    const u = cfg.url as string | { get(): Promise<string> };
    return { url: typeof u === "string" ? u : await u.get() };
  }
  const bridge = await startRpcBridge(connection.provider);
  return { url: bridge.url, bridge };
}

const FACTORIES: JobFactory[] = jobFactories;

/**
 * The markets' upkeep (funding pokes, expiries, settlement) for the generic `checker` job: every deployed contract
 * the keeper's own discovery finds with a checker() (keepers/src/discover.ts) that no dedicated job of this build
 * covers — as an operator would list them in the keeper's config file.
 */
function checkerTargets(config: KeeperConfig, deployment: DeploymentInfo): string[] {
  const covered = new Set(jobFactories.flatMap((f) => f.covers ?? []));
  return discoverCheckers(deployment, config.artifactsDir)
    .filter((d) => !covered.has(d.contract))
    .map((d) => d.name);
}

export class DemoKeeper {
  private readonly stats = new Map<string, KeeperJobStats>();
  private readonly keys: string[] = [];
  private ticks = 0;
  private tickMs = 0;
  /** What the ticks cost: JSON-RPC requests by method and milliseconds by phase, idle ticks (nothing sent) apart. */
  private readonly cost = {
    idle: { ticks: 0, ms: 0, requests: 0 },
    busy: { ticks: 0, ms: 0, requests: 0 },
    phasesMs: { prepare: 0, scan: 0, simulate: 0, send: 0 },
    methods: {} as Record<string, number>,
  };

  private constructor(
    readonly keeper: Keeper,
    readonly logFile: string,
    private readonly bridge: RpcBridge | undefined,
    private readonly onAction: (line: string) => void,
    /** The order relay the spot scene posts to (its URL is the spot-matcher job's `relayUrl`). */
    readonly relay: RunningRelay,
  ) {
    for (const j of keeper.jobs) this.stats.set(j.name, { job: j.name, outcomes: {}, errors: 0, examples: [] });
  }

  static async start(o: DemoKeeperOptions): Promise<DemoKeeper> {
    const { url, bridge } = await endpointOf(o.connection);
    const chainId = Number((await o.connection.ethers.provider.getNetwork()).chainId);
    const deployment: DeploymentInfo = {
      network: o.connection.networkName,
      chainId,
      file: `the demo's deploy record (${o.connection.networkName})`,
      contracts: o.record.contracts,
    };
    // The CLI's config rules with local-node defaults; no metrics endpoint (several demos may run at once).
    const base = defaultConfig("localhost");
    const raw: Record<string, unknown> = {
      network: o.connection.networkName,
      rpcUrls: [url],
      metricsPort: -1,
      confirmations: 0,
      replaceAfterMs: 2_000,
      logLevel: "info",
      dataDir: ":memory:",
    };
    // The demo lists the markets as targets of the one checker job (run as priority work) instead of the keeper's
    // per-market discovered jobs, so its report groups all market upkeep under "checker".
    if ("discoverCheckers" in base) raw.discoverCheckers = false;
    const config = applyConfig(base, raw);
    const relay = await startDemoRelay(url, o.record);
    const targets = checkerTargets(config, deployment);
    // per-job overrides (every job of the build runs): the checker job gets the markets as its targets, the spot
    // matcher the demo's relay; the demo's report counts upkeep, bounty claims (the bounties job) are shown by
    // keepers/test instead
    const jobs: Record<string, unknown> = Object.fromEntries(jobFactories.map((f) => [f.name, {}]));
    if (targets.length > 0) jobs.checker = { targets: targets.map((contract) => ({ contract, priority: true })) };
    jobs["spot-matcher"] = { relayUrl: relay.url, nativePriceUsdc: 3000 };
    if ("bounties" in jobs) jobs.bounties = { enabled: false };
    Object.assign(config, applyConfig(config, { jobs }));
    const wallet = new Wallet(keccak256(toUtf8Bytes(`chx-demo-keeper:${o.seed}`)));
    await (await o.deployer.sendTransaction({ to: wallet.address, value: parseEther("100") })).wait();
    const logFile = path.join(o.out, "keeper.log");
    mkdirSync(o.out, { recursive: true });
    writeFileSync(logFile, "");
    // one JSON line per write, appended synchronously: the log is complete even if the demo is interrupted
    // a line written after the run's folder is gone (a job's background warning settling after stop) is dropped
    const write = (line: string) => {
      try {
        appendFileSync(logFile, line);
      } catch {
        /* the demo's output folder was removed */
      }
    };
    const log = createLogger(config.logLevel, { write });
    const keeper = new Keeper({ config, deployment, wallet, factories: FACTORIES, log });
    for (const line of keeper.summary()) log.info({ summary: true }, line);
    log.info({ address: keeper.address, jobs: keeper.jobs.map((j) => j.name), rpc: url }, "keeper started (demo)");
    return new DemoKeeper(keeper, logFile, bridge, o.onAction ?? (() => {}), relay);
  }

  get address(): string {
    return this.keeper.address;
  }

  /** The keeper's startup summary: signer, chain, each job on (what it does) or off (why). */
  summary(): string[] {
    return this.keeper.summary();
  }

  /** One keeper tick: every job scans, plans, simulates and sends its due work; waits for the receipts. */
  async tick(): Promise<TickReport> {
    const t0 = Date.now();
    const before = this.bridge?.methods();
    const report = await this.keeper.tick({ wait: true });
    const ms = Date.now() - t0;
    this.tickMs += ms;
    this.ticks++;
    this.account(report, ms, before);
    for (const r of report.results) this.count(r);
    for (const e of report.errors) {
      const job = /^Job (\S+)/.exec(e)?.[1] ?? "*";
      const s = this.statsOf(job);
      s.errors++;
    }
    return report;
  }

  /** Ticks until a tick has nothing left to send (e.g. a rebalance pass longer than one tick), at most `max` times. */
  async settle(max = 10): Promise<void> {
    for (let i = 0; i < max; i++) {
      const r = await this.tick();
      if (!r.results.some((x) => x.outcome === "success")) return;
    }
  }

  private account(report: TickReport, ms: number, before: Record<string, { count: number }> | undefined): void {
    for (const [k, v] of Object.entries(report.phasesMs)) this.cost.phasesMs[k as keyof TickReport["phasesMs"]] += v;
    const kind = report.results.some((r) => r.txHash !== undefined) ? this.cost.busy : this.cost.idle;
    kind.ticks++;
    kind.ms += ms;
    if (before === undefined || this.bridge === undefined) return;
    for (const [m, { count }] of Object.entries(this.bridge.methods())) {
      const n = count - (before[m]?.count ?? 0);
      if (n === 0) continue;
      this.cost.methods[m] = (this.cost.methods[m] ?? 0) + n;
      kind.requests += n;
    }
  }

  /** What the ticks cost (requests through the in-process bridge: the relay's polling during a tick counts too). */
  async costs(): Promise<typeof this.cost & { scanSecondsByJob: Record<string, number> }> {
    const scan = await this.keeper.metrics.scanSeconds.get();
    const byJob: Record<string, number> = {};
    for (const v of scan.values)
      if (v.metricName?.endsWith("_sum") === true) byJob[String(v.labels.job)] = Number(v.value.toFixed(2));
    return { ...this.cost, scanSecondsByJob: byJob };
  }

  private statsOf(job: string): KeeperJobStats {
    let s = this.stats.get(job);
    if (s === undefined) {
      s = { job, outcomes: {}, errors: 0, examples: [] };
      this.stats.set(job, s);
    }
    return s;
  }

  private count(r: ActionResult): void {
    const s = this.statsOf(r.job);
    s.outcomes[r.outcome] = (s.outcomes[r.outcome] ?? 0) + 1;
    if (r.outcome === "success") {
      this.keys.push(r.key);
      const line = `${r.key} — ${r.reason ?? "done"}`;
      if (s.examples.length < 3) s.examples.push(line);
      this.onAction(`keeper ${r.job}: ${line}`);
    }
  }

  /** Successful actions of `job` (all jobs when omitted). */
  successes(job?: string): number {
    let n = 0;
    for (const s of this.stats.values()) if (job === undefined || s.job === job) n += s.outcomes.success ?? 0;
    return n;
  }

  /** Successful actions whose idempotency key starts with `prefix` (e.g. "checker:OptionsMarket"). */
  actions(prefix: string): number {
    return this.keys.filter((k) => k.startsWith(prefix)).length;
  }

  /** Actions that failed (simulation, revert, timeout, …) plus scan errors, over all jobs. */
  failures(): number {
    let n = 0;
    for (const s of this.stats.values()) {
      n += s.errors;
      for (const [k, v] of Object.entries(s.outcomes)) if (FAILED_OUTCOMES.has(k)) n += v;
    }
    return n;
  }

  jobStats(): KeeperJobStats[] {
    return [...this.stats.values()];
  }

  timing(): { ticks: number; seconds: number } {
    return { ticks: this.ticks, seconds: this.tickMs / 1000 };
  }

  async close(): Promise<void> {
    await this.keeper.stop(5_000);
    await this.relay.stop();
    await this.bridge?.close();
  }
}
