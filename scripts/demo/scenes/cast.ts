/**
 * The seed's cast with the seed's numbers (seed 000 §10.3–10.4; issue 19 items 4–5): Alice, an AI startup, needs
 * 500 TFLOP-hours of compute a month starting in six months, then 1,000 a month. She converts her schedule into CH
 * through ComputeStandard (one CH is one hour of the workload class's reference system, `refPflops` PFLOPS) and hedges
 * each month with its own monthly standard series (`listStandardSeriesAt`, permissionless up to the listing horizon of
 * about a year), bought from Bob — a datacenter selling his capacity forward — by his signed orders (EIP-712,
 * trader against trader at his price). Months beyond the horizon are listed and hedged once time has moved.
 * Month by month (as many as the run's budget allows, at least two) Alice elects delivery, Bob buys the CH on the
 * spot market and escrows it, the keeper settles the series at expiry, and Alice consumes her delivery order as a
 * compute task (futures.ts `takeDelivery`: assigned through ProviderMatcher's delivery mode, verified by the council).
 * Every figure is read from the chain; a step that cannot happen is logged and reported, never faked.
 */
import { formatUnits, type BaseContract } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext, Scene } from "../types.js";
import { trader, usdc6, wad } from "./clearing.js";
import { buyChOnSpot, takeDelivery } from "./futures.js";
import { perpTrade } from "./perps.js";
import { DeliveryOrders__factory } from "../../../types/ethers-contracts/index.js";
import { signFuturesOrder } from "@chx/sdk";

const HOUR = 3_600;
const DAY = 86_400;
const MONTHLY = 2; // IFuturesTypes.Tenor.Monthly
const ML = 1; // workload class of the reference system
const fmt = (x: bigint, d = 18) => Number(formatUnits(x, d));
const reasonOf = (e: unknown) => (e instanceof Error ? e.message.split("\n")[0]! : String(e));

/** Alice's schedule (seed 000 §10.3): 500 TFLOP-hours a month for six months from six months out, then 1,000. */
export const ALICE_SCHEDULE_TFLOP_HOURS = Array.from({ length: 12 }, (_, m) => (m < 6 ? 500n : 1_000n));
/** Months from now to her first need. */
export const ALICE_FIRST_NEED_MONTHS = 6;

/** CH for `tflopHours` of the reference system of `refPflopsWad` PFLOPS, rounded up (she never hedges short). */
export function chForTflopHours(tflopHours: bigint, refPflopsWad: bigint): bigint {
  const den = refPflopsWad * 1_000n;
  return (tflopHours * 10n ** 36n + den - 1n) / den;
}

/** The first of the month after `t` (00:00 UTC), unix seconds: the monthly grid. */
function nextMonth(t: bigint): bigint {
  const d = new Date(Number(t) * 1000);
  return BigInt(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000);
}

/** Months Alice's deliveries are followed through in a run of `days` simulated days (at least two). */
export function deliveryMonths(days: number): number {
  return Math.max(2, Math.min(12, Math.floor(days / 150)));
}

/** The custom error a call reverted with, decoded against `contract`'s ABI (undefined when it is not one). */
function revertOf(contract: BaseContract, e: unknown): { name: string; args: readonly unknown[] } | undefined {
  const decoded = (e as { revert?: { name: string; args: readonly unknown[] } })?.revert;
  if (decoded?.name !== undefined) return decoded;
  const data = (e as { data?: string })?.data;
  if (typeof data !== "string") return undefined;
  try {
    const parsed = contract.interface.parseError(data);
    return parsed === null ? undefined : { name: parsed.name, args: parsed.args };
  } catch {
    return undefined;
  }
}

/** What the cast leaves for the scenes after it (cast-options.ts): Alice's series, their expiries and sizes. */
export interface CastBook {
  ids: bigint[];
  expiries: bigint[];
  sizes: bigint[];
  /** Months whose delivery the cast followed (their series have expired). */
  monthsFollowed: number;
}
export const castBooks = new WeakMap<DemoContext, CastBook>();

const TITLE = "The seed's cast: Alice hedges 500 then 1,000 TFLOP-hours a month with twelve monthly futures from Bob";
let titleNow = TITLE;

