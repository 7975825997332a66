/**
 * The keeper runner: every tick reads the head (detecting reorgs), realigns the nonce when idle, quotes gas once,
 * then for every enabled job — in parallel, each behind its own timeout and circuit breaker, so one job's errors or
 * RPC trouble back off that job only — scan → plan → (idempotency filter) → simulate → gas policy → send, pipelining
 * the transactions of a tick. Priority actions are simulated and sent first, and take over the nonce of a stuck
 * ordinary transaction. The idempotency memo, in-flight transactions and job checkpoints live in the state
 * database (keepers/src/store.ts), so a restart adopts what was in flight instead of doing it twice.
 */
import type { Logger } from "pino";
import { ChainClient, RpcUnavailableError } from "./chain/client.js";
import { ErrorDecoder } from "./chain/errors.js";
import { decideSpend, gwei, quoteFees, type FeeQuote } from "./chain/gas.js";
import { NonceManager } from "./chain/nonce.js";
import { SendError, Sender, type KeeperSigner, type Simulation, type TxOutcome } from "./chain/sender.js";
import { ConfigError, type KeeperConfig } from "./config.js";
import type { DeploymentInfo } from "./deployments.js";
import { KeeperMetrics, startMetricsServer, type MetricsServer } from "./metrics.js";
import { bountiesIn, claimsIn, units, valueWei, type Bounty } from "./profit.js";
import { loadJobs, type LoadedJob } from "./scan.js";
import { ReorgDetector, WorkMemo } from "./state.js";
import { KeeperStore } from "./store.js";
import { Breaker, isAlreadyDone, isExpected, mapLimit, TimeoutError, withTimeout } from "./util.js";
import { keyString, type Action, type HeadInfo, type JobContext, type JobFactory } from "./jobs/types.js";

export type Outcome =
  | "success"
  | "already-done"
  | "skipped-gas"
  | "skipped-inflight"
  | "simulation-failed"
  | "dry-run"
  | "reverted"
  | "timeout"
  | "nonce-consumed"
  | "preempted"
  | "reorged"
  | "deferred"
  | "abandoned"
  | "failed";

export interface ActionResult {
  job: string;
  key: string;
  priority: boolean;
  outcome: Outcome;
  txHash?: string;
  nonce?: number;
  replacements?: number;
  /** For a batch action: how many keys it covers. */
  covers?: number;
  reason?: string;
  /** Gas paid (wei) and bounties earned, for a mined transaction. */
  gasCostWei?: bigint;
  bounties?: Bounty[];
  /** A transaction a previous run left in flight, adopted at start-up. */
  adopted?: boolean;
}

export interface TickReport {
  head: number;
  /** Milliseconds spent in each phase (head+gas, scan+plan, simulate, send = until broadcast or settled). */
  phasesMs: { prepare: number; scan: number; simulate: number; send: number };
  reorg: boolean;
  results: ActionResult[];
  errors: string[];
}

export interface KeeperDeps {
  config: KeeperConfig;
  deployment: DeploymentInfo;
  /** The signer (an ethers Wallet), or a keyless one for a dry run (signer.ts `dryRunSigner`). */
  wallet: KeeperSigner;
  factories: JobFactory[];
  log: Logger;
  metrics?: KeeperMetrics;
  decoder?: ErrorDecoder;
}

const SIM_CONCURRENCY = 16;
/** Outcomes that count as a failure of the action (the CLI's --once exit code, alerts). */
export const FAILED_OUTCOMES = new Set<Outcome>([
  "simulation-failed",
  "reverted",
  "timeout",
  "nonce-consumed",
  "failed",
]);

type Planned = { job: LoadedJob; ctx: JobContext; action: Action; log: Logger };

interface KeyBackoff {
  until: number;
  delayMs: number;
  /** The error's name (its text when unnamed): the same failure again is not news. */
  error: string;
}

export class Keeper {
  readonly client: ChainClient;
  readonly sender: Sender;
  readonly nonces: NonceManager;
  readonly metrics: KeeperMetrics;
  readonly decoder: ErrorDecoder;
  readonly jobs: LoadedJob[] = [];
  readonly unavailable: Array<{ name: string; reason: string }> = [];
  /** The state database (idempotency keys, in-flight transactions, job checkpoints, last actions). */
  readonly store: KeeperStore;
  readonly memo: WorkMemo;
  private readonly reorgs: ReorgDetector;
  private readonly breakers = new Map<string, Breaker>();
  private readonly keyBackoff = new Map<string, KeyBackoff>();
  private readonly profitWei = new Map<string, bigint>();
  private lastHead: HeadInfo | undefined;
  private lastTickOkAt = 0;
  private stopping = false;
  private wake: (() => void) | undefined;
  private server: MetricsServer | undefined;
  private current: Promise<TickReport> | undefined;
  private readonly background = new Set<Promise<unknown>>();
  private started: Promise<void> | undefined;
  private balanceWei: bigint | undefined;
  private unfundedWarned = false;
  /** Results of transactions adopted at start-up, reported by the next tick. */
  private readonly adoptedResults: ActionResult[] = [];

