import { expect } from "chai";
import { Signature, toBeHex } from "ethers";
import { connectionFor } from "../../helpers/fixture.js";
import { MockERC1271Wallet__factory } from "../../../types/ethers-contracts/index.js";
import { CH, USDC, WAD, ZERO, signed, spotSetup, type SpotFixture } from "./helpers.js";
import { signDeal, signOrder, spotSettlement as settlementRef, type SpotDeal } from "@chx/sdk";

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe("SpotMarket orders (MKT-06, SEC-03)", function () {
  let fx: SpotFixture;

  async function setup(): Promise<SpotFixture> {
    return spotSetup(await connectionFor("spot-orders"));
  }

  beforeEach(async function () {
    const connection = await connectionFor("spot-orders");
    fx = await connection.networkHelpers.loadFixture(setup);
  });

  describe("fillOrder", function () {
    it("fills a sell order at the maker's price with worked fee numbers and post-state events", async function () {
      const { spot, ch, usdc } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker); // sells 10 CH at 2.5 USDC
      const hash = await spot.orderDigest(order);
      const makerUsdc = await usdc.balanceOf(fx.maker.address);
      const takerUsdc = await usdc.balanceOf(fx.taker.address);
      const takerCh = await ch.balanceOf(fx.taker.address);
      // quote 4 CH · 2.5 = 10 USDC; maker fee 5 bps = 0.005; taker fee 10 bps = 0.01
      await expect(spot.connect(fx.taker).fillOrder(order, sig, 4n * CH))
        .to.emit(spot, "OrderFilled")
        .withArgs(hash, fx.maker.address, fx.taker.address, 4n * CH, order.priceWad, 4n * CH, 6n * CH, 5_000n, 10_000n)
        .and.to.emit(spot, "FeesAccrued")
        .withArgs(15_000n, 15_000n);
      expect(await usdc.balanceOf(fx.maker.address)).to.equal(makerUsdc + 10n * USDC - 5_000n);
      expect(await usdc.balanceOf(fx.taker.address)).to.equal(takerUsdc - 10n * USDC - 10_000n);
      expect(await ch.balanceOf(fx.taker.address)).to.equal(takerCh + 4n * CH);
      expect(await usdc.balanceOf(await spot.getAddress())).to.equal(15_000n);
      expect(await ch.balanceOf(await spot.getAddress())).to.equal(0n);
      expect((await spot.orderState(order.maker, order.nonce, hash)).filledCh).to.equal(4n * CH);
      expect(await spot.nonceUsed(fx.maker.address, 1n)).to.equal(true);
    });

    it("fills a buy order: the maker pays, the taker delivers CH", async function () {
      const { spot, ch, usdc } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker, { isBuy: true, priceWad: 3n * WAD });
      const makerCh = await ch.balanceOf(fx.maker.address);
      const makerUsdc = await usdc.balanceOf(fx.maker.address);
      const takerUsdc = await usdc.balanceOf(fx.taker.address);
      await spot.connect(fx.taker).fillOrder(order, sig, 2n * CH);
      // quote 6 USDC; maker (buyer) fee 5 bps = 3000; taker (seller) fee 10 bps = 6000
      expect(await ch.balanceOf(fx.maker.address)).to.equal(makerCh + 2n * CH);
      expect(await usdc.balanceOf(fx.maker.address)).to.equal(makerUsdc - 6n * USDC - 3_000n);
      expect(await usdc.balanceOf(fx.taker.address)).to.equal(takerUsdc + 6n * USDC - 6_000n);
      expect(await spot.pendingFeesUsdc()).to.equal(9_000n);
    });

    it("tracks partial fills and reverts with SignedOrderOverfill beyond the amount", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker);
      const hash = await spot.orderDigest(order);
      await spot.connect(fx.taker).fillOrder(order, sig, 3n * CH);
      await spot.connect(fx.other).fillOrder(order, sig, 6n * CH);
      expect((await spot.orderState(order.maker, order.nonce, hash)).filledCh).to.equal(9n * CH);
      await expect(spot.connect(fx.taker).fillOrder(order, sig, 2n * CH))
        .to.be.revertedWithCustomError(spot, "SignedOrderOverfill")
        .withArgs(hash, 2n * CH, 1n * CH);
      await spot.connect(fx.taker).fillOrder(order, sig, 1n * CH);
      await expect(spot.connect(fx.taker).fillOrder(order, sig, 1n))
        .to.be.revertedWithCustomError(spot, "SignedOrderOverfill")
        .withArgs(hash, 1n, 0n);
    });

    it("reverts with SignedOrderExpired after the expiry", async function () {
      const { spot } = fx.protocol;
      const now = BigInt(await fx.connection.networkHelpers.time.latest());
      const { order, sig } = await signed(fx, fx.maker, { expiry: now + 100n });
      await fx.connection.networkHelpers.time.increaseTo(now + 101n);
      await expect(spot.connect(fx.taker).fillOrder(order, sig, CH)).to.be.revertedWithCustomError(
        spot,
        "SignedOrderExpired",
      );
    });

    it("reverts with SignedOrderCancelled after cancelOrder, also for a partly filled order", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker);
      const hash = await spot.orderDigest(order);
      await spot.connect(fx.taker).fillOrder(order, sig, CH);
      await expect(spot.connect(fx.maker).cancelOrder(order))
        .to.emit(spot, "Cancelled")
        .withArgs(hash, fx.maker.address, 1n, CH);
      await expect(spot.connect(fx.taker).fillOrder(order, sig, CH))
        .to.be.revertedWithCustomError(spot, "SignedOrderCancelled")
        .withArgs(hash);
    });

    it("cancels an unfilled order and burns its nonce; only the maker may cancel (SignedOrderNotMaker)", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker);
      await expect(spot.connect(fx.taker).cancelOrder(order))
        .to.be.revertedWithCustomError(spot, "SignedOrderNotMaker")
        .withArgs(fx.taker.address, fx.maker.address);
      await spot.connect(fx.maker).cancelOrder(order);
      expect(await spot.nonceUsed(fx.maker.address, 1n)).to.equal(true);
      await expect(spot.connect(fx.taker).fillOrder(order, sig, CH)).to.be.revertedWithCustomError(
        spot,
        "SignedOrderCancelled",
      );
      const again = await signed(fx, fx.maker, { priceWad: 7n * WAD });
      await expect(spot.connect(fx.taker).fillOrder(again.order, again.sig, CH))
        .to.be.revertedWithCustomError(spot, "SignedOrderNonceUsed")
        .withArgs(fx.maker.address, 1n);
    });

    it("reverts with SignedOrderNonceUsed for a second order with the same nonce", async function () {
      const { spot } = fx.protocol;
      const a = await signed(fx, fx.maker);
      const b = await signed(fx, fx.maker, { amountCh: 20n * CH });
      await spot.connect(fx.taker).fillOrder(a.order, a.sig, CH);
      await expect(spot.connect(fx.taker).fillOrder(b.order, b.sig, CH))
        .to.be.revertedWithCustomError(spot, "SignedOrderNonceUsed")
        .withArgs(fx.maker.address, 1n);
    });

    it("voids lower nonces with raiseMinNonce (SignedOrderNonceBelowMinimum, SignedOrderNonceNotIncreasing)", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker, { nonce: 41n });
      await expect(spot.connect(fx.maker).raiseMinNonce(42n))
        .to.emit(spot, "MinNonceRaised")
        .withArgs(fx.maker.address, 42n);
      await expect(spot.connect(fx.taker).fillOrder(order, sig, CH))
        .to.be.revertedWithCustomError(spot, "SignedOrderNonceBelowMinimum")
        .withArgs(fx.maker.address, 41n, 42n);
      await expect(spot.connect(fx.maker).raiseMinNonce(42n))
        .to.be.revertedWithCustomError(spot, "SignedOrderNonceNotIncreasing")
        .withArgs(fx.maker.address, 42n, 42n);
      const ok = await signed(fx, fx.maker, { nonce: 42n });
      await spot.connect(fx.taker).fillOrder(ok.order, ok.sig, CH);
    });

    it("rejects a signature for another chain id or verifying contract (SignedOrderInvalidSignature)", async function () {
      const { spot } = fx.protocol;
      const base = await signed(fx, fx.maker);
      const market = await spot.getAddress();
      const otherChain = await signOrder(fx.maker, { ...fx.domain, chainId: fx.chainId + 1n }, base.order);
      const otherContract = await signOrder(
        fx.maker,
        { ...fx.domain, verifyingContract: fx.other.address },
        base.order,
      );
      const otherName = await signOrder(fx.maker, { ...fx.domain, name: "CHX Spot v0" }, base.order);
      for (const sig of [otherChain, otherContract, otherName]) {
        await expect(spot.connect(fx.taker).fillOrder(base.order, sig, CH))
          .to.be.revertedWithCustomError(spot, "SignedOrderInvalidSignature")
          .withArgs(fx.maker.address, await spot.orderDigest(base.order));
      }
    });

    it("rejects a signature by someone else or over altered fields", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker);
      const byOther = await signOrder(fx.other, fx.domain, order);
      await expect(spot.connect(fx.taker).fillOrder(order, byOther, CH)).to.be.revertedWithCustomError(
        spot,
        "SignedOrderInvalidSignature",
      );
      await expect(
        spot.connect(fx.taker).fillOrder({ ...order, priceWad: WAD }, sig, CH),
      ).to.be.revertedWithCustomError(spot, "SignedOrderInvalidSignature");
    });

    it("rejects the malleable (high-s) form of a valid signature", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker);
      const s = Signature.from(sig);
      const highS = SECP256K1_N - BigInt(s.s);
      const flippedV = s.v === 27 ? 28 : 27;
      const malleable = s.r + toBeHex(highS, 32).slice(2) + (flippedV === 27 ? "1b" : "1c");
      await expect(spot.connect(fx.taker).fillOrder(order, malleable, CH)).to.be.revertedWithCustomError(
        spot,
        "SignedOrderInvalidSignature",
      );
      await spot.connect(fx.taker).fillOrder(order, sig, CH);
    });

    it("lets only the named taker fill a private order (SpotTakerNotAllowed)", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker, { taker: fx.taker.address });
      await expect(spot.connect(fx.other).fillOrder(order, sig, CH))
        .to.be.revertedWithCustomError(spot, "SpotTakerNotAllowed")
        .withArgs(await spot.orderDigest(order), fx.other.address, fx.taker.address);
      await spot.connect(fx.taker).fillOrder(order, sig, CH);
    });

    it("rejects zero amounts (SignedOrderInvalidAmount) and dust fills (SpotFillTooSmall)", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker, { priceWad: WAD });
      await expect(spot.connect(fx.taker).fillOrder(order, sig, 0n))
        .to.be.revertedWithCustomError(spot, "SignedOrderInvalidAmount")
        .withArgs(0n);
      // 1e11 wei CH at 1 USDC = 1e-7 USDC: rounds down to 0 for the seller
      await expect(spot.connect(fx.taker).fillOrder(order, sig, 10n ** 11n))
        .to.be.revertedWithCustomError(spot, "SpotFillTooSmall")
        .withArgs(10n ** 11n, WAD);
    });

    it("accepts an ERC-1271 smart-wallet maker and rejects a signature by a non-owner", async function () {
      const { spot, ch } = fx.protocol;
      const wallet = await new MockERC1271Wallet__factory(fx.deployer).deploy(fx.other.address);
      const w = await wallet.getAddress();
      await ch.mint(w, 10n * CH);
      await wallet.connect(fx.other).approve(await ch.getAddress(), await spot.getAddress(), 10n * CH);
      const order = { ...(await signed(fx, fx.maker)).order, maker: w };
      const good = await signOrder(fx.other, fx.domain, order);
      const bad = await signOrder(fx.maker, fx.domain, order);
      await expect(spot.connect(fx.taker).fillOrder(order, bad, CH)).to.be.revertedWithCustomError(
        spot,
        "SignedOrderInvalidSignature",
      );
      await spot.connect(fx.taker).fillOrder(order, good, CH);
      expect(await ch.balanceOf(w)).to.equal(9n * CH);
    });

    it("stops trading when spot.trade is paused while cancel stays open", async function () {
      const { spot } = fx.protocol;
      const { order, sig } = await signed(fx, fx.maker);
      const feature = await spot.FEATURE_TRADE();
      await spot.pauseFeature(feature);
      await expect(spot.connect(fx.taker).fillOrder(order, sig, CH))
        .to.be.revertedWithCustomError(spot, "ChxFeaturePaused")
        .withArgs(feature);
      await spot.connect(fx.maker).cancelOrder(order);
      await spot.connect(fx.maker).raiseMinNonce(5n);
    });
  });

  describe("matchOrders", function () {
    it("matches crossing orders; each trades at its limit, the matcher earns the spread (worked numbers)", async function () {
      const { spot, ch, usdc } = fx.protocol;
      const buy = await signed(fx, fx.maker, { isBuy: true, priceWad: 3n * WAD, nonce: 7n });
      const sell = await signed(fx, fx.taker, { priceWad: (5n * WAD) / 2n, nonce: 9n });
      const bal = async (a: string) => [await usdc.balanceOf(a), await ch.balanceOf(a)] as const;
      const [bU, bC] = await bal(fx.maker.address);
      const [sU, sC] = await bal(fx.taker.address);
      const [mU] = await bal(fx.matcher.address);
      // 2 CH: buyer quote 6 USDC + 5 bps 3000; seller quote 5 USDC − 5 bps 2500; spread 1 USDC to the matcher
      const ref = settlementRef(2n * CH, 3n * WAD, (5n * WAD) / 2n, 5n, 0n, 5n, 0n);
      expect(ref).to.deep.equal({
        buyerPaidUsdc: 6_003_000n,
        sellerReceivedUsdc: 4_997_500n,
        buyerFeeUsdc: 3_000n,
        sellerFeeUsdc: 2_500n,
        spreadUsdc: 1_000_000n,
        protocolUsdc: 5_500n,
      });
      await expect(spot.connect(fx.matcher).matchOrders(buy.order, buy.sig, sell.order, sell.sig, 2n * CH))
        .to.emit(spot, "OrdersMatched")
        .withArgs(
          await spot.orderDigest(buy.order),
          await spot.orderDigest(sell.order),
          fx.matcher.address,
          2n * CH,
          1_000_000n,
          (11n * WAD) / 4n,
        )
        .and.to.emit(spot, "OrderFilled")
        .withArgs(
          await spot.orderDigest(sell.order),
          fx.taker.address,
          fx.maker.address,
          2n * CH,
          sell.order.priceWad,
          2n * CH,
          8n * CH,
          2_500n,
          0n,
        );
      expect(await bal(fx.maker.address)).to.deep.equal([bU - 6_003_000n, bC + 2n * CH]);
      expect(await bal(fx.taker.address)).to.deep.equal([sU + 4_997_500n, sC - 2n * CH]);
      expect(await usdc.balanceOf(fx.matcher.address)).to.equal(mU + 1_000_000n);
      expect(await spot.pendingFeesUsdc()).to.equal(5_500n);
    });

    it("reverts with SpotNotCrossing, SpotSideMismatch and SignedOrderOverfill on either side", async function () {
      const { spot } = fx.protocol;
      const buy = await signed(fx, fx.maker, { isBuy: true, priceWad: 2n * WAD, amountCh: CH });
      const sell = await signed(fx, fx.taker, { priceWad: 3n * WAD });
      await expect(spot.connect(fx.matcher).matchOrders(buy.order, buy.sig, sell.order, sell.sig, CH))
        .to.be.revertedWithCustomError(spot, "SpotNotCrossing")
        .withArgs(2n * WAD, 3n * WAD);
      await expect(
        spot.connect(fx.matcher).matchOrders(sell.order, sell.sig, buy.order, buy.sig, CH),
      ).to.be.revertedWithCustomError(spot, "SpotSideMismatch");
      const cheap = await signed(fx, fx.taker, { priceWad: WAD, nonce: 2n });
      await expect(
        spot.connect(fx.matcher).matchOrders(buy.order, buy.sig, cheap.order, cheap.sig, 2n * CH),
      ).to.be.revertedWithCustomError(spot, "SignedOrderOverfill");
    });
  });

  describe("settleDeal (OTC)", function () {
    async function deal(o: Partial<SpotDeal> = {}): Promise<SpotDeal> {
      return {
        seller: fx.maker.address,
        buyer: fx.taker.address,
        amountCh: 100n * CH,
        priceWad: 2n * WAD,
        nonce: 1n,
        expiry: 2n ** 40n,
        ...o,
      };
    }

    it("settles with both signatures by a third party, atomically, once (SpotDealSettled)", async function () {
      const { spot, ch, usdc } = fx.protocol;
      const d = await deal();
      const sSig = await signDeal(fx.maker, fx.domain, d);
      const bSig = await signDeal(fx.taker, fx.domain, d);
      const hash = await spot.dealDigest(d);
      const buyerCh = await ch.balanceOf(fx.taker.address);
      // 200 USDC; both pay the 5 bps maker fee = 0.1 USDC each
      await expect(spot.connect(fx.matcher).settleDeal(d, sSig, bSig))
        .to.emit(spot, "DealSettled")
        .withArgs(hash, fx.maker.address, fx.taker.address, 100n * CH, 2n * WAD, 200_100_000n, 199_900_000n);
      expect(await ch.balanceOf(fx.taker.address)).to.equal(buyerCh + 100n * CH);
      expect(await usdc.balanceOf(await spot.getAddress())).to.equal(200_000n);
      await expect(spot.connect(fx.matcher).settleDeal(d, sSig, bSig))
        .to.be.revertedWithCustomError(spot, "SpotDealSettled")
        .withArgs(hash);
      const [, , count] = await spot.twapState();
      expect(count).to.equal(0n); // OTC deals do not move the TWAP
    });

    it("settles with one signature when the other party is the caller, never without it", async function () {
      const { spot } = fx.protocol;
      const d = await deal();
      const sSig = await signDeal(fx.maker, fx.domain, d);
      await expect(spot.connect(fx.matcher).settleDeal(d, sSig, "0x")).to.be.revertedWithCustomError(
        spot,
        "SignedOrderInvalidSignature",
      );
      await spot.connect(fx.taker).settleDeal(d, sSig, "0x");
    });

    it("reverts after cancelDeal, expiry, a raised minimum nonce or on another chain", async function () {
      const { spot } = fx.protocol;
      const now = BigInt(await fx.connection.networkHelpers.time.latest());
      const d = await deal({ expiry: now + 1_000n });
      const sSig = await signDeal(fx.maker, fx.domain, d);
      const wrongChain = await signDeal(fx.maker, { ...fx.domain, chainId: fx.chainId + 1n }, d);
      await expect(spot.connect(fx.taker).settleDeal(d, wrongChain, "0x")).to.be.revertedWithCustomError(
        spot,
        "SignedOrderInvalidSignature",
      );
      await expect(spot.connect(fx.other).cancelDeal(d)).to.be.revertedWithCustomError(spot, "SpotNotOwner");
      const d2 = await deal({ nonce: 2n });
      await spot.connect(fx.maker).cancelDeal(d2);
      await expect(
        spot.connect(fx.taker).settleDeal(d2, await signDeal(fx.maker, fx.domain, d2), "0x"),
      ).to.be.revertedWithCustomError(spot, "SignedOrderCancelled");
      await spot.connect(fx.taker).raiseMinNonce(2n);
      await expect(spot.connect(fx.taker).settleDeal(d, sSig, "0x"))
        .to.be.revertedWithCustomError(spot, "SignedOrderNonceBelowMinimum")
        .withArgs(fx.taker.address, 1n, 2n);
      const d3 = await deal({ nonce: 5n, expiry: now + 10n });
      await fx.connection.networkHelpers.time.increaseTo(now + 11n);
      await expect(
        spot.connect(fx.taker).settleDeal(d3, await signDeal(fx.maker, fx.domain, d3), "0x"),
      ).to.be.revertedWithCustomError(spot, "SignedOrderExpired");
    });
  });

  it("cannot initialise the implementation or re-initialise the proxy; only governance upgrades (SEC-02)", async function () {
    const { spot } = fx.protocol;
    const a = fx.users[0]!.address;
    const impl = await fx.connection.ethers.getContractAt(
      "SpotMarket",
      fx.ctx.record.contracts.SpotMarket!.implementation,
    );
    await expect(impl.initialize(a, a, a, a, a, a)).to.be.revertedWithCustomError(impl, "InvalidInitialization");
    await expect(spot.initialize(a, a, a, a, a, a)).to.be.revertedWithCustomError(spot, "InvalidInitialization");
    await expect(spot.connect(fx.other).upgradeToAndCall(await impl.getAddress(), "0x")).to.be.revertedWithCustomError(
      spot,
      "AccessManagedUnauthorized",
    );
  });

  it("exposes the EIP-712 domain it signs under", async function () {
    const { spot } = fx.protocol;
    const { TypedDataEncoder } = await import("ethers");
    expect(await spot.domainSeparator()).to.equal(TypedDataEncoder.hashDomain(fx.domain));
    expect(ZERO).to.equal("0x0000000000000000000000000000000000000000");
  });
});
