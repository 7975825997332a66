import { expect } from "chai";
import type { NetworkConnection } from "hardhat/types/network";
import { connectionFor } from "../../helpers/fixture.js";
import { loadFutures, wad, type FuturesFixture } from "./helpers.js";
import { settlementHints } from "../../../tasks/actions/futures/common.js";

const HOUR = 3_600n;
const DAY_S = 86_400n;

/**
 * The settlement TWAP against the real ComputePriceOracle and its Chainlink-style feed (issue 19 item 2,
 * docs/futures.md "Settlement TWAP"): the hour before expiry time-weighted, a late fixing after the oracle's round
 * look-back with hints read from the feed (the `chx:futures:settle` path), and a stale round inside the window.
 */
describe("FuturesMarket: settlement price from the index TWAP (real oracle)", function () {
  let fx: FuturesFixture;
  let connection: NetworkConnection;

  beforeEach(async function () {
    connection = await connectionFor("futures");
    fx = await loadFutures(connection);
  });

  /** Moves to `t`; with a price, publishes it in a block at exactly `t`. */
  async function at(t: bigint, price?: string): Promise<void> {
    if (price === undefined) return connection.networkHelpers.time.increaseTo(t);
    await connection.networkHelpers.time.setNextBlockTimestamp(t);
    await (await fx.price.setPrice(wad(price))).wait();
  }

  it("weights each round by its seconds in the hour before expiry; a late fix with feed hints gives the same price", async function () {
    const start = fx.expiry - HOUR;
    await at(start - 600n, "10");
    await at(start + 900n, "14"); // 10 for 15 min, 14 for 45 min
    await at(fx.expiry + 60n, "40"); // after the window: not read
    const expected = (wad("10") * 900n + wad("14") * 2_700n) / HOUR;
    const [first, changes] = await fx.protocol.futures.settlementTwapHints(fx.seriesId);
    expect(changes).to.deep.equal([start + 900n]);
    expect(await fx.protocol.futures.fixSettlementPriceAt.staticCall(fx.seriesId, first, [...changes])).to.equal(
      expected,
    );
    // 40 more rounds later the oracle's look-back (32) no longer reaches the window
    for (let i = 0; i < 40; i++) await at(fx.expiry + 120n + BigInt(i) * 60n, "50");
    const [none] = await fx.protocol.futures.settlementTwapHints(fx.seriesId);
    expect(none).to.equal(0n);
    await expect(fx.protocol.futures.fixSettlementPrice(fx.seriesId))
      .to.be.revertedWithCustomError(fx.protocol.futures, "FuturesTwapHintsUnavailable")
      .withArgs(fx.seriesId);
    const hints = await settlementHints(fx.protocol, fx.protocol.futures, fx.seriesId, fx.expiry);
    expect(hints.first).to.equal(first);
    expect(hints.changes).to.deep.equal([start + 900n]);
    await expect(fx.protocol.futures.fixSettlementPriceAt(fx.seriesId, hints.first, hints.changes))
      .to.emit(fx.protocol.futures, "SettlementTwap")
      .withArgs(fx.seriesId, start, fx.expiry, first, 2n, expected);
    expect((await fx.protocol.futures.seriesInfo(fx.seriesId)).settlementPriceWad).to.equal(expected);
  });

  it("a stale round inside the window (older than the feed heartbeat) reverts OracleStalePrice", async function () {
    await at(fx.expiry - 2n * DAY_S, "10"); // no round after this one until expiry
    await at(fx.expiry + 60n);
    const [first, changes] = await fx.protocol.futures.settlementTwapHints(fx.seriesId);
    await expect(
      fx.protocol.futures.fixSettlementPriceAt(fx.seriesId, first, [...changes]),
    ).to.be.revertedWithCustomError(fx.protocol.oracle, "OracleStalePrice");
    await expect(fx.protocol.futures.fixSettlementPrice(fx.seriesId)).to.be.revertedWithCustomError(
      fx.protocol.oracle,
      "OracleStalePrice",
    );
  });
});
