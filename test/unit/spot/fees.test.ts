import { expect } from "chai";
import { parseUnits } from "ethers";
import { connectionFor } from "../../helpers/fixture.js";
import { CH, USDC, WAD, signed, spotSetup, type SpotFixture } from "./helpers.js";
import { spotSettlement as settlementRef } from "@chx/sdk";

describe("SpotMarket fees, seats and TWAP", function () {
  let fx: SpotFixture;

  async function setup(): Promise<SpotFixture> {
    return spotSetup(await connectionFor("spot-fees"));
  }

  beforeEach(async function () {
    const connection = await connectionFor("spot-fees");
    fx = await connection.networkHelpers.loadFixture(setup);
  });

  describe("rounding (ACC-05)", function () {
    it("the payer rounds up, the receiver rounds down, fees round up: worked numbers", async function () {
      const { spot, usdc } = fx.protocol;
      // 0.333… CH at 1.5 USDC = 0.4999999999999999995 USDC exactly
      const amount = 333_333_333_333_333_333n;
      const price = (3n * WAD) / 2n;
      const { order, sig } = await signed(fx, fx.maker, { priceWad: price });
      const takerBefore = await usdc.balanceOf(fx.taker.address);
      const makerBefore = await usdc.balanceOf(fx.maker.address);
      // taker (buyer) pays ceil = 500000 + 10 bps = 500 → 500500
      // maker (seller) gets floor = 499999 − ceil(499999 · 5 / 10000 = 249.9995) = 250 → 499749
      // protocol keeps 1 (rounding) + 500 + 250 = 751
      expect(settlementRef(amount, price, price, 10n, 0n, 5n, 0n)).to.deep.include({
        buyerPaidUsdc: 500_500n,
        sellerReceivedUsdc: 499_749n,
        protocolUsdc: 751n,
      });
      await spot.connect(fx.taker).fillOrder(order, sig, amount);
      expect(takerBefore - (await usdc.balanceOf(fx.taker.address))).to.equal(500_500n);
      expect((await usdc.balanceOf(fx.maker.address)) - makerBefore).to.equal(499_749n);
      expect(await spot.pendingFeesUsdc()).to.equal(751n);
    });

    it("keeps the rounding dust even with zero fees", async function () {
      const { spot } = fx.protocol;
      await spot.setFees(0, 0, 2_000);
      const price = (3n * WAD) / 2n;
      const { order, sig } = await signed(fx, fx.maker, { priceWad: price });
      await spot.connect(fx.taker).fillOrder(order, sig, 333_333_333_333_333_333n);
      expect(await spot.pendingFeesUsdc()).to.equal(1n);
    });
  });

  describe("fee split", function () {
    it("sends the insurance share via depositFees and the rest to the treasury, summing exactly", async function () {
      const { spot, usdc } = fx.protocol;
      const price = (3n * WAD) / 2n;
      const { order, sig } = await signed(fx, fx.maker, { priceWad: price });
      await spot.connect(fx.taker).fillOrder(order, sig, 333_333_333_333_333_333n); // 751 pending
      const treasuryBefore = await usdc.balanceOf(fx.treasury.address);
      // 20 % of 751 = 150.2 → 150 to the fund (rounded down), 601 to the treasury
      await expect(spot.connect(fx.other).distributeFees()).to.emit(spot, "FeesDistributed").withArgs(150n, 601n);
      expect(await fx.fund.feesReceivedUsdc()).to.equal(150n);
      expect(await usdc.balanceOf(await fx.fund.getAddress())).to.equal(150n);
      expect((await usdc.balanceOf(fx.treasury.address)) - treasuryBefore).to.equal(601n);
      expect(await usdc.balanceOf(await spot.getAddress())).to.equal(0n);
      expect(await spot.pendingFeesUsdc()).to.equal(0n);
      await spot.distributeFees(); // nothing pending: a no-op
    });

    it("sends everything to the treasury while it stands in for the insurance fund", async function () {
      const { spot, usdc } = fx.protocol;
      await spot.setFeeRecipients(fx.treasury.address, fx.treasury.address);
      const { order, sig } = await signed(fx, fx.maker);
      await spot.connect(fx.taker).fillOrder(order, sig, 4n * CH); // 15,000 fees
      const before = await usdc.balanceOf(fx.treasury.address);
      await expect(spot.distributeFees()).to.emit(spot, "FeesDistributed").withArgs(0n, 15_000n);
      expect((await usdc.balanceOf(fx.treasury.address)) - before).to.equal(15_000n);
    });

    it("bounds fees and restricts setters to governance (SEC-01)", async function () {
      const { spot } = fx.protocol;
      await expect(spot.setFees(101, 10, 0))
        .to.be.revertedWithCustomError(spot, "SpotBpsTooHigh")
        .withArgs(101n, 100n);
      await expect(spot.setFees(5, 10, 10_001))
        .to.be.revertedWithCustomError(spot, "SpotBpsTooHigh")
        .withArgs(10_001n, 10_000n);
      await expect(spot.setFees(1, 2, 3))
        .to.emit(spot, "FeesSet")
        .withArgs(1n, 2n, 3n);
      const u = spot.connect(fx.other);
      await expect(u.setFees(1, 1, 1)).to.be.revertedWithCustomError(spot, "AccessManagedUnauthorized");
      await expect(u.setFeeRecipients(fx.other.address, fx.other.address)).to.be.revertedWithCustomError(
        spot,
        "AccessManagedUnauthorized",
      );
      await expect(u.setSeatTiers([], [])).to.be.revertedWithCustomError(spot, "AccessManagedUnauthorized");
      await expect(u.setUnstakeDelay(1)).to.be.revertedWithCustomError(spot, "AccessManagedUnauthorized");
      await expect(u.setTwapParams(60, 0)).to.be.revertedWithCustomError(spot, "AccessManagedUnauthorized");
      await expect(u.pauseFeature(await spot.FEATURE_TRADE())).to.be.revertedWithCustomError(
        spot,
        "AccessManagedUnauthorized",
      );
      await expect(spot.setUnstakeDelay(31 * 86_400)).to.be.revertedWithCustomError(spot, "SpotDurationOutOfBounds");
      await expect(spot.setTwapParams(59, 0)).to.be.revertedWithCustomError(spot, "SpotDurationOutOfBounds");
    });
  });

  describe("seats", function () {
    const tiers = [parseUnits("1000", 18), parseUnits("10000", 18)];

    it("discounts each side's fee by its staked-DPS tier (worked numbers)", async function () {
      const { spot, usdc } = fx.protocol;
      await expect(spot.setSeatTiers(tiers, [2_000, 5_000])).to.emit(spot, "SeatTiersSet");
      await expect(spot.connect(fx.maker).stakeSeat(tiers[1]!))
        .to.emit(spot, "SeatStaked")
        .withArgs(fx.maker.address, tiers[1]!, tiers[1]!, 5_000n);
      await spot.connect(fx.taker).stakeSeat(parseUnits("1500", 18));
      expect(await spot.seatDiscountBps(fx.taker.address)).to.equal(2_000n);
      expect(await spot.seatDiscountBps(fx.other.address)).to.equal(0n);
      const { order, sig } = await signed(fx, fx.maker);
      const before = await usdc.balanceOf(fx.taker.address);
      // 10 USDC quote: maker 5 bps · 50 % = 2,500; taker 10 bps · 80 % = 8,000
      await expect(spot.connect(fx.taker).fillOrder(order, sig, 4n * CH))
        .to.emit(spot, "OrderFilled")
        .withArgs(
          await spot.orderDigest(order),
          fx.maker.address,
          fx.taker.address,
          4n * CH,
          order.priceWad,
          4n * CH,
          6n * CH,
          2_500n,
          8_000n,
        );
      expect(before - (await usdc.balanceOf(fx.taker.address))).to.equal(10n * USDC + 8_000n);
    });

    it("unstakes after the delay only; the tier drops at the request", async function () {
      const { spot, dps } = fx.protocol;
      await spot.setSeatTiers(tiers, [2_000, 5_000]);
      const thousand = tiers[0]!;
      await spot.connect(fx.maker).stakeSeat(thousand);
      const now = BigInt(await fx.connection.networkHelpers.time.latest());
      await expect(spot.connect(fx.maker).requestUnstake(thousand + 1n))
        .to.be.revertedWithCustomError(spot, "SpotInsufficientStake")
        .withArgs(fx.maker.address, thousand + 1n, thousand);
      await fx.connection.networkHelpers.time.setNextBlockTimestamp(now + 10n);
      await expect(spot.connect(fx.maker).requestUnstake(400n * CH))
        .to.emit(spot, "SeatUnstakeRequested")
        .withArgs(fx.maker.address, 400n * CH, 600n * CH, 400n * CH, now + 10n + 7n * 86_400n, 0n);
      expect(await spot.seatDiscountBps(fx.maker.address)).to.equal(0n);
      await expect(spot.connect(fx.maker).withdrawUnstaked()).to.be.revertedWithCustomError(
        spot,
        "SpotUnstakeNotReady",
      );
      await fx.connection.networkHelpers.time.increaseTo(now + 10n + 7n * 86_400n);
      const before = await dps.balanceOf(fx.maker.address);
      await expect(spot.connect(fx.maker).withdrawUnstaked())
        .to.emit(spot, "SeatWithdrawn")
        .withArgs(fx.maker.address, 400n * CH);
      expect((await dps.balanceOf(fx.maker.address)) - before).to.equal(400n * CH);
      expect(await spot.totalSeatDps()).to.deep.equal([600n * CH, 0n]);
      expect(await dps.balanceOf(await spot.getAddress())).to.equal(600n * CH);
      await fx.connection.networkHelpers.time.setNextBlockTimestamp(now + 8n * 86_400n);
      await expect(spot.connect(fx.maker).withdrawUnstaked())
        .to.be.revertedWithCustomError(spot, "SpotUnstakeNotReady")
        .withArgs(fx.maker.address, 0n, now + 8n * 86_400n);
    });

    it("rejects unordered, fractional or too many tiers and too large discounts", async function () {
      const { spot } = fx.protocol;
      await expect(spot.setSeatTiers([tiers[1]!, tiers[0]!], [1, 2])).to.be.revertedWithCustomError(
        spot,
        "SpotInvalidSeatTiers",
      );
      await expect(spot.setSeatTiers([tiers[0]! + 1n], [1])).to.be.revertedWithCustomError(
        spot,
        "SpotInvalidSeatTiers",
      );
      await expect(
        spot.setSeatTiers(
          [1n, 2n, 3n, 4n, 5n].map((x) => x * CH),
          [1, 2, 3, 4, 5],
        ),
      ).to.be.revertedWithCustomError(spot, "SpotInvalidSeatTiers");
      await expect(spot.setSeatTiers([tiers[0]!], [9_001]))
        .to.be.revertedWithCustomError(spot, "SpotBpsTooHigh")
        .withArgs(9_001n, 9_000n);
      await expect(spot.setSeatTiers(tiers, [3_000, 2_000])).to.be.revertedWithCustomError(
        spot,
        "SpotInvalidSeatTiers",
      );
    });
  });

  describe("TWAP (ISpotPriceSource)", function () {
    it("returns (0, now) before any fill", async function () {
      const { spot } = fx.protocol;
      const [price, since] = await spot.twapPrice(600);
      expect(price).to.equal(0n);
      expect(since).to.equal(BigInt(await fx.connection.networkHelpers.time.latest()));
    });

    it("averages fills over time: worked numbers", async function () {
      const { spot } = fx.protocol;
      const time = fx.connection.networkHelpers.time;
      await spot.setTwapParams(60, 0);
      const t0 = BigInt(await time.latest()) + 100n;
      const at2 = await signed(fx, fx.maker, { priceWad: 2n * WAD, nonce: 1n });
      const at4 = await signed(fx, fx.maker, { priceWad: 4n * WAD, nonce: 2n });
      const at1 = await signed(fx, fx.maker, { priceWad: WAD, nonce: 3n });
      await time.setNextBlockTimestamp(t0);
      await expect(spot.connect(fx.taker).fillOrder(at2.order, at2.sig, CH))
        .to.emit(spot, "TwapUpdated")
        .withArgs(2n * WAD, 0n, t0, 0n, 1n);
      await time.setNextBlockTimestamp(t0 + 600n);
      // 600 s at 2 → cumulative 1200; a new observation (interval passed)
      await expect(spot.connect(fx.taker).fillOrder(at4.order, at4.sig, CH))
        .to.emit(spot, "TwapUpdated")
        .withArgs(4n * WAD, 1200n * WAD, t0 + 600n, 1n, 2n);
      await time.setNextBlockTimestamp(t0 + 630n);
      // 30 s at 4 → 1320; within the interval: no new observation
      await expect(spot.connect(fx.taker).fillOrder(at1.order, at1.sig, CH))
        .to.emit(spot, "TwapUpdated")
        .withArgs(WAD, 1320n * WAD, t0 + 630n, 1n, 2n);
      await time.increaseTo(t0 + 900n);
      // now: 1320 + 270 s at 1 = 1590
      const [last, cumulative, count] = await spot.twapState();
      expect([last, cumulative, count]).to.deep.equal([WAD, 1590n * WAD, 2n]);
      // window 300 → starts at the observation at t0+600: (1590 − 1200) / 300 = 1.3
      expect(await spot.twapPrice(300)).to.deep.equal([(13n * WAD) / 10n, t0]);
      // window 900 → from t0: 1590 / 900 = 1.7666… (rounded down)
      expect(await spot.twapPrice(900)).to.deep.equal([(1590n * WAD) / 900n, t0]);
      // window 400 → newest observation at or before t0+500 is t0: same as 900 (effective window ≥ asked)
      expect((await spot.twapPrice(400))[0]).to.equal((1590n * WAD) / 900n);
      // longer than the history: immature, the oracle sees observedSince = t0
      expect(await spot.twapPrice(5_000)).to.deep.equal([(1590n * WAD) / 900n, t0]);
    });

    it("ignores fills below the minimum TWAP size", async function () {
      const { spot } = fx.protocol;
      await spot.setTwapParams(60, 2n * CH);
      const { order, sig } = await signed(fx, fx.maker);
      await expect(spot.connect(fx.taker).fillOrder(order, sig, CH)).not.to.emit(spot, "TwapUpdated");
      await expect(spot.connect(fx.taker).fillOrder(order, sig, 2n * CH)).to.emit(spot, "TwapUpdated");
    });

    it("keeps a bounded ring: after 150 observations it holds the newest 144", async function () {
      const { spot } = fx.protocol;
      const time = fx.connection.networkHelpers.time;
      await spot.setTwapParams(60, 0);
      const { order, sig } = await signed(fx, fx.maker, { amountCh: 1_000n * CH, priceWad: 2n * WAD });
      const t0 = BigInt(await time.latest()) + 10n;
      for (let i = 0n; i < 150n; i++) {
        await time.setNextBlockTimestamp(t0 + 60n * i);
        await spot.connect(fx.taker).fillOrder(order, sig, CH);
      }
      const [, , count] = await spot.twapState();
      expect(count).to.equal(144n);
      await time.increaseTo(t0 + 60n * 150n);
      expect(await spot.twapPrice(3_600)).to.deep.equal([2n * WAD, t0 + 60n * 6n]);
    });
  });
});
