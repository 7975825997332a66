/**
 * Fault tests (issue 23 item 7), against SQLite and PostgreSQL (PGlite): malformed and oversize payloads, a flood
 * from one IP, per-maker limits, and a relay killed (SIGKILL) mid-stream and restarted on the same database — nothing
 * acknowledged is lost, nothing invalid is served.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import {
  acct,
  BACKENDS,
  CH,
  dbUrl,
  deployed,
  freePort,
  fund,
  get,
  mine,
  node,
  post,
  PRICE,
  relay,
  ROOT,
  spotOrder,
  until,
  wait,
  type Backend,
} from "./harness.js";

type R = Awaited<ReturnType<typeof relay>>;

async function rawPost(url: string, body: string | ReadableStream<Uint8Array>, contentType = "application/json") {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": contentType },
    body,
    duplex: "half",
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as { error: { code: string; message: string } } };
}

async function liveCount(r: R): Promise<number> {
  const s = (await get(`${r.url}/v1/status`)).body;
  return Number(s.orders.open) + Number(s.orders.unfunded);
}

for (const backend of BACKENDS) {
  describe(`faults [${backend}]`, function () {
    const maker = acct(50, backend as Backend);
    before(async function () {
      await deployed();
      await fund(maker, { ch: CH(1_000) });
    });

    it("malformed payloads are refused with 400 BAD_REQUEST and never stored", async function () {
      const r = await relay(backend as Backend, {}, { sync: false });
      try {
        const before = await liveCount(r);
        const { json } = await spotOrder(maker, { isBuy: false, amountCh: CH(1), priceWad: PRICE(2) });
        const good = { kind: "spot", ...json };
        const cases: Array<[string, string | ReadableStream<Uint8Array>, string?]> = [
          ["not JSON", "{ kind: spot"],
          ["an array", "[]"],
          ["missing signature", JSON.stringify({ ...good, signature: undefined })],
          ["an extra field", JSON.stringify({ ...good, extra: 1 })],
          ["an extra order field", JSON.stringify({ ...good, order: { ...good.order, extra: "1" } })],
          ["a non-hex maker", JSON.stringify({ ...good, order: { ...good.order, maker: "0x" + "zz".repeat(20) } })],
          ["a 79-digit amount", JSON.stringify({ ...good, order: { ...good.order, amountCh: "1".repeat(79) } })],
          ["a negative price", JSON.stringify({ ...good, order: { ...good.order, priceWad: "-5" } })],
          ["a leading-zero nonce", JSON.stringify({ ...good, order: { ...good.order, nonce: "007" } })],
          ["an odd-length signature", JSON.stringify({ ...good, signature: good.signature + "0" })],
          ["an unknown kind", JSON.stringify({ ...good, kind: "perp" })],
          ["text/plain", JSON.stringify(good), "text/plain"],
        ];
        for (const [what, body, type] of cases) {
          const res = await rawPost(`${r.url}/v1/orders`, body, type);
          expect(res.status, `${what}: ${JSON.stringify(res.body)}`).to.be.oneOf([400, 415]);
          expect(res.body.error.code, what).to.equal("BAD_REQUEST");
        }
        // a bad hash in the path, an out-of-range query
        expect((await get(`${r.url}/v1/orders/0x1234`)).body.error.code).to.equal("BAD_REQUEST");
        expect((await get(`${r.url}/v1/books/spot?depth=0`)).body.error.code).to.equal("BAD_REQUEST");
        expect((await get(`${r.url}/v1/books/perp`)).body.error.code).to.equal("BAD_REQUEST");
        expect((await get(`${r.url}/v1/nothing`)).body.error.code).to.equal("NOT_FOUND");
        expect(await liveCount(r)).to.equal(before);
      } finally {
        await r.stop();
      }
    });

    it("oversize payloads: 413 PAYLOAD_TOO_LARGE, with a length header or streamed without one", async function () {
      const r = await relay(backend as Backend, { bodyLimitBytes: 4_096 }, { sync: false });
      try {
        const { json } = await spotOrder(maker, { isBuy: false, amountCh: CH(1), priceWad: PRICE(2) });
        const big = JSON.stringify({ kind: "spot", ...json, signature: "0x" + "ab".repeat(4_000) });
        const a = await rawPost(`${r.url}/v1/orders`, big);
        expect([a.status, a.body.error.code]).to.deep.equal([413, "PAYLOAD_TOO_LARGE"]);
        const chunks = [new TextEncoder().encode(big.slice(0, 3_000)), new TextEncoder().encode(big.slice(3_000))];
        const stream = new ReadableStream({
          pull(c) {
            const next = chunks.shift();
            if (next === undefined) c.close();
            else c.enqueue(next);
          },
        });
        const b = await rawPost(`${r.url}/v1/orders`, stream);
        expect([b.status, b.body.error.code]).to.deep.equal([413, "PAYLOAD_TOO_LARGE"]);
        // the relay still works
        const ok = await post(`${r.url}/v1/orders`, { kind: "spot", ...json });
        expect(ok.status).to.equal(201);
      } finally {
        await r.stop();
      }
    });

    it("a flood from one IP gets 429 RATE_LIMITED and stores nothing beyond its limit; another IP is still served", async function () {
      const r = await relay(
        backend as Backend,
        {
          ipRateLimit: { max: 30, windowMs: 60_000 },
          trustProxy: true,
          makerRateLimit: { perSecond: 1_000, burst: 1_000 },
        },
        { sync: false },
      );
      try {
        const orders = [];
        for (let i = 0; i < 120; i++)
          orders.push((await spotOrder(maker, { isBuy: false, amountCh: CH(1), priceWad: PRICE(3) + BigInt(i) })).json);
        const results = await Promise.all(
          orders.map((o) => post(`${r.url}/v1/orders`, { kind: "spot", ...o }, { "x-forwarded-for": "203.0.113.7" })),
        );
        const limited = results.filter((x) => x.status === 429);
        const created = results.filter((x) => x.status === 201);
        expect(created.length).to.equal(30);
        expect(limited.length).to.equal(90);
        for (const l of limited) expect(l.body.error.code).to.equal("RATE_LIMITED");
        const other = await fetch(`${r.url}/v1/status`, { headers: { "x-forwarded-for": "203.0.113.8" } });
        expect(other.status).to.equal(200);
        const mine_ = (await get(`${r.url}/v1/makers/${maker.address}/orders?limit=1000`)).body.orders as Array<{
          price: string;
        }>;
        const stored = new Set(mine_.map((o) => o.price));
        for (let i = 0; i < 120; i++) {
          const wasCreated = results[i]!.status === 201;
          expect(stored.has((PRICE(3) + BigInt(i)).toString())).to.equal(wasCreated);
        }
      } finally {
        await r.stop();
      }
    });

    it("per-maker limit: a maker beyond its burst gets RATE_LIMITED", async function () {
      const r = await relay(backend as Backend, { makerRateLimit: { perSecond: 0.01, burst: 3 } }, { sync: false });
      try {
        const codes = [];
        for (let i = 0; i < 5; i++) {
          const { json } = await spotOrder(maker, { isBuy: false, amountCh: CH(1), priceWad: PRICE(4) + BigInt(i) });
          const res = await post(`${r.url}/v1/orders`, { kind: "spot", ...json });
          codes.push(res.status === 201 ? "created" : res.body.error.code);
        }
        expect(codes).to.deep.equal(["created", "created", "created", "RATE_LIMITED", "RATE_LIMITED"]);
      } finally {
        await r.stop();
      }
    });

    it("restart mid-stream: killed (SIGKILL) while orders arrive and fills land, restarted on the same database — nothing acknowledged lost, nothing invalid served", async function () {
      this.timeout(300_000);
      const { protocol, file } = await deployed();
      const makers = [51, 52, 53, 54, 55].map((i) => acct(i, backend as Backend));
      const taker = acct(56, backend as Backend);
      for (const m of makers) await fund(m, { ch: CH(100) });
      await fund(taker, { usdc: 1_000_000n * 10n ** 6n });
      const db = await dbUrl(backend as Backend, mkdtempSync(path.join(os.tmpdir(), "chx-relay-restart-")));
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const start = (): ChildProcess => {
        const child = spawn(
          process.execPath,
          [
            "--disable-warning=ExperimentalWarning",
            "--import",
            "tsx",
            "relay/src/cli.ts",
            "--db",
            db,
            "--port",
            String(port),
            "--rpc",
            node().url,
            "--deployment",
            file,
          ],
          {
            cwd: ROOT,
            env: { ...process.env, CHX_RELAY_POLL_MS: "50", CHX_RELAY_LOG_LEVEL: "warn" },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        child.stderr?.on("data", () => undefined);
        child.stdout?.on("data", () => undefined);
        return child;
      };
      const up = async () =>
        until(
          async () => {
            try {
              return (await fetch(`${url}/health`)).ok;
            } catch {
              return false;
            }
          },
          180_000,
          "relay up",
        );
      let child = start();
      try {
        await up();
        // stream orders in; fill some on chain while they arrive; kill the relay half way
        const acked = new Map<string, Awaited<ReturnType<typeof spotOrder>>>();
        const signed = [];
        for (let i = 0; i < 40; i++) {
          signed.push(
            await spotOrder(makers[i % makers.length]!, {
              isBuy: false,
              amountCh: CH(2),
              priceWad: PRICE(5) + BigInt(i),
            }),
          );
        }
        let killed = false;
        const sender = (async () => {
          for (const s of signed) {
            try {
              const res = await post(`${url}/v1/orders`, { kind: "spot", ...s.json });
              if (res.status === 201 || res.status === 200) acked.set(res.body.order.hash, s);
            } catch {
              // the relay is down: not acknowledged
            }
            if (killed) await wait(5);
          }
        })();
        await until(() => acked.size >= 10, 90_000, "10 acknowledged orders");
        // fill two acknowledged orders while the relay runs, then kill it with no warning
        const filledLive = [...acked.values()].slice(0, 2);
        for (const f of filledLive)
          await (await protocol.spot.connect(taker).fillOrder(f.order, f.signature, CH(2))).wait();
        child.kill("SIGKILL");
        killed = true;
        await new Promise((r) => child.once("exit", r));
        await sender;
        // while it is down: a fill, a cancel, blocks
        const ackedList = [...acked.values()];
        const downFill = ackedList[3]!;
        const downCancel = ackedList[4]!;
        await (await protocol.spot.connect(taker).fillOrder(downFill.order, downFill.signature, CH(1))).wait();
        await (
          await protocol.spot
            .connect(makers.find((m) => m.address === downCancel.order.maker)!)
            .cancelOrder(downCancel.order)
        ).wait();
        await mine(5);
        child = start();
        await up();
        const head = await node().provider.getBlockNumber();
        await until(async () => (await get(`${url}/v1/status`)).body.syncedBlock >= head, 90_000, "caught up");
        // nothing acknowledged is lost
        for (const hash of acked.keys()) expect((await get(`${url}/v1/orders/${hash}`)).status, hash).to.equal(200);
        // nothing invalid is served: every served order can be filled on chain by its served amount
        const book = (await get(`${url}/v1/books/spot?orders=500&depth=500`)).body;
        for (const v of book.orders.asks as Array<{ hash: string; fillable: string; amount: string }>) {
          const o = (await get(`${url}/v1/orders/${v.hash}`)).body.order as { maker: string; nonce: string };
          const st = await protocol.spot.orderState(o.maker, BigInt(o.nonce), v.hash);
          expect(st.cancelled, v.hash).to.equal(false);
          expect(BigInt(v.fillable) <= BigInt(v.amount) - st.filledCh, v.hash).to.equal(true);
        }
        const served = new Set((book.orders.asks as Array<{ hash: string }>).map((a) => a.hash));
        for (const f of filledLive)
          expect(served.has(await protocol.spot.orderDigest(f.order).then((h) => h.toLowerCase()))).to.equal(false);
        const dfHash = (await protocol.spot.orderDigest(downFill.order)).toLowerCase();
        const dcHash = (await protocol.spot.orderDigest(downCancel.order)).toLowerCase();
        expect((await get(`${url}/v1/orders/${dfHash}`)).body.order).to.include({
          status: "open",
          filled: CH(1).toString(),
        });
        expect((await get(`${url}/v1/orders/${dcHash}`)).body.order.status).to.equal("cancelled");
        expect(served.has(dcHash)).to.equal(false);
      } finally {
        if (child.exitCode === null) {
          child.kill("SIGTERM");
          await new Promise((r) => child.once("exit", r));
        }
      }
    });
  });
}
