/**
 * JSON-RPC client with failover across several endpoints and retries with exponential backoff and jitter.
 * Every provider is an ethers v6 JsonRpcProvider with `cacheTimeout: -1` (its 250 ms call cache hands out stale
 * nonces against an automining node), a static network (no detection loops when an endpoint is down) and no
 * batching (one failed request never takes others down with it).
 */
import { FetchRequest, JsonRpcProvider, Network } from "ethers";
import { revertData, shortMessage } from "./errors.js";

export interface ClientOptions {
  urls: string[];
  chainId: number;
  retries: number;
  backoffMs: number;
  timeoutMs: number;
  onError?: (url: string, method: string, error: unknown) => void;
  onFailover?: (from: string, to: string) => void;
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
  return !NON_RETRYABLE_TEXT.test(shortMessage(e));
}

export class RpcUnavailableError extends Error {}

export class ChainClient {
  readonly providers: JsonRpcProvider[];
  private current = 0;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(readonly opts: ClientOptions) {
    const network = Network.from(opts.chainId);
    this.providers = opts.urls.map((url) => {
      const req = new FetchRequest(url);
      req.timeout = opts.timeoutMs;
      return new JsonRpcProvider(req, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
    });
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  get url(): string {
    return this.opts.urls[this.current] ?? "";
  }

  /** The endpoint currently preferred (for code that needs a plain provider, e.g. a TypeChain runner). */
  get provider(): JsonRpcProvider {
    return this.providers[this.current] as JsonRpcProvider;
  }

  /**
   * Runs `fn` against the preferred endpoint; on a retryable error retries with jittered doubling backoff, then
   * fails over to the next endpoint. Non-retryable errors (reverts, nonce answers) are rethrown at once.
   */
  async read<T>(label: string, fn: (p: JsonRpcProvider) => Promise<T>): Promise<T> {
    const n = this.providers.length;
    let last: unknown;
    for (let k = 0; k < n; k++) {
      const idx = (this.current + k) % n;
      const provider = this.providers[idx] as JsonRpcProvider;
      const url = this.opts.urls[idx] ?? "";
      for (let attempt = 0; attempt <= this.opts.retries; attempt++) {
        try {
          const out = await fn(provider);
          if (idx !== this.current) {
            this.opts.onFailover?.(this.opts.urls[this.current] ?? "", url);
            this.current = idx;
          }
          return out;
        } catch (e) {
          if (!isRetryable(e)) throw e;
          last = e;
          this.opts.onError?.(url, label, e);
          if (attempt < this.opts.retries) {
            const base = this.opts.backoffMs * 2 ** attempt;
            await this.sleep(Math.round(base * (0.5 + Math.random())));
          }
        }
      }
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
