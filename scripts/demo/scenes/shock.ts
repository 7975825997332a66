import { formatUnits } from "ethers";
import type { Scene } from "../types.js";
import { backstops, clearingCast, fmtUsdc, trader, usdc6, wad } from "./clearing.js";
import { allocate, perpTrade } from "./perps.js";

const HOUR = 3_600;
/** IClearingHouse.Layer: Account, Guarantor, Insurance, Socialised (no longer emitted), Adl (auto-deleveraging). */
const LAYERS = [undefined, "guarantor", "insurance", "socialised", "adl"] as const;

/**
 * A 40 % CH price shock. Before it, Frank (Ivan's thin closed guarantor) and Alice (Grace's) hold leveraged
 * longs; the index gaps down 40 % in one step; the keeper program's liquidations job finds the accounts below
 * maintenance margin from the ClearingHouse's events and liquidates them; each deficit walks the waterfall:
 * the account's margin, then its guarantor's capital, then the insurance fund. Socialised loss stays zero.
 */
export const shockScene: Scene = {
  title: "A 40 % CH price shock: liquidations walk the waterfall (margin → guarantor → insurance)",
  requires: ["PerpMarket", "LiquidityVault", "LiquidationEngine", "GuarantorPool", "InsuranceFund"],
  async run(ctx) {
    const { perpMarket: perp, clearingHouse, liquidationEngine } = ctx.protocol;
    // the perps scene put LP capital behind the market; without it (a failed scene) there is no counterparty
    if ((await perp.vaultEquityUsdc()) <= 0n) await allocate(ctx, await perp.getAddress(), "PerpMarket", usdc6(60_000));
    await clearingCast(ctx);
    const price = ctx.index();
    // Frank: 1,400 USDC margin, admitted by Ivan up to 14,000 USDC exposure (Ivan's 1,500 USDC × 10 max leverage)
    const frank = await trader(ctx, "frank", usdc6(1_400), usdc6(14_000));
    const alice = await trader(ctx, "alice", usdc6(1_000));
    const grown = (usd: number) => wad(Math.floor(usd / price / 1.01).toString());
    await perpTrade(ctx, frank, grown(13_000)); // ≈ 9× leverage
    // Alice closes what she holds and goes long ≈ 4× her equity
    const held = (await perp.accountState(alice.address)).sizeCh;
    if (held !== 0n) await perpTrade(ctx, alice, -held);
    const { equityUsdc } = await clearingHouse.marginState(alice.address);
    // (within the market's 10,000 CH position cap)
    await perpTrade(ctx, alice, grown(Math.min(fmtUsdc(equityUsdc) * 4, 9_000 * price)));
    const victims = [frank, alice, ...["bob", "carol", "dave"].map((n) => ctx.actor(n))];

    const before = await backstops(ctx);
    const startBlock = await ctx.connection.ethers.provider.getBlockNumber();
    const liquidationsBefore = ctx.keeper.successes("liquidations");
    const [, socialisedBefore] = await clearingHouse.totals();
    for (let h = -3; h < 0; h++) {
      ctx.series("shock", { hour: h, ...(await backstops(ctx)), index: ctx.index() });
      await ctx.advance(HOUR);
    }
    ctx.series("shock", { hour: 0, ...(await backstops(ctx)), index: ctx.index() });
    // the gap: the feed publishes −40 % at once; the keeper's next tick liquidates
    await ctx.setIndex(Number((ctx.index() * 0.6).toFixed(6)));
    await ctx.keeper.tick();
    ctx.series("shock", { hour: 0.01, ...(await backstops(ctx)), index: ctx.index() });
    for (let h = 1; h <= 6; h++) {
      await ctx.advance(HOUR);
      ctx.series("shock", { hour: h, ...(await backstops(ctx)), index: ctx.index() });
    }
    const after = await backstops(ctx);

    // the waterfall, from the ClearingHouse's DeficitAbsorbed events (one per layer per defaulted account)
    const absorbed = { guarantor: 0n, insurance: 0n, socialised: 0n, adl: 0n };
    for (const ev of await clearingHouse.queryFilter(clearingHouse.filters.DeficitAbsorbed(), startBlock)) {
      const layer = LAYERS[Number(ev.args.layer)];
      if (layer !== undefined) absorbed[layer] += ev.args.amountUsdc;
    }
    const liquidated = await liquidationEngine.queryFilter(liquidationEngine.filters.AccountLiquidated(), startBlock);
    const byKeeper = liquidated.filter((e) => e.args.keeper.toLowerCase() === ctx.keeper.address.toLowerCase());
    let negative = 0n;
    let stillLiquidatable = 0;
    for (const v of victims) {
      const c = await clearingHouse.collateralOf(v.address);
      if (c < 0n) negative += -c;
      const [liq] = await liquidationEngine.isLiquidatable(v.address);
      if (liq && (await clearingHouse.marketsOf(v.address)).length > 0) stillLiquidatable++;
    }
    const [, socialisedAfter] = await clearingHouse.totals();
    const socialised = socialisedAfter - socialisedBefore;
    ctx.log(
      `index ${price.toFixed(3)} → ${(price * 0.6).toFixed(3)} USDC/CH; the keeper liquidated ${byKeeper.length} account(s) ` +
        `(${liquidated.length} liquidations in all); deficits absorbed: guarantors ${formatUnits(absorbed.guarantor, 6)} USDC, ` +
        `insurance ${formatUnits(absorbed.insurance, 6)} USDC, socialised ${formatUnits(absorbed.socialised, 6)} USDC`,
    );
    ctx.log(
      `guarantor capital ${before.guarantorsUsdc.toFixed(2)} → ${after.guarantorsUsdc.toFixed(2)} USDC; insurance fund ` +
        `${before.insuranceUsdc.toFixed(2)} → ${after.insuranceUsdc.toFixed(2)} USDC`,
    );
    ctx.figure("shock.indexDropPct", 40);
    ctx.figure("shock.liquidations", liquidated.length);
    ctx.figure("shock.liquidationsByKeeper", byKeeper.length);
    ctx.figure("shock.keeperLiquidationActions", ctx.keeper.successes("liquidations") - liquidationsBefore);
    ctx.figure("shock.absorbedByGuarantorsUsdc", formatUnits(absorbed.guarantor, 6));
    ctx.figure("shock.absorbedByInsuranceUsdc", formatUnits(absorbed.insurance, 6));
    // auto-deleveraging (the keeper's liquidation job nominates and executes it) when the shock exhausts the fund
    ctx.figure("shock.absorbedByAdlUsdc", formatUnits(absorbed.adl, 6));
    ctx.figure("shock.socialisedUsdc", formatUnits(socialised, 6));
    ctx.figure("shock.unabsorbedBadDebtUsdc", fmtUsdc(negative + socialised).toFixed(6));
    ctx.figure("shock.noUnabsorbedBadDebt", negative === 0n && socialised === 0n);
    ctx.figure("shock.accountsLeftLiquidatable", stillLiquidatable);
  },
};