  constructor(readonly deps: KeeperDeps) {
    const { config, deployment, wallet } = deps;
    this.metrics = deps.metrics ?? new KeeperMetrics();
    this.decoder = deps.decoder ?? new ErrorDecoder();
    this.client = new ChainClient({
      urls: config.rpcUrls,
      chainId: deployment.chainId,
      retries: config.rpcRetries,
      backoffMs: config.rpcBackoffMs,
      timeoutMs: config.rpcTimeoutMs,
      breakerBaseMs: config.breakerBaseMs,
      breakerMaxMs: config.breakerMaxMs,
      onError: (url, method, e) => {
        this.metrics.rpcErrors.inc({ url });
        deps.log.debug({ url, method, err: String((e as Error)?.message ?? e).slice(0, 200) }, "rpc error (retrying)");
      },
      onFailover: (from, to) => {
        this.metrics.failovers.inc();
        deps.log.warn({ from, to }, "RPC failover");
      },
      onBreaker: (url, state, cooldownMs) => {
        this.metrics.endpointOpen.set({ url }, state === "open" ? 1 : 0);
        if (state === "open") deps.log.warn({ url, cooldownMs }, "RPC endpoint failing: skipped for a while");
        else deps.log.info({ url }, "RPC endpoint answers again");
      },
    });
    this.store = KeeperStore.open(config.dataDir, deployment.chainId, wallet.address);
    this.nonces = new NonceManager(this.client, wallet.address);
    this.memo = new WorkMemo(this.client, this.store);
    this.reorgs = new ReorgDetector(this.client);
    this.sender = new Sender(
      this.client,
      wallet,
      this.nonces,
      this.decoder,
      {
        chainId: deployment.chainId,
        replaceAfterMs: config.replaceAfterMs,
        replaceBumpPercent: config.replaceBumpPercent,
        maxReplacements: config.maxReplacements,
        txTimeoutMs: config.txTimeoutMs,
        defaultPriorityFeeGwei: config.defaultPriorityFeeGwei,
        preemptAfterMs: config.preemptAfterMs,
        protectedRpcUrl: config.protectedRpcUrl,
      },
      {
        onReplace: () => this.metrics.replacements.inc(),
        onPreempt: () => this.metrics.preemptions.inc(),
        onProtectedFallback: (err) =>
          deps.log.warn({ err }, "protected submission endpoint failed: sent through the public endpoints"),
      },
      this.store,
    );
    const loaded = loadJobs(config, deployment, deps.factories);
    this.jobs.push(...loaded.jobs);
    this.unavailable.push(...loaded.unavailable);
    for (const j of this.jobs) this.breakers.set(j.name, new Breaker(config.breakerBaseMs, config.breakerMaxMs));
  }

  get address(): string {
    return this.deps.wallet.address;
  }

  /** Lines for the startup summary: what this keeper will do. */
  summary(): string[] {
    const c = this.deps.config;
    const keyless = c.dryRun && (c.privateKey ?? "") === "" && (c.keystore ?? "") === "";
    const lines = [
      `CHX keeper ${this.address}${keyless ? " (no key: dry run)" : ""} on ${c.network} (chain ${this.deps.deployment.chainId}, ${this.deps.deployment.file})`,
      `  RPC: ${c.rpcUrls.join(" → ")} (${c.rpcRetries} retries each, failover in order)${c.protectedRpcUrl === undefined ? "" : `; protected submission: ${c.protectedRpcUrl}`}`,
      `  mode: ${c.dryRun ? "DRY RUN (simulate only, nothing is sent)" : "live"}${c.once ? ", one tick then exit" : `, every ${c.pollIntervalMs} ms`}; confirmations ${c.confirmations}`,
      `  metrics: ${c.metricsPort < 0 ? "off" : `http://${c.metricsHost}:${c.metricsPort}/metrics and /health`}; custom errors known: ${this.decoder.size}`,
      `  state: ${this.store.file}`,
    ];
    for (const { name, job, config: jc } of this.jobs) {
      lines.push(`  job ${name}: ${job.summary} (gas ceiling ${jc.gasCeilingGwei} gwei for non-priority work)`);
    }
    for (const u of this.unavailable) lines.push(`  job ${u.name}: off — ${u.reason}`);
    if (this.jobs.length === 0) lines.push("  no job is enabled: nothing to do");
    return lines;
  }

