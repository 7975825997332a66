/**
 * `npm run bench` (after the gas suites; `CHX_BENCH=relay npm run bench` alone) → bench/relay.json. A real hardhat
 * node, the whole protocol deployed, 100 funded makers, and the relay in-process on its default database (SQLite
 * file; CHX_BENCH_RELAY_DB=pglite for PostgreSQL's engine):
 *
 *   intake.ordersPerSec   10,000 signed orders POSTed over HTTP (64 in flight), each fully validated — schema,
 *                         EIP-712 signature, chain state (order state, nonce, minimum nonce, balance, allowance) at
 *                         the head — and committed before its 201. Goal ≥ 500.
 *   book.p99Ms            GET /v1/books/spot (100 levels a side) with those 10,000 orders resting, 2,000 requests,
 *                         client-side latency (HTTP included). Goal ≤ 20. Also the full depth (every level).
 *   sync.blocksBehindP99  a block every second; a taker fills resting orders on chain; for every fill the relay
 *                         streams, the node's head when it arrives minus the fill's block. Goal ≤ 1.
 *
 * The rate limits are raised for the run (one client stands in for many users); everything else is the default.
 */
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getBytes, MaxUint256, ZeroAddress } from "ethers";
import WebSocket from "ws";
import { spawn } from "node:child_process";
import { domainOf, orderToJson, type RelayStreamMessage, type SpotOrder } from "@chx/sdk";
import { spotHasher } from "../src/index.js";
import {
  account,
  CH,
  CHAIN_ID,
  deployed,
  fund,
  headTime,
  PRICE,
  ROOT,
  relayConfig,
  startNode,
} from "../test/harness.js";

const require = createRequire(import.meta.url);
const secp = require("secp256k1") as {
  ecdsaSign(msg32: Uint8Array, key: Uint8Array): { signature: Uint8Array; recid: number };
};

const ORDERS = Number(process.env.CHX_BENCH_RELAY_ORDERS ?? 10_000);
const MAKERS = 100;
const CONCURRENCY = 64;
const BOOK_REQUESTS = 2_000;
const SYNC_FILLS = Number(process.env.CHX_BENCH_RELAY_FILLS ?? 60);
const backend = process.env.CHX_BENCH_RELAY_DB === "pglite" ? "pglite" : "sqlite";

const only = (process.env.CHX_BENCH ?? "").split(",").filter((s) => s.length > 0);
if (only.length > 0 && !only.includes("relay")) process.exit(0);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
const round = (x: number, d = 2) => Number(x.toFixed(d));

