import { parseUnits } from "ethers";
import type { BenchSuite } from "./lib.js";
import { futuresParams } from "../deploy/modules/futures.js";
import { MockAggregatorV3__factory, MockFuturesVault__factory } from "../../types/ethers-contracts/index.js";

const usdc = (v: string): bigint => parseUnits(v, 6);
const wad = (v: string): bigint => parseUnits(v, 18);
const DAY = 86_400n;
/** Open series the account holds (issue 19 item 3: ≤ 150,000 gas for a withdrawal with 24). */
const SERIES = 24;

/**
 * Series per account (issue 19 item 3, docs/futures.md "Series per account: the bound"): a withdrawal — one
 * ClearingHouse margin check, which asks the FuturesMarket's account-risk hook — by an account holding 24 open
 * series two weeks apart (a hedger's long ladder; `…Spread`: alternately long and short, so the calendar-spread
 * margin is read too), against the same withdrawal with one series. The hook walks only the legs expiring within the near horizon and values the
 * rest from the account aggregates, so the cost does not grow with the series held.
 */
export const seriesBench: BenchSuite = {
  name: "series",
  async run(ctx) {
    const p = ctx.protocol;
    const admin = ctx.deployer;
    const helpers = ctx.connection.networkHelpers;
    const feed = MockAggregatorV3__factory.connect(ctx.deploy.address("CHIndexFeed"), admin);
    const scale = 10n ** (18n - (await feed.decimals()));
    await (await feed.setAnswer(wad("10") / scale)).wait();
    const f = await p.futures.getAddress();
    await (await p.futures.setParams({ ...futuresParams, maxLiveSeries: SERIES + 2 })).wait();

    const vault = await new MockFuturesVault__factory(admin).deploy(await p.usdc.getAddress());
    await vault.waitForDeployment();
    await (await p.futures.setVault(await vault.getAddress())).wait();
    await (await p.usdc.mint(admin.address, usdc("10000000"))).wait();
    await (await p.usdc.approve(await vault.getAddress(), usdc("1000000"))).wait();
    await (await vault.fund(f, usdc("1000000"))).wait();

    const [g, alice, bob, carol, keeper] = ctx.users;
    if (g === undefined || alice === undefined || bob === undefined || keeper === undefined) throw new Error("users");
    if (carol === undefined) throw new Error("users");
    const [minDps] = await p.guarantorPool.params();
    await (await p.dps.transfer(g.address, minDps)).wait();
    await (await p.guarantorPool.connect(g).registerGuarantor(false, usdc("1000000"))).wait();
    await (await p.dps.connect(g).approve(await p.guarantorPool.getAddress(), minDps)).wait();
    await (await p.guarantorPool.connect(g).stakeDps(minDps)).wait();
    await (await p.usdc.mint(g.address, usdc("1000000"))).wait();
    await (await p.usdc.connect(g).approve(await p.guarantorPool.getAddress(), usdc("1000000"))).wait();
    await (await p.guarantorPool.connect(g).depositCapital(g.address, usdc("1000000"))).wait();
    for (const t of [alice, bob, carol]) {
      await (await p.guarantorPool.connect(g).admitCustomer(t.address, usdc("1000000"))).wait();
      await (await p.usdc.mint(t.address, usdc("50000"))).wait();
      await (await p.usdc.connect(t).approve(await p.clearingHouse.getAddress(), usdc("50000"))).wait();
      await (await p.clearingHouse.connect(t).deposit(usdc("50000"))).wait();
    }

    const now = BigInt((await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp);
    const ids: bigint[] = [];
    for (let k = 0; k < SERIES; k++) {
      const expiry = now + BigInt(k + 1) * 14n * DAY;
      await (await p.futures.listSeries(expiry, 0)).wait();
      ids.push((await p.futures.seriesCount())[0]);
    }
    type Trader = (typeof ctx.users)[number];
    const trade = async (t: Trader, seriesId: bigint, size: bigint) => {
      await (await p.futures.connect(t).commitOrder(seriesId, size, 0)).wait();
      const { priceTime } = await p.futures.pendingOrder(seriesId, t.address);
      if (BigInt(await helpers.time.latest()) <= priceTime) await helpers.time.increaseTo(priceTime + 1n);
      await (
        await p.futures.connect(keeper).executeOrder(t.address, seriesId, await p.oracle.roundAt(priceTime))
      ).wait();
    };
    const first = ids[0];
    if (first === undefined) throw new Error("no series");
    await trade(bob, first, wad("10"));
    await ctx.measure(
      "ClearingHouse.withdraw:withPosition1Series",
      p.clearingHouse.connect(bob).withdraw(usdc("1"), bob.address),
    );
    // a hedger's ladder: long in all 24
    for (const id of ids) await trade(alice, id, wad("10"));
    if ((await p.futures.accountSeries(alice.address)).length !== SERIES) throw new Error("ladder not open");
    await ctx.measure(
      "ClearingHouse.withdraw:withPosition24Series",
      p.clearingHouse.connect(alice).withdraw(usdc("1"), alice.address),
    );
    // calendar spreads: alternately long 10 and short 5, so the hidden legs' margin (one RiskEngine read) is added
    for (const [k, id] of ids.entries()) await trade(carol, id, k % 2 === 0 ? wad("10") : -wad("5"));
    await ctx.measure(
      "ClearingHouse.withdraw:withPosition24SeriesSpread",
      p.clearingHouse.connect(carol).withdraw(usdc("1"), carol.address),
    );
  },
};
