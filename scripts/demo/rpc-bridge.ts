/**
 * A loopback JSON-RPC endpoint in front of an EIP-1193 provider (the Hardhat in-process chain), so the keeper
 * program — which speaks HTTP JSON-RPC through ethers' JsonRpcProvider, with failover and retries — runs unchanged
 * against the demo's embedded chain. Errors keep the node convention the keeper's decoder relies on: a revert is
 * `{ code: 3, data: "0x…" }`, anything else `{ code, message, data: { message, data } }`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Eip1193 {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export interface RpcBridge {
  url: string;
  /** Requests served (for the report). */
  requests(): number;
  /** Requests served per JSON-RPC method, and the milliseconds the chain took to answer them. */
  methods(): Record<string, { count: number; ms: number }>;
  close(): Promise<void>;
}

interface RpcRequest {
  jsonrpc?: string;
  id?: number | string | null;
  method?: unknown;
  params?: unknown;
}

function revertDataOf(e: unknown): string | undefined {
  const d = (e as { data?: unknown })?.data;
  if (typeof d === "string" && d.startsWith("0x")) return d;
  const inner = (d as { data?: unknown } | undefined)?.data;
  if (typeof inner === "string" && inner.startsWith("0x")) return inner;
  return undefined;
}

function errorBody(e: unknown): { code: number; message: string; data?: unknown } {
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message : String(e);
  const data = revertDataOf(e);
  if (code === 3) return { code: 3, message, data };
  return { code: typeof code === "number" ? code : -32603, message, data: { message, data } };
}

type MethodStats = Map<string, { count: number; ms: number }>;

async function handle(provider: Eip1193, req: RpcRequest, stats: MethodStats): Promise<unknown> {
  const id = req.id ?? null;
  if (typeof req.method !== "string")
    return { jsonrpc: "2.0", id, error: { code: -32600, message: "Invalid request" } };
  const t0 = performance.now();
  let m = stats.get(req.method);
  if (m === undefined) stats.set(req.method, (m = { count: 0, ms: 0 }));
  m.count++;
  try {
    const params = Array.isArray(req.params) ? req.params : [];
    const result = await provider.request({ method: req.method, params });
    return { jsonrpc: "2.0", id, result: result ?? null };
  } catch (e) {
    return { jsonrpc: "2.0", id, error: errorBody(e) };
  } finally {
    m.ms += performance.now() - t0;
  }
}

/** Serves `provider` on 127.0.0.1 (a free port). */
export async function startRpcBridge(provider: Eip1193): Promise<RpcBridge> {
  let served = 0;
  const stats: MethodStats = new Map();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        let body: unknown;
        try {
          const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcRequest | RpcRequest[];
          served += Array.isArray(parsed) ? parsed.length : 1;
          body = Array.isArray(parsed)
            ? await Promise.all(parsed.map((r) => handle(provider, r, stats)))
            : await handle(provider, parsed, stats);
        } catch (e) {
          body = { jsonrpc: "2.0", id: null, error: { code: -32700, message: `Parse error: ${String(e)}` } };
        }
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      })();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => served,
    methods: () =>
      Object.fromEntries([...stats].sort((a, b) => b[1].count - a[1].count).map(([k, v]) => [k, { ...v }])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
