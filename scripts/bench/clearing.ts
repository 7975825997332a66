import { parseUnits, Wallet, ZeroAddress } from "ethers";
import type { BenchSuite } from "./lib.js";
import {
  MockAggregatorV3__factory,
  MockERC20__factory,
  MockClearingMarket__factory,
} from "../../types/ethers-contracts/index.js";
import { Roles } from "@chx/sdk";

const usdc = (v: string): bigint => parseUnits(v, 6);
const wad = (v: string): bigint => parseUnits(v, 18);

/**
 * Clearing gas: deposit, withdraw, partial and full liquidation, volatility update. Every figure is taken after
 * OTHER_ACCOUNTS unrelated accounts have deposited and traded, and compared with the same call before them
 * (`:alone`), to show the cost does not depend on the number of accounts.
 */
const OTHER_ACCOUNTS = 40;

export const clearingBench: BenchSuite = {
  name: "clearing",
  async run(ctx) {
    const p = ctx.protocol;
    const admin = ctx.deployer;
    const { ethers } = ctx.connection;
    // the real ComputePriceOracle, moved through its mock Chainlink feed (8 decimals) on the local network
    const oracleAddr = ctx.deploy.address("ComputePriceOracle");
    const feed = MockAggregatorV3__factory.connect(ctx.deploy.address("CHIndexFeed"), admin);
    const scale = 10n ** (18n - (await feed.decimals()));
    const oracle = { setPrice: (priceWad: bigint) => feed.setAnswer(priceWad / scale) };
    await (await oracle.setPrice(wad("10"))).wait();
    const ch = await p.clearingHouse.getAddress();
    const poolAddr = await p.guarantorPool.getAddress();

    const market = await new MockClearingMarket__factory(admin).deploy(ch, oracleAddr, await p.usdc.getAddress());
    await market.waitForDeployment();
    const m = await market.getAddress();
    await (await p.clearingHouse.registerMarket(m)).wait();
    await (
      await p.riskEngine.setMarketParams(m, {
        imMultipleWad: wad("3"),
        mmMultipleWad: wad("1.5"),
        imFloorWad: wad("0.1"),
        mmFloorWad: wad("0.05"),
      })
    ).wait();
    await (await p.accessManager.grantRole(Roles.MARKET, m, 0)).wait();
    await (await p.usdc.mint(admin.address, usdc("10000000"))).wait();
    await (await p.usdc.approve(m, usdc("1000000"))).wait();
    await (await market.fund(usdc("1000000"))).wait();

    // guarantor
    const [g, a, b, c, d, e] = ctx.users;
    if (
      g === undefined ||
      a === undefined ||
      b === undefined ||
      c === undefined ||
      d === undefined ||
      e === undefined
    ) {
      throw new Error("clearing bench needs six users");
    }
    const [minDps] = await p.guarantorPool.params();
    await (await p.dps.transfer(g.address, minDps)).wait();
    await (await p.guarantorPool.connect(g).registerGuarantor(true, usdc("1000000"))).wait();
    await (await p.dps.connect(g).approve(poolAddr, minDps)).wait();
    await (await p.guarantorPool.connect(g).stakeDps(minDps)).wait();
    await (await p.usdc.mint(g.address, usdc("1000000"))).wait();
    await (await p.usdc.connect(g).approve(poolAddr, usdc("1000000"))).wait();
    await (await p.guarantorPool.connect(g).depositCapital(g.address, usdc("1000000"))).wait();

    const trader = async (s: typeof a, amount: bigint) => {
      await (await p.guarantorPool.connect(g).admitCustomer(s.address, usdc("1000000"))).wait();
      await (await p.usdc.mint(s.address, amount * 2n)).wait();
      await (await p.usdc.connect(s).approve(ch, amount * 2n)).wait();
    };
    for (const s of [a, b, c, d, e]) await trader(s, usdc("1000"));

    await ctx.measure("ClearingHouse.deposit:first:alone", p.clearingHouse.connect(a).deposit(usdc("100")));
    await ctx.measure("ClearingHouse.withdraw:alone", p.clearingHouse.connect(a).withdraw(usdc("10"), a.address));

    // many other accounts, each with a deposit and a position
    for (let i = 0; i < OTHER_ACCOUNTS; i++) {
      const w = Wallet.createRandom().connect(ethers.provider);
      await (await admin.sendTransaction({ to: w.address, value: wad("1") })).wait();
      await (await p.guarantorPool.connect(g).admitCustomer(w.address, usdc("1000000"))).wait();
      await (await p.usdc.mint(w.address, usdc("1000"))).wait();
      await (await p.usdc.connect(w).approve(ch, usdc("1000"))).wait();
      await (await p.clearingHouse.connect(w).deposit(usdc("1000"))).wait();
      await (await market.tradeAt(w.address, wad(i % 2 === 0 ? "10" : "-10"), wad("10"))).wait();
    }

    await ctx.measure("ClearingHouse.deposit:first", p.clearingHouse.connect(b).deposit(usdc("100")));
    await ctx.measure("ClearingHouse.deposit:topUp", p.clearingHouse.connect(b).deposit(usdc("100")));
    await ctx.measure("ClearingHouse.withdraw", p.clearingHouse.connect(b).withdraw(usdc("10"), b.address));

    await (await p.clearingHouse.connect(c).deposit(usdc("100"))).wait();
    await ctx.measure("MockClearingMarket.trade:open", market.connect(c).trade(wad("50")));
    await ctx.measure("ClearingHouse.withdraw:withPosition", p.clearingHouse.connect(c).withdraw(usdc("1"), c.address));
    await ctx.measure("MockClearingMarket.trade:reduce", market.connect(c).trade(wad("-10")));
    // a fee-paying increase of an existing position (as every real market trade pays a fee), then fees back to 0
    await (await market.setFeeBps(10)).wait();
    await ctx.measure("MockClearingMarket.trade:increaseWithFee", market.connect(c).trade(wad("5")));
    await (await market.setFeeBps(0)).wait();

    // partial: 50 CH long at 10 with 100 collateral, price 8.3
    await (await p.clearingHouse.connect(d).deposit(usdc("100"))).wait();
    await (await market.connect(d).trade(wad("50"))).wait();
    // full without bad debt: same account shape, price to 8
    await (await p.clearingHouse.connect(e).deposit(usdc("100"))).wait();
    await (await market.connect(e).trade(wad("50"))).wait();
    await (await oracle.setPrice(wad("8.3"))).wait();
    await ctx.measure("LiquidationEngine.liquidate:partial", p.liquidationEngine.connect(b).liquidate(d.address));
    // equity 2.5 < full bounty 4.025: closed in full, the bounty takes the remaining 2.5, no bad debt
    await (await oracle.setPrice(wad("8.05"))).wait();
    await ctx.measure("LiquidationEngine.liquidate:full", p.liquidationEngine.connect(b).liquidate(e.address));
    // full with a deficit covered by the guarantor (waterfall layer 2): 40 CH at 10 on 90 of collateral, price 7
    await (await oracle.setPrice(wad("10"))).wait();
    await (await market.connect(a).trade(wad("40"))).wait();
    await (await oracle.setPrice(wad("7"))).wait();
    await ctx.measure(
      "LiquidationEngine.liquidate:fullWithBadDebt",
      p.liquidationEngine.connect(b).liquidate(a.address),
    );

    // Portfolio margin (issue 20 item 3): the margin check of an account holding a perp, a futures market's net
    // position and margined shorts in 6 series of the real OptionsMarket (scenario grid, 16 prices, one
    // IMarketScenarioRisk call looping over the account's 6 margined series). Stand-in: MockClearingMarket for the
    // futures market's one ClearingHouse position (the real futures market's own per-series account-risk hook is
    // not in this figure). The deploy flags the OptionsMarket for portfolio margin (scripts/deploy/modules/options.ts).
    await (await oracle.setPrice(wad("10"))).wait();
    const futures = await new MockClearingMarket__factory(admin).deploy(ch, oracleAddr, await p.usdc.getAddress());
    await futures.waitForDeployment();
    const params = {
      imMultipleWad: wad("3"),
      mmMultipleWad: wad("1.5"),
      imFloorWad: wad("0.1"),
      mmFloorWad: wad("0.05"),
    };
    const fAddr = await futures.getAddress();
    await (await p.clearingHouse.registerMarket(fAddr)).wait();
    await (await p.riskEngine.setMarketParams(fAddr, params)).wait();
    await (await p.accessManager.grantRole(Roles.MARKET, fAddr, 0)).wait();
    await (await p.usdc.approve(fAddr, usdc("100000"))).wait();
    await (await futures.fund(usdc("100000"))).wait();
    await (await p.clearingHouse.connect(c).deposit(usdc("1000"))).wait();
    await (await market.connect(c).trade(wad("20"))).wait();
    await (await futures.connect(c).trade(wad("-10"))).wait();
    const options = p.options;
    const expiry = BigInt(await ctx.connection.networkHelpers.time.latest()) + 7n * 86_400n;
    for (let i = 0; i < 6; i++) {
      const kind = i % 2 === 0 ? 0 : 1; // call, put
      const strikeWad = wad(String(8 + i));
      await (
        await options.listSeries({ kind, onFutures: false, futuresSeriesId: 0, expiry, strikeWad, capWad: wad("5") })
      ).wait();
      const id = await options.seriesCount();
      const tx = options.connect(c).writeMargined(id, wad("10"));
      if (i === 5) await ctx.measure("OptionsMarket.writeMargined", tx);
      else await (await tx).wait();
    }
    await ctx.measure("ClearingHouse.withdraw:portfolio", p.clearingHouse.connect(c).withdraw(usdc("1"), c.address));

    // Token collateral (issue 20 item 5): a CH stand-in (18-decimal mock) valued at the index, h = 10 % + 1·σ ≤ 50 %;
    // the first deposit of the token, then a USDC withdrawal of an account holding it beside a position.
    const chTok = await new MockERC20__factory(admin).deploy("CH (bench)", "CHB", 18);
    await chTok.waitForDeployment();
    const chTokAddr = await chTok.getAddress();
    await (
      await p.clearingHouse.setCollateralToken(chTokAddr, {
        feed: ZeroAddress,
        heartbeatSec: 0n,
        indexPriced: true,
        baseHaircutWad: wad("0.1"),
        sigmaMultipleWad: wad("1"),
        maxHaircutWad: wad("0.5"),
        depositCap: wad("1000000"),
      })
    ).wait();
    await (await chTok.mint(b.address, wad("100"))).wait();
    await (await chTok.connect(b).approve(ch, wad("100"))).wait();
    await ctx.measure("ClearingHouse.depositToken", p.clearingHouse.connect(b).depositToken(chTokAddr, wad("100")));
    await (await market.connect(b).trade(wad("20"))).wait();
    await ctx.measure(
      "ClearingHouse.withdraw:withTokenCollateral",
      p.clearingHouse.connect(b).withdraw(usdc("1"), b.address),
    );

    await (await p.usdc.mint(await p.riskEngine.getAddress(), usdc("100"))).wait();
    await ctx.measure("RiskEngine.updateVolatility:first", p.riskEngine.connect(b).updateVolatility());
    await ctx.connection.networkHelpers.time.increase(3_600);
    await (await oracle.setPrice(wad("7.5"))).wait();
    await ctx.measure("RiskEngine.updateVolatility", p.riskEngine.connect(b).updateVolatility());

    await (await p.usdc.mint(g.address, usdc("100"))).wait();
    await (await p.usdc.connect(g).approve(poolAddr, usdc("100"))).wait();
    await ctx.measure(
      "GuarantorPool.depositCapital",
      p.guarantorPool.connect(g).depositCapital(g.address, usdc("100")),
    );
  },
};
