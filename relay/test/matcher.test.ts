/**
 * The matcher (issue 23 item 5): the keeper's `spot-matcher` job (keepers/src/jobs/spot-matcher.ts) reads the relay's
 * book and matches crossing orders through SpotMarket.matchOrders when the spread pays the gas; the relay follows
 * the fills. Run through the real keeper runner (idempotency, simulation, gas policy).
 */
import path from "node:path";
import { expect } from "chai";
import { pino } from "pino";
import { applyConfig, defaultConfig, jobFactories, Keeper } from "@chx/keeper";
import { crossings } from "../../keepers/src/jobs/spot-matcher.js";
import type { RelayOrderView } from "@chx/sdk";
import {
  acct,
  BACKENDS,
  CH,
  deployed,
  fund,
  get,
  post,
  PRICE,
  relay,
  ROOT,
  spotOrder,
  type Backend,
} from "./harness.js";

type R = Awaited<ReturnType<typeof relay>>;
const USDC = (n: number) => BigInt(n) * 10n ** 6n;

async function keeperFor(r: R, index: number, backend: Backend, opts: Record<string, unknown> = {}) {
  const { record, file } = await deployed();
  const wallet = acct(index, backend);
  await fund(wallet, { approve: false });
  const config = applyConfig(defaultConfig("localhost"), {
    rpcUrls: [r.cfg.rpcUrl],
    deploymentsDir: path.dirname(file),
    artifactsDir: path.join(ROOT, "artifacts"),
    confirmations: 0,
    metricsPort: -1,
    dataDir: ":memory:",
    discoverCheckers: false, // only the matcher: no vendor checkers found in the deployment
    jobs: { "spot-matcher": { relayUrl: r.url, nativePriceUsdc: 3000, gasCeilingGwei: 1000, ...opts } },
  });
  return new Keeper({
    config,
    deployment: { network: "localhost", chainId: record.chainId, file, contracts: record.contracts },
    wallet: wallet.connect(null),
    factories: jobFactories.filter((f) => f.name === "spot-matcher"),
    log: pino({ level: "silent" }),
  });
}

const view = (hash: string, maker: string, price: bigint, fillable: bigint): RelayOrderView =>
  ({ hash, maker, price: price.toString(), fillable: fillable.toString() }) as RelayOrderView;

describe("matcher: crossing pairs (pure)", function () {
  it("walks best bid against best ask, uses each order up to its fillable amount, never matches a maker with itself", function () {
    const bids = [view("b1", "0xa", PRICE(2.5), CH(10)), view("b2", "0xb", PRICE(2.1), CH(5))];
    const asks = [
      view("a1", "0xa", PRICE(2.0), CH(3)),
      view("a2", "0xc", PRICE(2.0), CH(4)),
      view("a3", "0xd", PRICE(2.2), CH(20)),
    ];
    const got = crossings(bids, asks, 10).map((p) => [p.bid.hash, p.ask.hash, p.amount, p.spreadUsdc]);
    expect(got).to.deep.equal([
      ["b1", "a2", CH(4), USDC(2)], // a1 is b1's own maker
      ["b1", "a3", CH(6), (CH(6) * (PRICE(2.5) - PRICE(2.2))) / 10n ** 30n],
      ["b2", "a1", CH(3), (CH(3) * (PRICE(2.1) - PRICE(2.0))) / 10n ** 30n],
    ]);
  });
});

describe("matcher: a maker's orders share its funds (regression: test_twoAsksOneAllowance_matchedOnce)", function () {
  it("two asks of one maker, each fillable for the same 10 CH of allowance, are matched for 10 CH in all, not 20", function () {
    const bids = [view("b1", "0xb", PRICE(2.5), CH(30))];
    const asks = [view("a1", "0xa", PRICE(2.0), CH(10)), view("a2", "0xa", PRICE(2.1), CH(10))];
    const got = crossings(bids, asks, 10);
    expect(got.map((p) => [p.ask.hash, p.amount])).to.deep.equal([["a1", CH(10)]]);
  });
  it("pairs below the minimum are dust and skipped", function () {
    const got = crossings([view("b1", "0xb", PRICE(2.5), 5n)], [view("a1", "0xa", PRICE(2), 5n)], 10, 10n ** 15n);
    expect(got).to.deep.equal([]);
  });
});

