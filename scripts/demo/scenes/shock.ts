import { formatUnits } from "ethers";
import type { DemoContext, Scene } from "../types.js";
import { backstops, clearingCast, fmtUsdc, fundUsdc, trader, usdc6, wad } from "./clearing.js";
import { allocate, perpTrade } from "./perps.js";

const HOUR = 3_600;
/** IClearingHouse.Layer: Account, Guarantor, Insurance, Socialised (no longer emitted), Adl (auto-deleveraging). */
const LAYERS = [undefined, "guarantor", "insurance", "socialised", "adl"] as const;

/** USDC each layer absorbed (ClearingHouse DeficitAbsorbed events from `fromBlock`). */
async function absorbedSince(ctx: DemoContext, fromBlock: number) {
  const { clearingHouse } = ctx.protocol;
  const absorbed = { guarantor: 0n, insurance: 0n, socialised: 0n, adl: 0n };
  for (const ev of await clearingHouse.queryFilter(clearingHouse.filters.DeficitAbsorbed(), fromBlock)) {
    const layer = LAYERS[Number(ev.args.layer)];
    if (layer !== undefined) absorbed[layer] += ev.args.amountUsdc;
  }
  return absorbed;
}

const TITLE =
  "Two CH price shocks: −40 % walks the waterfall (margin → guarantor → insurance); −60 % with the fund drained";
let titleNow = TITLE;

/**
 * Two CH price shocks (issue 20 item 8: the shock uses every layer of the waterfall and plots each layer's absorption).
 *
 * 1. −40 %. Before it, Frank (Ivan's thin closed guarantor) and Alice (Grace's) hold leveraged longs; the index gaps
 *    down 40 % in one step; the keeper program's liquidations job finds the accounts below maintenance margin from
 *    the ClearingHouse's events and liquidates them; each deficit walks the waterfall: the account's margin, then its
 *    guarantor's capital, then the insurance fund.
 * 2. −60 % with the insurance fund drained (`secondShock`): Heidi, the fund's staker, leaves after the first shock
 *    (request, the cooldown, withdraw) and keeps a token stake; Ivan tops his capital up and Frank goes long ≈ 9×
 *    again, Carol (Grace's) short. The index gaps down 60 %: Frank's deficit takes Ivan's capital, then what is left
 *    in the fund, and the rest opens an auto-deleveraging claim the keeper's liquidations job nominates (the most
 *    profitable opposite positions, PnL × leverage) and executes after the window: Carol's profitable short is
 *    reduced at Frank's bankruptcy price. Nothing is socialised and no bad debt is left on any account.
 */
export const shockScene: Scene = {
  get title() {
    return titleNow;
  },
  requires: ["PerpMarket", "LiquidityVault", "LiquidationEngine", "GuarantorPool", "InsuranceFund"],
  async run(ctx) {
    titleNow = TITLE;
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
    const absorbed = await absorbedSince(ctx, startBlock);
    const liquidated = await liquidationEngine.queryFilter(liquidationEngine.filters.AccountLiquidated(), startBlock);
    const byKeeper = liquidated.filter((e) => e.args.keeper.toLowerCase() === ctx.keeper.address.toLowerCase());
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
    ctx.figure("shock.absorbedByAdlUsdc", formatUnits(absorbed.adl, 6));
    ctx.figure("shock.socialisedUsdc", formatUnits(socialised, 6));
    layerRows(ctx, "−40 %", absorbed);
    for (const [k, v] of Object.entries(absorbed))
      if (k !== "socialised") ctx.figure(`shock40.layers.${k}Usdc`, formatUnits(v, 6));

    // the second shock: the insurance fund drained, −60 %, auto-deleveraging
    const second = await secondShock(ctx);
    const adlSteps = second.adlSteps;
    const total = {
      guarantor: absorbed.guarantor + second.absorbed.guarantor,
      insurance: absorbed.insurance + second.absorbed.insurance,
      adl: absorbed.adl + second.absorbed.adl,
    };
    for (const [k, v] of Object.entries(second.absorbed))
      if (k !== "socialised") ctx.figure(`shock60.layers.${k}Usdc`, formatUnits(v, 6));
    for (const [k, v] of Object.entries(total)) ctx.figure(`shock.layers.${k}Usdc`, formatUnits(v, 6));
    ctx.figure("shock.adlSteps", adlSteps);

    // after both: no account of the cast with negative collateral, nothing socialised, nobody left liquidatable
    let negative = 0n;
    let stillLiquidatable = 0;
    for (const v of [...victims, ...second.accounts]) {
      const c = await clearingHouse.collateralOf(v.address);
      if (c < 0n) negative += -c;
      const [liq] = await liquidationEngine.isLiquidatable(v.address);
      if (liq && (await clearingHouse.marketsOf(v.address)).length > 0) stillLiquidatable++;
    }
    const [, socialisedEnd] = await clearingHouse.totals();
    const socialisedBoth = socialisedEnd - socialisedBefore;
    ctx.figure("shock.socialisedBothUsdc", formatUnits(socialisedBoth, 6));
    ctx.figure("shock.unabsorbedBadDebtUsdc", fmtUsdc(negative + socialisedBoth).toFixed(6));
    ctx.figure("shock.noUnabsorbedBadDebt", negative === 0n && socialisedBoth === 0n);
    ctx.figure("shock.accountsLeftLiquidatable", stillLiquidatable);
    if (second.absorbed.adl > 0n)
      titleNow =
        "Two CH price shocks: −40 % walks the waterfall (margin → guarantor → insurance); −60 % with the fund " +
        "drained ends in auto-deleveraging (guarantor → insurance → ADL)";
    else titleNow = `${TITLE} (no auto-deleveraging: ${second.note})`;
  },
};

