import { parseUnits } from "ethers";
import type { BenchContext, BenchSuite } from "./lib.js";
import {
  MockAggregatorV3__factory,
  MockClearingMarket__factory,
  MockPerpCrowd__factory,
} from "../../types/ethers-contracts/index.js";
import { Roles } from "@chx/sdk";

const usdc = (v: string): bigint => parseUnits(v, 6);
const wad = (v: string): bigint => parseUnits(v, 18);

/** Open positions for the MKT-03 comparison, created by MockPerpCrowd in batches of BATCH accounts per transaction. */
const CROWD = Number(process.env.CHX_BENCH_PERP_POSITIONS ?? "10000");
const BATCH = 25;

/**
 * Perpetuals gas, measured twice on the same deployment: with 1 other open position and with CROWD (10,000) others
 * (suffix `:n10000`), so the figures show the O(1) paths (MKT-03). Orders are two-step (IDelayedOrders):
 * `PerpMarket.commitOrder` is the trader's commit of a new position, `PerpMarket.trade:new` / `:increase` / `:reduce`
 * and `PerpMarket.closePosition` the keeper's `executeOrder` that fills them (the round proof, the fill, the fee).
 * `MockClearingMarket.trade:open:perpBench` is the same new position opened through a bare market that only calls
 * ClearingHouse.modifyPosition at the index: the ClearingHouse's (and oracle's) share of `PerpMarket.trade:new`.
 */
