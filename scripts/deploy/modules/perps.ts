import { parseUnits } from "ethers";
import {
  ClearingHouse__factory,
  LiquidityVault__factory,
  RiskEngine__factory,
} from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/** PerpMarket parameters (docs/perps.md); governance changes them with PerpMarket.setParams. */
export const perpParams = {
  skewScaleCh: parseUnits("1000000", 18),
  maxFundingVelocityWad: parseUnits("3", 18),
  maxFundingRateWad: parseUnits("0.1", 18),
  makerFeeBps: 2,
  takerFeeBps: 5,
  maxOpenInterestCh: parseUnits("100000", 18),
  maxPositionCh: parseUnits("10000", 18),
  insuranceShareBps: 2_000,
  burnShareBps: 1_000,
  lpReserveBps: 1_000,
  // delayed orders (IDelayedOrders): an order fills at the oracle round in force 30 s after it was committed — longer
  // than an index update can be seen before it lands (two L1 blocks; far more on an L2) — and can be executed for
  // 5 minutes; the executor earns 0.5 USDC (several L2 executions' gas). docs/perps.md, "Orders".
  minOrderDelaySec: 30,
  minTradeCh: parseUnits("0.01", 18),
  pokeBountyUsdc: parseUnits("0.1", 6),
  pokeIntervalSec: 3_600,
  maxOrderDelaySec: 300,
  executionFeeUsdc: parseUnits("0.5", 6),
};

/** LiquidityVault limits and the perp market's margin parameters in the RiskEngine. */
export const vaultParams = {
  depositCapUsdc: parseUnits("10000000", 6),
  lockPeriodSec: 86_400,
};
export const perpRiskParams = {
  imMultipleWad: parseUnits("3", 18),
  mmMultipleWad: parseUnits("1.5", 18),
  imFloorWad: parseUnits("0.1", 18),
  mmFloorWad: parseUnits("0.05", 18),
};

/**
 * Perpetuals: the LiquidityVault (ERC-4626 USDC, LP counterparty) and the PerpMarket it backs. The market is
 * registered in the ClearingHouse, given its margin parameters in the RiskEngine and Roles.MARKET, and added to
 * the vault. The burn reserve goes to the treasury (CHX_TREASURY, else the Timelock), which buys back and burns
 * DPS. Orders (commit, execute, cancel after expiry), funding pokes and settlement are permissionless; the market links
 * the PerpTrading, PerpFunding, PerpLpClaims and PerpOrders libraries (deployed once, recorded under their names); allocate/deallocate are KEEPER; parameters ADMIN;
 * the guardian may pause "perp.trade", "vault.deposit" and "vault.withdraw".
 */
export const perpsModule: DeployModule = {
  name: "perps",
  async deploy(ctx: DeployContext) {
    const manager = ctx.address("AccessManager");
    const usdc = ctx.address("USDC");
    const chAddr = ctx.address("ClearingHouse");
    const house = ClearingHouse__factory.connect(chAddr, ctx.deployer);
    const [, oracle] = await house.modules();
    const burnSink = ctx.config.dps.genesisRecipient ?? ctx.address("Timelock");

    const vault = await ctx.proxy("LiquidityVault", "LiquidityVault", () => [
      manager,
      usdc,
      "CHX Perp LP",
      "chxLP",
      vaultParams.depositCapUsdc,
      vaultParams.lockPeriodSec,
    ]);
    // the ClearingHouse and the oracle are the implementation's immutables (constructor), checked by initialize
    const market = await ctx.proxy(
      "PerpMarket",
      "PerpMarket",
      () => [manager, chAddr, oracle, vault, burnSink, perpParams],
      () => [chAddr, oracle],
    );

    const [registered] = await house.marketInfo(market);
    if (!registered) {
      await ctx.adminCall(
        chAddr,
        house.interface.encodeFunctionData("registerMarket", [market]),
        "ClearingHouse: registerMarket(PerpMarket)",
      );
      const risk = RiskEngine__factory.connect(ctx.address("RiskEngine"), ctx.deployer);
      await ctx.adminCall(
        await risk.getAddress(),
        risk.interface.encodeFunctionData("setMarketParams", [market, perpRiskParams]),
        "RiskEngine: setMarketParams(PerpMarket)",
      );
    }
    await ctx.grantRole(Roles.MARKET, market, "PerpMarket");
    const lv = LiquidityVault__factory.connect(vault, ctx.deployer);
    const listed = (await lv.markets()).map((a) => a.toLowerCase());
    if (!listed.includes(market.toLowerCase())) {
      await ctx.adminCall(
        vault,
        lv.interface.encodeFunctionData("addMarket", [market]),
        "LiquidityVault: addMarket(PerpMarket)",
      );
    }
    await ctx.setFunctionRole(
      "LiquidityVault",
      ["allocate(address,uint256)", "deallocate(address,uint256)"],
      Roles.KEEPER,
    );
    await ctx.guardianMayPause("LiquidityVault", Roles.GUARDIAN);
    await ctx.guardianMayPause("PerpMarket", Roles.GUARDIAN);
  },
};
