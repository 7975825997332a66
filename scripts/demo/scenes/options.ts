import { formatUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext, Scene } from "../types.js";
import { trader, usdc6, wad } from "./clearing.js";
import { OptionKind, domainOf, signOffer, type OptionsOffer } from "@chx/sdk";

const DAY = 86_400;
const HOUR = 3_600;
const fmt = (x: bigint, d = 18) => Number(formatUnits(x, d));

/** Standard normal density and distribution (Abramowitz–Stegun 7.1.26 for erf). */
function phi(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}
function Phi(x: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) *
      t *
      Math.exp(-(x * x) / 2);
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}

/**
 * Carol's quote: the Bachelier value (normal price moves, 2 % of the index a day — the demo index's volatility)
 * plus a 10 % writer's margin, rounded to 0.0001 USDC. Calls are capped (a call spread), so the cap's value is
 * taken off.
 */
export function premium(kind: number, index: number, strike: number, cap: number, days: number): number {
  const s = index * 0.02 * Math.sqrt(days);
  const call = (k: number) => (index - k) * Phi((index - k) / s) + s * phi((index - k) / s);
  const value = kind === OptionKind.Put ? call(strike) - (index - strike) : call(strike) - call(strike + cap); // put by parity
  return Math.max(0.0001, Number((value * 1.1).toFixed(4)));
}

interface Listed {
  id: bigint;
  label: string;
  kind: number;
  strike: number;
}

/**
 * Options on the CH index, cash-settled, from listing to settlement by the keeper. Governance lists the series;
 * Carol (a datacenter operator) writes a strangle (an out-of-the-money put and call, bought by Erin, who bets on
 * volatility) and a strip of calls over three weekly expiries (bought by Alice, who caps what her compute will
 * cost); Bob, who holds CH-denominated capacity, buys puts. Carol sells with EIP-712 signed offers; the buyers fill
 * them; writing posts her collateral. Three weeks pass: the keeper program fixes each series' price at expiry
 * and, after the dispute window, pages its settlement through the market's checker().
 */
