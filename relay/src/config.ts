/** Relay settings: defaults, then the environment (CHX_RELAY_*), then what the caller (CLI flags, tests) passes. */
import path from "node:path";

export interface RelayConfig {
  /** Network name: the deployment record is `<deploymentsDir>/<network>.json` unless `deploymentFile` is set. */
  network: string;
  rpcUrl: string;
  deploymentsDir: string;
  deploymentFile?: string;
  /** sqlite:<file> (default relay-data/<network>.sqlite), sqlite::memory:, postgres://…, pglite:<dir>|memory. */
  database: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Depth at which a change counts as final (fills carry `confirmed`); the book follows the head regardless. */
  confirmations: number;
  /** How often the relay polls the node for a new head. */
  pollMs: number;
  /** Block hashes kept for reorg detection (a deeper reorg re-checks every live order). */
  reorgWindow: number;
  /** Most blocks one sync round reads (catching up after a restart goes in rounds of this size). */
  maxBlockRange: number;
  /** Largest request body (bytes); bigger answers 413 PAYLOAD_TOO_LARGE before it is parsed. */
  bodyLimitBytes: number;
  /** Requests per IP per window (every route); beyond: 429 RATE_LIMITED. */
  ipRateLimit: { max: number; windowMs: number };
  /** Orders and notices per maker: a token bucket (sustained rate, burst). */
  makerRateLimit: { perSecond: number; burst: number };
  /** Smallest order amount (CH wei / option size); smaller is dust that could never be filled profitably. */
  minAmount: bigint;
  /** Largest price (WAD, USDC per CH): 10^12 USDC per CH. */
  maxPriceWad: bigint;
  /** An order must live at least this long after the head's timestamp when posted. */
  minTtlSec: number;
  /** … and at most this long. */
  maxTtlSec: number;
  /** Live orders one maker may have. */
  maxOrdersPerMaker: number;
  /** Live orders the relay holds in all. */
  maxLiveOrders: number;
  /** Honour X-Forwarded-For (behind a reverse proxy only). */
  trustProxy: boolean;
  logLevel: string;
}

export function defaultRelayConfig(network = "localhost"): RelayConfig {
  const local = network === "localhost" || network === "hardhat";
  return {
    network,
    rpcUrl: process.env.CHX_LOCAL_RPC ?? "http://127.0.0.1:8545",
    deploymentsDir: process.env.CHX_DEPLOYMENTS_DIR ?? "deployments",
    database: `sqlite:${path.join("relay-data", `${network}.sqlite`)}`,
    host: "127.0.0.1",
    port: 8547,
    confirmations: local ? 0 : 3,
    pollMs: local ? 250 : 1_000,
    reorgWindow: 128,
    maxBlockRange: 1_000,
    bodyLimitBytes: 16 * 1024,
    ipRateLimit: { max: 600, windowMs: 10_000 },
    makerRateLimit: { perSecond: 20, burst: 100 },
    minAmount: 10n ** 12n,
    maxPriceWad: 10n ** 30n,
    minTtlSec: 10,
    maxTtlSec: 365 * 86_400,
    maxOrdersPerMaker: 1_000,
    maxLiveOrders: 500_000,
    trustProxy: false,
    logLevel: "info",
  };
}

/** CHX_RELAY_* environment variables over `cfg`. */
export function relayEnv(cfg: RelayConfig, env: NodeJS.ProcessEnv = process.env): RelayConfig {
  const out = { ...cfg };
  const num = (k: string, v: string | undefined): number | undefined => {
    if (v === undefined || v === "") return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${k} must be a non-negative number, got "${v}"`);
    return n;
  };
  if (env.CHX_RELAY_RPC_URL) out.rpcUrl = env.CHX_RELAY_RPC_URL;
  if (env.CHX_RELAY_DB) out.database = env.CHX_RELAY_DB;
  if (env.CHX_RELAY_HOST) out.host = env.CHX_RELAY_HOST;
  out.port = num("CHX_RELAY_PORT", env.CHX_RELAY_PORT) ?? out.port;
  out.confirmations = num("CHX_RELAY_CONFIRMATIONS", env.CHX_RELAY_CONFIRMATIONS) ?? out.confirmations;
  out.pollMs = num("CHX_RELAY_POLL_MS", env.CHX_RELAY_POLL_MS) ?? out.pollMs;
  if (env.CHX_RELAY_LOG_LEVEL) out.logLevel = env.CHX_RELAY_LOG_LEVEL;
  if (env.CHX_RELAY_TRUST_PROXY === "1") out.trustProxy = true;
  return out;
}

export function deploymentPath(cfg: RelayConfig): string {
  return cfg.deploymentFile ?? path.join(cfg.deploymentsDir, `${cfg.network}.json`);
}
