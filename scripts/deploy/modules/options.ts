import { ClearingHouse__factory, RiskEngine__factory } from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";
import { ensureMarketFlag } from "./clearing.js";
import { perpRiskParams } from "./perps.js";

/**
 * Options market (docs/options.md): OptionsMarket behind a UUPS proxy plus its stateless settlement module
 * (OptionsSettlement, run by delegatecall). Collateral, premiums and fees live in the market's ClearingHouse PnL
 * pool, so the market is registered in the ClearingHouse and holds Roles.MARKET (settle, withdrawMarketPool).
 * Margined writing (issue 20 item 3, docs/options.md "Margined writing") is on by default: the market is flagged
 * holds-accounts, account-risk and scenario-risk (its margined writers are in the ClearingHouse's portfolio margin)
 * and gets the perp's RiskEngine multiples (the grid's range). Fee income goes to the
 * treasury (CHX_TREASURY, else the Timelock). The futures market that futures options exercise into is set by the
 * wiring module once both are deployed (`setFuturesMarket`); `openFromExercise` is mapped to Roles.MARKET, which
 * the OptionsMarket holds as a ClearingHouse market.
 */
export const optionsModule: DeployModule = {
  name: "options",
  async deploy(ctx: DeployContext) {
    const ch = ctx.address("ClearingHouse");
    const house = ClearingHouse__factory.connect(ch, ctx.deployer);
    const [, oracle] = await house.modules();
    const treasury = ctx.config.dps.genesisRecipient ?? ctx.address("Timelock");
    const settlement = await ctx.plain("OptionsSettlement", "OptionsSettlement");
    const market = await ctx.proxy("OptionsMarket", "OptionsMarket", () => [
      ctx.address("AccessManager"),
      ch,
      oracle,
      treasury,
      settlement,
    ]);
    const [registered] = await house.marketInfo(market);
    if (!registered) {
      await ctx.adminCall(
        ch,
        house.interface.encodeFunctionData("registerMarket", [market]),
        "ClearingHouse: registerMarket(OptionsMarket)",
      );
      // the scenario flag has no getter in marketFlags: set once, with the registration
      await ctx.adminCall(
        ch,
        house.interface.encodeFunctionData("setMarketScenarioRisk", [market, true]),
        "ClearingHouse: setMarketScenarioRisk(OptionsMarket, true)",
      );
      const risk = RiskEngine__factory.connect(ctx.address("RiskEngine"), ctx.deployer);
      await ctx.adminCall(
        await risk.getAddress(),
        risk.interface.encodeFunctionData("setMarketParams", [market, perpRiskParams]),
        "RiskEngine: setMarketParams(OptionsMarket)",
      );
    }
    await ensureMarketFlag(ctx, market, "holdsAccounts", true, "OptionsMarket");
    await ensureMarketFlag(ctx, market, "accountRisk", true, "OptionsMarket");
    await ctx.grantRole(Roles.MARKET, market, "OptionsMarket");
    // listing by governance, parameters and module addresses stay ADMIN (the default); the guardian corrects a
    // settlement price inside its dispute window and may pause "options.list", "options.write", "options.trade".
    await ctx.setFunctionRole("OptionsMarket", ["correctSettlementPrice(uint256,uint256)"], Roles.GUARDIAN);
    await ctx.guardianMayPause("OptionsMarket", Roles.GUARDIAN);
  },
};
