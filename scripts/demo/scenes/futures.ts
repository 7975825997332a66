import { formatUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext, Scene } from "../types.js";
import { fundUsdc, trader, usdc6, wad } from "./clearing.js";
import { allocate } from "./perps.js";
import { domainOf, signFuturesOrder, signOrder, type SpotOrder } from "@chx/sdk";
import { DeliveryOrders__factory, type DeliveryOrders } from "../../../types/ethers-contracts/index.js";
import { attest } from "./providers.js";
import { batchTerms, driveTask, PRESCRIPTION } from "../task-flow.js";

const HOUR = 3_600;
const DAY = 86_400;
const MONTH = 30 * DAY;
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
export async function executeFuturesOrders(ctx: DemoContext): Promise<void> {
  const { futures } = ctx.protocol;
  await ctx.advance(Number((await futures.params()).minOrderDelaySec) + 1);
  await ctx.keeper.settle();
  const [left] = await futures.pendingOrders();
  if (left !== 0n) throw new Error(`${left} futures order(s) still pending after the keeper settled`);
}

/** What Alice's delivery order turned into: compute consumed as tasks, or why none was. */
export interface DeliveryOutcome {
  /** Tasks of the order accepted and claimed by this scene. */
  tasks: number;
  /** CH paid to their executors (one CH is one hour of the class's reference system). */
  consumedCh: bigint;
  /** Why no compute was delivered ("" when some was). */
  reason: string;
}

const reasonOf = (e: unknown) => (e instanceof Error ? e.message.split("\n")[0]! : String(e));

/**
 * Alice consumes her delivery order as compute (issue 19, docs/futures.md "Delivery as compute"): anyone assigns the
 * order to a provider owing CH (ProviderMatcher Delivery mode over the demo's providers), Alice submits one batch task
 * paid from the order (no new payment), providers owing enough CH bid, the council verifies (scripts/demo/task-flow.ts)
 * and the task is claimed back into the order's accounts. Every step that cannot happen is reported, never faked.
 */
