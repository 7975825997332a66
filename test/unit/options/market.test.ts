import { expect } from "chai";
import { connectionFor } from "../../helpers/fixture.js";
import { MockERC1271Wallet__factory } from "../../../types/ethers-contracts/index.js";
import {
  CH,
  OptionKind,
  USDC,
  WAD,
  currentParams,
  list,
  offer,
  optionsSetup,
  signed,
  standardExpiry,
  toFinal,
  type OptionsFixture,
} from "./helpers.js";
import { optionFillQuote as fillQuote, optionPayoffWad as payoffWad, signOffer, usdcDown, usdcUp } from "@chx/sdk";

const KEY = "options-market";

describe("OptionsMarket: listing, writing, offers, settlement", function () {
  let fx: OptionsFixture;
  let expiry: bigint;

  async function setup(): Promise<OptionsFixture> {
    return optionsSetup(await connectionFor(KEY));
  }

  beforeEach(async function () {
    const connection = await connectionFor(KEY);
    fx = await connection.networkHelpers.loadFixture(setup);
    expiry = BigInt(await connection.networkHelpers.time.latest()) + 7n * 86_400n;
  });

  describe("reference arithmetic (ACC-05)", function () {
    it("payoffs: capped calls, puts bounded by the strike", function () {
      expect(payoffWad(OptionKind.Call, 12n * WAD, 6n * WAD, 20n * WAD)).to.equal(6n * WAD);
      expect(payoffWad(OptionKind.Call, 12n * WAD, 6n * WAD, 15n * WAD)).to.equal(3n * WAD);
      expect(payoffWad(OptionKind.Call, 12n * WAD, 6n * WAD, 11n * WAD)).to.equal(0n);
      expect(payoffWad(OptionKind.Put, 8n * WAD, 8n * WAD, (13n * WAD) / 2n)).to.equal((3n * WAD) / 2n);
      expect(payoffWad(OptionKind.Put, 8n * WAD, 8n * WAD, 9n * WAD)).to.equal(0n);
    });

    it("collateral rounds up, payouts round down", function () {
      const third = 333_333_333_333_333_333n; // 1/3 CH
      expect(usdcUp(third, 6n * WAD)).to.equal(2_000_000n); // 1.999999999999999998 → 2 USDC
      expect(usdcDown(third, 6n * WAD)).to.equal(1_999_999n);
    });
  });

  describe("listing", function () {
    it("governance lists a put (cap = strike) and emits SeriesListed with the live count", async function () {
      const { options } = fx.protocol;
      await expect(
        options.listSeries({
          kind: OptionKind.Put,
          onFutures: false,
          futuresSeriesId: 0,
          expiry,
          strikeWad: 8n * WAD,
          capWad: 0,
        }),
      )
        .to.emit(options, "SeriesListed")
        .withArgs(1n, OptionKind.Put, false, 0n, expiry, 8n * WAD, 8n * WAD, fx.deployer.address, 1n);
      const s = await options.series(1n);
      expect(s.capWad).to.equal(8n * WAD);
      expect(await options.seriesStatus(1n)).to.equal(1n); // Trading
      expect(await options.pendingSeries()).to.deep.equal([1n]);
    });

    it("reverts for non-admins, duplicates, zero strikes and past expiries", async function () {
      const { options } = fx.protocol;
      const p = {
        kind: OptionKind.Call,
        onFutures: false,
        futuresSeriesId: 0,
        expiry,
        strikeWad: 12n * WAD,
        capWad: 6n * WAD,
      };
      await expect(options.connect(fx.alice).listSeries(p)).to.be.revertedWithCustomError(
        options,
        "AccessManagedUnauthorized",
      );
      await options.listSeries(p);
      await expect(options.listSeries(p)).to.be.revertedWithCustomError(options, "OptionsSeriesExists").withArgs(1n);
      await expect(options.listSeries({ ...p, capWad: 0 }))
        .to.be.revertedWithCustomError(options, "OptionsInvalidStrike")
        .withArgs(12n * WAD, 0n);
      await expect(options.listSeries({ ...p, expiry: 1n }))
        .to.be.revertedWithCustomError(options, "OptionsInvalidExpiry")
        .withArgs(1n);
      // the deploy's wiring step links the FuturesMarket, so an unknown futures series is what is refused here
      // (OptionsFuturesMarketNotSet is reachable only on a deployment without a FuturesMarket)
      await expect(options.listSeries({ ...p, onFutures: true, futuresSeriesId: 3 })).to.be.revertedWithCustomError(
        options,
        "OptionsInvalidFuturesSeries",
      );
    });

    it("anyone lists a standard series: expiry on the 08:00 grid, strike on the 0.5 grid within ±50 % of the index", async function () {
      const { options } = fx.protocol;
      const now = await fx.connection.networkHelpers.time.latest();
      const day = 86_400n;
      const e = ((BigInt(now) + 3n * day) / day) * day + 8n * 3_600n;
      await expect(options.connect(fx.alice).listStandardSeries(OptionKind.Call, (23n * WAD) / 2n, e))
        .to.emit(options, "SeriesListed")
        .withArgs(1n, OptionKind.Call, false, 0n, e, (23n * WAD) / 2n, (23n * WAD) / 2n, fx.alice.address, 1n);
      await expect(options.listStandardSeries(OptionKind.Put, 8n * WAD, e + 1n))
        .to.be.revertedWithCustomError(options, "OptionsInvalidExpiry")
        .withArgs(e + 1n);
      await expect(options.listStandardSeries(OptionKind.Put, 8n * WAD + 1n, e))
        .to.be.revertedWithCustomError(options, "OptionsStrikeNotListable")
        .withArgs(8n * WAD + 1n, 10n * WAD, WAD / 2n);
      await expect(options.listStandardSeries(OptionKind.Put, 4n * WAD, e))
        .to.be.revertedWithCustomError(options, "OptionsStrikeNotListable")
        .withArgs(4n * WAD, 10n * WAD, WAD / 2n);
      await options.setParams({ ...(await currentParams(fx)), maxLiveSeries: 1 });
      await expect(options.listStandardSeries(OptionKind.Put, 8n * WAD, e))
        .to.be.revertedWithCustomError(options, "OptionsTooManyLiveSeries")
        .withArgs(1n, 1n);
      await options.connect(fx.guardian).pauseFeature(await options.FEATURE_LIST());
      await expect(options.listStandardSeries(OptionKind.Put, 8n * WAD, e)).to.be.revertedWithCustomError(
        options,
        "ChxFeaturePaused",
      );
    });
  });

  describe("listing bond (issue 17 item 25)", function () {
    it("a permissionless lister posts 0.5 USDC per day to expiry and gets it back when fills paid as much in fees", async function () {
      const { options, clearingHouse } = fx.protocol;
      const now = await fx.connection.networkHelpers.time.latest();
      const e = standardExpiry(now, 3 * 86_400);
      const days = (e - BigInt(now) - 1n + 86_399n) / 86_400n; // started days from the listing block
      const before = await clearingHouse.collateralOf(fx.alice.address);
      await (await options.connect(fx.alice).listStandardSeries(OptionKind.Put, 8n * WAD, e)).wait();
      const id = await options.seriesCount();
      const bond = (await options.series(id)).listingBondUsdc;
      expect(bond).to.equal(days * 500_000n);
      expect(before - (await clearingHouse.collateralOf(fx.alice.address))).to.equal(bond);
      // 100 CH at a 5 USDC premium: 40 bps of 500 USDC = 2 USDC of fees ≥ the bond
      const { offer, sig } = await signed(fx, fx.carol, { seriesId: id, premiumWad: 5n * WAD });
      await (await options.connect(fx.bob).fillOffer(offer, sig, 100n * CH)).wait();
      const fees = (await options.series(id)).feesUsdc;
      expect(fees).to.be.gte(bond);
      await toFinal(fx, e, 10n * WAD);
      const mid = await clearingHouse.collateralOf(fx.alice.address);
      await expect(options.connect(fx.keeper).fixSettlementPrice(id))
        .to.emit(options, "ListingBondReleased")
        .withArgs(id, fx.alice.address, bond, true, fees);
      expect((await clearingHouse.collateralOf(fx.alice.address)) - mid).to.equal(bond);
      expect((await options.poolClaims())[1]).to.equal(800n * USDC); // only the writer's collateral stays reserved
    });
  });

  describe("writing and closing", function () {
    it("write posts size × strike for a put (12 USDC for 1.5 CH at 8) and gives the writer both sides", async function () {
      const { options, clearingHouse } = fx.protocol;
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      const before = await clearingHouse.collateralOf(fx.carol.address);
      await expect(options.connect(fx.carol).write(1n, (3n * CH) / 2n))
        .to.emit(options, "OptionsWritten")
        .withArgs(1n, fx.carol.address, (3n * CH) / 2n, 12n * USDC, (3n * CH) / 2n, 12n * USDC)
        .and.to.emit(options, "PositionUpdated")
        .withArgs(1n, fx.carol.address, (3n * CH) / 2n, (3n * CH) / 2n, 12n * USDC);
      expect(before - (await clearingHouse.collateralOf(fx.carol.address))).to.equal(12n * USDC);
      const [, poolUsdc] = await clearingHouse.marketInfo(fx.market);
      expect(poolUsdc).to.equal(12n * USDC);
      expect((await options.poolClaims()).reservedUsdc).to.equal(12n * USDC);
      expect(await options.accountAt(1n, 0n)).to.equal(fx.carol.address);
    });

    it("a capped call posts size × cap rounded up (1/3 CH × 6 → 2 USDC)", async function () {
      const { options } = fx.protocol;
      await list(fx, OptionKind.Call, 12n * WAD, 6n * WAD, expiry);
      await options.connect(fx.carol).write(1n, 333_333_333_333_333_333n);
      expect((await options.positionOf(1n, fx.carol.address)).collateralUsdc).to.equal(2_000_000n);
      expect(await options.collateralFor(1n, 333_333_333_333_333_333n)).to.equal(2_000_000n);
    });

    it("reverts by name: no collateral, zero size, unknown or expired series, paused writing", async function () {
      const { options } = fx.protocol;
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      await expect(options.connect(fx.keeper).write(1n, 10n * CH))
        .to.be.revertedWithCustomError(options, "OptionsInsufficientCollateral")
        .withArgs(fx.keeper.address, 80n * USDC, 0n);
      await expect(options.connect(fx.carol).write(1n, 0n))
        .to.be.revertedWithCustomError(options, "OptionsInvalidSize")
        .withArgs(0n);
      await expect(options.connect(fx.carol).write(9n, CH))
        .to.be.revertedWithCustomError(options, "OptionsUnknownSeries")
        .withArgs(9n);
      await options.connect(fx.guardian).pauseFeature(await options.FEATURE_WRITE());
      await expect(options.connect(fx.carol).write(1n, CH)).to.be.revertedWithCustomError(options, "ChxFeaturePaused");
      await options.unpauseFeature(await options.FEATURE_WRITE()); // unpausing is ADMIN
      await fx.connection.networkHelpers.time.increaseTo(expiry);
      await expect(options.connect(fx.carol).write(1n, CH)).to.be.revertedWithCustomError(
        options,
        "OptionsSeriesExpired",
      );
    });

    it("close burns longs against shorts and releases pro rata (rounded down), even while writing is paused", async function () {
      const { options, clearingHouse } = fx.protocol;
      await list(fx, OptionKind.Call, 12n * WAD, 6n * WAD, expiry);
      await options.connect(fx.carol).write(1n, CH); // 6 USDC
      await options.connect(fx.guardian).pauseFeature(await options.FEATURE_WRITE());
      const before = await clearingHouse.collateralOf(fx.carol.address);
      // 1/3 of 6 USDC = 2 USDC exactly; remaining 4 USDC still covers 2/3 CH × 6
      await expect(options.connect(fx.carol).close(1n, 333_333_333_333_333_333n))
        .to.emit(options, "OptionsClosed")
        .withArgs(1n, fx.carol.address, 333_333_333_333_333_333n, 1_999_999n, 666_666_666_666_666_667n, 1_999_999n);
      expect((await clearingHouse.collateralOf(fx.carol.address)) - before).to.equal(1_999_999n);
      await options.connect(fx.carol).transferLong(1n, fx.alice.address, 1n);
      await expect(options.connect(fx.carol).close(1n, 666_666_666_666_666_667n))
        .to.be.revertedWithCustomError(options, "OptionsInsufficientLong")
        .withArgs(1n, fx.carol.address, 666_666_666_666_666_667n, 666_666_666_666_666_666n);
    });
  });

  describe("signed offers", function () {
    it("a taker buys 40 CH of a maker's put offer at 0.4: worked premium, fees and collateral", async function () {
      const { options, clearingHouse } = fx.protocol;
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      const { offer, sig } = await signed(fx, fx.carol);
      const q = fillQuote(40n * CH, offer.premiumWad, 30n, 10n); // taker buys (30 bps), maker sells (10 bps)
      expect(q).to.deep.equal({ paidUsdc: 16_048_000n, receivedUsdc: 15_984_000n, feesUsdc: 64_000n });
      const aliceBefore = await clearingHouse.collateralOf(fx.alice.address);
      const carolBefore = await clearingHouse.collateralOf(fx.carol.address);
      const hash = await options.offerHash(offer);
      await expect(options.connect(fx.alice).fillOffer(offer, sig, 40n * CH))
        .to.emit(options, "OfferFilled")
        .withArgs(
          hash,
          fx.carol.address,
          fx.alice.address,
          1n,
          false,
          40n * CH,
          offer.premiumWad,
          16_048_000n,
          15_984_000n,
          64_000n,
          40n * CH,
        )
        .and.to.emit(options, "OptionsWritten")
        .withArgs(1n, fx.carol.address, 40n * CH, 320n * USDC, 40n * CH, 320n * USDC);
      expect(aliceBefore - (await clearingHouse.collateralOf(fx.alice.address))).to.equal(16_048_000n);
      expect(carolBefore - (await clearingHouse.collateralOf(fx.carol.address))).to.equal(320n * USDC - 15_984_000n);
      expect((await options.positionOf(1n, fx.alice.address)).longCh).to.equal(40n * CH);
      expect((await options.positionOf(1n, fx.carol.address)).shortCh).to.equal(40n * CH);
      expect(await options.poolClaims()).to.deep.equal([64_000n, 320n * USDC]);
      const [, poolUsdc] = await clearingHouse.marketInfo(fx.market);
      expect(poolUsdc).to.equal(320n * USDC + 64_000n);
    });

    it("a seller with longs sells them before writing", async function () {
      const { options } = fx.protocol;
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      await options.connect(fx.carol).write(1n, 10n * CH);
      const { offer, sig } = await signed(fx, fx.carol, { sizeCh: 15n * CH });
      await options.connect(fx.alice).fillOffer(offer, sig, 15n * CH);
      const p = await options.positionOf(1n, fx.carol.address);
      expect(p.longCh).to.equal(0n);
      expect(p.shortCh).to.equal(15n * CH);
      expect(p.collateralUsdc).to.equal(120n * USDC);
    });

    it("a maker's buy offer is filled by a writer", async function () {
      const { options } = fx.protocol;
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      const { offer, sig } = await signed(fx, fx.bob, { isBuy: true, sizeCh: 5n * CH });
      await options.connect(fx.carol).fillOffer(offer, sig, 5n * CH);
      expect((await options.positionOf(1n, fx.bob.address)).longCh).to.equal(5n * CH);
      expect((await options.positionOf(1n, fx.carol.address)).shortCh).to.equal(5n * CH);
    });

    it("accepts an ERC-1271 wallet as maker (it sells longs it holds and is credited the premium)", async function () {
      const { options, clearingHouse } = fx.protocol;
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      const wallet = await new MockERC1271Wallet__factory(fx.deployer).deploy(fx.bob.address);
      const w = await wallet.getAddress();
      await options.connect(fx.carol).write(1n, 5n * CH);
      await options.connect(fx.carol).transferLong(1n, w, 5n * CH);
      const o = offer(w, { sizeCh: 5n * CH });
      const sig = await signOffer(fx.bob, fx.domain, o); // the wallet's owner signs
      await options.connect(fx.alice).fillOffer(o, sig, 5n * CH);
      expect((await options.positionOf(1n, fx.alice.address)).longCh).to.equal(5n * CH);
      // 5 × 0.4 = 2 USDC less the 10 bps maker fee
      expect(await clearingHouse.collateralOf(w)).to.equal(1_998_000n);
    });

    it("reverts by name: overfill, expiry, cancellation, bad signature, minimum nonce, private taker, self-trade", async function () {
      const { options } = fx.protocol;
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      const { offer, sig } = await signed(fx, fx.carol, { sizeCh: 10n * CH });
      const hash = await options.offerHash(offer);
      await options.connect(fx.alice).fillOffer(offer, sig, 6n * CH);
      await expect(options.connect(fx.alice).fillOffer(offer, sig, 5n * CH))
        .to.be.revertedWithCustomError(options, "OptionsOverfill")
        .withArgs(hash, 5n * CH, 4n * CH);
      await expect(options.connect(fx.carol).fillOffer(offer, sig, CH))
        .to.be.revertedWithCustomError(options, "OptionsSelfTrade")
        .withArgs(fx.carol.address);
      await expect(options.connect(fx.alice).cancelOffer(offer))
        .to.be.revertedWithCustomError(options, "OptionsNotMaker")
        .withArgs(fx.alice.address, fx.carol.address);
      await expect(options.connect(fx.carol).cancelOffer(offer))
        .to.emit(options, "OfferCancelled")
        .withArgs(hash, fx.carol.address, 1n, 6n * CH);
      await expect(options.connect(fx.alice).fillOffer(offer, sig, CH))
        .to.be.revertedWithCustomError(options, "OptionsOfferCancelled")
        .withArgs(hash);
      const o2 = await signed(fx, fx.carol, { nonce: 2n, expiry: 1n });
      await expect(options.connect(fx.alice).fillOffer(o2.offer, o2.sig, CH)).to.be.revertedWithCustomError(
        options,
        "OptionsOfferExpired",
      );
      const o3 = await signed(fx, fx.bob, { nonce: 3n });
      const forged = { ...o3.offer, maker: fx.carol.address };
      await expect(options.connect(fx.alice).fillOffer(forged, o3.sig, CH))
        .to.be.revertedWithCustomError(options, "OptionsInvalidSignature")
        .withArgs(fx.carol.address, await options.offerHash(forged));
      const o4 = await signed(fx, fx.carol, { nonce: 4n });
      await expect(options.connect(fx.carol).raiseMinNonce(5n))
        .to.emit(options, "MinNonceRaised")
        .withArgs(fx.carol.address, 5n);
      await expect(options.connect(fx.alice).fillOffer(o4.offer, o4.sig, CH))
        .to.be.revertedWithCustomError(options, "OptionsNonceBelowMinimum")
        .withArgs(fx.carol.address, 4n, 5n);
      await expect(options.connect(fx.carol).raiseMinNonce(5n))
        .to.be.revertedWithCustomError(options, "OptionsNonceNotIncreasing")
        .withArgs(fx.carol.address, 5n, 5n);
      const o5 = await signed(fx, fx.carol, { nonce: 6n, taker: fx.bob.address });
      await expect(options.connect(fx.alice).fillOffer(o5.offer, o5.sig, CH))
        .to.be.revertedWithCustomError(options, "OptionsTakerNotAllowed")
        .withArgs(await options.offerHash(o5.offer), fx.alice.address, fx.bob.address);
      const o6 = await signed(fx, fx.carol, { nonce: 7n, premiumWad: 1n });
      await expect(options.connect(fx.alice).fillOffer(o6.offer, o6.sig, CH))
        .to.be.revertedWithCustomError(options, "OptionsFillTooSmall")
        .withArgs(CH, 1n);
    });
  });

  describe("expiry and cash settlement", function () {
    async function carolSellsAlicePuts(): Promise<void> {
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      const { offer, sig } = await signed(fx, fx.carol);
      await fx.protocol.options.connect(fx.alice).fillOffer(offer, sig, 40n * CH);
    }

    it("fixes the price after expiry (bounty from fees), lets the guardian correct it, then pays 40 CH × 1 USDC", async function () {
      const { options, clearingHouse } = fx.protocol;
      await carolSellsAlicePuts();
      await expect(options.fixSettlementPrice(1n)).to.be.revertedWithCustomError(options, "OptionsSeriesNotExpired");
      await toFinal(fx, expiry, (13n * WAD) / 2n);
      expect(await options.seriesStatus(1n)).to.equal(2n); // Expired
      const keeperBefore = await clearingHouse.collateralOf(fx.keeper.address);
      const tx = options.connect(fx.keeper).fixSettlementPrice(1n);
      await expect(tx).to.emit(options, "SettlementPriceFixed");
      // fees were 0.064 USDC < the 0.5 USDC bounty: the fixer gets all of it
      expect((await clearingHouse.collateralOf(fx.keeper.address)) - keeperBefore).to.equal(64_000n);
      await expect(options.fixSettlementPrice(1n))
        .to.be.revertedWithCustomError(options, "OptionsAlreadyDone")
        .withArgs(1n, 0n);
      expect(await options.seriesStatus(1n)).to.equal(3n); // Disputable
      await expect(options.exercise(1n, fx.alice.address)).to.be.revertedWithCustomError(
        options,
        "OptionsSettlementNotFinal",
      );
      await expect(options.connect(fx.alice).correctSettlementPrice(1n, 7n * WAD)).to.be.revertedWithCustomError(
        options,
        "AccessManagedUnauthorized",
      );
      await expect(options.connect(fx.guardian).correctSettlementPrice(1n, 7n * WAD))
        .to.emit(options, "SettlementPriceCorrected")
        .withArgs(1n, (13n * WAD) / 2n, 7n * WAD, WAD, fx.guardian.address, anyUint());
      await fx.connection.networkHelpers.time.increase(3_600);
      await expect(options.connect(fx.guardian).correctSettlementPrice(1n, 6n * WAD)).to.be.revertedWithCustomError(
        options,
        "OptionsNotDisputable",
      );
      expect(await options.seriesStatus(1n)).to.equal(4n); // Final
      const aliceBefore = await clearingHouse.collateralOf(fx.alice.address);
      const carolBefore = await clearingHouse.collateralOf(fx.carol.address);
      await expect(options.exercise(1n, fx.alice.address))
        .to.emit(options, "PositionSettled")
        .withArgs(1n, fx.alice.address, 40n * CH, 0n, 40n * USDC, 0n, 0n, 40n * USDC, 0n);
      expect((await clearingHouse.collateralOf(fx.alice.address)) - aliceBefore).to.equal(40n * USDC);
      // the keeper pages the rest: Carol's 320 − 40 = 280 released, minus the 0.5 USDC bounty
      await expect(options.connect(fx.keeper).settleSeries(1n, 10n))
        .to.emit(options, "PositionSettled")
        .withArgs(1n, fx.carol.address, 0n, 40n * CH, 0n, 280n * USDC, 500_000n, 40n * USDC, 280n * USDC)
        .and.to.emit(options, "SettlementProgressed")
        .withArgs(1n, 2n, 0n, 2n, true)
        .and.to.emit(options, "KeeperPaid")
        .withArgs(fx.keeper.address, 1n, 500_000n);
      expect((await clearingHouse.collateralOf(fx.carol.address)) - carolBefore).to.equal(280n * USDC - 500_000n);
      const s = await options.series(1n);
      expect(s.paidUsdc + s.releasedUsdc).to.equal(s.postedUsdc); // MKT-07: nothing paid beyond collateral
      expect(await options.seriesStatus(1n)).to.equal(5n); // Settled
      expect(await options.pendingSeries()).to.deep.equal([]);
      await expect(options.settleSeries(1n, 10n))
        .to.be.revertedWithCustomError(options, "OptionsAlreadyDone")
        .withArgs(1n, 1n);
      const [, poolUsdc] = await clearingHouse.marketInfo(fx.market);
      expect(poolUsdc).to.equal(0n);
    });

    it("out of the money every writer gets all collateral back and holders nothing", async function () {
      const { options, clearingHouse } = fx.protocol;
      await carolSellsAlicePuts();
      await toFinal(fx, expiry, 9n * WAD);
      await options.fixSettlementPrice(1n);
      await fx.connection.networkHelpers.time.increase(3_600);
      const carolBefore = await clearingHouse.collateralOf(fx.carol.address);
      await options.connect(fx.keeper).settleSeries(1n, 100n);
      expect((await clearingHouse.collateralOf(fx.carol.address)) - carolBefore).to.equal(320n * USDC - 500_000n);
      expect((await options.positionOf(1n, fx.alice.address)).longCh).to.equal(0n);
    });

    it("a capped call pays at most its cap (strike 12, cap 6, index 20 → 6 per CH)", async function () {
      const { options, clearingHouse } = fx.protocol;
      await list(fx, OptionKind.Call, 12n * WAD, 6n * WAD, expiry);
      await options.connect(fx.carol).write(1n, 10n * CH);
      await options.connect(fx.carol).transferLong(1n, fx.alice.address, 10n * CH);
      await toFinal(fx, expiry, 20n * WAD);
      await options.fixSettlementPrice(1n);
      await fx.connection.networkHelpers.time.increase(3_600);
      const aliceBefore = await clearingHouse.collateralOf(fx.alice.address);
      await options.exercise(1n, fx.alice.address);
      await options.exercise(1n, fx.carol.address);
      expect((await clearingHouse.collateralOf(fx.alice.address)) - aliceBefore).to.equal(60n * USDC);
      const s = await options.series(1n);
      expect(s.paidUsdc).to.equal(60n * USDC);
      expect(s.releasedUsdc).to.equal(0n);
    });

    it("keeper interface: checker proposes fix then settle; performUpkeep re-validates; a racing keeper gets AlreadyDone", async function () {
      const { options } = fx.protocol;
      await carolSellsAlicePuts();
      expect(await options.checker()).to.deep.equal([false, "0x"]);
      await toFinal(fx, expiry, 7n * WAD);
      let [canExec, payload] = await options.checker();
      expect(canExec).to.equal(true);
      expect(payload).to.equal(options.interface.encodeFunctionData("fixSettlementPrice", [1n]));
      await options.connect(fx.keeper).performUpkeep(payload);
      await expect(options.performUpkeep(payload))
        .to.be.revertedWithCustomError(options, "OptionsAlreadyDone")
        .withArgs(1n, 0n);
      expect(await options.checker()).to.deep.equal([false, "0x"]); // dispute window
      await fx.connection.networkHelpers.time.increase(3_600);
      [canExec, payload] = await options.checker();
      expect(payload).to.equal(options.interface.encodeFunctionData("settleSeries", [1n, 100n]));
      const [needed, performData] = await options.checkUpkeep.staticCall("0x");
      expect(needed).to.equal(true);
      expect(performData).to.equal(payload);
      await options.connect(fx.keeper).performUpkeep(performData);
      await expect(options.performUpkeep(performData)).to.be.revertedWithCustomError(options, "OptionsAlreadyDone");
      await expect(options.performUpkeep("0x12345678")).to.be.revertedWithCustomError(options, "OptionsInvalidUpkeep");
    });
  });

  describe("governance", function () {
    it("setParams checks bounds and roles; fees are withdrawn to the fee recipient", async function () {
      const { options, usdc } = fx.protocol;
      const params = await currentParams(fx);
      await expect(options.setParams({ ...params, makerFeeBps: 301 }))
        .to.be.revertedWithCustomError(options, "OptionsInvalidParam")
        .withArgs("makerFeeBps", 301n);
      await expect(options.connect(fx.alice).setParams(params)).to.be.revertedWithCustomError(
        options,
        "AccessManagedUnauthorized",
      );
      await expect(options.setParams(params)).to.emit(options, "ParamsSet");
      await expect(options.connect(fx.alice).setFuturesMarket(fx.alice.address)).to.be.revertedWithCustomError(
        options,
        "AccessManagedUnauthorized",
      );
      await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
      const { offer, sig } = await signed(fx, fx.carol);
      await options.connect(fx.alice).fillOffer(offer, sig, 40n * CH);
      const [, , , recipient] = await options.modules();
      const before = await usdc.balanceOf(recipient);
      await expect(options.connect(fx.keeper).withdrawFees())
        .to.emit(options, "FeesWithdrawn")
        .withArgs(recipient, 64_000n);
      expect((await usdc.balanceOf(recipient)) - before).to.equal(64_000n);
      expect(await options.withdrawFees.staticCall()).to.equal(0n);
    });
  });
});

function anyUint() {
  return (v: unknown) => typeof v === "bigint";
}