  health(): { ok: boolean; [k: string]: unknown } {
    const ageMs = this.lastTickOkAt === 0 ? undefined : Date.now() - this.lastTickOkAt;
    const limit = Math.max(3 * this.deps.config.pollIntervalMs, 30_000);
    const backingOff = [...this.breakers.entries()].filter(([, b]) => b.open).map(([n]) => n);
    return {
      ok: this.jobs.length > 0 && ageMs !== undefined && ageMs < limit && !this.stopping,
      lastTickAgeMs: ageMs,
      head: this.lastHead?.number,
      jobs: this.jobs.map((j) => j.name),
      jobsBackingOff: backingOff,
      endpointsOpen: this.client.openEndpoints(),
      inFlight: this.sender.inFlight().length,
      address: this.address,
      ...(this.jobs.length === 0 ? { reason: "no job is enabled" } : {}),
    };
  }

  async startMetrics(): Promise<number | undefined> {
    if (this.deps.config.metricsPort < 0) return undefined;
    this.server = await startMetricsServer(
      this.metrics,
      this,
      this.deps.config.metricsPort,
      this.deps.config.metricsHost,
    );
    return this.server.port;
  }

  /**
   * Start-up checks against the deployment record, each failure one sentence (ConfigError): the node's chain id is
   * the record's, every contract of the record has code there, and (live) the signer has ETH to pay for gas.
   * Returns warnings (a balance below `minBalanceWei`).
   */
  async preflight(): Promise<string[]> {
    const d = this.deps.deployment;
    const cfg = this.deps.config;
    const warnings: string[] = [];
    let chainId: number;
    try {
      chainId = Number(await this.client.send<string>("eth_chainId", []));
    } catch (e) {
      throw new ConfigError(
        `Cannot reach the node at ${cfg.rpcUrls.join(", ")} (${e instanceof Error ? e.message.split("\n")[0] : String(e)}).`,
      );
    }
    if (chainId !== d.chainId) {
      throw new ConfigError(
        `${d.file} is for chain ${d.chainId}, but the node at ${this.client.url} is chain ${chainId}: wrong network or RPC URL.`,
      );
    }
    const entries = Object.entries(d.contracts);
    const codes = await mapLimit(entries, 8, ([, c]) =>
      this.client.read("getCode", (p) => p.getCode(c.address)).then((code) => code),
    );
    const missing = entries.filter((_, i) => codes[i] === "0x").map(([name, c]) => `${name} (${c.address})`);
    if (missing.length > 0) {
      throw new ConfigError(
        `${d.file} names contracts with no code on chain ${chainId}: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""} — a reset node or a stale record (redeploy).`,
      );
    }
    if (!cfg.dryRun) {
      const balance = await this.client.read("getBalance", (p) => p.getBalance(this.address));
      this.balanceWei = balance;
      if (balance === 0n) {
        throw new ConfigError(
          `The keeper ${this.address} has no ETH on chain ${chainId}: fund it before starting (liquidations and deadlines need gas).`,
        );
      }
      if (balance < cfg.minBalanceWei) {
        warnings.push(
          `The keeper ${this.address} holds only ${balance} wei (below minBalanceWei ${cfg.minBalanceWei}): top it up.`,
        );
      }
    }
    return warnings;
  }

