/**
 * JSON-RPC client with failover across several endpoints and retries with exponential backoff and jitter.
 * Every provider is an ethers v6 JsonRpcProvider with `cacheTimeout: -1` (its 250 ms call cache hands out stale
 * nonces against an automining node), a static network (no detection loops when an endpoint is down) and no
 * batching (one failed request never takes others down with it).
 */
import { FetchRequest, JsonRpcProvider, Network } from "ethers";
import { classifySendError, revertData, shortMessage } from "./errors.js";

export interface ClientOptions {
  urls: string[];
  chainId: number;
  retries: number;
  backoffMs: number;
  timeoutMs: number;
  onError?: (url: string, method: string, error: unknown) => void;
  onFailover?: (from: string, to: string) => void;
  /** Per-endpoint circuit breaker: an endpoint that exhausted its retries is skipped for this long, doubling per
   *  consecutive failure up to `breakerMaxMs`; then it gets one attempt (half-open). Default 1 s / 30 s. */
  breakerBaseMs?: number;
  breakerMaxMs?: number;
  onBreaker?: (url: string, state: "open" | "closed", cooldownMs?: number) => void;
  /** Test hook: replaces setTimeout-based sleeping. */
  sleep?: (ms: number) => Promise<void>;
}

const NON_RETRYABLE_CODES = new Set([
  "CALL_EXCEPTION",
  "INVALID_ARGUMENT",
  "NONCE_EXPIRED",
  "REPLACEMENT_UNDERPRICED",
  "INSUFFICIENT_FUNDS",
  "TRANSACTION_REPLACED",
  "ACTION_REJECTED",
  "UNSUPPORTED_OPERATION",
]);
const NON_RETRYABLE_TEXT =
  /revert|nonce too low|nonce too high|nonce has already been used|underpriced|insufficient funds|already known|known transaction|invalid (argument|params|sender)|exceeds block gas limit/i;

/** True for transport and node-side hiccups; false for answers that a retry would only repeat (reverts, nonces). */
export function isRetryable(e: unknown): boolean {
  if (revertData(e) !== undefined) return false;
  const code = (e as { code?: unknown })?.code;
  if (typeof code === "string" && NON_RETRYABLE_CODES.has(code)) return false;
  if (NON_RETRYABLE_TEXT.test(shortMessage(e))) return false;
  // ethers reports some node answers as "could not coalesce error": look at the node's own message inside
  return classifySendError(e) === "rpc";
}

export class RpcUnavailableError extends Error {}

interface Breaker {
  failures: number;
  openUntil: number;
}

export class ChainClient {
  readonly providers: JsonRpcProvider[];
  private current = 0;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly breakers: Breaker[];

  constructor(readonly opts: ClientOptions) {
    const network = Network.from(opts.chainId);
    this.providers = opts.urls.map((url) => {
      const req = new FetchRequest(url);
      req.timeout = opts.timeoutMs;
      return new JsonRpcProvider(req, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
    });
    this.breakers = opts.urls.map(() => ({ failures: 0, openUntil: 0 }));
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  get url(): string {
    return this.opts.urls[this.current] ?? "";
  }

  /** The endpoint currently preferred (for code that needs a plain provider, e.g. a TypeChain runner). */
  get provider(): JsonRpcProvider {
    return this.providers[this.current] as JsonRpcProvider;
  }

  /** Endpoints whose breaker is open now (for /health and the logs). */
  openEndpoints(): string[] {
    const now = Date.now();
    return this.opts.urls.filter((_, i) => (this.breakers[i]?.openUntil ?? 0) > now);
  }

  /**
   * The order to try endpoints in: by preference, those with a closed (or half-open: cooldown over) breaker first,
   * then the open ones (so a call is never refused without trying: every endpoint may have recovered).
   */
  private order(): number[] {
    const now = Date.now();
    const idx = this.opts.urls.map((_, i) => i);
    const ready = idx.filter((i) => (this.breakers[i]?.openUntil ?? 0) <= now);
    const open = idx.filter((i) => (this.breakers[i]?.openUntil ?? 0) > now);
    return [...ready, ...open];
  }

  private trip(i: number): void {
    const b = this.breakers[i]!;
    b.failures++;
    const base = this.opts.breakerBaseMs ?? 1_000;
    const cooldown = Math.min(this.opts.breakerMaxMs ?? 30_000, base * 2 ** (b.failures - 1));
    b.openUntil = Date.now() + cooldown;
    this.opts.onBreaker?.(this.opts.urls[i] ?? "", "open", cooldown);
  }

  private heal(i: number): void {
    const b = this.breakers[i]!;
    if (b.failures > 0) this.opts.onBreaker?.(this.opts.urls[i] ?? "", "closed");
    b.failures = 0;
    b.openUntil = 0;
  }

  /**
   * Runs `fn` against the most preferred endpoint whose circuit breaker is closed; on a retryable error retries with
   * jittered doubling backoff, then trips that endpoint's breaker and fails over to the next. An endpoint whose
   * cooldown is over gets one attempt (half-open) before its retries. Non-retryable errors (reverts, nonce answers)
   * and those `passThrough` claims are rethrown at once.
   */
  async read<T>(
    label: string,
    fn: (p: JsonRpcProvider) => Promise<T>,
    o: { passThrough?: (e: unknown) => boolean } = {},
  ): Promise<T> {
    const n = this.providers.length;
    let last: unknown;
    for (const idx of this.order()) {
      const provider = this.providers[idx] as JsonRpcProvider;
      const url = this.opts.urls[idx] ?? "";
      const halfOpen = (this.breakers[idx]?.failures ?? 0) > 0;
      const retries = halfOpen ? 0 : this.opts.retries;
      for (let attempt = 0; attempt <= retries; attempt++) {
        try {
          const out = await fn(provider);
          this.heal(idx);
          if (idx !== this.current) {
            this.opts.onFailover?.(this.opts.urls[this.current] ?? "", url);
            this.current = idx;
          }
          return out;
        } catch (e) {
          // An answer the caller handles itself (a getLogs range cap): no retry, and the endpoint is fine.
          if (!isRetryable(e) || o.passThrough?.(e) === true) {
            this.heal(idx);
            throw e;
          }
          last = e;
          this.opts.onError?.(url, label, e);
          if (attempt < retries) {
            const base = this.opts.backoffMs * 2 ** attempt;
            await this.sleep(Math.round(base * (0.5 + Math.random())));
          }
        }
      }
      this.trip(idx);
    }
    throw new RpcUnavailableError(
      `Every RPC endpoint failed for ${label} (${n} endpoint(s), last error: ${shortMessage(last)}).`,
    );
  }

  /** A raw JSON-RPC call with failover and retries. */
  send<T = unknown>(method: string, params: unknown[]): Promise<T> {
    return this.read(method, (p) => p.send(method, params) as Promise<T>);
  }

  destroy(): void {
    for (const p of this.providers) p.destroy();
  }
}
