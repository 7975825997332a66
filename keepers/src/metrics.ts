/**
 * Prometheus metrics (prom-client, a private registry per keeper so several can share a process) and the
 * `/health` + `/metrics` HTTP endpoints, bound to `metricsHost` (127.0.0.1 unless configured).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export class KeeperMetrics {
  readonly registry = new Registry();
  readonly outcomes = new Counter({
    name: "chx_keeper_actions_total",
    help: "Keeper actions by job and outcome (success, already-done, skipped-gas, simulation-failed, reverted, …)",
    labelNames: ["job", "outcome"] as const,
    registers: [this.registry],
  });
  readonly rpcErrors = new Counter({
    name: "chx_keeper_rpc_errors_total",
    help: "Retryable JSON-RPC errors by endpoint",
    labelNames: ["url"] as const,
    registers: [this.registry],
  });
  readonly failovers = new Counter({
    name: "chx_keeper_rpc_failovers_total",
    help: "Switches to another RPC endpoint",
    registers: [this.registry],
  });
  readonly replacements = new Counter({
    name: "chx_keeper_tx_replacements_total",
    help: "Transactions re-signed with the same nonce and a higher fee",
    registers: [this.registry],
  });
  readonly reorgs = new Counter({
    name: "chx_keeper_reorgs_total",
    help: "Reorgs detected (a remembered block hash changed)",
    registers: [this.registry],
  });
  readonly tickErrors = new Counter({
    name: "chx_keeper_tick_errors_total",
    help: "Ticks or job scans that failed",
    labelNames: ["job"] as const,
    registers: [this.registry],
  });
  readonly tickSeconds = new Histogram({
    name: "chx_keeper_tick_seconds",
    help: "Duration of one keeper tick",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });
  readonly scanSeconds = new Histogram({
    name: "chx_keeper_scan_seconds",
    help: "Duration of a job's scan",
    labelNames: ["job"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers: [this.registry],
  });
  readonly headBlock = new Gauge({ name: "chx_keeper_head_block", help: "Last head seen", registers: [this.registry] });
  readonly lastTick = new Gauge({
    name: "chx_keeper_last_tick_timestamp_seconds",
    help: "Unix time of the last completed tick",
    registers: [this.registry],
  });
  readonly balance = new Gauge({
    name: "chx_keeper_balance_wei",
    help: "Keeper signer balance (wei)",
    registers: [this.registry],
  });
  readonly dueWork = new Gauge({
    name: "chx_keeper_due_work",
    help: "Candidates found by the last scan",
    labelNames: ["job"] as const,
    registers: [this.registry],
  });

  readonly jobBackoff = new Gauge({
    name: "chx_keeper_job_backoff",
    help: "1 while a job's circuit breaker is open (its scans are paused after errors or timeouts)",
    labelNames: ["job"] as const,
    registers: [this.registry],
  });
  readonly endpointOpen = new Gauge({
    name: "chx_keeper_rpc_endpoint_open",
    help: "1 while an RPC endpoint's circuit breaker is open",
    labelNames: ["url"] as const,
    registers: [this.registry],
  });
  readonly preemptions = new Counter({
    name: "chx_keeper_preemptions_total",
    help: "Stuck ordinary transactions whose nonce urgent work took over",
    registers: [this.registry],
  });
  readonly gasSpent = new Counter({
    name: "chx_keeper_gas_spent_wei_total",
    help: "Gas paid by the keeper's mined transactions (wei), by job",
    labelNames: ["job"] as const,
    registers: [this.registry],
  });
  readonly bounties = new Counter({
    name: "chx_keeper_bounty_earned_total",
    help: "Bounties earned by the keeper's transactions, in whole units of the asset (USDC, DPS, ETH), by job",
    labelNames: ["job", "asset"] as const,
    registers: [this.registry],
  });
  readonly profit = new Gauge({
    name: "chx_keeper_profit_wei",
    help: "Per-job profit: bounties valued at the configured prices minus gas (wei); priced assets only",
    labelNames: ["job"] as const,
    registers: [this.registry],
  });
  readonly claimed = new Counter({
    name: "chx_keeper_bounty_claimed_total",
    help: "Accrued bounties claimed to the keeper's wallet, in whole units, by asset",
    labelNames: ["asset"] as const,
    registers: [this.registry],
  });

  constructor(defaults = false) {
    if (defaults) collectDefaultMetrics({ register: this.registry, prefix: "chx_keeper_" });
  }

  /** Count of one outcome for one job (tests and the bench read it). */
  async count(job: string, outcome: string): Promise<number> {
    const m = await this.outcomes.get();
    return m.values
      .filter((v) => v.labels.job === job && v.labels.outcome === outcome)
      .reduce((a, v) => a + v.value, 0);
  }
}

export interface HealthSource {
  health(): { ok: boolean; [k: string]: unknown };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves GET /health (200 when the last tick is fresh, else 503) and GET /metrics on `host`:`port`. */
export async function startMetricsServer(
  metrics: KeeperMetrics,
  health: HealthSource,
  port: number,
  host = "127.0.0.1",
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.method !== "GET") {
        res.writeHead(405).end();
        return;
      }
      if (req.url === "/health") {
        const h = health.health();
        res.writeHead(h.ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify(h));
      } else if (req.url === "/metrics") {
        res.writeHead(200, { "content-type": metrics.registry.contentType }).end(await metrics.registry.metrics());
      } else {
        res.writeHead(404).end();
      }
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