export const optionsScene: Scene = {
  title: "Options: Bob buys puts; Carol writes strangles and call strips; the keeper settles them at expiry",
  requires: ["OptionsMarket", "ClearingHouse"],
  async run(ctx) {
    const { options, clearingHouse } = ctx.protocol;
    const market = await options.getAddress();
    const domain = await domainOf(ctx.connection.ethers.provider, "OptionsMarket", market);
    const carol = await trader(ctx, "carol", usdc6(8_000));
    const bob = await trader(ctx, "bob", usdc6(1_000));
    const alice = await trader(ctx, "alice", usdc6(500));
    const erin = await trader(ctx, "erin", usdc6(500));
    const now = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
    const S = ctx.index();
    const k = (m: number) => Number((S * m).toFixed(2));
    const cap = k(0.5);

    const listed: Listed[] = [];
    const list = async (label: string, kind: number, strike: number, days: number) => {
      await (
        await options.connect(ctx.deployer).listSeries({
          kind,
          onFutures: false,
          futuresSeriesId: 0n,
          expiry: BigInt(now + days * DAY),
          strikeWad: wad(strike.toFixed(6)),
          capWad: wad((kind === OptionKind.Put ? strike : cap).toFixed(6)),
        })
      ).wait();
      const l = { id: await options.seriesCount(), label, kind, strike };
      listed.push(l);
      return { ...l, days };
    };
    const collateral0 = await clearingHouse.collateralOf(carol.address);
    let nonce = 0n;
    let premiums = 0;
    const sell = async (
      series: Listed & { days: number },
      buyer: HardhatEthersSigner,
      sizeCh: number,
    ): Promise<number> => {
      const p = premium(series.kind, S, series.strike, cap, series.days);
      const offer: OptionsOffer = {
        maker: carol.address,
        seriesId: series.id,
        isBuy: false,
        sizeCh: wad(sizeCh),
        premiumWad: wad(p.toFixed(6)),
        nonce: ++nonce,
        expiry: BigInt(now + DAY),
        taker: buyer.address,
      };
      await (await options.connect(buyer).fillOffer(offer, await signOffer(carol, domain, offer), offer.sizeCh)).wait();
      premiums += p * sizeCh;
      return p;
    };
    const put = await list("strangle put", OptionKind.Put, k(0.92), 7);
    const call = await list("strangle call", OptionKind.Call, k(1.08), 7);
    const strip = [];
    for (const [i, m] of [1.05, 1.1, 1.15].entries())
      strip.push(await list(`strip call ${i + 1}`, OptionKind.Call, k(m), 7 * (i + 1)));
    const hedge = await list("Bob's put", OptionKind.Put, k(0.97), 21);

    const pp = await sell(put, erin, 400);
    const pc = await sell(call, erin, 400);
    for (const leg of strip) await sell(leg, alice, 200);
    const ph = await sell(hedge, bob, 300);
    const posted = (await Promise.all(listed.map((l) => options.series(l.id)))).reduce((a, s) => a + s.postedUsdc, 0n);
    ctx.log(
      `index ${S.toFixed(3)}: Carol sold Erin a strangle (400 puts at ${put.strike} for ${pp}, 400 calls at ${call.strike} ` +
        `for ${pc}), Alice a strip of 3 × 200 calls (${strip.map((l) => l.strike).join(" / ")}, weekly), Bob 300 puts at ` +
        `${hedge.strike} for ${ph} USDC/CH; she posted ${formatUnits(posted, 6)} USDC of collateral`,
    );

    const bob0 = await clearingHouse.collateralOf(bob.address);
    const keeperBefore = ctx.keeper.actions("checker:OptionsMarket");
    for (let d = 0; d < 21; d++) await ctx.advance(DAY);
    // the last expiries: the keeper fixes one price per tick and settles each once its dispute window (1 h) passed
    const allSettled = async () => (await Promise.all(listed.map((l) => options.series(l.id)))).every((x) => x.settled);
    for (let h = 0; h < 24 && !(await allSettled()); h++) await ctx.advance(HOUR);

    let paid = 0n;
    let released = 0n;
    let mkt07 = true;
    let settled = 0;
    for (const l of listed) {
      const s = await options.series(l.id);
      paid += s.paidUsdc;
      released += s.releasedUsdc;
      if (s.paidUsdc + s.releasedUsdc !== s.postedUsdc) mkt07 = false;
      if (s.settled) settled++;
      ctx.log(
        `${l.label} (strike ${l.strike}): settled at ${fmt(s.settlementPriceWad).toFixed(4)}, paid ${formatUnits(s.paidUsdc, 6)} ` +
          `USDC to holders, released ${formatUnits(s.releasedUsdc, 6)} USDC to Carol`,
      );
    }
    const carolPnl = (await clearingHouse.collateralOf(carol.address)) - collateral0;
    const bobHedge = (await clearingHouse.collateralOf(bob.address)) - bob0;
    ctx.figure("options.series", listed.length);
    ctx.figure("options.seriesSettled", settled);
    ctx.figure("options.premiumsUsdc", premiums.toFixed(4));
    ctx.figure("options.postedUsdc", formatUnits(posted, 6));
    ctx.figure("options.paidUsdc", formatUnits(paid, 6));
    ctx.figure("options.releasedUsdc", formatUnits(released, 6));
    ctx.figure("options.paidPlusReleasedEqualsPosted", mkt07);
    ctx.figure("options.carolPnlUsdc", formatUnits(carolPnl, 6));
    ctx.figure("options.bobPutPayoutUsdc", formatUnits(bobHedge, 6));
    ctx.figure("options.keeperActions", ctx.keeper.actions("checker:OptionsMarket") - keeperBefore);
  },
};
