/**
 * Option offers through the relay, against SQLite and PostgreSQL (PGlite): a listed series gets its own book
 * (`option:<id>`); an offer is checked against the series (exists, trading), the maker's ClearingHouse collateral
 * (what it pays as a buyer, what it posts as a writer) and the market's offer state; fills and cancels on chain
 * move it; the series' expiry ends it.
 */
import { expect } from "chai";
import { ZeroAddress } from "ethers";
import { OptionKind, type OptionsOffer } from "@chx/sdk";
import {
  acct,
  BACKENDS,
  CH,
  deployed,
  fund,
  get,
  headTime,
  mine,
  node,
  optionOffer,
  post,
  PRICE,
  relay,
  type Backend,
} from "./harness.js";

const DAY = 86_400n;
const USDC = (n: number) => BigInt(n) * 10n ** 6n;

for (const backend of BACKENDS) {
  describe(`options: offers [${backend}]`, function () {
    const writer = acct(60, backend as Backend);
    const buyer = acct(61, backend as Backend);
    const broke = acct(62, backend as Backend);
    let seriesId: bigint;
    let seriesExpiry: bigint;

    before(async function () {
      const { protocol } = await deployed();
      const ch = await protocol.clearingHouse.getAddress();
      for (const [w, usdc] of [
        [writer, USDC(5_000)],
        [buyer, USDC(1_000)],
      ] as const) {
        await fund(w, { usdc });
        await (await protocol.usdc.connect(w).approve(ch, usdc)).wait();
        await (await protocol.clearingHouse.connect(w).deposit(usdc)).wait();
      }
      await fund(broke, {});
      // a fresh feed round (other tests move time), then a put near the index on the expiry grid, three days out
      const feed = protocol.chIndexFeed!;
      const [, answer] = await feed.latestRoundData();
      await (await feed.setAnswer(answer)).wait();
      const index = await protocol.oracle.indexPrice();
      const step = 5n * 10n ** 17n;
      const strike = (index / step) * step;
      const now = await headTime();
      seriesExpiry = ((now + 3n * DAY) / DAY) * DAY + 8n * 3_600n;
      await (
        await protocol.options.listSeries({
          kind: OptionKind.Put,
          onFutures: false,
          futuresSeriesId: 0n,
          expiry: seriesExpiry,
          strikeWad: strike,
          capWad: strike,
        })
      ).wait();
      seriesId = await protocol.options.seriesCount();
    });

    const offer = async (maker: typeof writer, o: Partial<OptionsOffer>): Promise<OptionsOffer> => ({
      maker: maker.address,
      seriesId,
      isBuy: false,
      sizeCh: CH(10),
      premiumWad: PRICE(0.2),
      nonce: BigInt(Date.now()) + BigInt(Math.floor(Math.random() * 1e6)),
      expiry: (await headTime()) + DAY,
      taker: ZeroAddress,
      ...o,
    });

    it("a writer's sell offer rests in its series' book; a buyer's fill on chain fills it", async function () {
      const { protocol } = await deployed();
      const r = await relay(backend as Backend, {}, { sync: false });
      try {
        const o = await optionOffer(writer, await offer(writer, {}));
        const res = await post(`${r.url}/v1/orders`, { kind: "option", ...o.json });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        expect(res.body.order).to.include({ book: `option:${seriesId}`, status: "open", fillable: CH(10).toString() });
        const book = (await get(`${r.url}/v1/books/option:${seriesId}?orders=10`)).body;
        expect(book.asks).to.deep.equal([{ price: PRICE(0.2).toString(), amount: CH(10).toString(), orders: 1 }]);
        expect((await get(`${r.url}/v1/books`)).body.books).to.include(`option:${seriesId}`);
        await (await protocol.options.connect(buyer).fillOffer(o.offer, o.signature, CH(4))).wait();
        await r.engine.syncToHead();
        let s = (await get(`${r.url}/v1/orders/${res.body.order.hash}`)).body;
        expect(s.order).to.include({ status: "open", filled: CH(4).toString(), fillable: CH(6).toString() });
        expect(s.fills[0]).to.include({ book: `option:${seriesId}`, amount: CH(4).toString() });
        await (await protocol.options.connect(writer).cancelOffer(o.offer)).wait();
        await r.engine.syncToHead();
        s = (await get(`${r.url}/v1/orders/${res.body.order.hash}`)).body;
        expect(s.order.status).to.equal("cancelled");
        expect((await get(`${r.url}/v1/books/option:${seriesId}`)).body.asks).to.deep.equal([]);
      } finally {
        await r.stop();
      }
    });

    it("refused: an unknown series, a maker without collateral, and (after expiry) the series' own offers expire", async function () {
      const r = await relay(backend as Backend, {}, { sync: false });
      try {
        const unknown = await optionOffer(writer, await offer(writer, { seriesId: 9_999n }));
        const a = await post(`${r.url}/v1/orders`, { kind: "option", ...unknown.json });
        expect([a.status, a.body.error.code]).to.deep.equal([422, "UNKNOWN_SERIES"]);
        const poorBuy = await optionOffer(broke, await offer(broke, { isBuy: true }));
        const b = await post(`${r.url}/v1/orders`, { kind: "option", ...poorBuy.json });
        expect([b.status, b.body.error.code, b.body.error.details.reason]).to.deep.equal([
          409,
          "UNFUNDED",
          "collateral",
        ]);
        // a buy offer the buyer's collateral covers in part: served for what it can pay
        const big = await optionOffer(
          buyer,
          await offer(buyer, { isBuy: true, sizeCh: CH(100_000), premiumWad: PRICE(0.5) }),
        );
        const c = await post(`${r.url}/v1/orders`, { kind: "option", ...big.json });
        expect(c.status, JSON.stringify(c.body)).to.equal(201);
        expect(BigInt(c.body.order.fillable) < CH(100_000)).to.equal(true);
        expect(BigInt(c.body.order.fillable) > 0n).to.equal(true);
        // the series expires: its offers leave the book with the block that passes the expiry
        const now = await headTime();
        await node().rpc("evm_increaseTime", [Number(seriesExpiry - now) + 1]);
        await mine();
        await r.engine.syncToHead();
        const s = (await get(`${r.url}/v1/orders/${c.body.order.hash}`)).body.order;
        expect(s.status).to.equal("expired");
      } finally {
        await r.stop();
      }
    });
  });
}
