import type { BenchSuite } from "./lib.js";
import { OptionKind, domainOf, signOffer, type OptionsOffer } from "@chx/sdk";

const WAD = 10n ** 18n;
const CH = 10n ** 18n;
const USDC = 10n ** 6n;
const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * Options market gas. Steady state: writers and buyers hold ClearingHouse collateral and no other positions; the
 * series is listed and already has accounts (the pool, fee and reserve words are warm-ish: non-zero). `write` and a
 * first fill pay for a new position word and the settlement-list slot; a repeat write does not. `exercise` is a
 * pull settlement of one in-the-money cash holder; `settleSeries` is measured per page and per account.
 */
export const optionsBench: BenchSuite = {
  name: "options",
  async run(ctx) {
    const { options, usdc, clearingHouse, chIndexFeed } = ctx.protocol;
    const [writer, buyer, writer2, keeper, ...rest] = ctx.users;
    if (!writer || !buyer || !writer2 || !keeper || chIndexFeed === undefined) throw new Error("bench needs users");
    const { networkHelpers } = ctx.connection;
    const decimals = await chIndexFeed.decimals();
    const setPrice = async (p: bigint) => (await chIndexFeed.setAnswer(p / 10n ** (18n - decimals))).wait();
    await setPrice(10n * WAD);
    const ch = await clearingHouse.getAddress();
    const traders = [writer, buyer, writer2, ...rest.slice(0, 8)];
    for (const u of traders) {
      await (await usdc.mint(u.address, 1_000_000n * USDC)).wait();
      await (await usdc.connect(u).approve(ch, 1_000_000n * USDC)).wait();
      await (await clearingHouse.connect(u).deposit(1_000_000n * USDC)).wait();
    }
    const expiry = BigInt(await networkHelpers.time.latest()) + 7n * 86_400n;
    const listTx = options.listSeries({
      kind: OptionKind.Put,
      onFutures: false,
      futuresSeriesId: 0,
      expiry,
      strikeWad: 9n * WAD,
      capWad: 0,
    });
    await ctx.measure("OptionsMarket.listSeries", listTx);
    const id = await options.seriesCount();
    // warm-up: another account already wrote, so the series totals and the pool are non-zero
    await (await options.connect(writer2).write(id, CH)).wait();

    await ctx.measure("OptionsMarket.write", options.connect(writer).write(id, 100n * CH));
    await ctx.measure("OptionsMarket.write:again", options.connect(writer).write(id, 10n * CH));
    await ctx.measure("OptionsMarket.transferLong", options.connect(writer).transferLong(id, buyer.address, 10n * CH));

    const domain = await domainOf(ctx.connection.ethers.provider, "OptionsMarket", await options.getAddress());
    let nonce = 0n;
    const offer = (maker: string, isBuy: boolean): OptionsOffer => ({
      maker,
      seriesId: id,
      isBuy,
      sizeCh: 1_000n * CH,
      premiumWad: WAD / 2n,
      nonce: ++nonce,
      expiry: 2n ** 40n,
      taker: ZERO,
    });
    // the writer sells longs it holds (no new collateral)
    const o1 = offer(writer.address, false);
    await ctx.measure(
      "OptionsMarket.fillOffer:sellLongs",
      options.connect(buyer).fillOffer(o1, await signOffer(writer, domain, o1), 20n * CH),
    );
    // a maker sells options it does not hold: it writes them in the fill (collateral posted)
    const o2 = offer(writer2.address, false);
    const sig2 = await signOffer(writer2, domain, o2);
    await ctx.measure("OptionsMarket.fillOffer:write", options.connect(buyer).fillOffer(o2, sig2, 20n * CH));
    await ctx.measure("OptionsMarket.fillOffer:partial", options.connect(buyer).fillOffer(o2, sig2, 20n * CH));
    // more holders and writers for the paged settlement
    for (const u of rest.slice(0, 8)) {
      const o = offer(writer2.address, false);
      await (await options.connect(u).fillOffer(o, await signOffer(writer2, domain, o), 5n * CH)).wait();
    }

    await networkHelpers.time.increaseTo(expiry);
    await setPrice(6n * WAD);
    await ctx.measure("OptionsMarket.fixSettlementPrice", options.connect(keeper).fixSettlementPrice(id));
    await networkHelpers.time.increase(3_600);
    await ctx.measure("OptionsMarket.exercise", options.connect(keeper).exercise(id, buyer.address));
    await ctx.measure("OptionsMarket.exercise:writer", options.connect(keeper).exercise(id, writer.address));
    const accounts = (await options.series(id)).accountCount;
    const gas = await ctx.measure("OptionsMarket.settleSeries:page", options.connect(keeper).settleSeries(id, 100n));
    ctx.set("OptionsMarket.settleSeries:perAccount", gas / accounts);
  },
};