  /**
   * Once, before the first tick: transactions a previous run left in flight are adopted at their own nonces
   * (Sender.adopt) — their keys stay held back until each settles — and held-back keys with no transaction behind
   * them (a crash between the two writes) are released so the work is not missed.
   */
  private startup(): Promise<void> {
    this.started ??= (async () => {
      // a chain restarted from genesis under the same id (a local node, a devnet reset): the state of the old one
      // would read its work as done
      const genesis = await this.client.read("getBlock", (p) => p.getBlock(0));
      if (genesis?.hash != null && this.store.bindToChain(genesis.hash)) {
        this.memo.reset();
        this.deps.log.warn({ genesis: genesis.hash }, "new chain under the same id: the keeper's state was reset");
      }
      if (this.deps.config.dryRun) return;
      const flights = this.store.flights();
      const inFlightKeys = new Set(flights.flatMap((f) => f.keys));
      for (const r of this.store.memo()) {
        if (r.state === "pending" && !inFlightKeys.has(r.key)) this.memo.forget([r.key]);
      }
      for (const f of flights) if (f.keys.length > 0) this.memo.pending(f.keys); // held back until settled
      const pendingOnChain = await this.client.read("getTransactionCount", (p) =>
        p.getTransactionCount(this.address, "pending"),
      );
      const minedOnChain = await this.client.read("getTransactionCount", (p) =>
        p.getTransactionCount(this.address, "latest"),
      );
      if (flights.length === 0 && pendingOnChain === minedOnChain) return;
      const quote = await quoteFees(this.client, this.deps.config.defaultPriorityFeeGwei);
      const byName = new Map(this.jobs.map((j) => [j.name, j]));
      const adopted = await this.sender.adopt(
        quote,
        this.deps.log,
        (job) => (n) => {
          const lj = byName.get(job);
          return lj === undefined ? n !== undefined && /AlreadyDone$/.test(n) : isAlreadyDone(lj.job, n);
        },
        (job) => gwei((byName.get(job)?.config ?? { gasCeilingGwei: 50 }).gasCeilingGwei),
      );
      if (adopted.length > 0) {
        this.deps.log.warn(
          { nonces: adopted.map((a) => a.flight.nonce) },
          "adopting transactions a previous run left in flight (at their own nonces)",
        );
      }
      for (const { flight, done } of adopted) {
        const tracked: Promise<unknown> = done
          .then((o) => {
            const jlog = this.deps.log.child({ job: flight.job || "keeper", key: flight.keys[0] ?? "-" });
            const r = this.settled(flight.job || "keeper", flight.keys, flight.description, o, jlog, {
              job: flight.job || "keeper",
              key: flight.keys[0] ?? `nonce:${flight.nonce}`,
              priority: flight.priority,
              adopted: true,
            });
            this.adoptedResults.push(r);
          })
          .catch((e: unknown) => this.deps.log.error({ nonce: flight.nonce }, `adopted transaction: ${String(e)}`))
          .finally(() => this.background.delete(tracked));
        this.background.add(tracked);
      }
    })();
    return this.started;
  }

  /** Transactions adopted at start-up that are still in flight (tests, the soak). */
  async adoptedSettled(): Promise<ActionResult[]> {
    await this.startup();
    await Promise.allSettled([...this.background]);
    return this.adoptedResults.splice(0);
  }

  private async readHead(): Promise<HeadInfo & { baseFeePerGas: bigint | null }> {
    const b = await this.client.read("getBlock", (p) => p.getBlock("latest"));
    if (b === null || b.hash === null) throw new RpcUnavailableError("The node returned no latest block.");
    return { number: b.number, hash: b.hash, timestamp: b.timestamp, baseFeePerGas: b.baseFeePerGas };
  }

  private async detectReorg(head: HeadInfo): Promise<boolean> {
    const { reorg, behind } = await this.reorgs.check(head);
    if (reorg) {
      this.metrics.reorgs.inc();
      this.deps.log.warn({ from: this.lastHead?.number, to: head.number }, "reorg detected: re-checking mined work");
      // Transactions the reorg removed are given up now and their nonces reused by this tick's sends (Sender.reorged):
      // waiting for their replacement timer left the work found again behind a nonce gap (soak, round 45).
      try {
        const { orphaned, nonce } = await this.sender.reorged();
        this.memo.forget(orphaned.flatMap((o) => o.keys));
        if (orphaned.length > 0 || nonce !== undefined) {
          this.deps.log.warn(
            { orphanedNonces: orphaned.map((o) => o.nonce), nonce },
            "transactions the reorg removed were given up: their work is re-sent from the chain's nonce",
          );
        }
      } catch (e) {
        this.nonces.invalidate();
        this.deps.log.warn({ err: this.decoder.decode(e).text }, "could not re-check the transactions in flight");
      }
    } else if (behind) {
      this.deps.log.info(
        { seen: this.lastHead?.number, head: head.number },
        "the node is behind blocks we saw (restarted or lagging), same chain: not a reorg",
      );
    }
    this.lastHead = head;
    this.metrics.headBlock.set(head.number);
    return reorg;
  }

  private record(job: string, r: ActionResult, log: Logger): ActionResult {
    this.metrics.outcomes.inc({ job, outcome: r.outcome });
    const fields: Record<string, unknown> = {
      outcome: r.outcome,
      txHash: r.txHash,
      nonce: r.nonce,
      replacements: r.replacements,
    };
    if (r.gasCostWei !== undefined) fields.gasCostWei = String(r.gasCostWei);
    if (r.bounties !== undefined && r.bounties.length > 0) {
      fields.bounty = r.bounties.map((b) => `${units(b)} ${b.asset}`).join(" + ");
    }
    if (r.adopted) fields.adopted = true;
    if (r.gasCostWei !== undefined) fields.jobProfitWei = String(this.profitWei.get(job) ?? 0n);
    const quiet = ["success", "already-done", "dry-run", "skipped-gas", "skipped-inflight", "preempted", "reorged"];
    if (quiet.includes(r.outcome)) log.info(fields, r.reason ?? r.outcome);
    else if (r.outcome === "deferred") log.warn(fields, r.reason ?? r.outcome);
    else log.error(fields, r.reason ?? r.outcome);
    if (r.txHash !== undefined || FAILED_OUTCOMES.has(r.outcome)) {
      try {
        this.store.addAction({
          at: Date.now(),
          job,
          key: r.key,
          outcome: r.outcome,
          txHash: r.txHash,
          nonce: r.nonce,
          gasCostWei: r.gasCostWei === undefined ? undefined : String(r.gasCostWei),
          bounty:
            r.bounties === undefined
              ? undefined
              : JSON.stringify(r.bounties, (_, v) => (typeof v === "bigint" ? String(v) : v)),
        });
      } catch {
        // the action log is informational
      }
    }
    return r;
  }

