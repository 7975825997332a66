/**
 * The listed curve and the roll through the deploy script (issue 19 item 2): anyone lists standard monthly series
 * ahead and options on them (OptionsMarket.listStandardFuturesSeries), and a trader rolls a leg into the next month
 * in one call. The mechanics and the attacks are in test/unit/FuturesCurve.t.sol and test/unit/FuturesRoll.t.sol.
 */
import { expect } from "chai";
import { connectionFor } from "../../helpers/fixture.js";
import { loadFutures, trade, wad, type FuturesFixture } from "./helpers.js";

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
