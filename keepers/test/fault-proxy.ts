/**
 * A JSON-RPC fault-injection proxy on 127.0.0.1 between a keeper and a node (OPS-02). Faults:
 *  - errorBurst(n): the next n requests fail (HTTP 503, or a JSON-RPC internal error on alternate requests);
 *  - down(true): every request fails until down(false) (an endpoint outage, for failover);
 *  - dropSends(n): the next n eth_sendRawTransaction are swallowed: the proxy answers with the right hash but
 *    never forwards them (a dropped transaction);
 *  - gasMultiplier(k): every fee the node reports (base fee, gas price, priority fee, fee history) is multiplied
 *    by k (a gas spike as the keeper sees it).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { keccak256, Transaction } from "ethers";

interface RpcRequest {
  jsonrpc: "2.0";
  id: number | string | null;
  method: string;
  params?: unknown[];
}

export class FaultProxy {
  private server: http.Server | undefined;
  private burst = 0;
  private outage = false;
  private drops = 0;
  private multiplier = 1n;
  private logCap = 0;
  /** Raw transactions to this address are swallowed (a node that never propagates them: a stuck transaction). */
  dropTo: string | undefined;
  /** Delay (ms) added before forwarding every request (a slow endpoint). */
  latencyMs = 0;
  /** Raw transactions the proxy swallowed. */
  readonly dropped: string[] = [];
  /** Requests seen per method. */
  readonly seen = new Map<string, number>();
  injectedErrors = 0;
  port = 0;

  constructor(readonly upstream: string) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  errorBurst(n: number): void {
    this.burst = n;
  }

  down(on: boolean): void {
    this.outage = on;
  }

  dropSends(n: number): void {
    this.drops = n;
  }

  /** eth_getLogs over more than `blocks` blocks fails like a public RPC's cap (0: no cap). */
  logRangeCap(blocks: number): void {
    this.logCap = blocks;
  }

  gasMultiplier(k: number): void {
    this.multiplier = BigInt(k);
  }

  reset(): void {
    this.burst = 0;
    this.outage = false;
    this.drops = 0;
    this.multiplier = 1n;
    this.logCap = 0;
    this.latencyMs = 0;
    this.dropTo = undefined;
    this.dropped.length = 0;
  }

  private scale(hex: unknown): unknown {
    return typeof hex === "string" && hex.startsWith("0x") ? "0x" + (BigInt(hex) * this.multiplier).toString(16) : hex;
  }

  private rewrite(method: string, result: unknown): unknown {
    if (this.multiplier === 1n || result === null || result === undefined) return result;
    if (method === "eth_gasPrice" || method === "eth_maxPriorityFeePerGas") return this.scale(result);
    if ((method === "eth_getBlockByNumber" || method === "eth_getBlockByHash") && typeof result === "object") {
      const b = result as Record<string, unknown>;
      return { ...b, baseFeePerGas: this.scale(b.baseFeePerGas) };
    }
    if (method === "eth_feeHistory" && typeof result === "object") {
      const f = result as { baseFeePerGas?: unknown[]; reward?: unknown[][] };
      return {
        ...f,
        baseFeePerGas: f.baseFeePerGas?.map((x) => this.scale(x)),
        reward: f.reward?.map((r) => r.map((x) => this.scale(x))),
      };
    }
    return result;
  }

  private async forward(req: RpcRequest): Promise<unknown> {
    const res = await fetch(this.upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(req),
    });
    const body = (await res.json()) as { result?: unknown; error?: unknown };
    if (body.error === undefined) return { ...body, result: this.rewrite(req.method, body.result) };
    return body;
  }

  private async handleOne(req: RpcRequest): Promise<unknown | "http-error"> {
    this.seen.set(req.method, (this.seen.get(req.method) ?? 0) + 1);
    if (this.outage || this.burst > 0) {
      if (this.burst > 0) this.burst--;
      this.injectedErrors++;
      if (this.outage || this.injectedErrors % 2 === 1) return "http-error";
      return { jsonrpc: "2.0", id: req.id, error: { code: -32603, message: "fault-proxy: injected internal error" } };
    }
    if (req.method === "eth_getLogs" && this.logCap > 0) {
      const f = (req.params?.[0] ?? {}) as { fromBlock?: string; toBlock?: string };
      const from = Number(f.fromBlock ?? "0x0");
      const to = f.toBlock === undefined || f.toBlock === "latest" ? Number.MAX_SAFE_INTEGER : Number(f.toBlock);
      if (to - from + 1 > this.logCap) {
        this.seen.set("eth_getLogs:capped", (this.seen.get("eth_getLogs:capped") ?? 0) + 1);
        return {
          jsonrpc: "2.0",
          id: req.id,
          error: {
            code: -32005,
            message: `query returned more than 10000 results; limit the range to ${this.logCap} blocks`,
          },
        };
      }
    }
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    if (req.method === "eth_sendRawTransaction" && this.dropTo !== undefined) {
      const raw = String(req.params?.[0]);
      if (Transaction.from(raw).to?.toLowerCase() === this.dropTo.toLowerCase()) {
        this.dropped.push(raw);
        return { jsonrpc: "2.0", id: req.id, result: keccak256(raw) };
      }
    }
    if (req.method === "eth_sendRawTransaction" && this.drops > 0) {
      this.drops--;
      const raw = String(req.params?.[0]);
      this.dropped.push(raw);
      return { jsonrpc: "2.0", id: req.id, result: keccak256(raw) };
    }
    return this.forward(req);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        void (async () => {
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcRequest | RpcRequest[];
            const reqs = Array.isArray(body) ? body : [body];
            const out = await Promise.all(reqs.map((r) => this.handleOne(r)));
            if (out.includes("http-error")) {
              res.writeHead(503, { "content-type": "text/plain" }).end("fault-proxy: injected outage");
              return;
            }
            res
              .writeHead(200, { "content-type": "application/json" })
              .end(JSON.stringify(Array.isArray(body) ? out : out[0]));
          } catch (e) {
            res.writeHead(502, { "content-type": "text/plain" }).end(`fault-proxy: ${String(e)}`);
          }
        })();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", () => resolve()));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (s === undefined) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