  /** Per-job profit bookkeeping for a mined transaction: gas paid, bounties earned (metrics). */
  private account(job: string, o: TxOutcome): Bounty[] {
    if (o.gasCostWei === undefined) return [];
    const bounties = o.logs === undefined ? [] : bountiesIn(o.logs, this.address);
    this.metrics.gasSpent.inc({ job }, Number(o.gasCostWei));
    let profit = (this.profitWei.get(job) ?? 0n) - o.gasCostWei;
    for (const b of bounties) {
      this.metrics.bounties.inc({ job, asset: b.asset }, units(b));
      profit += valueWei(b, this.deps.config.prices) ?? 0n;
    }
    this.profitWei.set(job, profit);
    this.metrics.profit.set({ job }, Number(profit));
    if (o.logs !== undefined && o.status === "success") {
      const claimed = claimsIn(o.logs, this.address);
      if (claimed > 0n) this.metrics.claimed.inc({ asset: "USDC" }, Number(claimed) / 1e6);
    }
    return bounties;
  }

  /** Records a settled transaction: memo, reorg memory, profit, the result line. */
  private settled(
    job: string,
    keys: string[],
    description: string,
    o: TxOutcome,
    log: Logger,
    base: Omit<ActionResult, "outcome">,
  ): ActionResult {
    if (this.stopping && o.status === "timeout") {
      // A hard stop left it in flight: its keys and its flight stay in the state database for the next run.
      log.info({ nonce: o.nonce }, `${description}: still in flight at shutdown; the next run adopts it`);
      return { ...base, outcome: "abandoned", nonce: o.nonce, reason: "left in flight at shutdown" };
    }
    if (o.status === "success") {
      this.memo.mined(keys, o.txHash, o.blockHash, o.blockNumber);
      if (o.blockNumber !== undefined && o.blockHash !== undefined) this.reorgs.remember(o.blockNumber, o.blockHash);
    } else if (o.status !== "reorged") {
      // (reorged: the reorg handling forgot its keys already, and the work may be in flight again under them)
      this.memo.forget(keys);
    }
    const bounties = this.account(job, o);
    const reason =
      o.status === "success"
        ? `${description}: done in block ${o.blockNumber}`
        : o.status === "already-done"
          ? `lost the race, already done (${o.error?.text})`
          : o.status === "reverted"
            ? `${description} reverted on chain: ${o.error?.text}.`
            : o.status === "preempted"
              ? `${description}: its nonce ${o.nonce} went to urgent work (${o.preemptedBy}); back in the queue`
              : o.status === "reorged"
                ? `${description}: a reorg removed its transaction (nonce ${o.nonce}); back in the queue`
                : `${description}: ${o.status} after ${o.replacements} replacement(s).`;
    return this.record(
      job,
      {
        ...base,
        outcome: o.status,
        txHash: o.txHash,
        nonce: o.nonce,
        replacements: o.replacements,
        reason,
        ...(o.gasCostWei !== undefined ? { gasCostWei: o.gasCostWei, bounties } : {}),
      },
      log,
    );
  }

  /** One pass over every job. Never throws for a job's failure (it is logged, counted and backs that job off); throws if the node is unreachable. */
  tick(opts: { wait?: boolean } = {}): Promise<TickReport> {
    const run = this.doTick(opts.wait ?? true);
    this.current = run;
    return run;
  }

