import { parseUnits, ZeroAddress } from "ethers";
import { ClearingHouse__factory, RiskEngine__factory } from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";
import { ensureMarketFlag } from "./clearing.js";

/**
 * FuturesMarket parameters (docs/futures.md). Governance changes them later through `setParams`.
 * Field order and types follow `IFuturesTypes.Params`.
 */
export const futuresParams = {
  feeBps: 5, // 0.05 % of notional, to the insurance fund through the ClearingHouse fee
  penaltyBps: 1_000, // a failing short pays 110 % of the settlement value of undelivered CH
  maxPremiumBps: 1_000, // |premium| ≤ 10 % at full horizon
  maxCorrectionBps: 1_000, // a dispute may move the proposed price by ≤ 10 %
  vaultReserveBps: 1_000, // 10 % of the vault's net notional stays in the pool
  maxLiveSeries: 12,
  electionCutoffSec: 86_400, // elections close 1 day before expiry
  disputeWindowSec: 3_600, // 1 h to correct the settlement price
  deliveryWindowSec: 86_400, // assigned shorts have 1 day after finalisation
  proofWindowSec: 86_400, // 1 day to answer a guarantor's proof demand
  minListingLeadSec: 3_600, // a new series expires ≥ 1 h from now
  keeperBountyUsdc: parseUnits("1", 6),
  skewScaleCh: parseUnits("100000", 18), // 100k CH of skew = 100 % premium at full horizon (before the cap)
  premiumHorizonSec: 365n * 86_400n,
  defaultOiCapCh: parseUnits("1000000", 18),
  // two-step orders against the vault (issue 17 item 15, as perps): an order fills at the oracle round in force 30 s
  // after its commit, executable for 5 minutes; 0.5 USDC pays whoever executes or cancels it
  minOrderDelaySec: 30,
  maxOrderDelaySec: 300,
  executionFeeUsdc: parseUnits("0.5", 6),
};

/** Risk multiples of the futures market in the RiskEngine (same as the clearing tests' reference market). */
export const futuresRisk = {
  imMultipleWad: parseUnits("3", 18),
  mmMultipleWad: parseUnits("1.5", 18),
  imFloorWad: parseUnits("0.1", 18),
  mmFloorWad: parseUnits("0.05", 18),
};

/**
 * FuturesMarket (proxy, linking FuturesTrading/FuturesSigned/FuturesFixing/FuturesListing/FuturesOrders/FuturesRisk, deployed
 * first) + FuturesDelivery (its delegate-called module, linking those and FuturesSettlement/FuturesEscrow/FuturesLiquidation;
 * the deployer links each from the artifact's link references). Registered in the ClearingHouse with risk
 * parameters, granted Roles.MARKET. `openFromExercise` is mapped to Roles.MARKET: the OptionsMarket holds that role
 * already as a ClearingHouse market, so no extra grant is needed for it. The liquidity vault is wired when its
 * module (name "LiquidityVault") ran first, else later by governance (`setVault`).
 */
export const futuresModule: DeployModule = {
  name: "futures",
  async deploy(ctx: DeployContext) {
    const ch = ctx.address("ClearingHouse");
    const house = ClearingHouse__factory.connect(ch, ctx.deployer);
    const [, oracle, riskEngine] = await house.modules();
    const vault = ctx.has("LiquidityVault") ? ctx.address("LiquidityVault") : ZeroAddress;
    const delivery = await ctx.plain("FuturesDelivery", "FuturesDelivery", []);
    const market = await ctx.proxy("FuturesMarket", "FuturesMarket", () => [
      ctx.address("AccessManager"),
      ch,
      oracle,
      ctx.address("CHToken"),
      vault,
      delivery,
      futuresParams,
    ]);

    const [registered] = await house.marketInfo(market);
    if (!registered) {
      const data = house.interface.encodeFunctionData("registerMarket", [market]);
      await ctx.adminCall(ch, data, "ClearingHouse: registerMarket(FuturesMarket)");
    }
    // its pool is LP capital: socialised loss may land there (issue 17 item 14); every margin check asks it for
    // what an account holds beyond its net position (delivery payments, spreads, bonds: IMarketAccountRisk), and
    // it keeps its accounts in their ClearingHouse market set until their last series is settled (docs/futures.md)
    await ensureMarketFlag(ctx, market, "lossAbsorber", true, "FuturesMarket");
    await ensureMarketFlag(ctx, market, "accountRisk", true, "FuturesMarket");
    await ensureMarketFlag(ctx, market, "holdsAccounts", true, "FuturesMarket");
    const risk = RiskEngine__factory.connect(riskEngine, ctx.deployer);
    const current = await risk.marketParams(market);
    if (current.imFloorWad === 0n) {
      const data = risk.interface.encodeFunctionData("setMarketParams", [market, futuresRisk]);
      await ctx.adminCall(riskEngine, data, "RiskEngine: setMarketParams(FuturesMarket)");
    }
    await ctx.grantRole(Roles.MARKET, market, "FuturesMarket");
    await ctx.setFunctionRole(
      "FuturesMarket",
      ["openFromExercise(uint256,address,address,uint256,uint256)"],
      Roles.MARKET,
    );
    await ctx.setFunctionRole("FuturesMarket", ["disputeSettlementPrice(uint256,uint256)"], Roles.GUARDIAN);
    // trading, listing by the standard rule, delivery, settlement and keeper functions are permissionless;
    // listSeries / setParams / setVault / setDeliveryModule / setSeriesOiCap stay ADMIN (the timelock).
    await ctx.guardianMayPause("FuturesMarket", Roles.GUARDIAN);
  },
};
