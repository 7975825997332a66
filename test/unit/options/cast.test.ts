/**
 * The seed's cast (seed 000 sections 10.3–10.4) as integration tests through the real deploy script: Carol, a
 * datacenter operator, sells strangles and call strips and keeps the premiums when they expire worthless; Bob
 * (a datacenter building capacity) buys puts and is paid when the index falls; Alice (an AI startup) buys calls and
 * is paid when it rises. Every number is worked by hand (and by the SDK's reference quotes, packages/sdk/src/quotes.ts).
 */
import { expect } from "chai";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { connectionFor } from "../../helpers/fixture.js";
import { CH, OptionKind, USDC, WAD, list, optionsSetup, signed, type OptionsFixture } from "./helpers.js";
import { optionFillQuote as fillQuote } from "@chx/sdk";

const KEY = "options-cast";
const WEEK = 7n * 86_400n;

describe("OptionsMarket: the seed's cast", function () {
  let fx: OptionsFixture;
  let t0: bigint;

  async function setup(): Promise<OptionsFixture> {
    return optionsSetup(await connectionFor(KEY));
  }

  beforeEach(async function () {
    const connection = await connectionFor(KEY);
    fx = await connection.networkHelpers.loadFixture(setup);
    t0 = BigInt(await connection.networkHelpers.time.latest());
  });

  /** Carol's signed sell offer for `seriesId` filled by `buyer`; nonce = series id. */
  async function carolSells(seriesId: bigint, buyer: HardhatEthersSigner, sizeCh: bigint, premiumWad: bigint) {
    const { offer, sig } = await signed(fx, fx.carol, { seriesId, nonce: seriesId, sizeCh, premiumWad });
    await fx.protocol.options.connect(buyer).fillOffer(offer, sig, sizeCh);
  }

  /** Past expiry at `priceWad`, price fixed, dispute window over, every account settled by pull (no bounty). */
  async function settleAt(seriesIds: bigint[], expiry: bigint, priceWad: bigint) {
    const { options } = fx.protocol;
    await fx.connection.networkHelpers.time.increaseTo(expiry);
    await fx.setPrice(priceWad);
    for (const id of seriesIds) await options.fixSettlementPrice(id);
    await fx.connection.networkHelpers.time.increase(3_600);
    for (const id of seriesIds) {
      for (const who of [fx.alice, fx.bob, fx.carol]) {
        const p = await options.positionOf(id, who.address);
        if (p.longCh !== 0n || p.shortCh !== 0n) await options.exercise(id, who.address);
      }
    }
  }

  async function expectMkt07(seriesId: bigint) {
    // MKT-07: a settled series paid holders and released writers exactly what was posted, never more
    const s = await fx.protocol.options.series(seriesId);
    expect(s.paidUsdc + s.releasedUsdc).to.equal(s.postedUsdc);
    expect(s.openInterestCh).to.equal(0n);
  }

  it("Carol sells a strangle (put 8, call 12 capped at 6) to Bob and Alice; the index stays at 10 and she keeps the premiums", async function () {
    const { clearingHouse } = fx.protocol;
    const expiry = t0 + WEEK;
    const put = await list(fx, OptionKind.Put, 8n * WAD, 0n, expiry);
    const call = await list(fx, OptionKind.Call, 12n * WAD, 6n * WAD, expiry);
    const carol0 = await clearingHouse.collateralOf(fx.carol.address);
    await carolSells(put, fx.bob, 100n * CH, (3n * WAD) / 10n); // 30 USDC premium
    await carolSells(call, fx.alice, 100n * CH, WAD / 4n); // 25 USDC premium
    // Carol posted 100 × 8 + 100 × 6 = 1,400 USDC of collateral
    expect(carol0 - (await clearingHouse.collateralOf(fx.carol.address))).to.equal(1_400n * USDC - 54_945_000n);
    await settleAt([put, call], expiry, 10n * WAD);
    // she keeps 30 − 0.03 + 25 − 0.025 = 54.945 USDC (maker fee 10 bps) and gets all collateral back
    const q1 = fillQuote(100n * CH, (3n * WAD) / 10n, 30n, 10n);
    const q2 = fillQuote(100n * CH, WAD / 4n, 30n, 10n);
    expect(q1.receivedUsdc + q2.receivedUsdc).to.equal(54_945_000n);
    expect((await clearingHouse.collateralOf(fx.carol.address)) - carol0).to.equal(54_945_000n);
    await expectMkt07(put);
    await expectMkt07(call);
  });

  it("Carol sells a strip of calls (strikes 11, 12, 13 over three weekly expiries) that all expire worthless", async function () {
    const { clearingHouse } = fx.protocol;
    const strikes = [11n, 12n, 13n];
    const premiums = [WAD / 5n, (15n * WAD) / 100n, WAD / 10n]; // 0.20, 0.15, 0.10
    const ids: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await list(fx, OptionKind.Call, strikes[i]! * WAD, 10n * WAD, t0 + WEEK * BigInt(i + 1)));
    }
    const carol0 = await clearingHouse.collateralOf(fx.carol.address);
    for (let i = 0; i < 3; i++) await carolSells(ids[i]!, fx.alice, 50n * CH, premiums[i]!);
    // premiums 10 + 7.5 + 5 = 22.5 USDC less 10 bps = 22.4775 USDC
    for (let i = 0; i < 3; i++) {
      // each week the index drifts but stays at or below the strike
      await settleAt([ids[i]!], t0 + WEEK * BigInt(i + 1), (10n + BigInt(i)) * WAD);
      await expectMkt07(ids[i]!);
    }
    expect((await clearingHouse.collateralOf(fx.carol.address)) - carol0).to.equal(22_477_500n);
  });

  it("Bob (datacenter) buys puts at 9 to hedge; the index falls to 6 and he is paid 3 USDC per CH", async function () {
    const { clearingHouse } = fx.protocol;
    const expiry = t0 + 4n * WEEK;
    const put = await list(fx, OptionKind.Put, 9n * WAD, 0n, expiry);
    const bob0 = await clearingHouse.collateralOf(fx.bob.address);
    const carol0 = await clearingHouse.collateralOf(fx.carol.address);
    await carolSells(put, fx.bob, 200n * CH, WAD / 2n); // 100 USDC premium; Bob pays 30 bps on top
    await settleAt([put], expiry, 6n * WAD);
    // Bob: +200 × 3 = 600 paid, −100.3 premium and fee → +499.7 USDC
    expect((await clearingHouse.collateralOf(fx.bob.address)) - bob0).to.equal(499_700_000n);
    // Carol: +99.9 premium − 600 payout = −500.1 USDC; her loss never exceeds her 1,800 USDC collateral (MKT-07)
    expect((await clearingHouse.collateralOf(fx.carol.address)) - carol0).to.equal(-500_100_000n);
    await expectMkt07(put);
  });

  it("Alice (AI startup) buys calls at 11 capped at 10; the index rises to 15 and she is paid 4 USDC per CH", async function () {
    const { clearingHouse } = fx.protocol;
    const expiry = t0 + 2n * WEEK;
    const call = await list(fx, OptionKind.Call, 11n * WAD, 10n * WAD, expiry);
    const alice0 = await clearingHouse.collateralOf(fx.alice.address);
    await carolSells(call, fx.alice, 50n * CH, (6n * WAD) / 10n); // 30 USDC premium + 0.09 fee
    await settleAt([call], expiry, 15n * WAD);
    expect((await clearingHouse.collateralOf(fx.alice.address)) - alice0).to.equal(200n * USDC - 30_090_000n);
    await expectMkt07(call);
  });

  it("a price spike beyond the cap pays the holder the cap and leaves the writer with nothing of that collateral (MKT-07)", async function () {
    const { clearingHouse, options } = fx.protocol;
    const expiry = t0 + WEEK;
    const call = await list(fx, OptionKind.Call, 12n * WAD, 6n * WAD, expiry);
    await carolSells(call, fx.alice, 10n * CH, WAD / 2n);
    const carol1 = await clearingHouse.collateralOf(fx.carol.address);
    await settleAt([call], expiry, 50n * WAD);
    expect(await clearingHouse.collateralOf(fx.carol.address)).to.equal(carol1); // 60 posted, 60 paid
    const s = await options.series(call);
    expect(s.paidUsdc).to.equal(60n * USDC);
    await expectMkt07(call);
  });
});