  /** Scan → admit → plan for one job, behind its breaker and timeout. */
  private async scanJob(
    lj: LoadedJob,
    ctx: JobContext,
    report: TickReport,
  ): Promise<Array<{ action: Action; log: Logger }>> {
    const breaker = this.breakers.get(lj.name)!;
    if (!breaker.allow()) return [];
    const jlog = ctx.log;
    try {
      const work = (async () => {
        const endScan = this.metrics.scanSeconds.startTimer({ job: lj.name });
        const candidates = await lj.job.scan(ctx);
        endScan();
        this.metrics.dueWork.set({ job: lj.name }, candidates.length);
        // Idempotency before planning, so a job batches only work that is not already in flight or mined.
        const admitted = await mapLimit(candidates, SIM_CONCURRENCY, async (c) => {
          const key = keyString(c.key);
          const ok = await this.memo.admit(key, jlog.child({ key }), ctx.safeBlock);
          if (!ok) {
            const r: ActionResult = {
              job: lj.name,
              key,
              priority: c.priority,
              outcome: "skipped-inflight",
              reason: "already sent, waiting",
            };
            report.results.push(this.record(lj.name, r, jlog.child({ key })));
          }
          return ok ? c : undefined;
        });
        const todo = admitted.filter((c) => c !== undefined);
        return todo.length === 0 ? [] : await lj.job.plan(ctx, todo);
      })();
      work.catch(() => undefined); // a timed-out pass may still fail later: nobody waits for it
      const actions = await withTimeout(work, this.deps.config.jobTimeoutMs, `job ${lj.name}'s scan`);
      const healed = breaker.success();
      if (healed > 0) jlog.info({ failures: healed }, `job ${lj.name} recovered`);
      this.metrics.jobBackoff.set({ job: lj.name }, 0);
      return actions.map((action) => ({ action, log: jlog.child({ key: keyString(action.key) }) }));
    } catch (e) {
      const why =
        e instanceof TimeoutError
          ? e.message
          : e instanceof RpcUnavailableError
            ? `RPC trouble: ${e.message}`
            : this.decoder.decode(e).text;
      const cooldown = breaker.failure(why);
      const msg = `Job ${lj.name} could not scan: ${why}.`;
      this.metrics.tickErrors.inc({ job: lj.name });
      this.metrics.jobBackoff.set({ job: lj.name }, 1);
      // The first failure is an error; while it keeps failing, one warning per back-off (the others run on).
      if (breaker.failures === 1) jlog.error({ backoffMs: cooldown }, `${msg} Backing this job off.`);
      else jlog.warn({ backoffMs: cooldown, failures: breaker.failures }, `${msg} Still backing off.`);
      report.errors.push(msg);
      return [];
    }
  }

