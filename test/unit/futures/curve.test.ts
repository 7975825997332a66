/**
 * The listed curve and the roll through the deploy script (issue 19 item 2): anyone lists standard monthly series
 * ahead and options on them (OptionsMarket.listStandardFuturesSeries), and a trader rolls a leg into the next month
 * in one call. The mechanics and the attacks are in test/unit/FuturesCurve.t.sol and test/unit/FuturesRoll.t.sol.
 */
import { expect } from "chai";
import { connectionFor } from "../../helpers/fixture.js";
import { loadFutures, trade, wad, type FuturesFixture } from "./helpers.js";
import { ZeroAddress } from "ethers";
import { signFuturesOrder } from "@chx/sdk";

const MONTHLY = 2;
const PUT = 1;

/** The first of the month after `t` (a first of a month, 00:00 UTC), unix seconds. */
function nextMonth(t: bigint): bigint {
  const d = new Date(Number(t) * 1000);
  return BigInt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000);
}

describe("FuturesMarket: the listed curve and roll (through the deploy script)", function () {
  let fx: FuturesFixture;

  beforeEach(async function () {
    const connection = await connectionFor("futures");
    fx = await loadFutures(connection);
  });

  it("anyone lists monthly series ahead and puts on them; options on a governance series stay governance's", async function () {
    const { futures, options } = fx.protocol;
    const [alice] = fx.traders;
    const m1 = await futures.nextStandardExpiry(MONTHLY);
    const m2 = nextMonth(m1);
    await expect(futures.connect(alice!).listStandardSeriesAt(MONTHLY, m2)).to.emit(futures, "SeriesListed");
    const m2Id = 2n;
    expect(await futures.isStandardSeries(m2Id)).to.equal(true);
    expect(await futures.isStandardSeries(fx.seriesId)).to.equal(false);
    // an option expiring at 08:00 UTC on the day before the futures expiry, struck at the index
    const optionExpiry = m2 - 16n * 3_600n;
    await expect(options.connect(alice!).listStandardFuturesSeries(PUT, wad("10"), optionExpiry, m2Id))
      .to.emit(options, "SeriesListed")
      .withArgs(1n, PUT, true, m2Id, optionExpiry, wad("10"), wad("10"), alice!.address, 1n);
    // the governance-listed futures series is not standard
    await expect(
      options.connect(alice!).listStandardFuturesSeries(PUT, wad("10"), optionExpiry, fx.seriesId),
    ).to.be.revertedWithCustomError(options, "OptionsInvalidFuturesSeries");
    // an option expiring after its futures series
    await expect(
      options.connect(alice!).listStandardFuturesSeries(PUT, wad("10"), m2 + 8n * 3_600n, m2Id),
    ).to.be.revertedWithCustomError(options, "OptionsInvalidFuturesSeries");
  });

  it("options on a standard series: strikes on the futures grid (0.05) centred on its forward, not the index; attacks refused", async function () {
    const { futures, options } = fx.protocol;
    const [alice, bob] = fx.traders;
    const m1 = await futures.nextStandardExpiry(MONTHLY);
    const m2 = nextMonth(m1);
    await (await futures.connect(alice!).listStandardSeriesAt(MONTHLY, m2)).wait();
    const m2Id = 2n;
    // the month trades at 12 between traders (the index is 10): its curve point is the forward
    const now = BigInt((await fx.connection.ethers.provider.getBlock("latest"))!.timestamp);
    const order = {
      maker: alice!.address,
      seriesId: m2Id,
      isBuy: false,
      sizeCh: wad("10"),
      priceWad: wad("12"),
      nonce: 1n,
      expiry: now + 3_600n,
      taker: ZeroAddress,
    };
    const { chainId } = await fx.connection.ethers.provider.getNetwork();
    const domain = { name: "CHX Futures", version: "1", chainId, verifyingContract: await futures.getAddress() };
    const sig = await signFuturesOrder(alice!, domain, order);
    await (await futures.connect(bob!).fillOrder(order, sig, wad("10"))).wait();
    expect((await futures.curvePoint(m2Id)).priceWad).to.equal(wad("12"));
    const optionExpiry = m2 - 16n * 3_600n;
    const o = options.connect(bob!);
    // 17.5 is within 50 % of the forward (12) but not of the index (10): listable on the futures, not on the index
    await expect(o.listStandardFuturesSeries(PUT, wad("17.5"), optionExpiry, m2Id)).to.emit(options, "SeriesListed");
    await expect(o.listStandardSeries(PUT, wad("17.5"), optionExpiry - 86_400n))
      .to.be.revertedWithCustomError(options, "OptionsStrikeNotListable")
      .withArgs(wad("17.5"), wad("10"), wad("0.5"));
    // the futures grid step is 0.05 (the index grid's 0.5 / 10): 11.95 lists, 11.97 is off the grid
    await expect(o.listStandardFuturesSeries(PUT, wad("11.95"), optionExpiry, m2Id)).to.emit(options, "SeriesListed");
    await expect(o.listStandardFuturesSeries(PUT, wad("11.97"), optionExpiry, m2Id))
      .to.be.revertedWithCustomError(options, "OptionsStrikeNotListable")
      .withArgs(wad("11.97"), wad("12"), wad("0.05"));
    // outside the ±50 % band around the forward
    await expect(o.listStandardFuturesSeries(PUT, wad("5.95"), optionExpiry, m2Id))
      .to.be.revertedWithCustomError(options, "OptionsStrikeNotListable")
      .withArgs(wad("5.95"), wad("12"), wad("0.05"));
    // the same series twice
    await expect(o.listStandardFuturesSeries(PUT, wad("11.95"), optionExpiry, m2Id)).to.be.revertedWithCustomError(
      options,
      "OptionsSeriesExists",
    );
    // a futures series never listed
    await expect(o.listStandardFuturesSeries(PUT, wad("12"), optionExpiry, 99n))
      .to.be.revertedWithCustomError(options, "OptionsInvalidFuturesSeries")
      .withArgs(99n, 0n, optionExpiry);
    // a futures series that stops trading before the option can be exercised (fix + dispute window)
    const q = await options.params();
    const params = {
      makerFeeBps: q.makerFeeBps,
      takerFeeBps: q.takerFeeBps,
      disputeWindowSec: q.disputeWindowSec,
      expiryGridSec: q.expiryGridSec,
      expiryOffsetSec: q.expiryOffsetSec,
      minTimeToExpirySec: q.minTimeToExpirySec,
      maxHorizonSec: q.maxHorizonSec,
      maxStrikeDeviationBps: q.maxStrikeDeviationBps,
      callCapBps: q.callCapBps,
      maxLiveSeries: q.maxLiveSeries,
      bountyUsdc: q.bountyUsdc,
      strikeStepWad: q.strikeStepWad,
      maxCorrectionBps: q.maxCorrectionBps,
      listingBondPerDayUsdc: q.listingBondPerDayUsdc,
    };
    await (await options.setParams({ ...params, disputeWindowSec: 17 * 3_600 })).wait();
    await expect(o.listStandardFuturesSeries(PUT, wad("12"), optionExpiry, m2Id))
      .to.be.revertedWithCustomError(options, "OptionsInvalidFuturesSeries")
      .withArgs(m2Id, m2, optionExpiry);
    await (await options.setParams(params)).wait();
    // an expired futures series
    const m1Id = 1n + m2Id; // listed below
    await (await futures.connect(alice!).listStandardSeriesAt(MONTHLY, m1)).wait();
    await fx.connection.networkHelpers.time.increaseTo(m1 + 1n);
    await expect(o.listStandardFuturesSeries(PUT, wad("10"), m1 + 8n * 3_600n, m1Id))
      .to.be.revertedWithCustomError(options, "OptionsInvalidFuturesSeries")
      .withArgs(m1Id, m1, m1 + 8n * 3_600n);
  });

  it("rolls a long into the next month in one call: two fills, one PositionRolled, the net position unchanged", async function () {
    const { futures, clearingHouse } = fx.protocol;
    const [alice] = fx.traders;
    await (await trade(fx, alice!, fx.seriesId, wad("100"))).wait();
    const m1 = await futures.nextStandardExpiry(MONTHLY);
    const far = nextMonth(nextMonth(m1));
    await (await futures.connect(alice!).listStandardSeriesAt(MONTHLY, far)).wait();
    const net = (await clearingHouse.positionOf(alice!.address, await futures.getAddress())).sizeCh;
    await expect(futures.connect(alice!).roll(fx.seriesId, 2n, wad("60")))
      .to.emit(futures, "PositionRolled")
      .and.to.emit(futures, "FuturesTraded");
    expect((await futures.positionOf(fx.seriesId, alice!.address)).sizeCh).to.equal(wad("40"));
    expect((await futures.positionOf(2n, alice!.address)).sizeCh).to.equal(wad("60"));
    expect((await clearingHouse.positionOf(alice!.address, await futures.getAddress())).sizeCh).to.equal(net);
    await expect(futures.connect(alice!).roll(fx.seriesId, 2n, wad("41")))
      .to.be.revertedWithCustomError(futures, "FuturesRollExceedsPosition")
      .withArgs(fx.seriesId, alice!.address, wad("41"), wad("40"));
  });
});