/** A perp trade the keeper must fill: a cancelled order (margin, caps, price limit) throws with its decoded reason. */
async function filledTrade(ctx: DemoContext, who: { address: string }, sizeCh: bigint): Promise<void> {
  const perp = ctx.protocol.perpMarket;
  const from = await ctx.connection.ethers.provider.getBlockNumber();
  await perpTrade(ctx, who as Parameters<typeof perpTrade>[1], sizeCh);
  const cancelled = await perp.queryFilter(perp.filters.OrderCancelled(who.address), from + 1);
  if (cancelled.length > 0) {
    const reason = cancelled[0]!.args.reason;
    let why = reason;
    for (const c of [perp, ctx.protocol.guarantorPool, ctx.protocol.clearingHouse]) {
      try {
        const e = c.interface.parseError(reason);
        if (e !== null) {
          why = `${e.name}(${e.args.join(", ")})`;
          break;
        }
      } catch {
        // not one of this contract's errors
      }
    }
    throw new Error(`the perp order of ${formatUnits(sizeCh, 18)} CH by ${who.address} was cancelled: ${why}`);
  }
}

/** One bar per layer for the absorption plot (shock-layers.svg). */
function layerRows(ctx: DemoContext, shock: string, a: { guarantor: bigint; insurance: bigint; adl: bigint }) {
  for (const [layer, v] of [
    ["guarantor", a.guarantor],
    ["insurance fund", a.insurance],
    ["auto-deleveraging", a.adl],
  ] as const)
    ctx.series("shockLayers", { shock, layer, usdc: fmtUsdc(v) });
}

/**
 * The second shock (see shockScene): the fund's staker leaves, a thin guarantor's customer and a profitable short
 * meet a 60 % gap; returns what each layer absorbed, the ADL steps executed and the accounts involved.
 */