  private async doTick(wait: boolean): Promise<TickReport> {
    const cfg = this.deps.config;
    const log = this.deps.log;
    const endTimer = this.metrics.tickSeconds.startTimer();
    let tPhase = performance.now();
    await this.startup();
    const { baseFeePerGas, ...head } = await this.readHead();
    const reorg = await this.detectReorg(head);
    const resync = await this.nonces.resyncIfIdle();
    if (resync !== undefined) log.warn(resync, "nonce resynced from the chain");
    const [quote, balance] = await Promise.all([
      // the head block just read carries the base fee: no second read of `latest`
      quoteFees(this.client, cfg.defaultPriorityFeeGwei, { baseFeePerGas }),
      cfg.dryRun
        ? Promise.resolve(undefined)
        : this.client.read("getBalance", (p) => p.getBalance(this.address)).catch(() => undefined),
    ]);
    if (balance !== undefined) {
      this.balanceWei = balance;
      this.metrics.balance.set(Number(balance));
    }
    const report: TickReport = {
      head: head.number,
      reorg,
      results: this.adoptedResults.splice(0),
      errors: [],
      phasesMs: { prepare: 0, scan: 0, simulate: 0, send: 0 },
    };
    const phase = (name: keyof TickReport["phasesMs"]) => {
      const t = performance.now();
      report.phasesMs[name] = Math.round(t - tPhase);
      tPhase = t;
    };
    phase("prepare");
    const safeBlock = Math.max(0, head.number - cfg.confirmations);

    // Every job scans in parallel behind its own breaker and timeout: a slow or failing job delays no other.
    const perJob = await Promise.all(
      this.jobs.map((lj) => {
        const ctx: JobContext = {
          client: this.client,
          deployment: this.deps.deployment,
          config: lj.config,
          log: log.child({ job: lj.name }),
          keeper: this.address,
          head,
          safeBlock,
          store: this.store.jobStore(lj.name),
        };
        return this.scanJob(lj, ctx, report).then((as) => as.map((a) => ({ job: lj, ctx, ...a })));
      }),
    );
    const planned: Planned[] = perJob.flat();
    // Priority work first; then the best-paying.
    planned.sort((a, b) => {
      if (a.action.priority !== b.action.priority) return a.action.priority ? -1 : 1;
      const ra = a.action.rewardWei ?? 0n;
      const rb = b.action.rewardWei ?? 0n;
      return ra === rb ? 0 : ra > rb ? -1 : 1;
    });

    phase("scan");
    // 1. Simulation, in parallel; results keep the priority order. Keys whose last simulation failed wait out
    //    their back-off (an expected revert — a stale oracle — is retried later, not every tick).
    type Checked = { p: Planned; key: string; keys: string[]; base: Omit<ActionResult, "outcome">; sim?: Simulation };
    const now = Date.now();
    const checked = await mapLimit(planned, SIM_CONCURRENCY, async (p): Promise<Checked> => {
      const key = keyString(p.action.key);
      const keys = (p.action.keys ?? [p.action.key]).map(keyString);
      const base = {
        job: p.job.name,
        key,
        priority: p.action.priority,
        ...(keys.length > 1 ? { covers: keys.length } : {}),
      };
      if (this.stopping) return { p, key, keys, base };
      const backoff = this.keyBackoff.get(key);
      if (backoff !== undefined && now < backoff.until) return { p, key, keys, base };
      const isDone = (n: string | undefined) => isAlreadyDone(p.job.job, n);
      const sim = (await p.job.job.simulate?.(p.ctx, p.action)) ?? (await this.sender.simulate(p.action, isDone));
      return { p, key, keys, base, sim };
    });

    phase("simulate");
    // 2. The gas policy and dry-run, in priority order.
    const toSend: Array<Checked & { sim: { ok: true; gas: bigint } }> = [];
    for (const c of checked) {
      const { p, base, sim, key } = c;
      const name = p.job.name;
      if (sim === undefined) continue; // stopping, or backing off
      if (!sim.ok) {
        if (sim.alreadyDone) {
          this.keyBackoff.delete(key);
          const reason = `already done by someone else (${sim.error.text})`;
          report.results.push(this.record(name, { ...base, outcome: "already-done", reason }, p.log));
          continue;
        }
        const expected = isExpected(p.job.job, sim.error.name);
        const prev = this.keyBackoff.get(key);
        const delayMs =
          prev === undefined
            ? cfg.breakerBaseMs
            : Math.min(cfg.breakerMaxMs, Math.max(cfg.breakerBaseMs, 2 * prev.delayMs));
        const error = sim.error.name ?? sim.error.text;
        this.keyBackoff.set(key, { until: Date.now() + delayMs, delayMs, error });
        const outcome: Outcome = expected ? "deferred" : "simulation-failed";
        const reason = expected
          ? `${p.action.description} waits: ${sim.error.text} (expected; retrying in ${Math.round(delayMs / 1000)} s)`
          : `${p.action.description} would fail: ${sim.error.text}.`;
        // The same failure again after a back-off is not news: one line at debug, counted in the metrics.
        if (prev !== undefined && prev.error === error) {
          this.metrics.outcomes.inc({ job: name, outcome });
          p.log.debug({ outcome, retryInMs: delayMs }, reason);
          report.results.push({ ...base, outcome, reason });
        } else report.results.push(this.record(name, { ...base, outcome, reason }, p.log));
        continue;
      }
      this.keyBackoff.delete(key);
      const decision = decideSpend(quote, sim.gas, {
        priority: p.action.priority,
        ceilingWei: gwei(p.ctx.config.gasCeilingGwei),
        minProfitFactor: p.ctx.config.minProfitFactor,
        rewardWei: p.action.rewardWei,
      });
      if (!decision.send) {
        report.results.push(
          this.record(name, { ...base, outcome: "skipped-gas", reason: `skipped: ${decision.reason}` }, p.log),
        );
        continue;
      }
      if (decision.reason !== undefined) p.log.warn({ maxFeeWei: String(quote.maxFeeWei) }, decision.reason);
      if (cfg.dryRun) {
        report.results.push(
          this.record(
            name,
            { ...base, outcome: "dry-run", reason: `would send: ${p.action.description} (gas ${sim.gas})` },
            p.log,
          ),
        );
        continue;
      }
      toSend.push({ ...c, sim });
    }
    if (balance === 0n && toSend.length > 0) {
      // No ETH: nothing can be sent. One warning (not one error per action and a fee bump each).
      if (!this.unfundedWarned) {
        log.error(
          { due: toSend.length },
          `The keeper ${this.address} has no ETH: ${toSend.length} action(s) due and none can be sent; fund it.`,
        );
      }
      this.unfundedWarned = true;
      for (const c of toSend.splice(0)) {
        report.results.push(
          this.record(
            c.p.job.name,
            { ...c.base, outcome: "failed", reason: "no ETH to pay for gas" },
            c.p.log.child({}),
          ),
        );
      }
    } else if (balance !== undefined && balance > 0n) this.unfundedWarned = false;

    // 3. Send: nonces are taken in priority order, up to maxInFlight transactions are pipelined. In the run loop
    //    (wait = false) the tick does not wait for receipts: the next tick scans again while these settle, so a
    //    slow transaction never delays newly due (priority) work; the memo keeps their keys from being re-sent.
    if (!wait) toSend.splice(Math.max(0, cfg.maxInFlight - this.nonces.pendingCount));
    let broadcastLeft = toSend.length;
    let allBroadcast: () => void = () => undefined;
    const broadcasted = new Promise<void>((r) => (allBroadcast = r));
    if (broadcastLeft === 0) allBroadcast();
    const oneBroadcast = () => {
      if (--broadcastLeft === 0) allBroadcast();
    };
    const sending = mapLimit(toSend, cfg.maxInFlight, async ({ p, keys, base, sim }) => {
      if (this.stopping) {
        oneBroadcast();
        return;
      }
      const name = p.job.name;
      this.memo.pending(keys);
      let o: TxOutcome;
      let submittedOk = false;
      try {
        const submitted = await this.sender.submit(p.action, {
          priority: p.action.priority,
          ceilingWei: gwei(p.ctx.config.gasCeilingGwei),
          gasLimit: Sender.gasLimitFor(sim.gas),
          quote,
          isAlreadyDone: (n) => isAlreadyDone(p.job.job, n),
          log: p.log,
          job: name,
          keys,
          description: p.action.description,
          protected: p.job.config.protectedSubmit ?? p.job.job.contested ?? false,
        });
        submittedOk = true;
        oneBroadcast();
        o = await submitted.done;
      } catch (e) {
        if (!submittedOk) oneBroadcast();
        this.memo.forget(keys);
        const why = e instanceof SendError ? e.message : this.decoder.decode(e).text;
        const reason = `${p.action.description} could not be sent: ${why}.`;
        report.results.push(this.record(name, { ...base, outcome: "failed", reason }, p.log));
        return;
      }
      report.results.push(this.settled(name, keys, p.action.description, o, p.log, base));
    });
    await broadcasted;
    phase("send");
    if (wait) {
      await sending;
    } else {
      const tracked: Promise<unknown> = sending.finally(() => this.background.delete(tracked));
      this.background.add(tracked);
    }
    this.memo.prune();
    for (const [k, b] of this.keyBackoff) if (Date.now() > b.until + cfg.breakerMaxMs) this.keyBackoff.delete(k);
    endTimer();
    this.lastTickOkAt = Date.now();
    this.metrics.lastTick.set(Math.floor(this.lastTickOkAt / 1000));
    return report;
  }

