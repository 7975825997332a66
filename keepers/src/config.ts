/**
 * Keeper configuration: built-in defaults, then a JSON file (`--config`), then the environment, then CLI flags.
 * Everything is validated once at startup so a bad setting fails with one clear sentence, never mid-run.
 */
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";

/** Per-job settings; unknown keys are passed through to the job (`options`). */
export interface JobConfig {
  enabled: boolean;
  /**
   * Send this job's transactions through `protectedRpcUrl` (a private / MEV-protected submission endpoint) when one is
   * configured (default: true for contested work — liquidations — false otherwise; undefined = the job's default).
   */
  protectedSubmit?: boolean;
  /** Max fee per gas (gwei) this job will pay for non-priority work; priority work ignores it. */
  gasCeilingGwei: number;
  /** Skip non-priority work whose expected bounty is below cost × this factor (1 = break-even). */
  minProfitFactor: number;
  /** Job-specific options (targets, page sizes, …). */
  options: Record<string, unknown>;
}

export interface KeeperConfig {
  network: string;
  /** JSON-RPC endpoints in order of preference; the client fails over along the list. */
  rpcUrls: string[];
  /** Hex private key (prefer the env var CHX_KEEPER_KEY) … */
  privateKey?: string;
  /** … or an encrypted JSON keystore (password from CHX_KEEPER_KEYSTORE_PASSWORD). */
  keystore?: string;
  /** Directory holding deployments/<network>.json. */
  deploymentsDir: string;
  /** Directory of Hardhat artifacts (ABIs for the custom-error decoder). */
  artifactsDir: string;
  /** Blocks behind head that event scans stop at (0 on an automining local node). */
  confirmations: number;
  pollIntervalMs: number;
  /** Port for /health and /metrics; 0 picks a free port; -1 disables. */
  metricsPort: number;
  /** Address the metrics/health server binds (default 127.0.0.1; 0.0.0.0 in a container). */
  metricsHost: string;
  /**
   * Directory of the keeper's state database (SQLite: idempotency keys, in-flight transactions, scan cursors, last
   * actions), one file per chain and signer. ":memory:" keeps it in memory (tests; a restart forgets everything).
   */
  dataDir: string;
  /**
   * Optional private / protected submission endpoint (e.g. a builder or MEV-protect RPC) for contested actions (jobs
   * with `protectedSubmit`); raw transactions go there first and fall back to the public endpoints if it fails.
   */
  protectedRpcUrl?: string;
  /** `--jobs`: run only these jobs (an allow-list; every name must be a job of this build or a discovered one). */
  only?: string[];
  /** Address to simulate from in a dry run without a key (default: the zero address). */
  dryRunFrom?: string;
  /** Below this balance (wei) the start-up check warns (zero always fails a live keeper). */
  minBalanceWei: bigint;
  /** A job's scan/plan taking longer than this fails that job's pass (its circuit breaker counts it). */
  jobTimeoutMs: number;
  /** Circuit breakers (per job and per RPC endpoint): first back-off and its cap, doubling per failure. */
  breakerBaseMs: number;
  breakerMaxMs: number;
  /**
   * An ordinary transaction pending this long (or priced below the current base fee) is preempted by urgent work:
   * its nonce is re-signed with the urgent action, or cancelled by replacement (default: replaceAfterMs).
   */
  preemptAfterMs?: number;
  /** Native-token prices of the bounty assets, for per-job profit (bounties − gas): wei per whole unit. */
  prices: Record<string, bigint>;
  dryRun: boolean;
  once: boolean;
  logLevel: string;
  /** Read retries per endpoint before failing over, and the backoff base (jittered, doubling). */
  rpcRetries: number;
  rpcBackoffMs: number;
  rpcTimeoutMs: number;
  /** A sent transaction with no receipt after this long is re-signed with the same nonce and a higher fee. */
  replaceAfterMs: number;
  /** Fee bump per replacement, percent (≥ 10 for geth's replacement rule). */
  replaceBumpPercent: number;
  maxReplacements: number;
  /** Give up waiting for one transaction after this long (the nonce is resynced). */
  txTimeoutMs: number;
  /** Priority fee (gwei) when the node does not suggest one. */
  defaultPriorityFeeGwei: number;
  /** Transactions per tick the keeper keeps in flight at once (pipelined nonces). */
  maxInFlight: number;
  /** Turn every deployed contract with `checker()` and no dedicated job into a job (keepers/src/discover.ts). */
  discoverCheckers: boolean;
  jobs: Record<string, JobConfig>;
}

export class ConfigError extends Error {}

export const DEFAULT_JOB: JobConfig = { enabled: true, gasCeilingGwei: 50, minProfitFactor: 1, options: {} };

