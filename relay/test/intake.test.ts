/**
 * Validation at the door, against SQLite and PostgreSQL (PGlite): every refusal has its typed code, and nothing
 * refused reaches the database (the order's GET answers 404 and the book is empty afterwards).
 */
import { expect } from "chai";
import { Signature, Wallet, ZeroAddress, getAddress } from "ethers";
import { domainOf, signOrder, typedData, hashTypedData, type SpotOrder } from "@chx/sdk";
import { MockERC1271Wallet__factory } from "../../types/ethers-contracts/index.js";
import {
  acct,
  BACKENDS,
  CH,
  CHAIN_ID,
  deployed,
  fund,
  get,
  headTime,
  nextNonce,
  node,
  post,
  PRICE,
  relay,
  spotOrder,
  type Backend,
} from "./harness.js";

type R = Awaited<ReturnType<typeof relay>>;

async function expectRefused(r: R, body: unknown, status: number, code: string, hash?: string) {
  const res = await post(`${r.url}/v1/orders`, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.error.code, JSON.stringify(res.body)).to.equal(code);
  if (hash !== undefined) expect((await get(`${r.url}/v1/orders/${hash}`)).status).to.equal(404);
  return res.body;
}

for (const backend of BACKENDS) {
  describe(`intake: validation at the door [${backend}]`, function () {
    let r: R;
    const seller = acct(31, backend as Backend);
    const buyer = acct(32, backend as Backend);
    const poor = acct(33, backend as Backend);
    const unapproved = acct(34, backend as Backend);

    before(async function () {
      await deployed();
      await fund(seller, { ch: CH(1_000) });
      await fund(buyer, { usdc: 10_000n * 10n ** 6n });
      await fund(poor, {});
      await fund(unapproved, { ch: CH(100), approve: false });
      r = await relay(backend as Backend, { makerRateLimit: { perSecond: 1_000, burst: 1_000 } }, { sync: false });
    });
    after(async () => r.stop());

    it("accepts a funded, signed order (201), and a second post of it is idempotent (200, created: false)", async function () {
      const { json, order } = await spotOrder(seller, { isBuy: false, amountCh: CH(5), priceWad: PRICE(2.5) });
      const a = await post(`${r.url}/v1/orders`, { kind: "spot", ...json });
      expect(a.status).to.equal(201);
      expect(a.body.created).to.equal(true);
      expect(a.body.order.status).to.equal("open");
      expect(a.body.order.fillable).to.equal(order.amountCh.toString());
      const b = await post(`${r.url}/v1/orders`, { kind: "spot", ...json });
      expect(b.status).to.equal(200);
      expect(b.body.created).to.equal(false);
      expect(b.body.order.hash).to.equal(a.body.order.hash);
    });

    it("the relay's digest is the contract's (orderDigest) and the SDK's", async function () {
      const { order, json } = await spotOrder(buyer, { isBuy: true, amountCh: CH(1), priceWad: PRICE(1.5) });
      const res = await post(`${r.url}/v1/orders`, { kind: "spot", ...json });
      const { protocol } = await deployed();
      const onChain = await protocol.spot.orderDigest(order);
      const domain = await domainOf(node().provider, "SpotMarket", await protocol.spot.getAddress());
      expect(res.body.order.hash).to.equal(onChain.toLowerCase());
      expect(hashTypedData(typedData("Order", domain, order)).toLowerCase()).to.equal(onChain.toLowerCase());
    });

    it("forged signature: signed by another key → 422 INVALID_SIGNATURE, nothing stored", async function () {
      const { protocol } = await deployed();
      const market = await protocol.spot.getAddress();
      const { order, json } = await spotOrder(seller, { isBuy: false, amountCh: CH(2), priceWad: PRICE(3) });
      const forger = Wallet.createRandom();
      const signature = await signOrder(forger, await domainOf(node().provider, "SpotMarket", market), order);
      const hash = await protocol.spot.orderDigest(order);
      await expectRefused(r, { kind: "spot", ...json, signature }, 422, "INVALID_SIGNATURE", hash);
    });

    it("cross-chain signature: the same order signed for chain 1 → INVALID_SIGNATURE; a body for chain 1 → WRONG_CHAIN", async function () {
      const { protocol } = await deployed();
      const market = await protocol.spot.getAddress();
      const { order, json } = await spotOrder(seller, { isBuy: false, amountCh: CH(2), priceWad: PRICE(3.1) });
      const mainnetSig = await signOrder(
        seller,
        { ...(await domainOf(seller, "SpotMarket", market)), chainId: 1n },
        order,
      );
      const hash = await protocol.spot.orderDigest(order);
      await expectRefused(r, { kind: "spot", ...json, signature: mainnetSig }, 422, "INVALID_SIGNATURE", hash);
      await expectRefused(r, { kind: "spot", ...json, chainId: "1", signature: mainnetSig }, 422, "WRONG_CHAIN", hash);
    });

    it("a signature for another verifying contract, or a malleable (high-s) one → INVALID_SIGNATURE", async function () {
      const { protocol } = await deployed();
      const market = await protocol.spot.getAddress();
      const { order, json, signature } = await spotOrder(seller, {
        isBuy: false,
        amountCh: CH(2),
        priceWad: PRICE(3.2),
      });
      const other = await signOrder(
        seller,
        { ...(await domainOf(seller, "SpotMarket", market)), verifyingContract: await protocol.options.getAddress() },
        order,
      );
      await expectRefused(r, { kind: "spot", ...json, signature: other }, 422, "INVALID_SIGNATURE");
      // s' = n − s with the other v: ecrecover accepts it, OpenZeppelin (and the relay) do not
      const sig = Signature.from(signature);
      const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
      const highS =
        "0x" + sig.r.slice(2) + (n - BigInt(sig.s)).toString(16).padStart(64, "0") + (sig.v === 27 ? "1c" : "1b");
      const hash = await protocol.spot.orderDigest(order);
      await expectRefused(r, { kind: "spot", ...json, signature: highS }, 422, "INVALID_SIGNATURE", hash);
      void market;
    });

    it("an ERC-1271 wallet maker is accepted when its owner signed, refused otherwise", async function () {
      const { protocol } = await deployed();
      const owner = acct(35, backend as Backend);
      await fund(owner, {});
      const wallet = await new MockERC1271Wallet__factory(owner).deploy(owner.address);
      await wallet.waitForDeployment();
      const w = await wallet.getAddress();
      const market = await protocol.spot.getAddress();
      await (await protocol.ch.mint(w, CH(50))).wait();
      await (await wallet.connect(owner).approve(await protocol.ch.getAddress(), market, CH(50))).wait();
      const order: SpotOrder = {
        maker: w,
        isBuy: false,
        amountCh: CH(5),
        priceWad: PRICE(4),
        nonce: 7n,
        expiry: (await headTime()) + 3_600n,
        taker: ZeroAddress,
      };
      const domain = await domainOf(node().provider, "SpotMarket", market);
      const good = await signOrder(owner, domain, order);
      const bad = await signOrder(Wallet.createRandom(), domain, order);
      const base = {
        kind: "spot",
        market,
        chainId: CHAIN_ID.toString(),
        order: Object.fromEntries(Object.entries(order).map(([k, v]) => [k, typeof v === "boolean" ? v : String(v)])),
      };
      await r.engine.chain.refreshHead();
      await expectRefused(r, { ...base, signature: bad }, 422, "INVALID_SIGNATURE");
      const ok = await post(`${r.url}/v1/orders`, { ...base, signature: good });
      expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
      expect(ok.body.order.maker).to.equal(w.toLowerCase());
    });

    it("bounds: private taker, zero amount, zero and huge prices, past and far expiry, wrong market, futures", async function () {
      const { protocol } = await deployed();
      const now = await headTime();
      const mk = async (o: Partial<Parameters<typeof spotOrder>[1]>) =>
        (await spotOrder(seller, { isBuy: false, amountCh: CH(1), priceWad: PRICE(2), ...o })).json;
      await expectRefused(r, { kind: "spot", ...(await mk({ taker: buyer.address })) }, 422, "PRIVATE_ORDER");
      await expectRefused(r, { kind: "spot", ...(await mk({ amountCh: 0n })) }, 422, "INVALID_AMOUNT");
      await expectRefused(r, { kind: "spot", ...(await mk({ amountCh: 1n << 128n })) }, 422, "INVALID_AMOUNT");
      await expectRefused(r, { kind: "spot", ...(await mk({ priceWad: 0n })) }, 422, "INVALID_PRICE");
      await expectRefused(r, { kind: "spot", ...(await mk({ priceWad: 10n ** 31n })) }, 422, "INVALID_PRICE");
      await expectRefused(r, { kind: "spot", ...(await mk({ expiry: now - 1n })) }, 422, "EXPIRED");
      await expectRefused(r, { kind: "spot", ...(await mk({ expiry: now + 400n * 86_400n })) }, 422, "EXPIRY_TOO_FAR");
      const j = await mk({});
      await expectRefused(
        r,
        { kind: "spot", ...j, market: await protocol.options.getAddress() },
        422,
        "UNKNOWN_MARKET",
      );
      await expectRefused(r, { kind: "futures", ...j }, 400, "UNSUPPORTED_KIND");
    });

    it("unfunded makers: no balance → UNFUNDED (balance), no allowance → UNFUNDED (allowance)", async function () {
      const a = await spotOrder(poor, { isBuy: false, amountCh: CH(1), priceWad: PRICE(2) });
      const body = await expectRefused(r, { kind: "spot", ...a.json }, 409, "UNFUNDED");
      expect(body.error.details.reason).to.equal("balance");
      const b = await spotOrder(unapproved, { isBuy: false, amountCh: CH(1), priceWad: PRICE(2) });
      const body2 = await expectRefused(r, { kind: "spot", ...b.json }, 409, "UNFUNDED");
      expect(body2.error.details.reason).to.equal("allowance");
      const c = await spotOrder(poor, { isBuy: true, amountCh: CH(1), priceWad: PRICE(2) });
      await expectRefused(r, { kind: "spot", ...c.json }, 409, "UNFUNDED");
    });

    it("chain state: nonce used by a filled order, below the minimum nonce, cancelled, filled", async function () {
      const { protocol } = await deployed();
      const spot = protocol.spot.connect(buyer);
      const nonce = nextNonce();
      const first = await spotOrder(seller, { isBuy: false, amountCh: CH(1), priceWad: PRICE(2), nonce });
      await (await spot.fillOrder(first.order, first.signature, CH(1))).wait();
      await r.engine.chain.refreshHead();
      // the whole order is filled
      await expectRefused(r, { kind: "spot", ...first.json }, 409, "FILLED");
      // another order with the same nonce
      const same = await spotOrder(seller, { isBuy: false, amountCh: CH(2), priceWad: PRICE(2), nonce });
      await expectRefused(r, { kind: "spot", ...same.json }, 409, "NONCE_USED");
      // cancelled on chain
      const c = await spotOrder(seller, { isBuy: false, amountCh: CH(1), priceWad: PRICE(2) });
      await (await protocol.spot.connect(seller).cancelOrder(c.order)).wait();
      await r.engine.chain.refreshHead();
      await expectRefused(r, { kind: "spot", ...c.json }, 409, "CANCELLED");
      // below the minimum nonce
      const low = acct(36, backend as Backend);
      await fund(low, { ch: CH(10) });
      await (await protocol.spot.connect(low).raiseMinNonce(1_000n)).wait();
      await r.engine.chain.refreshHead();
      const l = await spotOrder(low, { isBuy: false, amountCh: CH(1), priceWad: PRICE(2), nonce: 999n });
      await expectRefused(r, { kind: "spot", ...l.json }, 409, "NONCE_BELOW_MINIMUM");
      void getAddress;
    });
  });
}