const n = await startNode();
try {
  const t0 = Date.now();
  const { protocol } = await deployed();
  const market = await protocol.spot.getAddress();
  console.log(`[relay bench] node ${n.url}, protocol deployed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const makers = Array.from({ length: MAKERS }, (_, i) => account(200 + i));
  const taker = account(199);
  await fund(taker, { usdc: 10n ** 15n });
  for (const m of makers) await fund(m, { ch: CH(100_000), usdc: 10n ** 12n });
  console.log(`[relay bench] ${MAKERS} makers funded and approved`);

  const cfg = await relayConfig(backend, {
    ipRateLimit: { max: 1_000_000, windowMs: 60_000 },
    makerRateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
    pollMs: 250,
  });
  // the relay in its own process (as in production); this process is the clients and the chain driver
  const server = spawn(
    process.execPath,
    ["--disable-warning=ExperimentalWarning", "--import", "tsx", path.join(import.meta.dirname, "serve.ts")],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        CHX_BENCH_RELAY_CONFIG: JSON.stringify(cfg, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)),
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let serverOut = "";
  server.stdout.on("data", (d: Buffer) => (serverOut += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setInterval(() => {
      const m = /url (\S+)/.exec(serverOut);
      if (m !== null) {
        clearInterval(t);
        resolve(m[1]!);
      } else if (server.exitCode !== null) {
        clearInterval(t);
        reject(new Error(`relay server exited: ${serverOut}`));
      }
    }, 50);
  });
  const stopServer = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  };

  // ── sign the orders (native secp256k1 over the market's digest: the bench measures the relay, not signing)
  const domain = await domainOf(n.provider, "SpotMarket", market);
  const hasher = spotHasher(domain);
  const expiry = (await headTime()) + 30n * 86_400n;
  const bodies: string[] = [];
  const signed: Array<{ order: SpotOrder; signature: string }> = [];
  for (let i = 0; i < ORDERS; i++) {
    const maker = makers[i % MAKERS]!;
    const isBuy = i % 2 === 0;
    // distinct levels: bids 1.0000–1.9999, asks 2.0000–2.9999 (nothing crosses)
    const step = BigInt(Math.floor(i / 2) % 10_000) * 10n ** 14n;
    const order: SpotOrder = {
      maker: maker.address,
      isBuy,
      amountCh: CH(1) + BigInt(i),
      priceWad: (isBuy ? PRICE(1) : PRICE(2)) + step,
      nonce: BigInt(i),
      expiry,
      taker: ZeroAddress,
    };
    const digest = hasher.digest(order as unknown as Record<string, unknown>);
    const { signature, recid } = secp.ecdsaSign(getBytes(digest), getBytes(maker.privateKey));
    const sig = "0x" + Buffer.from(signature).toString("hex") + (27 + recid).toString(16);
    signed.push({ order, signature: sig });
    bodies.push(JSON.stringify({ kind: "spot", ...orderToJson(market, CHAIN_ID, order, sig) }));
  }
  console.log(`[relay bench] ${ORDERS} orders signed`);

  // ── intake
  let next = 0;
  let created = 0;
  const refused = new Map<string, number>();
  const tIntake = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= bodies.length) return;
        const res = await fetch(`${url}/v1/orders`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: bodies[i],
        });
        const body = (await res.json()) as { error?: { code: string } };
        if (res.status === 201) created++;
        else
          refused.set(
            body.error?.code ?? String(res.status),
            (refused.get(body.error?.code ?? String(res.status)) ?? 0) + 1,
          );
      }
    }),
  );
  const intakeSec = (performance.now() - tIntake) / 1000;
  const ordersPerSec = ORDERS / intakeSec;
  console.log(
    `[relay bench] intake: ${created} created in ${intakeSec.toFixed(2)} s → ${ordersPerSec.toFixed(0)} orders/s; refused ${JSON.stringify(Object.fromEntries(refused))}`,
  );
  if (created !== ORDERS) throw new Error(`intake: ${ORDERS - created} orders refused`);

  // ── book snapshots with 10,000 resting orders
  const status = (await (await fetch(`${url}/v1/status`)).json()) as { orders: { open: number } };
  const lat: number[] = [];
  for (let i = 0; i < BOOK_REQUESTS; i++) {
    const t = performance.now();
    const res = await fetch(`${url}/v1/books/spot?depth=100`);
    await res.arrayBuffer();
    lat.push(performance.now() - t);
  }
  const full: number[] = [];
  let levels = 0;
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    const b = (await (await fetch(`${url}/v1/books/spot?depth=10000`)).json()) as { bids: unknown[]; asks: unknown[] };
    full.push(performance.now() - t);
    levels = b.bids.length + b.asks.length;
  }
  console.log(
    `[relay bench] book (${status.orders.open} resting): p50 ${pct(lat, 50).toFixed(2)} ms, p99 ${pct(lat, 99).toFixed(2)} ms; full depth (${levels} levels) p99 ${pct(full, 99).toFixed(2)} ms`,
  );

  // ── sync: a block a second, fills on chain, stream → head
  await n.rpc("evm_setAutomine", [false]);
  await n.rpc("evm_setIntervalMining", [1_000]);
  const ws = new WebSocket(`${url.replace("http", "ws")}/v1/stream?books=spot`);
  await new Promise((res, rej) => (ws.once("open", res), ws.once("error", rej)));
  const behind: number[] = [];
  const pendingHashes = new Set<string>();
  ws.on("message", (d) => {
    const m = JSON.parse(d.toString()) as RelayStreamMessage;
    if (m.type !== "fill" || !pendingHashes.has(m.fill.txHash)) return;
    pendingHashes.delete(m.fill.txHash);
    void n.provider.getBlockNumber().then((head) => behind.push(head - m.fill.blockNumber));
  });
  const spot = protocol.spot.connect(taker);
  await (await protocol.ch.connect(taker).approve(market, MaxUint256)).wait();
  let nonce = await n.provider.getTransactionCount(taker.address, "pending");
  const asks = signed.filter((s) => !s.order.isBuy);
  for (let i = 0; i < SYNC_FILLS; i++) {
    const s = asks[i]!;
    const tx = await spot.fillOrder(s.order, s.signature, CH(0.5), { nonce: nonce++, gasLimit: 400_000n });
    pendingHashes.add(tx.hash);
    await new Promise((r) => setTimeout(r, 450 + Math.random() * 200));
  }
  const deadline = Date.now() + 20_000;
  while (behind.length < SYNC_FILLS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  ws.close();
  await n.rpc("evm_setIntervalMining", [0]);
  await n.rpc("evm_setAutomine", [true]);
  console.log(
    `[relay bench] sync: ${behind.length}/${SYNC_FILLS} fills streamed; blocks behind p50 ${pct(behind, 50)}, p99 ${pct(behind, 99)}, max ${Math.max(...behind)}`,
  );
  if (behind.length < SYNC_FILLS)
    throw new Error(`sync: only ${behind.length} of ${SYNC_FILLS} fills reached the stream`);
  await stopServer();
  const statsLine = /stats (\{.*\})/.exec(serverOut);
  const st = statsLine === null ? undefined : (JSON.parse(statsLine[1]!) as Record<string, number>);
  if (st !== undefined) {
    console.log(
      `[relay bench] intake batches ${st.batches} (avg ${(st.orders! / st.batches!).toFixed(1)} orders): head ${st.headMs!.toFixed(0)} ms, ` +
        `chain reads ${st.assessMs!.toFixed(0)} ms, database ${st.dbMs!.toFixed(0)} ms (summed over concurrent batches)`,
    );
  }

  const out = {
    machine: { cores: os.cpus().length, loadAverage1m: round(os.loadavg()[0]!), node: process.version },
    database: backend === "sqlite" ? "sqlite (node:sqlite, file, WAL, synchronous=FULL)" : "postgres (PGlite)",
    intake: {
      orders: ORDERS,
      makers: MAKERS,
      concurrency: CONCURRENCY,
      seconds: round(intakeSec),
      ordersPerSec: round(ordersPerSec, 0),
      goal: ">= 500",
      batches: st?.batches,
      avgBatch: st === undefined ? undefined : round(st.orders! / st.batches!, 1),
    },
    book: {
      restingOrders: status.orders.open,
      depthLevels: 100,
      requests: BOOK_REQUESTS,
      p50Ms: round(pct(lat, 50)),
      p99Ms: round(pct(lat, 99)),
      goal: "<= 20",
      fullDepth: { levels, requests: full.length, p50Ms: round(pct(full, 50)), p99Ms: round(pct(full, 99)) },
    },
    sync: {
      blockTimeMs: 1_000,
      pollMs: cfg.pollMs,
      fills: behind.length,
      blocksBehindP50: pct(behind, 50),
      blocksBehindP99: pct(behind, 99),
      blocksBehindMax: Math.max(...behind),
      goal: "<= 1",
    },
  };
  mkdirSync("bench", { recursive: true });
  writeFileSync("bench/relay.json", JSON.stringify(out, null, 2) + "\n");
  console.log("wrote bench/relay.json");
} finally {
  await n.stop();
}
process.exit(0);
