/**
 * The seed's cast (seed 000 §10.3–10.4) on the futures curve, through the deploy script (issue 19 item 4): Alice
 * (an AI startup) needs 500 TFLOP-hours a month from six months out, then 1,000 a month; she converts her schedule
 * into CH through ComputeStandard (one CH is one hour of the class's reference system) and hedges it with twelve
 * monthly standard series (`listStandardSeriesAt`), which Bob (a datacenter selling his capacity forward) sells her.
 * In her first month she takes delivery: her CH becomes a delivery order (MKT-05, MKT-08). Bob buys puts on his
 * futures (`OptionsMarket.listStandardFuturesSeries`); Carol sells a strangle struck at the futures price (put and
 * call both at it, the straddle limit of a strangle) and buys a lower-strike put as her floor. Exercise of a futures
 * option opens the futures at the strike, the difference to the index settled in cash at once (docs/options.md).
 */
import { expect } from "chai";
import type { NetworkConnection } from "hardhat/types/network";
import { connectionFor } from "../../helpers/fixture.js";
import { loadFutures, jumpTo, jumpToExpiry, trade, usdc, wad, type FuturesFixture } from "./helpers.js";
import { DeliveryOrders__factory } from "../../../types/ethers-contracts/index.js";
import { domainOf, optionFillQuote, signOffer, type OptionsOffer } from "@chx/sdk";

const MONTHLY = 2;
const ML = 1; // workload class of the reference system
const HOUR = 3_600n;

/** The first of the month after `t` (00:00 UTC), unix seconds. */
function nextMonth(t: bigint): bigint {
  const d = new Date(Number(t) * 1000);
  return BigInt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000);
}

