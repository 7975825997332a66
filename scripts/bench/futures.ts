import { ZeroAddress, parseUnits } from "ethers";
import type { BenchSuite } from "./lib.js";
import { MockAggregatorV3__factory, MockFuturesVault__factory } from "../../types/ethers-contracts/index.js";
import { Roles, signFuturesOrder } from "@chx/sdk";

const usdc = (v: string): bigint => parseUnits(v, 6);
const wad = (v: string): bigint => parseUnits(v, 18);
const DAY = 86_400n;
const BATCH = 10;

/**
 * Futures gas: open / increase / reduce against the vault (each a two-step order: `…:commit` is the trader's commit, the
 * key itself the keeper's execution, the fill), elect delivery, escrow CH (deliver), fix and finalise
 * the settlement price, and settle one position per case (cash, keeper-settled, delivering short, failing short,
 * receiving long). Target (issue 8): settle ≤ 100k gas per position.
 */
export const futuresBench: BenchSuite = {
  name: "futures",
  async run(ctx) {
    const p = ctx.protocol;
    const admin = ctx.deployer;
    const helpers = ctx.connection.networkHelpers;
    const feed = MockAggregatorV3__factory.connect(ctx.deploy.address("CHIndexFeed"), admin);
    const scale = 10n ** (18n - (await feed.decimals()));
    const setPrice = async (priceWad: bigint) => (await feed.setAnswer(priceWad / scale)).wait();
    await setPrice(wad("10"));
    const f = await p.futures.getAddress();

    const vault = await new MockFuturesVault__factory(admin).deploy(await p.usdc.getAddress());
    await vault.waitForDeployment();
    await (await p.futures.setVault(await vault.getAddress())).wait();
    await (await p.usdc.mint(admin.address, usdc("10000000"))).wait();
    await (await p.usdc.approve(await vault.getAddress(), usdc("1000000"))).wait();
    await (await vault.fund(f, usdc("1000000"))).wait();

    const [g, alice, bob, carol, dave, erin, keeper] = ctx.users;
    if (g === undefined || alice === undefined || bob === undefined || carol === undefined) throw new Error("users");
    if (dave === undefined || erin === undefined || keeper === undefined) throw new Error("users");
    const [minDps] = await p.guarantorPool.params();
    await (await p.dps.transfer(g.address, minDps)).wait();
    await (await p.guarantorPool.connect(g).registerGuarantor(false, usdc("1000000"))).wait();
    await (await p.dps.connect(g).approve(await p.guarantorPool.getAddress(), minDps)).wait();
    await (await p.guarantorPool.connect(g).stakeDps(minDps)).wait();
    await (await p.usdc.mint(g.address, usdc("1000000"))).wait();
    await (await p.usdc.connect(g).approve(await p.guarantorPool.getAddress(), usdc("1000000"))).wait();
    await (await p.guarantorPool.connect(g).depositCapital(g.address, usdc("1000000"))).wait();
    await (await p.accessManager.grantRole(Roles.CH_MINTER, admin.address, 0)).wait();
    for (const t of [alice, bob, carol, dave, erin]) {
      await (await p.guarantorPool.connect(g).admitCustomer(t.address, usdc("1000000"))).wait();
      await (await p.usdc.mint(t.address, usdc("50000"))).wait();
      await (await p.usdc.connect(t).approve(await p.clearingHouse.getAddress(), usdc("50000"))).wait();
      await (await p.clearingHouse.connect(t).deposit(usdc("50000"))).wait();
      await (await p.ch.mint(t.address, wad("10000"))).wait();
      await (await p.ch.connect(t).approve(f, wad("10000"))).wait();
    }
    const now = BigInt((await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp);
    const expiry = now + 60n * DAY;
    await ctx.measure("FuturesMarket.listSeries", p.futures.listSeries(expiry, 0));
    await (await p.futures.listSeries(expiry + 3_600n, 0)).wait(); // series 2: the batch-settlement case
    await ctx.measure("FuturesMarket.listStandardSeries", p.futures.connect(keeper).listStandardSeries(2));

    type Trader = (typeof ctx.users)[number];
    /**
     * A trade the way it happens on chain: `t` commits (`key`:commit measured), the keeper executes at the round in
     * force once due (`key` measured: the fill). `size` 0 commits `closePosition`.
     */
    const trade = async (t: Trader, seriesId: bigint, size: bigint, key?: string) => {
      const fm = p.futures.connect(t);
      const commit = size === 0n ? fm.closePosition(seriesId, 0) : fm.commitOrder(seriesId, size, 0);
      if (key === undefined) await (await commit).wait();
      else await ctx.measure(`${key}:commit`, commit);
      const { priceTime } = await p.futures.pendingOrder(seriesId, t.address);
      if (BigInt(await helpers.time.latest()) <= priceTime) await helpers.time.increaseTo(priceTime + 1n);
      const exec = p.futures.connect(keeper).executeOrder(t.address, seriesId, await p.oracle.roundAt(priceTime));
      if (key === undefined) await (await exec).wait();
      else await ctx.measure(key, exec);
    };
    await trade(alice, 1n, wad("500"), "FuturesMarket.openPosition:open");
    await trade(alice, 1n, wad("100"), "FuturesMarket.openPosition:increase");
    await trade(alice, 1n, -wad("100"), "FuturesMarket.openPosition:reduce");
    await trade(bob, 1n, -wad("300"), "FuturesMarket.openPosition:openShort");
    await trade(dave, 1n, -wad("200"));
    await trade(carol, 1n, wad("50"));
    await trade(erin, 1n, wad("40"));
    await trade(erin, 1n, 0n, "FuturesMarket.closePosition");
    await trade(erin, 1n, wad("40"));
    // roll: half of dave's short into the standard monthly series (a new leg there), one call, one margin check
    await ctx.measure("FuturesMarket.roll", p.futures.connect(dave).roll(1n, 3n, wad("100")));
    await ctx.measure("FuturesMarket.roll:existingLeg", p.futures.connect(dave).roll(1n, 3n, wad("50")));
    // signed order (issue 19): erin (long 40) signs a sell of 10 CH at 10.05 in series 1, carol (long 50) fills it:
    // both hold the series already (one leg reduces, one grows), the order's first fill (nonce + signature checked)
    const order = {
      maker: erin.address,
      seriesId: 1n,
      isBuy: false,
      sizeCh: wad("10"),
      priceWad: wad("10.05"),
      nonce: 1n,
      expiry: BigInt(await helpers.time.latest()) + 3_600n,
      taker: ZeroAddress,
    };
    const { chainId } = await ctx.connection.ethers.provider.getNetwork();
    const signature = await signFuturesOrder(
      erin,
      { name: "CHX Futures", version: "1", chainId, verifyingContract: f },
      order,
    );
    await ctx.measure("FuturesMarket.fillOrder", p.futures.connect(carol).fillOrder(order, signature, wad("10")));
    // matchOrders (issue 19): erin's sell of 10 CH at 10.04 against carol's buy at 10.06, matched by the keeper (both
    // hold the series; each order's first fill; the spread credited to the keeper)
    const domain = { name: "CHX Futures", version: "1", chainId, verifyingContract: f };
    const sell = { ...order, sizeCh: wad("10"), priceWad: wad("10.04"), nonce: 2n };
    const buy = { ...order, maker: carol.address, isBuy: true, priceWad: wad("10.06"), nonce: 1n };
    const sellSig = await signFuturesOrder(erin, domain, sell);
    const buySig = await signFuturesOrder(carol, domain, buy);
    await ctx.measure(
      "FuturesMarket.matchOrders",
      p.futures.connect(keeper).matchOrders(buy, buySig, sell, sellSig, wad("10")),
    );
    const batch = ctx.users.slice(7, 7 + BATCH);
    if (batch.length !== BATCH) throw new Error("futures bench needs 17 users");
    for (const [i, t] of batch.entries()) {
      await (await p.guarantorPool.connect(g).admitCustomer(t.address, usdc("1000000"))).wait();
      await (await p.usdc.mint(t.address, usdc("5000"))).wait();
      await (await p.usdc.connect(t).approve(await p.clearingHouse.getAddress(), usdc("5000"))).wait();
      await (await p.clearingHouse.connect(t).deposit(usdc("5000"))).wait();
      await trade(t, 2n, i % 2 === 0 ? wad("20") : -wad("15"));
    }
    await ctx.measure("FuturesMarket.electDelivery", p.futures.connect(alice).electDelivery(1n, wad("500")));
    await ctx.measure("FuturesMarket.deliver", p.futures.connect(bob).deliver(1n, wad("300")));
    await (await p.accessManager.grantRole(Roles.MARKET, admin.address, 0)).wait();
    await ctx.measure(
      "FuturesMarket.openFromExercise",
      p.futures.openFromExercise(1n, carol.address, erin.address, wad("10"), wad("11")),
    );

    // the settlement price is the index TWAP over the hour before expiry: 12 over the whole window
    await helpers.time.increaseTo(expiry - 3_601n);
    await setPrice(wad("12"));
    await helpers.time.increaseTo(expiry);
    const [first, changes] = await p.futures.settlementTwapHints(1n);
    await ctx.measure(
      "FuturesMarket.fixSettlementPrice",
      p.futures.connect(keeper).fixSettlementPriceAt(1n, first, [...changes]),
    );
    await helpers.time.increase(2n * 3_600n);
    await setPrice(wad("12"));
    await ctx.measure("FuturesMarket.finalizeSettlement", p.futures.connect(keeper).finalizeSettlement(1n));
    await ctx.measure("FuturesMarket.settlePosition:cash", p.futures.connect(carol).settlePosition(1n, carol.address));
    await ctx.measure(
      "FuturesMarket.settlePosition:cashByKeeper",
      p.futures.connect(keeper).settlePosition(1n, erin.address),
    );
    await ctx.measure(
      "FuturesMarket.settlePosition:deliveringShort",
      p.futures.connect(bob).settlePosition(1n, bob.address),
    );
    await helpers.time.increase(DAY);
    await setPrice(wad("12"));
    await ctx.measure(
      "FuturesMarket.settlePosition:failedShortSlashed",
      p.futures.connect(keeper).settlePosition(1n, dave.address),
    );
    await ctx.measure(
      "FuturesMarket.settlePosition:receivingLong",
      p.futures.connect(alice).settlePosition(1n, alice.address),
    );
    await (await p.futures.connect(keeper).fixSettlementPrice(2n)).wait(); // expired an hour after series 1
    await helpers.time.increase(2n * 3_600n);
    await setPrice(wad("12"));
    await (await p.futures.connect(keeper).finalizeSettlement(2n)).wait();
    const total = await ctx.measure(
      `FuturesMarket.settlePositions:batchOf${BATCH}`,
      p.futures.connect(keeper).settlePositions(
        2n,
        batch.map((t) => t.address),
      ),
    );
    ctx.set("FuturesMarket.settlePositions:perPosition", total / BigInt(BATCH));
    await ctx.measure("FuturesMarket.claimBounties", p.futures.connect(keeper).claimBounties(keeper.address));
  },
};
