import { formatUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext, Scene } from "../types.js";
import { fundUsdc, trader, usdc6, wad } from "./clearing.js";
import { allocate } from "./perps.js";
import { domainOf, signOrder, type SpotOrder } from "@chx/sdk";
import { DeliveryOrders__factory } from "../../../types/ethers-contracts/index.js";

const HOUR = 3_600;
const DAY = 86_400;
const fmt = (x: bigint, d = 18) => Number(formatUnits(x, d));

/** `buyer` buys `amountCh` CH from the providers' signed sell orders on the spot market, at the index. */
export async function buyChOnSpot(ctx: DemoContext, buyer: HardhatEthersSigner, amountCh: bigint): Promise<void> {
  const { spot, ch, providerRegistry: reg } = ctx.protocol;
  const market = await spot.getAddress();
  const domain = await domainOf(ctx.connection.ethers.provider, "SpotMarket", market);
  const priceWad = wad(ctx.index().toFixed(6));
  await fundUsdc(ctx, buyer, usdc6(fmt(amountCh) * ctx.index() * 1.01 + 1), market);
  const now = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
  let left = amountCh;
  for (let i = 0; i < Math.max(1, ctx.opts.providers) && left > 0n; i++) {
    const p = ctx.actor(`provider${i}`);
    const bal = await ch.balanceOf(p.address);
    if (bal === 0n || (await reg.liabilityOf(p.address)) === 0n) continue;
    const amount = bal < left ? bal : left;
    const order: SpotOrder = {
      maker: p.address,
      isBuy: false,
      amountCh: amount,
      priceWad,
      nonce: BigInt(now) * 100n + BigInt(i),
      expiry: BigInt(now + DAY),
      taker: buyer.address,
    };
    await (await ch.connect(p).approve(market, amount)).wait();
    await (await spot.connect(buyer).fillOrder(order, await signOrder(p, domain, order), amount)).wait();
    left -= amount;
  }
  if (left > 0n) throw new Error(`the providers hold too little CH: ${formatUnits(left, 18)} CH short`);
}

/**
 * Lets the keeper program fill the committed futures orders (two-step, docs/futures.md): chain time passes the
 * orders' delay, then the keeper ticks until nothing is left — the futures-expiry job's checker() payloads execute one
 * due order per tick at the oracle round in force at the order's price time.
 */
async function executeFuturesOrders(ctx: DemoContext): Promise<void> {
  const { futures } = ctx.protocol;
  await ctx.advance(Number((await futures.params()).minOrderDelaySec) + 1);
  await ctx.keeper.settle();
  const [left] = await futures.pendingOrders();
  if (left !== 0n) throw new Error(`${left} futures order(s) still pending after the keeper settled`);
}

/**
 * A dated CH future from listing to physical delivery (every trade a two-step order the keeper executes). Governance
 * lists a series; Erin speculates long and Dave
 * short (the skew sets the premium; Dave closes two days before expiry); Alice buys 200 CH and elects delivery — she wants compute, not cash; Bob, who
 * bought CH on the spot market, sells 200 CH and escrows them for delivery. Time runs to expiry: the premium
 * shrinks to zero and the futures price meets the index. The keeper program fixes the settlement price,
 * finalises it after the dispute window and settles every position through the market's checker(): Bob's CH go to
 * Alice at the settlement price, everyone else settles in cash.
 */
