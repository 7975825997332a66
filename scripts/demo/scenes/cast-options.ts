/**
 * The seed's cast, the options half (seed 000 §10.3 "Sell-side hedge: Bob's scenario", §10.4 "Optimizing yield for
 * datacenter operators"; issue 19 item 4). Runs after the cast scene, on a futures series Bob sold Alice there:
 *
 * - **Bob** (datacenter, short the month's futures to Alice) buys puts on that futures series, struck at the
 *   futures price, for the size he sold (seed: "Bob can buy put options on his futures contracts to protect against
 *   downside price risk while allowing for upside gains"). Dave, a market maker, writes them (signed sell offer,
 *   fully collateralised: strike × size).
 * - **Carol** (datacenter, seed §10.4 option 2) SELLS a strangle on the same futures series — a call struck 5 %
 *   above the futures price and a put 5 % below — to Erin, who bets on a large move, collecting the premiums;
 *   then BUYS "an additional put option at a strike below the put option she sold" (15 % below) from Dave, which
 *   caps what her written put can cost her. The seed gives no quantities for Bob and Carol: Bob hedges the size he
 *   sold, Carol writes and buys 1,000 TFLOP-hours (the seed's one quantity, Alice's later monthly need) converted
 *   through ComputeStandard as the cast scene does.
 *
 * The series are options on the futures series expiring with it (`onFutures`, expiry = the futures expiry), listed
 * by governance. The permissionless rule (`listStandardFuturesSeries`: strikes on a 0.05 USDC grid within ±50 % of
 * the futures series' own price, docs/options.md) could strike them, but its daily 08:00 UTC grid misses the
 * futures' 00:00 UTC expiries and its listing bond of 0.5 USDC a day is more than these payoffs. At expiry the futures no longer trade, so an
 * in-the-money option settles by the market's cash fallback at the index (= what the futures converge to).
 * The market then moves: the index's seeded walk, and for the last ten days before expiry the correction Bob
 * anticipates (the demo publishes the index 3 % lower each day, on top of the walk: `ctx.setIndex`, the shock
 * scene's helper). The keeper fixes each option's price at expiry and settles it after the dispute window. Every
 * payoff is read from the chain (`Series.paidUsdc`, `OfferFilled`); the label states what happened.
 */
import { formatUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext, Scene } from "../types.js";
import { trader, usdc6, wad } from "./clearing.js";
import { castBooks, chForTflopHours } from "./cast.js";
import { premium } from "./options.js";
import { OptionKind, domainOf, signOffer, type OptionsOffer } from "@chx/sdk";

const DAY = 86_400;
const HOUR = 3_600;
const ML = 1; // workload class of the reference system (as the cast)
const fmt = (x: bigint, d = 18) => Number(formatUnits(x, d));
/** A signed USDC amount (6 decimals) as the report prints it. */
const usdcStr = (x: bigint) => formatUnits(x, 6);

/** Strikes relative to the futures price F (seed §10.3–10.4: "at the futures price", "lower than today's prices"). */
export const CAST_STRIKES = { bobPut: 1, carolCall: 1.05, carolPut: 0.95, carolLowerPut: 0.85 } as const;
/** Carol's size: 1,000 TFLOP-hours (the seed's one quantity), converted through ComputeStandard. */
export const CAROL_TFLOP_HOURS = 1_000n;
/** The correction the demo publishes in the last days before expiry: 3 % a day for ten days. */
const CORRECTION_DAYS = 10;
const CORRECTION_PER_DAY = 0.97;

interface Leg {
  label: string;
  kind: number;
  strike: number;
  id: bigint;
  sizeCh: bigint;
  writer: HardhatEthersSigner;
  buyer: HardhatEthersSigner;
  premium: number;
  /** Paid by the buyer (premium rounded up + fee) and received by the writer (rounded down − fee), from OfferFilled. */
  buyerPaidUsdc: bigint;
  sellerReceivedUsdc: bigint;
}

const TITLE = "Bob's puts and Carol's strangle on the cast's futures (seed 000 §10.3–10.4)";
let titleNow = TITLE;

/** Payoff per CH of a leg at price `s` (puts `max(K − s, 0)`; calls capped at `cap`, as the market pays). */
export function legPayoff(kind: number, strike: number, cap: number, s: number): number {
  return kind === OptionKind.Put ? Math.max(strike - s, 0) : Math.min(Math.max(s - strike, 0), cap);
}

