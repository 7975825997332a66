import { parseUnits, Wallet, ZeroAddress } from "ethers";
import type { BenchSuite } from "./lib.js";
import {
  MockAggregatorV3__factory,
  MockERC20__factory,
  MockClearingMarket__factory,
  MockFuturesVault__factory,
} from "../../types/ethers-contracts/index.js";
import { futuresParams } from "../deploy/modules/futures.js";
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

    // Portfolio margin (issue 20 item 3): the margin check of an account holding a perp (MockClearingMarket stand-in),
    // shorts and longs in 6 series of the real FuturesMarket (its account-risk hook: near legs walked, far legs from
    // the account aggregates) and margined shorts in 6 series of the real OptionsMarket (scenario grid, 16 prices,
    // one IMarketScenarioRisk call looping over the account's 6 margined series). The deploy flags the OptionsMarket
    // for portfolio margin (scripts/deploy/modules/options.ts). `:portfolioTenors`: the same account once the futures
    // market has its three tenor buckets and per-tenor margin (docs/clearing.md "Per-tenor margin"), the 6 series
    // spread over the front month (20, 30 days), ≤ 3 months (60, 80) and the far tenor (150, 250).
    await (await oracle.setPrice(wad("10"))).wait();
    const helpers = ctx.connection.networkHelpers;
    const fut = p.futures;
    const fAddr = await fut.getAddress();
    await (await fut.setParams({ ...futuresParams, maxLiveSeries: 32 })).wait();
    const fVault = await new MockFuturesVault__factory(admin).deploy(await p.usdc.getAddress());
    await fVault.waitForDeployment();
    await (await fut.setVault(await fVault.getAddress())).wait();
    await (await p.usdc.approve(await fVault.getAddress(), usdc("1000000"))).wait();
    await (await fVault.fund(fAddr, usdc("1000000"))).wait();
    await (await p.clearingHouse.connect(c).deposit(usdc("1000"))).wait();
    await (await market.connect(c).trade(wad("20"))).wait();
    const futTrade = async (seriesId: bigint, size: bigint) => {
      await (await fut.connect(c).commitOrder(seriesId, size, 0)).wait();
      const { priceTime } = await fut.pendingOrder(seriesId, c.address);
      if (BigInt(await helpers.time.latest()) <= priceTime) await helpers.time.increaseTo(priceTime + 1n);
      await (await fut.connect(b).executeOrder(c.address, seriesId, await p.oracle.roundAt(priceTime))).wait();
    };
    const listedAt = BigInt(await helpers.time.latest());
    const futSizes = ["-3", "1", "-3", "1", "-3", "-3"]; // net −10 CH
    for (const [k, days] of [20n, 30n, 60n, 80n, 150n, 250n].entries()) {
      await (await fut.listSeries(listedAt + days * 86_400n, 0)).wait();
      const [id] = await fut.seriesCount();
      await futTrade(id, wad(futSizes[k] ?? "0"));
    }
    await (await oracle.setPrice(wad("10"))).wait();
    const options = p.options;
    const expiry = BigInt(await helpers.time.latest()) + 7n * 86_400n;
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
    const tenorModel = (floor: string) => ({
      lambdaWad: wad("0.94"),
      floorSigmaWad: wad(floor),
      staleSigmaWad: wad("0.06"),
      staleAfterSec: 86_400n,
    });
    for (const [bucket, floor] of ["0.05", "0.03", "0.01"].entries()) {
      await (await p.riskEngine.setTenorVolParams(fAddr, bucket, tenorModel(floor))).wait();
    }
    await (await p.riskEngine.setTenorMargin(fAddr, true)).wait();
    await ctx.measure(
      "ClearingHouse.withdraw:portfolioTenors",
      p.clearingHouse.connect(c).withdraw(usdc("1"), c.address),
    );
    await (await p.riskEngine.setTenorMargin(fAddr, false)).wait();

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