export function defaultConfig(network: string): KeeperConfig {
  const local = network === "localhost" || network === "hardhat";
  return {
    network,
    rpcUrls: local ? [process.env.CHX_LOCAL_RPC ?? "http://127.0.0.1:8545"] : [],
    deploymentsDir: "deployments",
    artifactsDir: "artifacts",
    confirmations: local ? 0 : 2,
    pollIntervalMs: local ? 2_000 : 12_000,
    metricsPort: 9464,
    metricsHost: "127.0.0.1",
    dataDir: path.join(".chx-keeper", network),
    minBalanceWei: 10n ** 16n,
    jobTimeoutMs: local ? 30_000 : 60_000,
    breakerBaseMs: local ? 1_000 : 5_000,
    breakerMaxMs: local ? 30_000 : 300_000,
    prices: {},
    dryRun: false,
    once: false,
    logLevel: "info",
    rpcRetries: 3,
    rpcBackoffMs: 200,
    rpcTimeoutMs: 10_000,
    replaceAfterMs: local ? 5_000 : 60_000,
    replaceBumpPercent: 25,
    maxReplacements: 5,
    txTimeoutMs: local ? 60_000 : 600_000,
    defaultPriorityFeeGwei: 1,
    maxInFlight: 64,
    discoverCheckers: true,
    jobs: {},
  };
}

export interface CliOverrides {
  network: string;
  config?: string;
  dryRun?: boolean;
  once?: boolean;
  jobs?: string[];
  logLevel?: string;
  metricsPort?: number;
  metricsHost?: string;
  dataDir?: string;
}

function num(name: string, v: unknown, min = 0): number {
  const n = typeof v === "string" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n) || n < min) {
    throw new ConfigError(`Config "${name}" must be a number ≥ ${min}, got ${JSON.stringify(v)}.`);
  }
  return n;
}

function mergeJob(base: JobConfig, raw: unknown, name: string): JobConfig {
  if (typeof raw !== "object" || raw === null) throw new ConfigError(`Config "jobs.${name}" must be an object.`);
  const { enabled, gasCeilingGwei, minProfitFactor, protectedSubmit, ...options } = raw as Record<string, unknown>;
  if (enabled !== undefined && typeof enabled !== "boolean") {
    throw new ConfigError(`Config "jobs.${name}.enabled" must be true or false.`);
  }
  if (protectedSubmit !== undefined && typeof protectedSubmit !== "boolean") {
    throw new ConfigError(`Config "jobs.${name}.protectedSubmit" must be true or false.`);
  }
  return {
    enabled: enabled === undefined ? base.enabled : enabled,
    protectedSubmit: protectedSubmit === undefined ? base.protectedSubmit : protectedSubmit,
    gasCeilingGwei:
      gasCeilingGwei === undefined ? base.gasCeilingGwei : num(`jobs.${name}.gasCeilingGwei`, gasCeilingGwei),
    minProfitFactor:
      minProfitFactor === undefined ? base.minProfitFactor : num(`jobs.${name}.minProfitFactor`, minProfitFactor),
    options: { ...base.options, ...options },
  };
}

/** Applies a partial config object (file or test) onto `cfg`. */
export function applyConfig(cfg: KeeperConfig, raw: Record<string, unknown>): KeeperConfig {
  const out: KeeperConfig = { ...cfg, jobs: { ...cfg.jobs } };
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    switch (k) {
      case "rpcUrls":
        if (!Array.isArray(v) || v.some((u) => typeof u !== "string")) {
          throw new ConfigError(`Config "rpcUrls" must be a list of URLs.`);
        }
        out.rpcUrls = v as string[];
        break;
      case "jobs":
        if (typeof v !== "object" || v === null || Array.isArray(v)) {
          throw new ConfigError(`Config "jobs" must be an object of per-job overrides.`);
        }
        for (const [name, j] of Object.entries(v as Record<string, unknown>)) {
          out.jobs[name] = mergeJob(out.jobs[name] ?? DEFAULT_JOB, j, name);
        }
        break;
      case "privateKey":
      case "keystore":
      case "deploymentsDir":
      case "artifactsDir":
      case "logLevel":
      case "network":
      case "metricsHost":
      case "dataDir":
      case "protectedRpcUrl":
      case "dryRunFrom":
        out[k] = String(v);
        break;
      case "minBalanceWei":
        if (!/^\d+$/.test(String(v))) throw new ConfigError(`Config "minBalanceWei" must be a decimal string of wei.`);
        out.minBalanceWei = BigInt(String(v));
        break;
      case "prices":
        if (typeof v !== "object" || v === null || Array.isArray(v)) {
          throw new ConfigError(`Config "prices" must map an asset (USDC, DPS) to wei per whole unit.`);
        }
        out.prices = {};
        for (const [asset, wei] of Object.entries(v as Record<string, unknown>)) {
          if (!/^\d+$/.test(String(wei))) {
            throw new ConfigError(`Config "prices.${asset}" must be a decimal string of wei per whole ${asset}.`);
          }
          out.prices[asset] = BigInt(String(wei));
        }
        break;
      case "only":
        if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
          throw new ConfigError(`Config "only" must be a list of job names.`);
        }
        out.only = v as string[];
        break;
      case "dryRun":
      case "once":
      case "discoverCheckers":
        out[k] = Boolean(v);
        break;
      case "confirmations":
      case "pollIntervalMs":
      case "rpcRetries":
      case "rpcBackoffMs":
      case "rpcTimeoutMs":
      case "replaceAfterMs":
      case "replaceBumpPercent":
      case "maxReplacements":
      case "txTimeoutMs":
      case "defaultPriorityFeeGwei":
      case "maxInFlight":
      case "jobTimeoutMs":
      case "breakerBaseMs":
      case "breakerMaxMs":
      case "preemptAfterMs":
        out[k] = num(k, v);
        break;
      case "metricsPort":
        out.metricsPort = num(k, v, -1);
        break;
      default:
        throw new ConfigError(`Unknown config key "${k}" (check the spelling against docs/keepers.md).`);
    }
  }
  return out;
}