export const futuresScene: Scene = {
  title: "Futures: Alice buys futures and takes delivery of compute; Bob sells futures; the price converges at expiry",
  requires: ["FuturesMarket", "LiquidityVault", "SpotMarket", "GuarantorPool"],
  async run(ctx) {
    const { futures, ch, clearingHouse } = ctx.protocol;
    const market = await futures.getAddress();
    await allocate(ctx, market, "FuturesMarket", usdc6(30_000));
    // tenor: a quarter of the run, between a week and 90 days
    const tenorDays = Math.min(90, Math.max(7, Math.round(ctx.opts.days / 4)));
    const now = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
    // relative to the chain's clock only (no rounding to wall-clock hours), so a seed replays the same prices
    const expiry = BigInt(now + tenorDays * DAY);
    await (await futures.connect(ctx.deployer).listSeries(expiry, 0)).wait();
    const [seriesId] = await futures.seriesCount();
    ctx.log(`governance listed futures series ${seriesId}, expiry in ${tenorDays} days`);

    const trade = async (who: HardhatEthersSigner, sizeCh: bigint) => {
      const [price] = await futures.quote(seriesId, sizeCh);
      const limit = sizeCh > 0n ? (price * 102n) / 100n : (price * 98n) / 100n;
      await (await futures.connect(who).commitOrder(seriesId, sizeCh, limit)).wait();
      await executeFuturesOrders(ctx);
      return fmt(price);
    };
    const erin = await trader(ctx, "erin", usdc6(5_000));
    const dave = await trader(ctx, "dave", usdc6(3_000));
    const alice = await trader(ctx, "alice", usdc6(2_000));
    const bob = await trader(ctx, "bob", usdc6(1_000));
    const deliverCh = wad(200);
    await trade(erin, wad(6_000));
    await trade(dave, -wad(1_500));
    const alicePrice = await trade(alice, deliverCh);
    await (await futures.connect(alice).electDelivery(seriesId, deliverCh)).wait();
    await buyChOnSpot(ctx, bob, deliverCh);
    const bobPrice = await trade(bob, -deliverCh);
    await (await ch.connect(bob).approve(market, deliverCh)).wait();
    await (await futures.connect(bob).deliver(seriesId, deliverCh)).wait();
    ctx.log(
      `Erin bought 6,000 and Dave sold 1,500 (speculators); Alice bought 200 CH at ${alicePrice.toFixed(4)} and elected ` +
        `delivery; Bob bought 200 CH on spot, sold 200 futures at ${bobPrice.toFixed(4)} and escrowed his CH`,
    );

    // time runs to expiry: daily, then hourly over the last day; the mid price against the index
    const observe = async () => {
      const t = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
      const [mid, index] = await futures.quote(seriesId, 0n);
      const basisBps = (Number(mid - index) / Number(index)) * 10_000;
      ctx.series("convergence", {
        hour: Number(((t - Number(expiry)) / HOUR).toFixed(2)),
        index: fmt(index),
        futures: fmt(mid),
      });
      ctx.series("basis", { hour: Number(((t - Number(expiry)) / HOUR).toFixed(2)), basisBps });
      return { basisBps, index: fmt(index) };
    };
    const first = await observe();
    let last = first;
    const aliceChBefore = await ch.balanceOf(alice.address);
    let daveOut = false;
    for (;;) {
      const t = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
      const left = Number(expiry) - t;
      if (left <= HOUR) break;
      if (!daveOut && left <= 2 * DAY) {
        // a speculator closes before expiry: a short still open at expiry is assigned delivery (pro rata)
        const [price] = await futures.quote(seriesId, wad(1_500));
        await (await futures.connect(dave).closePosition(seriesId, (price * 102n) / 100n)).wait();
        await executeFuturesOrders(ctx);
        ctx.log(
          `two days before expiry Dave closed his short at ${fmt(price).toFixed(4)}: only Bob is left to deliver`,
        );
        daveOut = true;
      }
      await ctx.advance(left > DAY + HOUR ? DAY : HOUR);
      last = await observe();
    }
    // expiry: the keeper fixes the price from the index, finalises it after the 1 h dispute window, then settles
    await ctx.advance(2 * HOUR);
    const fixed = await futures.seriesInfo(seriesId);
    await ctx.advance(2 * HOUR);
    await ctx.keeper.settle(20);
    const info = await futures.seriesInfo(seriesId);
    const settlement = fmt(info.settlementPriceWad);
    // issue 19: an electing long's CH is a delivery order (compute to consume as tasks), not tokens in its wallet
    const orders = DeliveryOrders__factory.connect(ctx.deploy.address("DeliveryOrders"), ctx.deployer);
    const order = await orders.order(await orders.orderId(seriesId, alice.address));
    const received = (await ch.balanceOf(alice.address)) - aliceChBefore + order.availableCh;
    const deliveryStats = await orders.stats();
    const bobLeft = await futures.positionOf(seriesId, bob.address);
    const stillOpen = info.openPositions;
    ctx.series("convergence", { hour: 0, index: settlement, futures: settlement });
    ctx.log(
      `basis ${first.basisBps.toFixed(1)} bps at listing → ${last.basisBps.toFixed(2)} bps an hour before expiry; ` +
        `settlement price ${settlement.toFixed(4)} USDC/CH (fixed by the keeper: ${fixed.finalAt > 0n}); ` +
        `Alice received ${formatUnits(received, 18)} CH; ${stillOpen} position(s) left open`,
    );
    const collateral = await clearingHouse.collateralOf(alice.address);
    ctx.figure("futures.tenorDays", tenorDays);
    ctx.figure("futures.basisAtListingBps", first.basisBps.toFixed(2));
    ctx.figure("futures.basisLastHourBps", last.basisBps.toFixed(4));
    ctx.figure("futures.settlementPrice", settlement.toFixed(6));
    ctx.figure("futures.converged", Math.abs(last.basisBps) < 1 && info.settlementPriceWad > 0n);
    ctx.figure("futures.aliceReceivedCh", formatUnits(received, 18));
    ctx.figure("futures.deliveredCh", formatUnits(info.deliveredCh, 18));
    ctx.figure("futures.positionsLeftOpen", Number(stillOpen));
    ctx.figure("futures.bobEscrowLeftCh", formatUnits(bobLeft.escrowCh, 18));
    ctx.figure("futures.aliceCollateralUsdc", formatUnits(collateral, 6));
    ctx.figure("delivery.ordersCreated", order.status === 0n ? 0 : 1);
    ctx.figure("delivery.tasksCompleted", Number(deliveryStats.tasksCompleted));
    ctx.figure("delivery.computeHoursDelivered", formatUnits(deliveryStats.chDelivered, 18));
    ctx.figure("delivery.failedDeliveriesSlashedDps", formatUnits(deliveryStats.slashedDps, 18));
  },
};