export const perpsBench: BenchSuite = {
  name: "perps",
  async run(ctx: BenchContext) {
    const p = ctx.protocol;
    const admin = ctx.deployer;
    const { networkHelpers } = ctx.connection;
    const feed = MockAggregatorV3__factory.connect(ctx.deploy.address("CHIndexFeed"), admin);
    const scale = 10n ** (18n - (await feed.decimals()));
    const setPrice = async (priceWad: bigint) => (await feed.setAnswer(priceWad / scale)).wait();
    const tick = async (sec: number) => {
      await networkHelpers.time.increase(sec);
      await setPrice(wad("10"));
    };
    await setPrice(wad("10"));
    const ch = await p.clearingHouse.getAddress();
    const market = await p.perpMarket.getAddress();
    const vault = await p.liquidityVault.getAddress();
    const poolAddr = await p.guarantorPool.getAddress();

    // an open guarantor with room for 10,000 small accounts
    const [g, lp, keeper, ...traders] = ctx.users;
    if (g === undefined || lp === undefined || keeper === undefined || traders.length < 7) {
      throw new Error("perps bench needs ten users");
    }
    const [minDps] = await p.guarantorPool.params();
    await (await p.dps.transfer(g.address, minDps)).wait();
    await (await p.guarantorPool.connect(g).registerGuarantor(true, usdc("1000000"))).wait();
    await (await p.dps.connect(g).approve(poolAddr, minDps)).wait();
    await (await p.guarantorPool.connect(g).stakeDps(minDps)).wait();
    await (await p.usdc.mint(g.address, usdc("10000000"))).wait();
    await (await p.usdc.connect(g).approve(poolAddr, usdc("10000000"))).wait();
    await (await p.guarantorPool.connect(g).depositCapital(g.address, usdc("10000000"))).wait();
    for (const t of traders) {
      await (await p.guarantorPool.connect(t).joinOpenGuarantor(g.address)).wait();
      await (await p.usdc.mint(t.address, usdc("100000"))).wait();
      await (await p.usdc.connect(t).approve(ch, usdc("100000"))).wait();
      await (await p.clearingHouse.connect(t).deposit(usdc("100000"))).wait();
    }
    // LP capital, allocated by the keeper
    await (await p.accessManager.grantRole(Roles.KEEPER, admin.address, 0)).wait();
    await (await p.usdc.mint(lp.address, usdc("10000000"))).wait();
    await (await p.usdc.connect(lp).approve(vault, usdc("10000000"))).wait();
    await (await p.liquidityVault.connect(lp).deposit(usdc("2000000"), lp.address)).wait();
    await (await p.liquidityVault.allocate(market, usdc("1000000"))).wait();

    const crowd = await new MockPerpCrowd__factory(admin).deploy();
    await crowd.waitForDeployment();
    let spawned = 0;
    const delay = Number((await p.perpMarket.params()).minOrderDelaySec);
    // each batch commits its orders in one transaction and executes them in another once they are due
    const spawn = async (n: number) => {
      while (n > 0) {
        const k = Math.min(n, BATCH);
        await (
          await crowd.spawn(k, poolAddr, g.address, await p.usdc.getAddress(), ch, market, usdc("10"), wad("1"), {
            gasLimit: 16_000_000,
          })
        ).wait();
        const priceTime = (await p.perpMarket.pendingOrder(await crowd.members(spawned))).priceTime;
        await tick(delay + 1);
        const roundId = await p.oracle.roundAt(priceTime);
        await (await crowd.execute(market, spawned, spawned + k, roundId, { gasLimit: 16_000_000 })).wait();
        n -= k;
        spawned += k;
      }
    };
    /** Commits `size` for `t`; returns the price time. */
    const commit = async (t: (typeof traders)[number], size: bigint, key?: string) => {
      const tx = p.perpMarket.connect(t).commitOrder(size, 0);
      if (key === undefined) await (await tx).wait();
      else await ctx.measure(key, tx);
      return (await p.perpMarket.pendingOrder(t.address)).priceTime;
    };
    /** The keeper's execution of `t`'s order once due. */
    const execute = async (t: (typeof traders)[number], priceTime: bigint) => {
      await networkHelpers.time.increaseTo(priceTime + 1n);
      return p.perpMarket.connect(keeper).executeOrder(t.address, await p.oracle.roundAt(priceTime));
    };
    const trade = async (t: (typeof traders)[number], size: bigint) => (await execute(t, await commit(t, size))).wait();

    // the ClearingHouse's share: the same new position through a bare market (modifyPosition at the index)
    const bare = await new MockClearingMarket__factory(admin).deploy(
      ch,
      ctx.deploy.address("ComputePriceOracle"),
      await p.usdc.getAddress(),
    );
    await bare.waitForDeployment();
    const b = await bare.getAddress();
    await (await p.clearingHouse.registerMarket(b)).wait();
    await (
      await p.riskEngine.setMarketParams(b, {
        imMultipleWad: wad("3"),
        mmMultipleWad: wad("1.5"),
        imFloorWad: wad("0.1"),
        mmFloorWad: wad("0.05"),
      })
    ).wait();
    await (await p.accessManager.grantRole(Roles.MARKET, b, 0)).wait();
    await (await bare.setFeeBps(5)).wait();

    // warm-up: the keeper has a bounty credit, the vault has had a deposit, both sides have some interest — in the
    // bare market too (a spare trader's position), so its open interest is not created by the measured trade in one
    // round and merely updated in the other: both rounds open a new position in a market that has interest.
    const spare = traders[6];
    if (spare === undefined) throw new Error("perps bench needs a spare trader for the bare market");
    await (await bare.connect(spare).trade(wad("10"))).wait();
    await spawn(1);
    await tick(3_600);
    await (await p.perpMarket.connect(keeper).pokeFunding()).wait();

    const round = async (suffix: string, [opener, closer, other]: typeof traders) => {
      if (opener === undefined || closer === undefined || other === undefined) throw new Error("need three traders");
      await trade(closer, wad("50"));
      await tick(600);
      let pt = await commit(opener, wad("100"), `PerpMarket.commitOrder${suffix}`);
      await ctx.measure(`PerpMarket.trade:new${suffix}`, execute(opener, pt));
      await tick(600);
      pt = await commit(opener, wad("50"));
      await ctx.measure(`PerpMarket.trade:increase${suffix}`, execute(opener, pt));
      await tick(600);
      pt = await commit(opener, -wad("30"));
      await ctx.measure(`PerpMarket.trade:reduce${suffix}`, execute(opener, pt));
      await tick(600);
      await (await p.perpMarket.connect(closer).closePosition(0)).wait();
      pt = (await p.perpMarket.pendingOrder(closer.address)).priceTime;
      await ctx.measure(`PerpMarket.closePosition${suffix}`, execute(closer, pt));
      await tick(600);
      await ctx.measure(
        `PerpMarket.settleFunding${suffix}`,
        p.perpMarket.connect(keeper).settleFunding(opener.address),
      );
      await tick(3_600);
      await ctx.measure(`PerpMarket.pokeFunding${suffix}`, p.perpMarket.connect(keeper).pokeFunding());
      await ctx.measure(`MockClearingMarket.trade:open:perpBench${suffix}`, bare.connect(other).trade(wad("100")));
      await ctx.measure(
        `LiquidityVault.deposit${suffix}`,
        p.liquidityVault.connect(lp).deposit(usdc("1000"), lp.address),
      );
      await tick(86_400);
      await ctx.measure(
        `LiquidityVault.withdraw${suffix}`,
        p.liquidityVault.connect(lp).withdraw(usdc("1000"), lp.address, lp.address),
      );
    };

    await round("", traders.slice(0, 3));
    await spawn(CROWD - spawned);
    const st = await p.perpMarket.marketState();
    console.log(
      `  (${spawned} crowd positions; OI long ${st.longOiCh / 10n ** 18n} short ${st.shortOiCh / 10n ** 18n} CH)`,
    );
    await round(`:n${CROWD}`, traders.slice(3, 6));
  },
};
