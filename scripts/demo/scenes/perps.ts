import { formatUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext, Scene } from "../types.js";
import { fundUsdc, trader, usdc6, wad } from "./clearing.js";
import { Roles } from "@chx/sdk";

const HOUR = 3_600;
const fmt = (x: bigint, d = 18) => Number(formatUnits(x, d));

/** Commits an order of `sizeCh` (signed) with 3 % slippage allowed (IDelayedOrders); returns the quoted fill price. */
export async function perpCommit(ctx: DemoContext, who: HardhatEthersSigner, sizeCh: bigint): Promise<number> {
  const perp = ctx.protocol.perpMarket;
  const [fill] = await perp.quote(sizeCh);
  const limit = sizeCh > 0n ? (fill * 103n) / 100n : (fill * 97n) / 100n;
  await (await perp.connect(who).commitOrder(sizeCh, limit)).wait();
  return fmt(fill);
}

/**
 * Lets the keeper program fill the committed orders: chain time passes the orders' delay (the index moves on as
 * always), then the keeper ticks until nothing is left to send — its checker job executes one due order per tick at
 * the oracle round in force at the order's price time (PerpMarket.checker()).
 */
export async function executeOrders(ctx: DemoContext): Promise<void> {
  const perp = ctx.protocol.perpMarket;
  await ctx.advance(Number((await perp.params()).minOrderDelaySec) + 1);
  await ctx.keeper.settle();
  const left = (await perp.marketState()).pendingOrders;
  if (left !== 0n) throw new Error(`${left} perp order(s) still pending after the keeper settled`);
}

/** Commits `sizeCh` and waits for the keeper to fill it; returns the quoted fill price. */
export async function perpTrade(ctx: DemoContext, who: HardhatEthersSigner, sizeCh: bigint): Promise<number> {
  const fill = await perpCommit(ctx, who, sizeCh);
  await executeOrders(ctx);
  return fill;
}

/** LP capital in the LiquidityVault, once per run: Erin and Judy deposit; Judy manages the allocations. */
export async function vaultLiquidity(ctx: DemoContext): Promise<HardhatEthersSigner> {
  const { liquidityVault: vault, accessManager } = ctx.protocol;
  const manager = ctx.actor("judy");
  if ((await vault.totalAssets()) > 0n) return manager;
  const vaultAddr = await vault.getAddress();
  let total = 0n;
  for (const [name, amount] of [
    ["erin", 40_000],
    ["judy", 60_000],
  ] as const) {
    const lp = ctx.actor(name);
    await fundUsdc(ctx, lp, usdc6(amount), vaultAddr);
    await (await vault.connect(lp).deposit(usdc6(amount), lp.address)).wait();
    total += usdc6(amount);
  }
  // the vault's capital manager: Roles.KEEPER on LiquidityVault.allocate, granted by governance
  await (await accessManager.connect(ctx.deployer).grantRole(Roles.KEEPER, manager.address, 0)).wait();
  ctx.log(`LPs Erin and Judy deposited ${formatUnits(total, 6)} USDC in the LiquidityVault (ERC-4626)`);
  ctx.figure("vault.depositsUsdc", formatUnits(total, 6));
  return manager;
}

/** Allocates `amountUsdc` of the vault's idle capital to `market` (listing it in the vault first if needed). */
export async function allocate(ctx: DemoContext, market: string, label: string, amountUsdc: bigint): Promise<void> {
  const { liquidityVault: vault } = ctx.protocol;
  const manager = await vaultLiquidity(ctx);
  const listed = (await vault.markets()).map((a) => a.toLowerCase());
  if (!listed.includes(market.toLowerCase())) await (await vault.connect(ctx.deployer).addMarket(market)).wait();
  await (await vault.connect(manager).allocate(market, amountUsdc)).wait();
  ctx.log(`the vault manager allocated ${formatUnits(amountUsdc, 6)} USDC to the ${label}'s PnL pool`);
}

/**
 * At launch, before time moves: the keeper pokes the perp's funding from the first hour on and each poke owes a
 * bounty against the market's equity; with no LP capital behind it yet the vault's equity would go negative and
 * refuse every deposit (VaultInsolvent). So the LPs come first.
 */
export const launchScene: Scene = {
  title: "Launch: LPs fund the LiquidityVault that backs the perp and futures markets",
  requires: ["LiquidityVault"],
  async run(ctx) {
    await vaultLiquidity(ctx);
  },
};