export const castOptionsScene: Scene = {
  get title() {
    return titleNow;
  },
  requires: ["FuturesMarket", "OptionsMarket", "ComputeStandard", "ClearingHouse"],
  async run(ctx) {
    titleNow = TITLE;
    const book = castBooks.get(ctx);
    if (book === undefined) throw new Error("the cast scene did not run: no futures series of Bob's to protect");
    const { options, futures, computeStandard } = ctx.protocol;
    const provider = ctx.connection.ethers.provider;
    const now = async () => BigInt((await provider.getBlock("latest"))!.timestamp);
    const bob = ctx.actor("bob");

    // the month: the first of Alice's series the cast did not follow to delivery that Bob is still short in, with
    // at least two weeks to run (the options are written now and expire with it)
    let pick = -1;
    for (let m = book.monthsFollowed; m < book.ids.length && pick < 0; m++) {
      const short = (await futures.positionOf(book.ids[m]!, bob.address)).sizeCh;
      if (short < 0n && book.expiries[m]! > (await now()) + BigInt(14 * DAY)) pick = m;
    }
    if (pick < 0) throw new Error("Bob holds no short futures series of the cast with two weeks to run");
    const futuresId = book.ids[pick]!;
    const expiry = book.expiries[pick]!;
    const bobShort = -(await futures.positionOf(futuresId, bob.address)).sizeCh;
    const ref = (await computeStandard.referenceSystem(ML, await computeStandard.latestVersion(ML))).refPflopsWad;
    const carolSize = chForTflopHours(CAROL_TFLOP_HOURS, ref);
    const [midWad] = await futures.quote(futuresId, 0n);
    const traded = (await futures.curvePoint(futuresId)).priceWad;
    const F = fmt(midWad);
    const days = Number(expiry - (await now())) / DAY;
    ctx.log(
      `Alice's month ${pick + 1} (futures series ${futuresId}, expiring in ${days.toFixed(1)} days): Bob is short ` +
        `${fmt(bobShort).toFixed(4)} CH; the futures price is ${F.toFixed(4)} USDC/CH (last traded ` +
        `${fmt(traded).toFixed(4)}, index ${ctx.index().toFixed(4)})`,
    );

    // the cast: Bob and Carol trade; Dave writes what they buy; Erin buys Carol's strangle
    const carol = await trader(ctx, "carol", usdc6(1_000));
    const dave = await trader(ctx, "dave", usdc6(1_000));
    const erin = await trader(ctx, "erin", usdc6(500));
    await trader(ctx, "bob", usdc6(200));

    const market = await options.getAddress();
    const domain = await domainOf(provider, "OptionsMarket", market);
    const strikeOf = (m: number) => Number((F * m).toFixed(4));
    const listFuturesOption = async (kind: number, strike: number): Promise<bigint> => {
      // governance listing (ADMIN; see the file comment for why the permissionless rule cannot list these)
      const p = {
        kind,
        onFutures: true,
        futuresSeriesId: futuresId,
        expiry,
        strikeWad: wad(strike.toFixed(6)),
        capWad: wad(strike.toFixed(6)), // calls pay at most a doubling of the strike; puts' cap is the strike
      };
      const id = await options.connect(ctx.deployer).listSeries.staticCall(p);
      await (await options.connect(ctx.deployer).listSeries(p)).wait();
      return id;
    };
    let nonce = 9_000n; // the cast's offer nonces (the options scene's makers use theirs from 1)
    const legs: Leg[] = [];
    /** `writer` signs a sell offer at its Bachelier quote on F; `buyer` fills all of it. */
    const trade = async (
      label: string,
      kind: number,
      strikeRel: number,
      sizeCh: bigint,
      writer: HardhatEthersSigner,
      buyer: HardhatEthersSigner,
    ) => {
      const strike = strikeOf(strikeRel);
      const id = await listFuturesOption(kind, strike);
      const p = premium(kind, F, strike, strike, days);
      const offer: OptionsOffer = {
        maker: writer.address,
        seriesId: id,
        isBuy: false,
        sizeCh,
        premiumWad: wad(p.toFixed(6)),
        nonce: ++nonce,
        expiry: (await now()) + BigInt(DAY),
        taker: buyer.address,
      };
      const rc = await (
        await options.connect(buyer).fillOffer(offer, await signOffer(writer, domain, offer), sizeCh)
      ).wait();
      let buyerPaidUsdc = 0n;
      let sellerReceivedUsdc = 0n;
      for (const log of rc!.logs) {
        const parsed = options.interface.parseLog(log);
        if (parsed?.name !== "OfferFilled") continue;
        buyerPaidUsdc += parsed.args.buyerPaidUsdc as bigint;
        sellerReceivedUsdc += parsed.args.sellerReceivedUsdc as bigint;
      }
      const leg = { label, kind, strike, id, sizeCh, writer, buyer, premium: p, buyerPaidUsdc, sellerReceivedUsdc };
      legs.push(leg);
      return leg;
    };
    const bobPut = await trade("Bob's put", OptionKind.Put, CAST_STRIKES.bobPut, bobShort, dave, bob);
    const carolCall = await trade(
      "Carol's strangle call",
      OptionKind.Call,
      CAST_STRIKES.carolCall,
      carolSize,
      carol,
      erin,
    );
    const carolPut = await trade("Carol's strangle put", OptionKind.Put, CAST_STRIKES.carolPut, carolSize, carol, erin);
    const lowerPut = await trade(
      "Carol's lower put",
      OptionKind.Put,
      CAST_STRIKES.carolLowerPut,
      carolSize,
      dave,
      carol,
    );
    ctx.log(
      `Bob bought ${fmt(bobShort).toFixed(4)} puts on his futures at ${bobPut.strike} from Dave for ${bobPut.premium} ` +
        `USDC/CH (paid ${usdcStr(bobPut.buyerPaidUsdc)} USDC); Carol sold Erin a strangle of ${fmt(carolSize).toFixed(4)} ` +
        `(1,000 TFLOP-hours): calls at ${carolCall.strike} for ${carolCall.premium} and puts at ${carolPut.strike} for ` +
        `${carolPut.premium} (received ${usdcStr(carolCall.sellerReceivedUsdc + carolPut.sellerReceivedUsdc)} USDC), ` +
        `and bought the lower puts at ${lowerPut.strike} from Dave for ${lowerPut.premium} (paid ` +
        `${usdcStr(lowerPut.buyerPaidUsdc)} USDC); Dave and Carol posted their collateral`,
    );

    // the market moves: the walk, then the correction in the last ten days (published by the demo, said here)
    ctx.log(
      `the market: the index's seeded walk, then for the last ${CORRECTION_DAYS} days before expiry the demo publishes ` +
        `it ${Math.round((1 - CORRECTION_PER_DAY) * 100)} % lower each day (the correction Bob anticipates)`,
    );
    for (;;) {
      const left = Number(expiry - (await now()));
      if (left <= HOUR) break;
      if (left > CORRECTION_DAYS * DAY + HOUR) {
        await ctx.advance(Math.min(7 * DAY, left - CORRECTION_DAYS * DAY));
        continue;
      }
      await ctx.advance(Math.min(DAY, left - HOUR));
      if (Number(expiry - (await now())) > HOUR)
        await ctx.setIndex(Number((ctx.index() * CORRECTION_PER_DAY).toFixed(6)));
      ctx.series("castOptionsPath", {
        daysToExpiry: Number((Number(expiry - (await now())) / DAY).toFixed(3)),
        index: ctx.index(),
      });
    }
    // past expiry: the keeper fixes each option's price, then settles it once its dispute window (1 h) has passed
    await ctx.advance(2 * HOUR);
    await ctx.advance(2 * HOUR);
    await ctx.keeper.settle(20);
    const allSettled = async () => (await Promise.all(legs.map((l) => options.series(l.id)))).every((x) => x.settled);
    for (let h = 0; h < 24 && !(await allSettled()); h++) await ctx.advance(HOUR);

    // what happened, from the chain
    const paid = new Map<bigint, bigint>();
    let settledLegs = 0;
    let mkt07 = true;
    let S = 0;
    for (const l of legs) {
      const s = await options.series(l.id);
      paid.set(l.id, s.paidUsdc);
      if (s.settled) settledLegs++;
      if (s.paidUsdc + s.releasedUsdc !== s.postedUsdc) mkt07 = false;
      S = fmt(s.settlementPriceWad);
      ctx.log(
        `${l.label} (${fmt(l.sizeCh).toFixed(4)} at ${l.strike}): settled at ${S.toFixed(4)} USDC/CH, paid ` +
          `${usdcStr(s.paidUsdc)} USDC to ${l.buyer === bob ? "Bob" : l.buyer === carol ? "Carol" : "Erin"}, released ` +
          `${usdcStr(s.releasedUsdc)} USDC to ${l.writer === carol ? "Carol" : "Dave"}${s.settled ? "" : " (NOT settled)"}`,
      );
    }
    const futuresSettled = (await futures.seriesInfo(futuresId)).settlementPriceWad;
    const Fend = futuresSettled > 0n ? fmt(futuresSettled) : S;
    const movePct = ((Fend - F) / F) * 100;
    const bobPayoff = paid.get(bobPut.id)!;
    const strangleOwed = paid.get(carolCall.id)! + paid.get(carolPut.id)!;
    const lowerPayoff = paid.get(lowerPut.id)!;
    const carolPremiums = carolCall.sellerReceivedUsdc + carolPut.sellerReceivedUsdc;
    const carolNet = carolPremiums - strangleOwed + lowerPayoff - lowerPut.buyerPaidUsdc;
    const bobNet = bobPayoff - bobPut.buyerPaidUsdc;

    ctx.figure("options.bobPutsBought", formatUnits(bobShort, 18));
    ctx.figure("options.bobPutStrikeUsdc", bobPut.strike);
    ctx.figure("options.bobPutPremiumPaidUsdc", usdcStr(bobPut.buyerPaidUsdc));
    ctx.figure("options.bobPutPayoffUsdc", usdcStr(bobPayoff));
    ctx.figure("options.bobNetUsdc", usdcStr(bobNet));
    ctx.figure("options.carolStrangleLegs", 2);
    ctx.figure("options.carolStrangleSizeCh", formatUnits(carolSize, 18));
    ctx.figure("options.carolStranglePremiumUsdc", usdcStr(carolPremiums));
    // her strangle's payoff from her side (the writer): minus what it paid Erin
    ctx.figure("options.carolPayoffUsdc", usdcStr(-strangleOwed));
    ctx.figure("options.carolLowerPutPayoffUsdc", usdcStr(lowerPayoff));
    ctx.figure("options.carolLowerPutPremiumPaidUsdc", usdcStr(lowerPut.buyerPaidUsdc));
    ctx.figure("options.carolNetUsdc", usdcStr(carolNet));
    ctx.figure("options.castFuturesPriceUsdc", F.toFixed(6));
    ctx.figure("options.castSettlementPriceUsdc", S.toFixed(6));
    ctx.figure("options.castFuturesSettlementUsdc", formatUnits(futuresSettled, 18));
    ctx.figure("options.castFuturesMovePct", movePct.toFixed(2));
    ctx.figure("options.castLegsSettled", settledLegs);
    ctx.figure("options.castPaidPlusReleasedEqualsPosted", mkt07);
    // for the integration test, which re-reads the legs from the chain
    ctx.figure("options.castMarket", market);
    ctx.figure("options.castSeriesIds", legs.map((l) => l.id.toString()).join(","));

    // the payoff diagram at expiry (per leg × size, USDC) around the futures price, the realised price marked
    for (let i = 0; i <= 40; i++) {
      const x = Number((F * (0.6 + 0.02 * i)).toFixed(4));
      const at = (l: Leg) => legPayoff(l.kind, l.strike, l.strike, x) * fmt(l.sizeCh);
      ctx.series("castOptionsPayoff", {
        futuresAtExpiry: x,
        "Bob: puts": Number(at(bobPut).toFixed(4)),
        "Carol: strangle written": Number((-at(carolCall) - at(carolPut)).toFixed(4)),
        "Carol: lower put": Number(at(lowerPut).toFixed(4)),
        "Carol: net of premiums": Number(
          (
            fmt(carolPremiums, 6) -
            at(carolCall) -
            at(carolPut) +
            at(lowerPut) -
            fmt(lowerPut.buyerPaidUsdc, 6)
          ).toFixed(4),
        ),
      });
    }
    ctx.series("castOptionsSettlement", { price: S });

    const moved =
      `the futures ${movePct < 0 ? "fell" : "rose"} ${Math.abs(movePct).toFixed(1)} % ` +
      `(${F.toFixed(4)} → ${Fend.toFixed(4)}; the options settled at the index, ${S.toFixed(4)})`;
    const bobSays =
      bobPayoff > 0n
        ? `Bob's puts paid ${usdcStr(bobPayoff)} USDC as ${moved}`
        : `Bob's puts expired worthless as ${moved} (he paid ${usdcStr(bobPut.buyerPaidUsdc)} USDC for them)`;
    const carolSays =
      `Carol kept ${usdcStr(carolPremiums)} USDC of strangle premiums` +
      (strangleOwed > 0n ? `, her strangle paid out ${usdcStr(strangleOwed)}` : ", her strangle expired worthless") +
      (lowerPayoff > 0n
        ? ` and her lower put paid her ${usdcStr(lowerPayoff)}`
        : ` and her lower put expired worthless`) +
      ` (net ${usdcStr(carolNet)} USDC)`;
    titleNow =
      settledLegs === legs.length
        ? `Bob's puts and Carol's strangle on the cast's futures: ${bobSays}; ${carolSays}`
        : `${TITLE} (${legs.length - settledLegs} of ${legs.length} legs NOT settled)`;
  },
};
