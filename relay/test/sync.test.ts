/**
 * In step with the chain, against SQLite and PostgreSQL (PGlite): fills, cancels, nonce raises, balances and
 * allowances move orders within one sync round (one block); a reorg of depth 3 is rolled back by block hash; cancel
 * notices; the WebSocket stream.
 */
import { expect } from "chai";
import WebSocket from "ws";
import { signCancelNotice, type RelayStreamMessage } from "@chx/sdk";
import {
  acct,
  BACKENDS,
  CH,
  CHAIN_ID,
  deployed,
  fund,
  get,
  mine,
  node,
  post,
  PRICE,
  relay,
  revert,
  snapshot,
  spotOrder,
  until,
  type Backend,
} from "./harness.js";

type R = Awaited<ReturnType<typeof relay>>;

async function status(r: R, hash: string) {
  return (await get(`${r.url}/v1/orders/${hash}`)).body as {
    order: Record<string, any>;
    fills: Array<Record<string, any>>;
  };
}
async function asks(r: R) {
  return (await get(`${r.url}/v1/books/spot?orders=100`)).body.orders.asks as Array<{ hash: string; fillable: string }>;
}

for (const backend of BACKENDS) {
  describe(`sync: in step with the chain [${backend}]`, function () {
    let r: R;
    const maker = acct(40, backend as Backend);
    const taker = acct(41, backend as Backend);
    const other = acct(42, backend as Backend);

    before(async function () {
      await deployed();
      await fund(maker, { ch: CH(1_000) });
      await fund(taker, { usdc: 100_000n * 10n ** 6n });
      await fund(other, {});
      r = await relay(backend as Backend, { makerRateLimit: { perSecond: 1_000, burst: 1_000 } }, { sync: false });
    });
    after(async () => r.stop());

    async function place(amount = CH(10), price = PRICE(2)) {
      const o = await spotOrder(maker, { isBuy: false, amountCh: amount, priceWad: price });
      const res = await post(`${r.url}/v1/orders`, { kind: "spot", ...o.json });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return { ...o, hash: res.body.order.hash as string };
    }

    it("a partial fill shrinks the order, a full fill takes it out of the book; the fills are listed", async function () {
      const { protocol } = await deployed();
      const o = await place(CH(10), PRICE(2));
      await (await protocol.spot.connect(taker).fillOrder(o.order, o.signature, CH(4))).wait();
      await r.engine.syncToHead();
      let s = await status(r, o.hash);
      expect(s.order.status).to.equal("open");
      expect(s.order.filled).to.equal(CH(4).toString());
      expect(s.order.fillable).to.equal(CH(6).toString());
      expect((await asks(r)).find((a) => a.hash === o.hash)?.fillable).to.equal(CH(6).toString());
      await (await protocol.spot.connect(taker).fillOrder(o.order, o.signature, CH(6))).wait();
      await r.engine.syncToHead();
      s = await status(r, o.hash);
      expect(s.order.status).to.equal("filled");
      expect(s.fills.map((f) => f.amount)).to.deep.equal([CH(4).toString(), CH(6).toString()]);
      expect((await asks(r)).some((a) => a.hash === o.hash)).to.equal(false);
    });

    it("cancelOrder and raiseMinNonce on chain cancel the relayed orders; the cancel feed says how", async function () {
      const { protocol } = await deployed();
      const since = Date.now();
      const a = await place();
      const b = await place();
      await (await protocol.spot.connect(maker).cancelOrder(a.order)).wait();
      await r.engine.syncToHead();
      expect((await status(r, a.hash)).order.status).to.equal("cancelled");
      expect((await status(r, b.hash)).order.status).to.equal("open");
      await (await protocol.spot.connect(maker).raiseMinNonce(b.order.nonce + 1n)).wait();
      await r.engine.syncToHead();
      const sb = (await status(r, b.hash)).order;
      expect([sb.status, sb.reason]).to.deep.equal(["cancelled", "minNonce"]);
      const feed = (await get(`${r.url}/v1/cancels?since=${since}`)).body.cancels as Array<{
        orderHash: string;
        via: string;
      }>;
      expect(feed.find((c) => c.orderHash === a.hash)?.via).to.equal("chain");
      expect(feed.find((c) => c.orderHash === b.hash)?.via).to.equal("minNonce");
    });

    it("syncToHead sees a transaction mined while an older round was in flight (a stale head never ends it early)", async function () {
      // the demo's spot scene failed once under load: its makers raised their minimum nonce while the relay's own
      // follower was mid-round, and syncToHead returned on that round's head, which predated the raise
      const { protocol } = await deployed();
      const o = await place();
      await r.engine.syncToHead();
      // hold the next round right after it has read the head, until the raise below is mined
      const chain = r.engine.chain;
      const refreshHead = chain.refreshHead.bind(chain);
      let release = (): void => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      chain.refreshHead = async () => {
        const head = await refreshHead();
        chain.refreshHead = refreshHead;
        await gate;
        return head;
      };
      const inflight = r.engine.sync();
      await (await protocol.spot.connect(maker).raiseMinNonce(o.order.nonce + 1n)).wait();
      const synced = r.engine.syncToHead();
      release();
      await synced;
      await inflight;
      const s = (await status(r, o.hash)).order;
      expect([s.status, s.reason]).to.deep.equal(["cancelled", "minNonce"]);
    });

    it("a maker who moves its CH away is hidden after one block (unfunded), and served again when funded", async function () {
      const { protocol } = await deployed();
      const m = acct(43, backend as Backend);
      await fund(m, { ch: CH(10) });
      const o = await spotOrder(m, { isBuy: false, amountCh: CH(10), priceWad: PRICE(2.2) });
      const res = await post(`${r.url}/v1/orders`, { kind: "spot", ...o.json });
      const hash = res.body.order.hash as string;
      await (await protocol.ch.connect(m).transfer(other.address, CH(10))).wait();
      await r.engine.sync(); // one round: the block with the transfer
      expect((await asks(r)).some((a) => a.hash === hash)).to.equal(false);
      expect((await status(r, hash)).order).to.include({ status: "unfunded", reason: "balance" });
      await (await protocol.ch.connect(other).transfer(m.address, CH(4))).wait();
      await r.engine.syncToHead();
      const s = (await status(r, hash)).order;
      expect(s.status).to.equal("open");
      expect(s.fillable).to.equal(CH(4).toString());
      // allowance revoked: hidden again
      await (await protocol.ch.connect(m).approve(await protocol.spot.getAddress(), 0n)).wait();
      await r.engine.syncToHead();
      expect((await status(r, hash)).order).to.include({ status: "unfunded", reason: "allowance" });
    });

    it("an order expires with the block that passes its expiry", async function () {
      const o = await spotOrder(maker, {
        isBuy: false,
        amountCh: CH(1),
        priceWad: PRICE(2.3),
        expiry: BigInt((await node().provider.getBlock("latest"))!.timestamp) + 60n,
      });
      const res = await post(`${r.url}/v1/orders`, { kind: "spot", ...o.json });
      await node().rpc("evm_increaseTime", [61]);
      await mine();
      await r.engine.syncToHead();
      expect((await status(r, res.body.order.hash)).order.status).to.equal("expired");
    });

    it("cancel notice: the maker's signature takes the order out of the book at once; anyone else's is refused", async function () {
      const o = await place(CH(3), PRICE(2.4));
      const forged = await signCancelNotice(other, CHAIN_ID, o.hash);
      const bad = await post(`${r.url}/v1/orders/${o.hash}/cancel`, { signature: forged });
      expect([bad.status, bad.body.error.code]).to.deep.equal([422, "INVALID_SIGNATURE"]);
      const sig = await signCancelNotice(maker, CHAIN_ID, o.hash);
      const ok = await post(`${r.url}/v1/orders/${o.hash}/cancel`, { signature: sig });
      expect(ok.status).to.equal(200);
      expect(ok.body.order.softCancelled).to.equal(true);
      expect((await asks(r)).some((a) => a.hash === o.hash)).to.equal(false);
      const feed = (await get(`${r.url}/v1/cancels?since=0&limit=1000`)).body.cancels as Array<{
        orderHash: string;
        via: string;
      }>;
      expect(feed.find((c) => c.orderHash === o.hash)?.via).to.equal("notice");
      // a fill on chain is still followed (the order stays valid on chain)
      const { protocol } = await deployed();
      await (await protocol.spot.connect(taker).fillOrder(o.order, o.signature, CH(3))).wait();
      await r.engine.syncToHead();
      expect((await status(r, o.hash)).order).to.include({ status: "filled", softCancelled: true });
    });

    it("reorg of depth 3: a fill on the dropped branch is rolled back by block hash, the order served again, the fill forgotten", async function () {
      const { protocol } = await deployed();
      const o = await place(CH(5), PRICE(2.5));
      await r.engine.syncToHead();
      const snap = await snapshot();
      const forkBlock = await node().provider.getBlockNumber();
      await (await protocol.spot.connect(taker).fillOrder(o.order, o.signature, CH(5))).wait();
      await mine(2); // the fill's block and two more: depth 3
      await r.engine.syncToHead();
      expect((await status(r, o.hash)).order.status).to.equal("filled");
      expect((await status(r, o.hash)).fills).to.have.length(1);
      await revert(snap);
      await mine(4); // another branch, longer, without the fill
      expect(await node().provider.getBlockNumber()).to.equal(forkBlock + 4);
      const report = await r.engine.sync();
      expect(report?.reorg?.fork).to.equal(forkBlock);
      expect(report?.reorg?.dropped).to.equal(3);
      await r.engine.syncToHead();
      const s = await status(r, o.hash);
      expect(s.order.status).to.equal("open");
      expect(s.order.filled).to.equal("0");
      expect(s.fills).to.have.length(0);
      expect((await asks(r)).some((a) => a.hash === o.hash)).to.equal(true);
      expect(r.engine.syncedBlock).to.equal(forkBlock + 4);
    });

    it("the stream sends the book, the order and the fill", async function () {
      const { protocol } = await deployed();
      const ws = new WebSocket(`${r.url.replace("http", "ws")}/v1/stream?books=spot`);
      const got: RelayStreamMessage[] = [];
      ws.on("message", (d) => got.push(JSON.parse(d.toString()) as RelayStreamMessage));
      await new Promise((res, rej) => (ws.once("open", res), ws.once("error", rej)));
      try {
        await until(() => got.some((m) => m.type === "hello"), 30_000, "hello");
        const o = await place(CH(2), PRICE(1.9));
        await until(() => got.some((m) => m.type === "order" && m.order.hash === o.hash), 30_000, "order message");
        await until(
          () => got.some((m) => m.type === "book" && m.asks.some((l) => l.price === PRICE(1.9).toString())),
          30_000,
          "book message",
        );
        await (await protocol.spot.connect(taker).fillOrder(o.order, o.signature, CH(2))).wait();
        await r.engine.syncToHead();
        await until(() => got.some((m) => m.type === "fill" && m.fill.orderHash === o.hash), 30_000, "fill message");
      } finally {
        ws.close();
      }
    });
  });
}