/**
 * Two days of perpetual trading, hour by hour: longs crowd in on day one (funding turns positive, longs pay),
 * Carol turns bearish on day two (the skew flips, the rate restarts from zero and turns negative). Traders commit
 * orders; the keeper program executes them through the market's checker() once their delay has passed (at the index
 * of that moment, so nobody trades ahead of a visible index update) and pokes the funding index every hour.
 */
export const perpsScene: Scene = {
  title: "Perps: the LP vault backs the perp, traders trade, funding flows",
  requires: ["PerpMarket", "LiquidityVault", "ClearingHouse", "GuarantorPool"],
  async run(ctx) {
    const { perpMarket: perp, liquidityVault: vault } = ctx.protocol;
    await allocate(ctx, await perp.getAddress(), "PerpMarket", usdc6(60_000));
    const names = ["alice", "bob", "carol", "dave"];
    const traders = [];
    for (const n of names) traders.push(await trader(ctx, n, usdc6(4_000)));
    const hours = 48;
    const startBlock = await ctx.connection.ethers.provider.getBlockNumber();
    const delay = Number((await perp.params()).minOrderDelaySec);
    let orders = 0;
    let volumeCh = 0n;
    let mismatches = 0;
    const keeperBefore = ctx.keeper.successes("checker");
    // chance a trade is a buy: Alice is a bull, Bob a bear, Carol follows the trend (long on day one, short on
    // day two), Dave is noise; each trades in half of the hours
    const bias = (i: number, hour: number) => [0.75, 0.25, hour < hours / 2 ? 0.8 : 0.15, 0.5][i]!;
    for (let hour = 0; hour < hours; hour++) {
      let committed = 0;
      for (const [i, t] of traders.entries()) {
        if (ctx.rng.next() < 0.5) continue;
        const long = ctx.rng.next() < bias(i, hour);
        const size = wad((300 + Math.floor(ctx.rng.next() * 1_200)).toString());
        const state = await perp.accountState(t.address);
        // keep every account within ±5,000 CH (≈ 10,000 USDC notional on 4,000 USDC margin: 2.5× leverage)
        const next = state.sizeCh + (long ? size : -size);
        if (next > wad(5_000) || next < -wad(5_000)) continue;
        await perpCommit(ctx, t, long ? size : -size);
        orders++;
        committed++;
        volumeCh += size;
      }
      if (committed > 0) await executeOrders(ctx);
      await ctx.advance(HOUR - delay - 1);
      const s = await perp.marketState();
      const [, rate] = await perp.currentFunding();
      const skew = s.longOiCh - s.shortOiCh;
      if (skew !== 0n && rate !== 0n && skew > 0n !== rate > 0n) mismatches++;
      ctx.series("funding", { hour: hour + 1, fundingRate: fmt(rate) * 100 });
      ctx.series("openInterest", { hour: hour + 1, long: fmt(s.longOiCh), short: fmt(s.shortOiCh) });
    }
    const s = await perp.marketState();
    const [, rate] = await perp.currentFunding();
    const trades = (await perp.queryFilter(perp.filters.OrderExecuted(), startBlock)).length;
    const cancelled = (await perp.queryFilter(perp.filters.OrderCancelled(), startBlock)).length;
    const pokes = (await perp.queryFilter(perp.filters.FundingPoked(), startBlock)).length;
    const keeperActions = ctx.keeper.successes("checker") - keeperBefore;
    ctx.log(
      `${trades} trades, ${fmt(volumeCh).toFixed(0)} CH traded over ${hours} h; open interest ${fmt(s.longOiCh).toFixed(0)} long / ` +
        `${fmt(s.shortOiCh).toFixed(0)} short; funding rate ${(fmt(rate) * 100).toFixed(3)} %/day; the keeper executed or ` +
        `cancelled orders and poked funding ${keeperActions}× (${pokes} pokes, ${cancelled} orders cancelled)`,
    );
    ctx.figure("perps.orders", orders);
    ctx.figure("perps.trades", trades);
    ctx.figure("perps.ordersCancelled", cancelled);
    ctx.figure("perps.volumeCh", fmt(volumeCh).toFixed(2));
    ctx.figure("perps.longOiCh", fmt(s.longOiCh).toFixed(2));
    ctx.figure("perps.shortOiCh", fmt(s.shortOiCh).toFixed(2));
    ctx.figure("perps.fundingRatePctPerDay", (fmt(rate) * 100).toFixed(4));
    ctx.figure("perps.fundingSignMatchesSkew", mismatches === 0);
    ctx.figure("perps.fundingPokes", pokes);
    ctx.figure("perps.keeperActions", keeperActions);
    ctx.figure("perps.vaultSharePrice", fmt(await vault.sharePriceWad()).toFixed(6));
  },
};
