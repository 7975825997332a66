/**
 * The keeper runner: every tick reads the head (detecting reorgs), realigns the nonce when idle, quotes gas once,
 * then for every enabled job scan → plan → (idempotency filter) → simulate → gas policy → send, pipelining the
 * transactions of a tick and awaiting their outcomes. Priority actions are simulated and sent first.
 */
import type { Logger } from "pino";
import type { Wallet } from "ethers";
import { ChainClient, RpcUnavailableError } from "./chain/client.js";
import { ErrorDecoder } from "./chain/errors.js";
import { decideSpend, gwei, quoteFees, type FeeQuote } from "./chain/gas.js";
import { NonceManager } from "./chain/nonce.js";
import { Sender, type Simulation, type TxOutcome } from "./chain/sender.js";
import type { KeeperConfig } from "./config.js";
import type { DeploymentInfo } from "./deployments.js";
import { KeeperMetrics, startMetricsServer, type MetricsServer } from "./metrics.js";
import { loadJobs, type LoadedJob } from "./scan.js";
import { ReorgDetector, WorkMemo } from "./state.js";
import { isAlreadyDone, mapLimit } from "./util.js";
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
  wallet: Wallet;
  factories: JobFactory[];
  log: Logger;
  metrics?: KeeperMetrics;
  decoder?: ErrorDecoder;
}

const SIM_CONCURRENCY = 16;