  /**
   * Ticks until `stop()`; one failing tick is logged and the loop goes on (`--once`: a single tick). While the node
   * is unreachable the loop backs off (doubling, up to breakerMaxMs) and says so once, not every tick.
   */
  async run(): Promise<void> {
    const cfg = this.deps.config;
    let outageSince: number | undefined;
    let outages = 0;
    for (;;) {
      let delay = cfg.pollIntervalMs;
      try {
        await this.tick({ wait: cfg.once });
        if (outageSince !== undefined) {
          this.deps.log.info({ downMs: Date.now() - outageSince }, "the node answers again: keeping on");
          outageSince = undefined;
          outages = 0;
        }
      } catch (e) {
        this.metrics.tickErrors.inc({ job: "*" });
        if (cfg.once) {
          this.deps.log.error({}, `Tick failed: ${this.decoder.decode(e).text}`);
          throw e;
        }
        if (e instanceof RpcUnavailableError) {
          outages++;
          delay = Math.min(cfg.breakerMaxMs, cfg.pollIntervalMs * 2 ** Math.min(outages, 10));
          if (outageSince === undefined) {
            outageSince = Date.now();
            this.deps.log.warn(
              { retryInMs: delay },
              `The node is unreachable (${e.message}); retrying with back-off until it answers.`,
            );
          } else this.deps.log.debug({ retryInMs: delay }, "node still unreachable");
        } else this.deps.log.error({}, `Tick failed: ${this.decoder.decode(e).text}`);
      }
      if (cfg.once || this.stopping) return;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      if (this.stopping) return;
    }
  }

  /** Graceful stop: no new work, lets the current tick's transactions settle (up to `graceMs`), closes endpoints. */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    this.wake?.();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((r) => (timer = setTimeout(r, graceMs)));
    const settled = (async () => {
      await this.current?.catch(() => undefined);
      await Promise.allSettled([...this.background]);
    })();
    await Promise.race([settled, grace]);
    clearTimeout(timer);
    // Jobs' own background work (margin-model fits, re-validation) ends at its next step: awaited whatever the grace,
    // so none of it reads through a closed client or logs after stop() returned.
    await Promise.allSettled(this.jobs.map(({ job }) => job.close?.()));
    // Whatever is still in flight stays in the state database for the next run to adopt.
    this.sender.abandon();
    await this.server?.close();
    this.sender.destroy();
    this.client.destroy();
    this.store.close();
  }
}