async function secondShock(ctx: DemoContext) {
  const { insuranceFund: fund, guarantorPool, clearingHouse, liquidationEngine } = ctx.protocol;
  const { insuranceStaker: heidi, ivan } = await clearingCast(ctx);
  const provider = ctx.connection.ethers.provider;
  // Heidi leaves the fund after the first shock, keeping a token stake of 250 USDC: request, cooldown, withdraw
  const assets = await fund.totalAssets();
  const keepShares = ((await fund.totalShares()) * usdc6(250)) / (assets === 0n ? 1n : assets);
  const held = await fund.sharesOf(heidi.address);
  if (held > keepShares) {
    const leaving = held - keepShares;
    await (await fund.connect(heidi).requestWithdraw(leaving)).wait();
    const { readyAt } = await fund.withdrawRequest(heidi.address);
    while ((await provider.getBlock("latest"))!.timestamp < Number(readyAt))
      await ctx.advance(Math.min(86_400, Number(readyAt) - (await provider.getBlock("latest"))!.timestamp));
    await (await fund.connect(heidi).withdraw(leaving, heidi.address)).wait();
  }
  const insuranceBefore = await fund.totalAssets();
  ctx.log(
    `Heidi left the insurance fund after the first shock (a ${((Number(assets - insuranceBefore) / Number(assets || 1n)) * 100).toFixed(1)} % withdrawal ` +
      `after the cooldown): ${formatUnits(assets, 6)} → ${formatUnits(insuranceBefore, 6)} USDC`,
  );
  // Ivan tops his capital up to 400 USDC (and his DPS bond back to the minimum: the first shock's uncovered loss
  // cost him part of it); Frank (his customer) goes long ≈ 9× again; Carol (Grace's) goes short
  const [minDps] = await guarantorPool.params();
  const bond = (await guarantorPool.guarantorInfo(ivan.address)).dpsStaked;
  if (bond < minDps) {
    const pool = await guarantorPool.getAddress();
    await (await ctx.protocol.dps.connect(ctx.deployer).transfer(ivan.address, minDps - bond)).wait();
    await (await ctx.protocol.dps.connect(ivan).approve(pool, minDps - bond)).wait();
    await (await guarantorPool.connect(ivan).stakeDps(minDps - bond)).wait();
    ctx.log(
      `Ivan restaked ${formatUnits(minDps - bond, 18)} DPS: his bond was slashed below the minimum after the first shock`,
    );
  }
  const capital = (await guarantorPool.guarantorInfo(ivan.address)).capitalUsdc;
  if (capital < usdc6(400)) {
    await fundUsdc(ctx, ivan, usdc6(400) - capital, await guarantorPool.getAddress());
    await (await guarantorPool.connect(ivan).depositCapital(ivan.address, usdc6(400) - capital)).wait();
  }
  const price = ctx.index();
  const frank = await trader(ctx, "frank", usdc6(400));
  const carol = await trader(ctx, "carol", usdc6(3_000));
  const perpAddr = await ctx.protocol.perpMarket.getAddress();
  for (const who of [frank, carol]) {
    const held = (await clearingHouse.positionOf(who.address, perpAddr)).sizeCh;
    if (held !== 0n) await filledTrade(ctx, who, -held);
  }
  const frankCh = wad(Math.floor(3_500 / price).toString()); // ≈ 9× his 400 USDC
  await filledTrade(ctx, frank, frankCh);
  // Carol takes the other side: after the gap hers is among the profitable shorts auto-deleveraging reduces
  await filledTrade(ctx, carol, -frankCh);
  const gBefore = (await guarantorPool.guarantorInfo(ivan.address)).capitalUsdc;
  const start = await provider.getBlockNumber();
  const adlBefore = ctx.keeper.successes("liquidations");
  ctx.series("shock60", { hour: 0, ...(await backstops(ctx)), index: ctx.index() });
  await ctx.setIndex(Number((ctx.index() * 0.4).toFixed(6)));
  // the keeper liquidates (the claim opens), then nominates the ADL candidates while the round's nomination window
  // (LiquidationEngine.adlWindow(), 300 s) is open, then — time moving on past the window — executes the claim
  await ctx.keeper.tick();
  await ctx.keeper.tick();
  for (let h = 1; h <= 4; h++) {
    await ctx.advance(HOUR);
    ctx.series("shock60", { hour: h, ...(await backstops(ctx)), index: ctx.index() });
  }
  const absorbed = await absorbedSince(ctx, start + 1);
  // Carol takes what is left of her short's profit off the table
  const left = (await clearingHouse.positionOf(carol.address, perpAddr)).sizeCh;
  if (left !== 0n) await filledTrade(ctx, carol, -left);
  let adlSteps = 0;
  for (const ev of await liquidationEngine.queryFilter(liquidationEngine.filters.AdlRoundExecuted(), start + 1))
    adlSteps += Number(ev.args.steps);
  const nominations = await liquidationEngine.queryFilter(liquidationEngine.filters.AdlNominated(), start + 1);
  const reduced = await clearingHouse.queryFilter(clearingHouse.filters.PositionDeleveraged(), start + 1);
  const insuranceAfter = await fund.totalAssets();
  ctx.log(
    `index ${price.toFixed(3)} → ${(price * 0.4).toFixed(3)} USDC/CH (−60 %): Frank's deficit took Ivan's capital ` +
      `(${formatUnits(absorbed.guarantor, 6)} USDC of ${formatUnits(gBefore, 6)}), the insurance fund ` +
      `(${formatUnits(absorbed.insurance, 6)} USDC; ${formatUnits(insuranceBefore, 6)} → ${formatUnits(insuranceAfter, 6)}) ` +
      `and auto-deleveraging (${formatUnits(absorbed.adl, 6)} USDC in ${adlSteps} step(s): ${nominations.length} ` +
      `nomination(s) by the keeper, ${reduced.length} position(s) reduced at the bankruptcy price)`,
  );
  ctx.figure("shock60.indexDropPct", 60);
  ctx.figure("shock60.insuranceBeforeUsdc", formatUnits(insuranceBefore, 6));
  ctx.figure("shock60.insuranceAfterUsdc", formatUnits(insuranceAfter, 6));
  ctx.figure("shock60.adlNominations", nominations.length);
  ctx.figure("shock60.keeperLiquidationActions", ctx.keeper.successes("liquidations") - adlBefore);
  layerRows(ctx, "−60 % (fund drained)", absorbed);
  const note =
    absorbed.adl > 0n ? "" : insuranceAfter > 0n ? "the insurance fund covered the deficit" : "no ADL step ran";
  return { absorbed, adlSteps, accounts: [frank, carol], note };
}
