import { expect } from "chai";
import { account, BACKENDS, CH, deployed, fund, post, PRICE, relay, spotOrder } from "./harness.js";

for (const backend of BACKENDS) {
  describe(`smoke [${backend}]`, function () {
    it("posts a spot order and serves it in the book", async function () {
      await deployed();
      const maker = account(30);
      await fund(maker, { ch: CH(100) });
      const r = await relay(backend, {}, { sync: false });
      try {
        const { json } = await spotOrder(maker, { isBuy: false, amountCh: CH(10), priceWad: PRICE(2) });
        const res = await post(`${r.url}/v1/orders`, { kind: "spot", ...json });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        const book = await fetch(`${r.url}/v1/books/spot?orders=5`).then((x) => x.json());
        expect(book.asks).to.have.length(1);
        expect(book.asks[0].amount).to.equal(CH(10).toString());
      } finally {
        await r.stop();
      }
    });
  });
}