export const castScene: Scene = {
  get title() {
    return titleNow;
  },
  requires: [
    "FuturesMarket",
    "PerpMarket",
    "DeliveryOrders",
    "ComputeStandard",
    "SpotMarket",
    "GuarantorPool",
    "TaskRegistry",
  ],
  async run(ctx) {
    titleNow = TITLE;
    const { futures, computeStandard, ch } = ctx.protocol;
    const market = await futures.getAddress();
    const provider = ctx.connection.ethers.provider;
    const now = async () => BigInt((await provider.getBlock("latest"))!.timestamp);
    const alice = await trader(ctx, "alice", usdc6(1_000));
    const bob = await trader(ctx, "bob", usdc6(1_000));
    // they close what they still hold on the perp first: a hedge held for a year must not go down with a perp
    // position through a liquidation (which closes every position of the account, futures included)
    const perp = ctx.protocol.perpMarket;
    for (const who of [alice, bob]) {
      const held = (await ctx.protocol.clearingHouse.positionOf(who.address, await perp.getAddress())).sizeCh;
      if (held !== 0n) await perpTrade(ctx, who, -held);
    }

    // ComputeStandard: one CH is one hour of the class's reference system (refPflops PFLOPS = refPflops × 1,000 TFLOPS)
    const ref = (await computeStandard.referenceSystem(ML, await computeStandard.latestVersion(ML))).refPflopsWad;
    const sizes = ALICE_SCHEDULE_TFLOP_HOURS.map((t) => chForTflopHours(t, ref));
    ctx.log(
      `Alice's schedule: 500 TFLOP-hours a month from month ${ALICE_FIRST_NEED_MONTHS} for six months, then 1,000; ` +
        `at ${fmt(ref)} PFLOPS per CH (ComputeStandard, class ${ML}) that is ${fmt(sizes[0]!).toFixed(4)} CH, then ` +
        `${fmt(sizes[6]!).toFixed(4)} CH a month`,
    );

    // her months: the monthly expiries from six months out
    let expiry = await futures.nextStandardExpiry(MONTHLY);
    for (let i = 1; i < ALICE_FIRST_NEED_MONTHS; i++) expiry = nextMonth(expiry);
    const ids: bigint[] = [];
    const expiries: bigint[] = [];
    const d = await futures.eip712Domain();
    const domain = { name: d.name, version: d.version, chainId: d.chainId, verifyingContract: d.verifyingContract };
    let nonce = 1_000n; // Bob's nonces for the cast (the futures scene's makers use their own)
    /** Months whose series Alice held her schedule's size in right after the fill (read back from the market). */
    const hedged = new Set<number>();
    /** Lists (or finds) the next months of her schedule within the horizon and buys each from Bob's signed order. */
    const hedgeWhatIsListable = async () => {
      while (ids.length < sizes.length) {
        let id: bigint;
        try {
          id = await futures.connect(alice).listStandardSeriesAt.staticCall(MONTHLY, expiry);
          await (await futures.connect(alice).listStandardSeriesAt(MONTHLY, expiry)).wait();
        } catch (e) {
          const err = revertOf(futures, e);
          if (err?.name === "FuturesSeriesExists")
            id = err.args[1] as bigint; // the keeper listed it already
          else {
            // beyond the horizon (listed once time has passed) or another refusal: said, never hidden
            ctx.log(`Alice's month ${ids.length + 1} is not listable now (${err?.name ?? reasonOf(e)})`);
            return;
          }
        }
        const m = ids.length;
        const [mid] = await futures.quote(id, 0n);
        const order = {
          maker: bob.address,
          seriesId: id,
          isBuy: false,
          sizeCh: sizes[m]!,
          priceWad: mid,
          nonce: ++nonce,
          expiry: (await now()) + BigInt(DAY),
          taker: alice.address,
        };
        const signature = await signFuturesOrder(bob, domain, order);
        await (await futures.connect(alice).fillOrder(order, signature, order.sizeCh)).wait();
        if ((await futures.positionOf(id, alice.address)).sizeCh === sizes[m]!) hedged.add(m);
        ids.push(id);
        expiries.push(expiry);
        expiry = nextMonth(expiry);
      }
    };
    await hedgeWhatIsListable();
    const listedAtStart = ids.length;
    ctx.log(
      `Alice listed and bought ${listedAtStart} of her 12 months from Bob's signed sell orders now (the listing ` +
        `horizon is a year); the rest follow as time passes`,
    );

    const orders = DeliveryOrders__factory.connect(ctx.deploy.address("DeliveryOrders"), ctx.deployer);
    const months = Math.min(deliveryMonths(ctx.opts.days), sizes.length);
    let delivered = 0;
    const failures: string[] = [];
    for (let k = 0; k < months; k++) {
      if (k >= ids.length) await hedgeWhatIsListable();
      if (k >= ids.length) {
        failures.push(`month ${k + 1} was never listed`);
        break;
      }
      const id = ids[k]!;
      const size = sizes[k]!;
      // before the cut-off: Alice elects delivery of the month, Bob buys the CH his datacenter sells and escrows it
      try {
        await (await futures.connect(alice).electDelivery(id, size)).wait();
        await buyChOnSpot(ctx, bob, size);
        await (await ch.connect(bob).approve(market, size)).wait();
        await (await futures.connect(bob).deliver(id, size)).wait();
      } catch (e) {
        failures.push(`month ${k + 1}: delivery could not be arranged (${reasonOf(e)})`);
        break;
      }
      // time runs to the month's expiry (a week at a time, the keeper ticking), then past the dispute window
      for (;;) {
        const left = Number(expiries[k]! - (await now()));
        if (left <= HOUR) break;
        await ctx.advance(Math.min(7 * DAY, left - HOUR));
      }
      await ctx.advance(2 * HOUR);
      await ctx.advance(2 * HOUR);
      await ctx.keeper.settle(20);
      const info = await futures.seriesInfo(id);
      const orderId = await orders.orderId(id, alice.address);
      const outcome = await takeDelivery(ctx, orders, orderId, alice);
      if (outcome.tasks === 0) {
        failures.push(`month ${k + 1}: ${outcome.reason}`);
        continue;
      }
      delivered++;
      ctx.series("delivery", {
        label: `Alice month ${k + 1}`,
        month: k + 1,
        computeHours: fmt(outcome.consumedCh),
        scheduledCh: fmt(size),
        tflopHours: Number(ALICE_SCHEDULE_TFLOP_HOURS[k]!),
      });
      ctx.log(
        `Alice's month ${k + 1} (series ${id}, settled at ${fmt(info.settlementPriceWad).toFixed(4)} USDC/CH): ` +
          `${fmt(outcome.consumedCh).toFixed(4)} of her ${fmt(size).toFixed(4)} CH consumed as compute = ` +
          `${(fmt(outcome.consumedCh) * fmt(ref) * 1_000).toFixed(1)} of ${ALICE_SCHEDULE_TFLOP_HOURS[k]} TFLOP-hours ` +
          `(the executor's bid; the rest of the order returns to her when its window closes)`,
      );
      // the horizon has moved: the rest of her months can be listed now
      await hedgeWhatIsListable();
    }
    await hedgeWhatIsListable();
    castBooks.set(ctx, { ids, expiries, sizes, monthsFollowed: months });

    // months hedged with a position (her schedule's size in the month's series after the fill); the open ones still
    // hold it now
    let stillOpen = 0;
    for (const [m, id] of ids.entries())
      if (m >= months && (await futures.positionOf(id, alice.address)).sizeCh === sizes[m]!) stillOpen++;
    ctx.figure("futures.aliceMonthsHedged", hedged.size);
    ctx.figure("futures.aliceMonthsOpen", stillOpen);
    ctx.figure("futures.aliceMonthsListedAtStart", listedAtStart);
    ctx.figure("futures.aliceMonthsDelivered", delivered);
    ctx.figure("futures.aliceChPerMonth500", formatUnits(sizes[0]!, 18));
    ctx.figure("futures.aliceChPerMonth1000", formatUnits(sizes[6]!, 18));
    const stats = await orders.stats();
    const created = await orders.queryFilter(orders.filters.DeliveryOrderCreated());
    ctx.figure("delivery.ordersCreated", created.length);
    ctx.figure("delivery.tasksCompleted", Number(stats.tasksCompleted));
    ctx.figure("delivery.computeHoursDelivered", formatUnits(stats.chDelivered, 18));
    ctx.figure("delivery.failedDeliveriesSlashedDps", formatUnits(stats.slashedDps, 18));
    for (const f of failures) ctx.log(`Alice's delivery: ${f}`);
    titleNow =
      delivered === months
        ? `The seed's cast: Alice hedges her schedule with ${hedged.size} monthly futures from Bob and takes delivery of ` +
          `compute month by month (${delivered} months followed)`
        : `${TITLE} (compute delivered in ${delivered} of ${months} months: ${failures[0] ?? "?"})`;
  },
};