describe("FuturesMarket: the seed's cast on the curve (Alice, Bob and Carol hedge with futures and options on them)", function () {
  let fx: FuturesFixture;
  let connection: NetworkConnection;

  beforeEach(async function () {
    connection = await connectionFor("futures");
    fx = await loadFutures(connection);
  });

  it("Alice converts 500 then 1,000 TFLOP-hours a month into CH, buys twelve monthly series from Bob and takes delivery of the first", async function () {
    const p = fx.protocol;
    const [alice, bob] = fx.traders;
    // ComputeStandard: one CH = one hour of the reference system (refPflops PFLOPS) = refPflops × 1,000 TFLOP-hours
    const ref = (await p.computeStandard.referenceSystem(ML, await p.computeStandard.latestVersion(ML))).refPflopsWad;
    const chFor = (tflopHours: bigint) => (tflopHours * wad("1") * wad("1") + ref * 1000n - 1n) / (ref * 1000n); // up
    expect(ref).to.equal(wad("0.312"));
    const ch500 = chFor(500n);
    const ch1000 = chFor(1_000n);
    expect(ch500).to.equal(1_602_564_102_564_102_565n); // 500 / 312 CH, rounded up: she never hedges short
    expect(ch1000).to.equal(3_205_128_205_128_205_129n);
    // her first need is six months out: twelve consecutive monthly expiries from there (500 × 6, then 1,000 × 6)
    let expiry = await p.futures.nextStandardExpiry(MONTHLY);
    for (let i = 0; i < 5; i++) expiry = nextMonth(expiry);
    const ids: bigint[] = [];
    const expiries: bigint[] = [];
    const sizes = Array.from({ length: 12 }, (_, m) => (m < 6 ? ch500 : ch1000));
    /** Lists the next months of her schedule the listing horizon (about a year) allows, and Bob sells them to her. */
    async function hedgeWhatIsListable() {
      while (ids.length < 12) {
        const f = p.futures.connect(alice!);
        let id: bigint;
        try {
          id = await f.listStandardSeriesAt.staticCall(MONTHLY, expiry);
        } catch {
          return; // beyond the horizon: listed once time has passed
        }
        await (await f.listStandardSeriesAt(MONTHLY, expiry)).wait();
        const m = ids.length;
        ids.push(id);
        expiries.push(expiry);
        expiry = nextMonth(expiry);
        await (await trade(fx, alice!, id, sizes[m]!, 0)).wait();
        await (await trade(fx, bob!, id, -sizes[m]!, 0)).wait();
      }
    }
    await hedgeWhatIsListable();
    expect(ids.length).to.be.gte(6).and.lt(12); // her first six months now, the rest as the horizon moves
    const listedNow = ids.length;
    const futuresAddr = await p.futures.getAddress();
    const netOf = async (who: string) => (await p.clearingHouse.positionOf(who, futuresAddr)).sizeCh;
    const sum = (n: number) => sizes.slice(0, n).reduce((a, b) => a + b, 0n);
    // the ClearingHouse nets her legs
    expect(await netOf(alice!.address)).to.equal(sum(listedNow));
    expect(await netOf(bob!.address)).to.equal(-sum(listedNow));

    // month 1: Alice elects delivery of her 500 TFLOP-hours, Bob escrows the CH his datacenter produced
    await (await p.futures.connect(alice!).electDelivery(ids[0]!, ch500)).wait();
    await (await p.futures.connect(bob!).deliver(ids[0]!, ch500)).wait();
    const keeper = fx.users[9]!;
    await jumpToExpiry(connection, fx, expiries[0]!, wad("12"));
    await (await p.futures.connect(keeper).fixSettlementPrice(ids[0]!)).wait();
    await jumpTo(connection, fx, expiries[0]! + 2n * HOUR, wad("12"));
    await (await p.futures.connect(keeper).finalizeSettlement(ids[0]!)).wait();
    await (await p.futures.connect(bob!).settlePosition(ids[0]!, bob!.address)).wait();
    const orders = DeliveryOrders__factory.connect(fx.ctx.address("DeliveryOrders"), connection.ethers.provider);
    const chBefore = await p.ch.balanceOf(alice!.address);
    // the lazy hand-over (issue 19 item 6): settlement leaves her CH in the market as her claim
    await expect(p.futures.connect(alice!).settlePosition(ids[0]!, alice!.address)).not.to.emit(
      orders,
      "DeliveryOrderCreated",
    );
    // her first month is compute held for her, metered back in PFLOP-hours: 500 TFLOP-hours (rounded up to a CH wei)
    const oid = await orders.orderId(ids[0]!, alice!.address);
    const o = await orders.order(oid);
    expect(o.owner).to.equal(alice!.address);
    expect(o.availableCh).to.equal(ch500);
    expect(await p.ch.balanceOf(alice!.address)).to.equal(chBefore, "an order, not tokens");
    const [pflopHours] = await orders.meter(oid);
    expect(pflopHours).to.equal((ch500 * ref) / wad("1"));
    expect(pflopHours)
      .to.be.gte(wad("0.5"))
      .and.lt(wad("0.5") + 1_000n);
    // MKT-05: delivered = received
    const s = await p.futures.seriesInfo(ids[0]!);
    expect([s.openPositions, s.deliveredCh, s.receivedCh]).to.deep.equal([0n, ch500, ch500]);
    // six months on, the horizon has moved: she lists and buys the rest of her twelve months
    await hedgeWhatIsListable();
    expect(ids.length).to.equal(12);
    for (let m = 0; m < 12; m++) {
      expect((await p.futures.positionOf(ids[m]!, alice!.address)).sizeCh).to.equal(m === 0 ? 0n : sizes[m]);
    }
    // the ClearingHouse nets her eleven open months: 5 × 500 + 6 × 1,000 TFLOP-hours of CH
    expect(await netOf(alice!.address)).to.equal(5n * ch500 + 6n * ch1000);
    expect(await netOf(bob!.address)).to.equal(-(5n * ch500 + 6n * ch1000));
  });

  it("Bob sells his month forward and buys puts on those futures from Carol; the index falls to 8 and exercise makes him short at 10", async function () {
    const p = fx.protocol;
    const [alice, bob, carol] = fx.traders;
    const futuresAddr = await p.futures.getAddress();
    const m1 = await p.futures.nextStandardExpiry(MONTHLY);
    const month = await p.futures.connect(bob!).listStandardSeriesAt.staticCall(MONTHLY, m1);
    await (await p.futures.connect(bob!).listStandardSeriesAt(MONTHLY, m1)).wait();
    await (await trade(fx, alice!, month, wad("100"), 0)).wait();
    await (await trade(fx, bob!, month, -wad("100"), 0)).wait();
    // a put on his futures, struck at 10, expiring at 08:00 UTC the day before the futures
    const optionExpiry = m1 - 16n * HOUR;
    const put = await p.options.connect(bob!).listStandardFuturesSeries.staticCall(1, wad("10"), optionExpiry, month);
    await (await p.options.connect(bob!).listStandardFuturesSeries(1, wad("10"), optionExpiry, month)).wait();
    const domain = await domainOf(connection.ethers.provider, "OptionsMarket", await p.options.getAddress());
    const offer: OptionsOffer = {
      maker: carol!.address,
      seriesId: put,
      isBuy: false,
      sizeCh: wad("100"),
      premiumWad: wad("0.5"),
      nonce: 1n,
      expiry: 2n ** 40n,
      taker: "0x0000000000000000000000000000000000000000",
    };
    await (await p.options.connect(bob!).fillOffer(offer, await signOffer(carol!, domain, offer), wad("100"))).wait();
    const bob0 = await p.clearingHouse.collateralOf(bob!.address);
    await jumpTo(connection, fx, optionExpiry, wad("8"));
    await (await p.options.fixSettlementPrice(put)).wait();
    await jumpTo(connection, fx, optionExpiry + 2n * HOUR, wad("8"));
    await (await p.options.exercise(put, bob!.address)).wait();
    // exercise opened the futures at the strike: Bob (holder) short 100 more at 10, Carol (writer) long 100
    expect((await p.futures.positionOf(month, bob!.address)).sizeCh).to.equal(-wad("200"));
    expect((await p.futures.positionOf(month, carol!.address)).sizeCh).to.equal(wad("100"));
    expect((await p.clearingHouse.positionOf(bob!.address, futuresAddr)).sizeCh).to.equal(-wad("200"));
    // opening at 10 with the index at 8 pays him the 2 USDC per CH difference in cash at once
    expect((await p.clearingHouse.collateralOf(bob!.address)) - bob0).to.equal(wad("200") / 10n ** 12n);
  });

  it("Carol sells a strangle struck at the futures price and buys a lower-strike put; the index falls to 6 and her loss stops at the lower strike", async function () {
    const p = fx.protocol;
    const [alice, bob, carol, dave] = fx.traders;
    const futuresAddr = await p.futures.getAddress();
    const m1 = await p.futures.nextStandardExpiry(MONTHLY);
    const month = await p.futures.connect(carol!).listStandardSeriesAt.staticCall(MONTHLY, m1);
    await (await p.futures.connect(carol!).listStandardSeriesAt(MONTHLY, m1)).wait();
    const optionExpiry = m1 - 16n * HOUR;
    const listed: bigint[] = [];
    for (const [kind, strike] of [
      [1, wad("10")], // put at the futures price (10: the index, the month has no skew yet)
      [0, wad("10")], // call at the futures price
      [1, wad("8")], // her lower-strike put
    ] as const) {
      const f = p.options.connect(carol!);
      listed.push(await f.listStandardFuturesSeries.staticCall(kind, strike, optionExpiry, month));
      await (await f.listStandardFuturesSeries(kind, strike, optionExpiry, month)).wait();
    }
    const [put10, call10, put8] = listed as [bigint, bigint, bigint];
    const domain = await domainOf(connection.ethers.provider, "OptionsMarket", await p.options.getAddress());
    async function sell(maker: typeof carol, seriesId: bigint, taker: typeof carol, premiumWad: bigint) {
      const offer: OptionsOffer = {
        maker: maker!.address,
        seriesId,
        isBuy: false,
        sizeCh: wad("100"),
        premiumWad,
        nonce: seriesId,
        expiry: 2n ** 40n,
        taker: "0x0000000000000000000000000000000000000000",
      };
      await (
        await p.options.connect(taker!).fillOffer(offer, await signOffer(maker!, domain, offer), wad("100"))
      ).wait();
    }
    const carol0 = await p.clearingHouse.collateralOf(carol!.address);
    await sell(carol, put10, bob, wad("0.5")); // Bob hedges his capacity
    await sell(carol, call10, alice, wad("0.4")); // Alice hedges her need
    await sell(dave, put8, carol, wad("0.1")); // Carol buys her floor from Dave
    const premiums =
      optionFillQuote(wad("100"), wad("0.5"), 30n, 10n).receivedUsdc +
      optionFillQuote(wad("100"), wad("0.4"), 30n, 10n).receivedUsdc -
      optionFillQuote(wad("100"), wad("0.1"), 30n, 10n).paidUsdc;
    expect(premiums).to.equal(usdc("79.88")); // 49.95 + 39.96 − 10.03
    await jumpTo(connection, fx, optionExpiry, wad("6"));
    for (const id of listed) await (await p.options.fixSettlementPrice(id)).wait();
    await jumpTo(connection, fx, optionExpiry + 2n * HOUR, wad("6"));
    await (await p.options.exercise(put10, bob!.address)).wait(); // Carol, the writer, long 100 at 10
    await (await p.options.exercise(put8, carol!.address)).wait(); // Carol, the holder, short 100 at 8
    await (await p.options.exercise(call10, alice!.address)).wait(); // out of the money: nothing
    await (await p.options.exercise(call10, carol!.address)).wait(); // her call collateral released
    // her futures legs cancel; she lost (10 − 6) × 100 on the put she sold and got (8 − 6) × 100 back on her floor
    expect((await p.futures.positionOf(month, carol!.address)).sizeCh).to.equal(0n);
    expect((await p.clearingHouse.positionOf(carol!.address, futuresAddr)).sizeCh).to.equal(0n);
    expect((await p.clearingHouse.collateralOf(carol!.address)) - carol0).to.equal(premiums - usdc("200"));
  });
});
