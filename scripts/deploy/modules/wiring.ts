import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { wireComputeHooks } from "./compute.js";
import { Roles } from "../../lib/roles.js";
import { answersAccountRisk, ensureMarketFlag } from "./clearing.js";
import {
  LiquidityVault__factory,
  OptionsMarket__factory,
  RiskEngine__factory,
} from "../../../types/ethers-contracts/index.js";
import { parseUnits } from "ethers";

/**
 * Each market's own σ model (issue 20 item 3, docs/clearing.md "Per-market σ"), all σ per 1 h update interval: the
 * index's λ; a 1 % stress floor; once no update came for a day, at least 4 % (IM 12 %, MM 6 % with the markets' 3× /
 * 1.5× multiples instead of their 10 % / 5 % floors). The keeper's volatility job updates every market with a model.
 */
export const marketVolParams = {
  lambdaWad: parseUnits("0.94", 18),
  floorSigmaWad: parseUnits("0.01", 18),
  staleSigmaWad: parseUnits("0.04", 18),
  staleAfterSec: 86_400n,
};

/** Gives every deployed market with risk parameters its own σ model, unless it has one (ADMIN, idempotent). */
async function wireMarketVolatility(ctx: DeployContext): Promise<void> {
  if (!ctx.has("RiskEngine")) return;
  const risk = RiskEngine__factory.connect(ctx.address("RiskEngine"), ctx.deployer);
  for (const name of ["PerpMarket", "FuturesMarket"]) {
    if (!ctx.has(name)) continue;
    const market = ctx.address(name);
    if ((await risk.marketParams(market)).imFloorWad === 0n) continue;
    const [current] = await risk.marketVolatility(market);
    if (current.staleAfterSec !== 0n) continue;
    const data = risk.interface.encodeFunctionData("setMarketVolParams", [market, marketVolParams]);
    await ctx.adminCall(await risk.getAddress(), data, `RiskEngine: setMarketVolParams(${name})`);
  }
}

/**
 * ClearingHouse market flags of the markets other modules deploy: the perp market's pool is LP capital and absorbs
 * socialised loss; the options market's pool is its writers' collateral and never does (issue 17 item 14). The perp
 * market joins the account-risk hook (owed funding in every margin check, issue 17 item 11) as soon as its code
 * answers `accountRisk`: the probe is a static call, so a later upgrade of the perp market switches it on on the next
 * deploy run.
 */
async function wireClearingFlags(ctx: DeployContext): Promise<void> {
  if (!ctx.has("ClearingHouse")) return;
  if (ctx.has("PerpMarket")) {
    const perp = ctx.address("PerpMarket");
    await ensureMarketFlag(ctx, perp, "lossAbsorber", true, "PerpMarket");
    if (await answersAccountRisk(ctx, perp)) await ensureMarketFlag(ctx, perp, "accountRisk", true, "PerpMarket");
  }
  if (ctx.has("OptionsMarket")) {
    await ensureMarketFlag(ctx, ctx.address("OptionsMarket"), "lossAbsorber", false, "OptionsMarket");
  }
}

/** The markets that need each other: the LP vault backs the futures; futures options exercise into the futures. */
async function wireMarkets(ctx: DeployContext): Promise<void> {
  if (!ctx.has("FuturesMarket")) return;
  const futures = ctx.address("FuturesMarket");
  if (ctx.has("LiquidityVault")) {
    const vault = LiquidityVault__factory.connect(ctx.address("LiquidityVault"), ctx.deployer);
    const listed = (await vault.markets()).map((a) => a.toLowerCase());
    if (!listed.includes(futures.toLowerCase())) {
      const data = vault.interface.encodeFunctionData("addMarket", [futures]);
      await ctx.adminCall(await vault.getAddress(), data, "LiquidityVault: addMarket(FuturesMarket)");
    }
  }
  if (ctx.has("OptionsMarket")) {
    const options = OptionsMarket__factory.connect(ctx.address("OptionsMarket"), ctx.deployer);
    const [, , current] = await options.modules();
    if (current.toLowerCase() !== futures.toLowerCase()) {
      const data = options.interface.encodeFunctionData("setFuturesMarket", [futures]);
      await ctx.adminCall(await options.getAddress(), data, "OptionsMarket: setFuturesMarket(FuturesMarket)");
    }
  }
}

/**
 * Cross-module hooks that need both ends deployed (a lower module pointing at a higher one through an
 * interface registered by governance — SPEC section 13). Runs after every module, before handover. Each step is
 * idempotent (it checks the slot first).
 */
export const wiringModule: DeployModule = {
  name: "wiring",
  async deploy(ctx: DeployContext) {
    await wireComputeHooks(ctx);
    await wireMarkets(ctx);
    await wireClearingFlags(ctx);
    await wireMarketVolatility(ctx);
    // fee payers of the insurance fund
    if (ctx.has("InsuranceFund")) {
      for (const payer of ["ClearingHouse", "SpotMarket"]) {
        if (ctx.has(payer)) await ctx.grantRole(Roles.FEE_SOURCE, ctx.address(payer), payer);
      }
    }
  },
};