export class Keeper {
  readonly client: ChainClient;
  readonly sender: Sender;
  readonly nonces: NonceManager;
  readonly metrics: KeeperMetrics;
  readonly decoder: ErrorDecoder;
  readonly jobs: LoadedJob[] = [];
  readonly unavailable: Array<{ name: string; reason: string }> = [];
  private readonly memo: WorkMemo;
  private readonly reorgs: ReorgDetector;
  private lastHead: HeadInfo | undefined;
  private lastTickOkAt = 0;
  private stopping = false;
  private wake: (() => void) | undefined;
  private server: MetricsServer | undefined;
  private current: Promise<TickReport> | undefined;
  private readonly background = new Set<Promise<unknown>>();

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
      onError: (url, method, e) => {
        this.metrics.rpcErrors.inc({ url });
        deps.log.debug({ url, method, err: String((e as Error)?.message ?? e).slice(0, 200) }, "rpc error (retrying)");
      },
      onFailover: (from, to) => {
        this.metrics.failovers.inc();
        deps.log.warn({ from, to }, "RPC failover");
      },
    });
    this.nonces = new NonceManager(this.client, wallet.address);
    this.memo = new WorkMemo(this.client);
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
      },
      { onReplace: () => this.metrics.replacements.inc() },
    );
    // No "jobs" section at all: every job of this build whose contracts are deployed runs with defaults.
    const loaded = loadJobs(config, deployment, deps.factories);
    this.jobs.push(...loaded.jobs);
    this.unavailable.push(...loaded.unavailable);
  }

  get address(): string {
    return this.deps.wallet.address;
  }

  /** Lines for the startup summary: what this keeper will do. */
  summary(): string[] {
    const c = this.deps.config;
    const lines = [
      `CHX keeper ${this.address} on ${c.network} (chain ${this.deps.deployment.chainId}, ${this.deps.deployment.file})`,
      `  RPC: ${c.rpcUrls.join(" → ")} (${c.rpcRetries} retries each, failover in order)`,
      `  mode: ${c.dryRun ? "DRY RUN (simulate only, nothing is sent)" : "live"}${c.once ? ", one tick then exit" : `, every ${c.pollIntervalMs} ms`}; confirmations ${c.confirmations}`,
      `  metrics: ${c.metricsPort < 0 ? "off" : `http://127.0.0.1:${c.metricsPort}/metrics and /health`}; custom errors known: ${this.decoder.size}`,
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
    return {
      ok: ageMs !== undefined && ageMs < limit && !this.stopping,
      lastTickAgeMs: ageMs,
      head: this.lastHead?.number,
      jobs: this.jobs.map((j) => j.name),
      address: this.address,
    };
  }

  async startMetrics(): Promise<number | undefined> {
    if (this.deps.config.metricsPort < 0) return undefined;
    this.server = await startMetricsServer(this.metrics, this, this.deps.config.metricsPort);
    return this.server.port;
  }

  private async readHead(): Promise<HeadInfo> {
    const b = await this.client.read("getBlock", (p) => p.getBlock("latest"));
    if (b === null || b.hash === null) throw new RpcUnavailableError("The node returned no latest block.");
    return { number: b.number, hash: b.hash, timestamp: b.timestamp };
  }

  private async detectReorg(head: HeadInfo): Promise<boolean> {
    const reorg = await this.reorgs.check(head);
    if (reorg) {
      this.metrics.reorgs.inc();
      this.deps.log.warn({ from: this.lastHead?.number, to: head.number }, "reorg detected: re-checking mined work");
      this.nonces.invalidate();
    }
    this.lastHead = head;
    this.metrics.headBlock.set(head.number);
    return reorg;
  }

  private record(job: string, r: ActionResult, log: Logger): ActionResult {
    this.metrics.outcomes.inc({ job, outcome: r.outcome });
    const fields = { outcome: r.outcome, txHash: r.txHash, nonce: r.nonce, replacements: r.replacements };
    if (r.outcome === "success" || r.outcome === "already-done" || r.outcome === "dry-run")
      log.info(fields, r.reason ?? r.outcome);
    else if (r.outcome === "skipped-gas" || r.outcome === "skipped-inflight") log.info(fields, r.reason ?? r.outcome);
    else log.error(fields, r.reason ?? r.outcome);
    return r;
  }

  /** One pass over every job. Never throws for a job's failure (it is logged and counted); throws if the node is unreachable. */
  tick(opts: { wait?: boolean } = {}): Promise<TickReport> {
    const run = this.doTick(opts.wait ?? true);
    this.current = run;
    return run;
  }

  private async doTick(wait: boolean): Promise<TickReport> {
    const cfg = this.deps.config;
    const log = this.deps.log;
    const endTimer = this.metrics.tickSeconds.startTimer();
    let tPhase = performance.now();
    const head = await this.readHead();
    const reorg = await this.detectReorg(head);
    const resync = await this.nonces.resyncIfIdle();
    if (resync !== undefined) log.warn(resync, "nonce resynced from the chain");
    const quote: FeeQuote = await quoteFees(this.client, cfg.defaultPriorityFeeGwei);
    const report: TickReport = {
      head: head.number,
      reorg,
      results: [],
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

    type Planned = { job: LoadedJob; ctx: JobContext; action: Action; log: Logger };
    const planned: Planned[] = [];
    for (const lj of this.jobs) {
      const jc = lj.config;
      const jlog = log.child({ job: lj.name });
      const ctx: JobContext = {
        client: this.client,
        deployment: this.deps.deployment,
        config: jc,
        log: jlog,
        keeper: this.address,
        head,
        safeBlock,
      };
      try {
        const endScan = this.metrics.scanSeconds.startTimer({ job: lj.name });
        const candidates = await lj.job.scan(ctx);
        endScan();
        this.metrics.dueWork.set({ job: lj.name }, candidates.length);
        // Idempotency before planning, so a job batches only work that is not already in flight or mined.
        const admitted = await mapLimit(candidates, SIM_CONCURRENCY, async (c) => {
          const key = keyString(c.key);
          const ok = await this.memo.admit(key, jlog.child({ key }), safeBlock);
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
        const actions = todo.length === 0 ? [] : await lj.job.plan(ctx, todo);
        for (const action of actions) {
          planned.push({ job: lj, ctx, action, log: jlog.child({ key: keyString(action.key) }) });
        }
      } catch (e) {
        if (e instanceof RpcUnavailableError) throw e;
        const msg = `Job ${lj.name} could not scan: ${this.decoder.decode(e).text}.`;
        this.metrics.tickErrors.inc({ job: lj.name });
        log.error({ job: lj.name }, msg);
        report.errors.push(msg);
      }
    }
    // Priority work first; then the best-paying.
    planned.sort((a, b) => {
      if (a.action.priority !== b.action.priority) return a.action.priority ? -1 : 1;
      const ra = a.action.rewardWei ?? 0n;
      const rb = b.action.rewardWei ?? 0n;
      return ra === rb ? 0 : ra > rb ? -1 : 1;
    });

    phase("scan");
    // 1. Simulation, in parallel; results keep the priority order.
    type Checked = { p: Planned; key: string; keys: string[]; base: Omit<ActionResult, "outcome">; sim?: Simulation };
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
      const isDone = (n: string | undefined) => isAlreadyDone(p.job.job, n);
      const sim = (await p.job.job.simulate?.(p.ctx, p.action)) ?? (await this.sender.simulate(p.action, isDone));
      return { p, key, keys, base, sim };
    });

    phase("simulate");
    // 2. The gas policy and dry-run, in priority order.
    const toSend: Array<Checked & { sim: { ok: true; gas: bigint } }> = [];
    for (const c of checked) {
      const { p, base, sim } = c;
      const name = p.job.name;
      if (sim === undefined) continue; // stopping
      if (!sim.ok) {
        const outcome: Outcome = sim.alreadyDone ? "already-done" : "simulation-failed";
        const reason = sim.alreadyDone
          ? `already done by someone else (${sim.error.text})`
          : `${p.action.description} would fail: ${sim.error.text}.`;
        report.results.push(this.record(name, { ...base, outcome, reason }, p.log));
        continue;
      }
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
        });
        submittedOk = true;
        oneBroadcast();
        o = await submitted.done;
      } catch (e) {
        if (!submittedOk) oneBroadcast();
        this.memo.forget(keys);
        const reason = `${p.action.description} could not be sent: ${this.decoder.decode(e).text}.`;
        report.results.push(this.record(name, { ...base, outcome: "failed", reason }, p.log));
        return;
      }
      if (o.status === "success") {
        this.memo.mined(keys, o.txHash, o.blockHash, o.blockNumber);
        if (o.blockNumber !== undefined && o.blockHash !== undefined) this.reorgs.remember(o.blockNumber, o.blockHash);
      } else {
        this.memo.forget(keys);
      }
      const reason =
        o.status === "success"
          ? `${p.action.description}: done in block ${o.blockNumber}`
          : o.status === "already-done"
            ? `lost the race, already done (${o.error?.text})`
            : o.status === "reverted"
              ? `${p.action.description} reverted on chain: ${o.error?.text}.`
              : `${p.action.description}: ${o.status} after ${o.replacements} replacement(s).`;
      report.results.push(
        this.record(
          name,
          { ...base, outcome: o.status, txHash: o.txHash, nonce: o.nonce, replacements: o.replacements, reason },
          p.log,
        ),
      );
    });
    await broadcasted;
    phase("send");
    if (wait) {
      await sending;
    } else {
      for (const t of toSend) this.memo.pending(t.keys);
      const tracked: Promise<unknown> = sending.finally(() => this.background.delete(tracked));
      this.background.add(tracked);
    }
    this.memo.prune();
    try {
      this.metrics.balance.set(Number(await this.client.read("getBalance", (p) => p.getBalance(this.address))));
    } catch {
      // metrics only
    }
    endTimer();
    this.lastTickOkAt = Date.now();
    this.metrics.lastTick.set(Math.floor(this.lastTickOkAt / 1000));
    return report;
  }

  /** Ticks until `stop()`; one failing tick is logged and the loop goes on (`--once`: a single tick). */
  async run(): Promise<void> {
    const cfg = this.deps.config;
    for (;;) {
      try {
        await this.tick({ wait: cfg.once });
      } catch (e) {
        this.metrics.tickErrors.inc({ job: "*" });
        this.deps.log.error({}, `Tick failed: ${this.decoder.decode(e).text}`);
        if (cfg.once) throw e;
      }
      if (cfg.once || this.stopping) return;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, cfg.pollIntervalMs);
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
    await this.server?.close();
    this.client.destroy();
  }
}