/** Environment variables (CHX_KEEPER_*) — the place for secrets and per-host endpoints. */
export function envOverrides(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const list = (s: string | undefined) =>
    s === undefined
      ? undefined
      : s
          .split(",")
          .map((x) => x.trim())
          .filter((x) => x.length > 0);
  return {
    rpcUrls: list(env.CHX_KEEPER_RPC_URLS),
    privateKey: env.CHX_KEEPER_KEY,
    keystore: env.CHX_KEEPER_KEYSTORE,
    confirmations: env.CHX_KEEPER_CONFIRMATIONS,
    pollIntervalMs: env.CHX_KEEPER_POLL_MS,
    metricsPort: env.CHX_KEEPER_METRICS_PORT,
    logLevel: env.CHX_KEEPER_LOG_LEVEL,
    deploymentsDir: env.CHX_KEEPER_DEPLOYMENTS_DIR,
    metricsHost: env.CHX_KEEPER_METRICS_HOST,
    dataDir: env.CHX_KEEPER_DATA_DIR,
    protectedRpcUrl: env.CHX_KEEPER_PROTECTED_RPC_URL,
  };
}

/** defaults ← file ← env ← CLI flags. */
export function loadConfig(cli: CliOverrides, env: NodeJS.ProcessEnv = process.env): KeeperConfig {
  let cfg = defaultConfig(cli.network);
  const file = cli.config ?? env.CHX_KEEPER_CONFIG;
  if (file !== undefined) {
    if (!existsSync(file)) throw new ConfigError(`Config file ${file} does not exist.`);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      throw new ConfigError(`Config file ${file} is not valid JSON (${(e as Error).message}).`);
    }
    if (typeof raw !== "object" || raw === null) throw new ConfigError(`Config file ${file} must hold an object.`);
    cfg = applyConfig(cfg, raw as Record<string, unknown>);
  }
  cfg = applyConfig(cfg, envOverrides(env));
  cfg = applyConfig(cfg, {
    dryRun: cli.dryRun || undefined,
    once: cli.once || undefined,
    logLevel: cli.logLevel,
    metricsPort: cli.metricsPort,
    metricsHost: cli.metricsHost,
    dataDir: cli.dataDir,
  });
  // `--jobs a,b` is an allow-list; the config's "jobs" section only ever overrides settings (never selects).
  if (cli.jobs !== undefined && cli.jobs.length > 0) cfg.only = [...new Set(cli.jobs)];
  validate(cfg);
  return cfg;
}

export function validate(cfg: KeeperConfig): void {
  if (cfg.rpcUrls.length === 0) {
    throw new ConfigError(
      `No RPC URL for network "${cfg.network}": set CHX_KEEPER_RPC_URLS (comma-separated) or "rpcUrls" in the config file.`,
    );
  }
  for (const u of cfg.rpcUrls) {
    if (!/^https?:\/\//.test(u)) throw new ConfigError(`RPC URL "${u}" must start with http:// or https://.`);
  }
  if (cfg.protectedRpcUrl !== undefined && !/^https?:\/\//.test(cfg.protectedRpcUrl)) {
    throw new ConfigError(`protectedRpcUrl "${cfg.protectedRpcUrl}" must start with http:// or https://.`);
  }
  if (cfg.breakerMaxMs < cfg.breakerBaseMs) throw new ConfigError(`breakerMaxMs must be at least breakerBaseMs.`);
  if (cfg.replaceBumpPercent < 10) {
    throw new ConfigError(`replaceBumpPercent must be at least 10 (nodes reject smaller replacement bumps).`);
  }
}

export function deploymentFile(cfg: KeeperConfig): string {
  return path.join(cfg.deploymentsDir, `${cfg.network}.json`);
}