export async function takeDelivery(
  ctx: DemoContext,
  orders: DeliveryOrders,
  orderId: bigint,
  alice: HardhatEthersSigner,
): Promise<DeliveryOutcome> {
  const { providerRegistry: reg } = ctx.protocol;
  const none = (reason: string): DeliveryOutcome => ({ tasks: 0, consumedCh: 0n, reason });
  const order = await orders.order(orderId);
  if (order.status !== 1n) return none("Alice holds no open delivery order");
  const providers = Array.from({ length: Math.max(1, ctx.opts.providers) }, (_, i) => ctx.actor(`provider${i}`));
  // a long tenor outlives the providers' attestations (30 days): the attester renews the lapsed ones first
  const now = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
  let renewed = 0;
  for (const [i, p] of providers.entries()) {
    const info = await reg.providerInfo(p.address);
    if (info.registered && Number(info.attestationExpiresAt) <= now + DAY) {
      await attest(ctx, p, i);
      renewed++;
    }
  }
  if (renewed > 0) ctx.log(`the attester renewed ${renewed} provider attestation(s) that lapsed over the tenor`);
  let assigned: string;
  try {
    const candidates = providers.map((p) => p.address);
    assigned = await orders.assign.staticCall(orderId, candidates);
    await (await orders.connect(ctx.deployer).assign(orderId, candidates)).wait();
  } catch (e) {
    return none(`the order could not be assigned (${reasonOf(e)})`);
  }
  const [pflopHours, providerHours] = await orders.meter(orderId);
  ctx.log(
    `Alice's order of ${formatUnits(order.availableCh, 18)} CH (${fmt(pflopHours).toFixed(1)} PFLOP-hours of class ` +
      `${order.workloadClass}) assigned to ${assigned.slice(0, 10)}… (Delivery mode: owes the CH; ` +
      `${fmt(providerHours).toFixed(1)} of its hours)`,
  );
  // one batch task consuming the whole order; the executor is paid from it and burns that CH against its liability
  const maxPayment = order.availableCh;
  const t0 = BigInt((await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp);
  let taskId: bigint;
  try {
    const terms = batchTerms(0, maxPayment, t0);
    taskId = await orders.connect(alice).submitTask.staticCall(orderId, terms, PRESCRIPTION);
    await (await orders.connect(alice).submitTask(orderId, terms, PRESCRIPTION)).wait();
  } catch (e) {
    return none(`Alice's task could not be submitted (${reasonOf(e)})`);
  }
  // bidders: providers owing at least their price in CH (the assigned one first), at 80 % and 85 % of the budget (under the bid cap: the budget less the council fees and keeper bounties)
  const bids: Array<{ provider: HardhatEthersSigner; price: bigint }> = [];
  const ordered = [...providers].sort((a, b) => (a.address === assigned ? -1 : b.address === assigned ? 1 : 0));
  for (const p of ordered) {
    if (bids.length === 2) break;
    const price = (maxPayment * (bids.length === 0 ? 80n : 85n)) / 100n;
    if ((await reg.matchingProfile(p.address)).outstandingCh >= price) bids.push({ provider: p, price });
  }
  let outcome;
  try {
    if (bids.length === 0) throw new Error("no provider owes enough CH to bid");
    outcome = await driveTask(ctx, taskId, bids, providers);
  } catch (e) {
    return none(`task ${taskId} did not run to its end (${reasonOf(e)})`);
  }
  const statsBefore = await orders.stats();
  await (await orders.connect(ctx.deployer).claimTask(taskId)).wait();
  const stats = await orders.stats();
  const consumedCh = stats.chDelivered - statsBefore.chDelivered;
  const tasks = Number(stats.tasksCompleted - statsBefore.tasksCompleted);
  const after = await orders.order(orderId);
  ctx.log(
    `task ${taskId} (status ${outcome.status}): executor ${outcome.executor.slice(0, 10)}… delivered ` +
      `${formatUnits(consumedCh, 18)} compute hours, burned against its liability; ` +
      `${formatUnits(after.availableCh, 18)} CH left in Alice's order (back to her when its window closes)`,
  );
  return { tasks, consumedCh, reason: tasks > 0 ? "" : `task ${taskId} ended with status ${outcome.status}` };
}

const TITLE = "Futures: Alice buys futures and elects delivery; Bob sells futures; the price converges at expiry";
let titleNow = TITLE;

/**
 * The forward curve (issue 19): governance lists `months` more monthly expiries after `expiry`; in each, the maker
 * (`carla`: Erin in the scene) signs a sell order (EIP-712) at the index plus 1 % per month of carry and the taker
 * (`frank`: Dave) fills it — trader against trader at the order's price, no vault. Each fill is that month's curve point (`curvePoint`). Returns the
 * points as (months ahead, price) and how many months traded; a failing step is logged, not faked.
 */
async function forwardCurve(
  ctx: DemoContext,
  nearId: bigint,
  expiry: bigint,
  months: number,
  carla: HardhatEthersSigner,
  frank: HardhatEthersSigner,
): Promise<{ traded: number; points: { month: number; price: number }[] }> {
  const { futures } = ctx.protocol;
  const d = await futures.eip712Domain();
  const domain = { name: d.name, version: d.version, chainId: d.chainId, verifyingContract: d.verifyingContract };
  const points: { month: number; price: number }[] = [];
  const [, nearIndex] = await futures.quote(nearId, 0n);
  points.push({ month: 0, price: fmt(nearIndex) });
  let traded = 0;
  for (let m = 1; m <= months; m++) {
    try {
      await (await futures.connect(ctx.deployer).listSeries(expiry + BigInt(m * MONTH), 0)).wait();
      const [id] = await futures.seriesCount();
      const [, index] = await futures.quote(id, 0n);
      const now = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
      const order = {
        maker: carla.address,
        seriesId: id,
        isBuy: false,
        sizeCh: wad(50),
        priceWad: (index * BigInt(10_000 + 100 * m)) / 10_000n,
        nonce: BigInt(m),
        expiry: BigInt(now + DAY),
        taker: frank.address,
      };
      const signature = await signFuturesOrder(carla, domain, order);
      await (await futures.connect(frank).fillOrder(order, signature, order.sizeCh)).wait();
      const point = await futures.curvePoint(id);
      points.push({ month: m, price: fmt(point.priceWad) });
      traded++;
    } catch (e) {
      ctx.log(`forward curve: month ${m} did not trade (${reasonOf(e)})`);
    }
  }
  return { traded, points };
}

/**
 * A dated CH future from listing to physical delivery (every trade a two-step order the keeper executes). Governance
 * lists a series; Erin speculates long and Dave
 * short (the skew sets the premium; Dave closes two days before expiry); Alice buys 200 CH and elects delivery — she wants compute, not cash; Bob, who
 * bought CH on the spot market, sells 200 CH and escrows them for delivery. Time runs to expiry: the premium
 * shrinks to zero and the futures price meets the index. The keeper program fixes the settlement price,
 * finalises it after the dispute window and settles every position through the market's checker(): Bob's CH go to
 * Alice at the settlement price as a delivery order, everyone else settles in cash. Alice then consumes the order as
 * a compute task (takeDelivery). The title says "takes delivery of compute" only once compute was delivered: the
 * runner reads it again after the run for the report.
 */
export const futuresScene: Scene = {
  get title() {
    return titleNow;
  },
  requires: ["FuturesMarket", "LiquidityVault", "SpotMarket", "GuarantorPool"],
  async run(ctx) {
    titleNow = TITLE;
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
    const curve = await forwardCurve(ctx, seriesId, expiry, 3, erin, dave);
    for (const pt of curve.points) ctx.series("forwardCurve", pt);
    ctx.figure("futures.curveSeries", curve.traded);
    ctx.log(
      `forward curve by signed orders (Erin sells the next months, Dave buys them): ` +
        curve.points.map((pt) => `+${pt.month}m ${pt.price.toFixed(4)}`).join(", "),
    );
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
    const delivery = await takeDelivery(ctx, orders, await orders.orderId(seriesId, alice.address), alice);
    // the delivery plot: this order is the dated future's (the cast scene adds Alice's schedule month by month)
    if (delivery.consumedCh > 0n)
      ctx.series("delivery", { label: "dated future", month: 0, computeHours: fmt(delivery.consumedCh) });
    if (delivery.tasks > 0) {
      titleNow =
        "Futures: Alice buys futures and takes delivery of compute; Bob sells futures; the price converges at expiry";
    } else {
      ctx.log(`no compute was delivered: ${delivery.reason}`);
      titleNow = `${TITLE} (no compute delivered: ${delivery.reason})`;
    }
    const deliveryStats = await orders.stats();
    const created = await orders.queryFilter(orders.filters.DeliveryOrderCreated());
    ctx.figure("delivery.ordersCreated", created.length);
    ctx.figure("delivery.tasksCompleted", Number(deliveryStats.tasksCompleted));
    ctx.figure("delivery.computeHoursDelivered", formatUnits(deliveryStats.chDelivered, 18));
    ctx.figure("delivery.failedDeliveriesSlashedDps", formatUnits(deliveryStats.slashedDps, 18));
  },
};