for (const backend of BACKENDS) {
  describe(`matcher: the keeper matches crossing orders from the relay [${backend}]`, function () {
    let r: R;
    const buyer = acct(71, backend as Backend);
    const seller = acct(72, backend as Backend);
    const seller2 = acct(73, backend as Backend);

    before(async function () {
      await deployed();
      await fund(buyer, { usdc: USDC(100_000) });
      await fund(seller, { ch: CH(1_000) });
      await fund(seller2, { ch: CH(1_000) });
      r = await relay(backend as Backend, { makerRateLimit: { perSecond: 1_000, burst: 1_000 } }, { sync: false });
    });
    after(async () => r.stop());

    async function place(maker: typeof buyer, isBuy: boolean, amount: bigint, price: bigint) {
      const o = await spotOrder(maker, { isBuy, amountCh: amount, priceWad: price });
      const res = await post(`${r.url}/v1/orders`, { kind: "spot", ...o.json });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.order.hash as string;
    }

    it("matches a crossing bid and asks, earns the spread, and the relay takes the filled orders out of the book", async function () {
      const { protocol } = await deployed();
      const bid = await place(buyer, true, CH(10), PRICE(2.5));
      const ask1 = await place(seller, false, CH(6), PRICE(2.0));
      const ask2 = await place(seller2, false, CH(4), PRICE(2.2));
      const keeper = await keeperFor(r, 74, backend as Backend);
      const usdcBefore = await protocol.usdc.balanceOf(keeper.address);
      const report = await keeper.tick({ wait: true });
      const outcomes = report.results.map((x) => x.outcome);
      expect(
        outcomes,
        JSON.stringify(report, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)),
      ).to.deep.equal(["success", "success"]);
      const spread = (CH(6) * (PRICE(2.5) - PRICE(2.0)) + CH(4) * (PRICE(2.5) - PRICE(2.2))) / 10n ** 30n;
      expect((await protocol.usdc.balanceOf(keeper.address)) - usdcBefore).to.equal(spread);
      await r.engine.syncToHead();
      for (const h of [bid, ask1, ask2])
        expect((await get(`${r.url}/v1/orders/${h}`)).body.order.status).to.equal("filled");
      const book = (await get(`${r.url}/v1/books/spot`)).body;
      expect(
        book.bids
          .concat(book.asks)
          .filter((l: { price: string }) => [PRICE(2.5), PRICE(2.0), PRICE(2.2)].map(String).includes(l.price)),
      ).to.deep.equal([]);
      // a second tick finds nothing
      expect((await keeper.tick({ wait: true })).results).to.deep.equal([]);
    });

    it("a cross whose spread does not pay the gas is left alone (skipped-gas), and so is one at a single price", async function () {
      const bid = await place(buyer, true, CH(1), PRICE(3.0000001));
      const ask = await place(seller, false, CH(1), PRICE(3));
      // spread 1e-7 USDC per CH: rounds to 0 USDC units on 1 CH
      const keeper = await keeperFor(r, 75, backend as Backend);
      const report = await keeper.tick({ wait: true });
      expect(report.results.map((x) => x.outcome)).to.deep.equal(["skipped-gas"]);
      await r.engine.syncToHead();
      expect((await get(`${r.url}/v1/orders/${bid}`)).body.order.status).to.equal("open");
      expect((await get(`${r.url}/v1/orders/${ask}`)).body.order.status).to.equal("open");
      // clear them for the next test: a taker fills the ask, the bid is cancelled by notice-free on-chain cancel
      const { protocol } = await deployed();
      const a = (await get(`${r.url}/v1/orders/${ask}`)).body.order;
      const b = (await get(`${r.url}/v1/orders/${bid}`)).body.order;
      await (await protocol.spot.connect(seller).cancelOrder(orderOf(a))).wait();
      await (await protocol.spot.connect(buyer).cancelOrder(orderOf(b))).wait();
      await r.engine.syncToHead();
    });

    it("two keepers racing on the same cross: one match, the other reads already-done or in flight — never two", async function () {
      const { protocol } = await deployed();
      await place(buyer, true, CH(2), PRICE(4));
      await place(seller2, false, CH(2), PRICE(3.5));
      const k1 = await keeperFor(r, 76, backend as Backend);
      const k2 = await keeperFor(r, 77, backend as Backend);
      const [a, b] = await Promise.all([k1.tick({ wait: true }), k2.tick({ wait: true })]);
      const all = [...a.results, ...b.results].map((x) => x.outcome);
      expect(all.filter((o) => o === "success")).to.have.length(1);
      for (const o of all) expect(o).to.be.oneOf(["success", "already-done", "simulation-failed", "reverted"]);
      const logs = await protocol.spot.queryFilter(protocol.spot.filters.OrdersMatched(), -5);
      expect(logs.filter((l) => l.args.amountCh === CH(2))).to.have.length(1);
    });
  });
}

function orderOf(v: { order: Record<string, string | boolean> }) {
  const o = v.order;
  return {
    maker: String(o.maker),
    isBuy: o.isBuy === true,
    amountCh: BigInt(String(o.amountCh)),
    priceWad: BigInt(String(o.priceWad)),
    nonce: BigInt(String(o.nonce)),
    expiry: BigInt(String(o.expiry)),
    taker: String(o.taker),
  };
}
