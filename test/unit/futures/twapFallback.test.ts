import { expect } from "chai";
import type { NetworkConnection } from "hardhat/types/network";
import { connectionFor } from "../../helpers/fixture.js";
import { loadFutures, wad, type FuturesFixture } from "./helpers.js";

const HOUR = 3_600n;
const DAY_S = 86_400n;
/** FuturesFixing.FALLBACK_DELAY_SEC and FALLBACK_MAX_LAG_SEC. */
const DELAY = 6n * HOUR;
const MAX_LAG = DAY_S;

/**
 * The stale-window fallback of the settlement fixing (docs/futures.md "Stale window fallback"; the liveness residual
 * of docs/known-issues.md it closes) against the real ComputePriceOracle (heartbeat one day): a window holding a stale
 * round is fixed, after FALLBACK_DELAY_SEC, at the first round published at or after expiry. Attacks: a keeper naming
 * another round (the rule leaves one), fixing before the delay, a fresh window (the TWAP must be used), a stale proof
 * outside the window, a first round after the bound.
 */
describe("FuturesMarket: settlement fallback when the TWAP window is stale (real oracle)", function () {
  let fx: FuturesFixture;
  let connection: NetworkConnection;

  beforeEach(async function () {
    connection = await connectionFor("futures");
    fx = await loadFutures(connection);
  });

  /** Moves to `t`; with a price, publishes it in a block at exactly `t`; returns the round in force at `t`. */
  async function at(t: bigint, price?: string): Promise<bigint> {
    if (price === undefined) {
      await connection.networkHelpers.time.increaseTo(t);
      return 0n;
    }
    await connection.networkHelpers.time.setNextBlockTimestamp(t);
    await (await fx.price.setPrice(wad(price))).wait();
    return fx.protocol.oracle.roundAt(t);
  }

  /** A stale window: the last round before expiry is two days old; rounds 13 and 20 after expiry. */
  async function staleWindow(): Promise<{ stale: bigint; first: bigint; second: bigint }> {
    const stale = await at(fx.expiry - 2n * DAY_S, "10");
    const first = await at(fx.expiry + 600n, "13");
    const second = await at(fx.expiry + 1_200n, "20");
    return { stale, first, second };
  }

  it("fixes a stale window at the first round after expiry, once the delay passed, with SettlementFallback", async function () {
    const { stale, first } = await staleWindow();
    const f = fx.protocol.futures;
    const id = fx.seriesId;
    await expect(f.fixSettlementPrice(id)).to.be.revertedWithCustomError(fx.protocol.oracle, "OracleStalePrice");
    // fixing before the delay: refused, and the checker proposes nothing yet
    await at(fx.expiry + DELAY - 2n);
    await expect(f.fixSettlementPriceFallback(id, stale, fx.expiry - 1n, first, fx.expiry + 600n))
      .to.be.revertedWithCustomError(f, "FuturesFallbackNotDue")
      .withArgs(id, fx.expiry + DELAY);
    expect((await f.checker())[0]).to.equal(false);
    await at(fx.expiry + DELAY);
    const [can, payload] = await f.checker();
    expect(can).to.equal(true);
    expect(payload).to.equal(
      f.interface.encodeFunctionData("fixSettlementPriceFallback", [
        id,
        stale,
        fx.expiry - 1n,
        first,
        fx.expiry + 600n,
      ]),
    );
    const keeper = fx.traders[5]!;
    await expect(f.connect(keeper).performUpkeep(payload))
      .to.emit(f, "SettlementFallback")
      .withArgs(id, stale, fx.expiry - 1n, first, wad("13"))
      .and.to.emit(f, "SettlementPriceProposed");
    // MKT-04: a window the TWAP cannot price still ends with one settlement price every position settles at
    expect((await f.seriesInfo(id)).settlementPriceWad).to.equal(wad("13"));
    // fixed once: neither rule runs again
    await expect(f.fixSettlementPriceFallback(id, stale, fx.expiry - 1n, first, fx.expiry + 600n))
      .to.be.revertedWithCustomError(f, "FuturesAlreadyDone")
      .withArgs(id, "0x0000000000000000000000000000000000000000");
  });

  it("a keeper choosing among rounds: only the first round after expiry passes, at any time it is in force", async function () {
    const { stale, first, second } = await staleWindow();
    const f = fx.protocol.futures;
    const id = fx.seriesId;
    await at(fx.expiry + DELAY);
    // the later round (20), the stale round before expiry (10): refused
    await expect(f.fixSettlementPriceFallback(id, stale, fx.expiry - 1n, second, fx.expiry + 1_200n))
      .to.be.revertedWithCustomError(f, "FuturesFallbackRound")
      .withArgs(id, second, fx.expiry + 1_200n);
    await expect(f.fixSettlementPriceFallback(id, stale, fx.expiry - 1n, stale, fx.expiry - 1n))
      .to.be.revertedWithCustomError(f, "FuturesFallbackRound")
      .withArgs(id, stale, fx.expiry - 1n);
    // the first round named at a time the second is in force: the oracle refuses it
    await expect(
      f.fixSettlementPriceFallback(id, stale, fx.expiry - 1n, first, fx.expiry + 1_200n),
    ).to.be.revertedWithCustomError(fx.protocol.oracle, "OracleRoundNotInForce");
    // another proof of staleness or another time of the first round: the same price
    const a = await f.fixSettlementPriceFallback.staticCall(id, stale, fx.expiry - HOUR, first, fx.expiry + 600n);
    const b = await f.fixSettlementPriceFallback.staticCall(id, stale, fx.expiry - 1n, first, fx.expiry + 1_199n);
    expect(a).to.equal(wad("13"));
    expect(b).to.equal(wad("13"));
  });

  it("a fresh window refuses the fallback (the TWAP fixes it); a stale proof outside the window is refused", async function () {
    const f = fx.protocol.futures;
    const id = fx.seriesId;
    const old = await at(fx.expiry - 2n * DAY_S, "10");
    const fresh = await at(fx.expiry - 2n * HOUR, "11"); // in force over the whole window, 2 h old at its end
    const first = await at(fx.expiry + 600n, "13");
    await at(fx.expiry + DELAY);
    await expect(f.fixSettlementPriceFallback(id, fresh, fx.expiry - 1n, first, fx.expiry + 600n))
      .to.be.revertedWithCustomError(f, "FuturesFallbackNotStale")
      .withArgs(id, fresh, fx.expiry - 1n);
    // the old round was stale, but before the window
    const before = fx.expiry - 2n * HOUR - 1n;
    await expect(f.fixSettlementPriceFallback(id, old, before, first, fx.expiry + 600n))
      .to.be.revertedWithCustomError(f, "FuturesFallbackNotStale")
      .withArgs(id, old, before);
    const [, payload] = await f.checker();
    expect(f.interface.parseTransaction({ data: payload })!.name).to.equal("fixSettlementPriceAt");
    expect(await f.fixSettlementPrice.staticCall(id)).to.equal(wad("11"));
  });

  it("a first round after expiry published later than the bound cannot fix the series", async function () {
    const f = fx.protocol.futures;
    const id = fx.seriesId;
    const stale = await at(fx.expiry - 2n * DAY_S, "10");
    const late = await at(fx.expiry + MAX_LAG + 1n, "30");
    await at(fx.expiry + MAX_LAG + 60n);
    await expect(f.fixSettlementPriceFallback(id, stale, fx.expiry - 1n, late, fx.expiry + MAX_LAG + 1n))
      .to.be.revertedWithCustomError(f, "FuturesFallbackRound")
      .withArgs(id, late, fx.expiry + MAX_LAG + 1n);
    expect((await f.checker())[0]).to.equal(false);
    expect((await f.seriesInfo(id)).finalAt).to.equal(0n);
  });
});
