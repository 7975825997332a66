import { ZeroAddress } from "ethers";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";

/**
 * Read-only periphery for wallets: the AccountLens (contracts/periphery/AccountLens.sol), one call for an account's
 * portfolio, the markets, the open guarantors and the workload classes. Not upgradeable and holds nothing: a new
 * version is a new deployment (the record's "AccountLens" entry moves). Markets that are not deployed are zero.
 *
 * Vendor automation (docs/keepers.md): LiquidationChecker and VolatilityChecker give Gelato (`checker`) and Chainlink
 * Automation (`checkUpkeep`/`performUpkeep`) the liquidation and volatility work the CHX keeper does; bounties a
 * vendor earns through them go to the treasury (CHX_TREASURY, else the Timelock). No storage, no roles.
 */
export const peripheryModule: DeployModule = {
  name: "periphery",
  async deploy(ctx: DeployContext) {
    const opt = (name: string) => (ctx.has(name) ? ctx.address(name) : ZeroAddress);
    await ctx.plain("AccountLens", "AccountLens", [
      ctx.address("ClearingHouse"),
      opt("PerpMarket"),
      opt("LiquidityVault"),
      opt("FuturesMarket"),
      opt("OptionsMarket"),
      opt("ComputeStandard"),
    ]);
    const treasury =
      ctx.config.dps.genesisRecipient ?? (ctx.has("Timelock") ? ctx.address("Timelock") : ctx.deployerAddress);
    if (ctx.has("LiquidationEngine")) {
      await ctx.plain("LiquidationChecker", "LiquidationChecker", [
        ctx.address("LiquidationEngine"),
        ctx.address("ClearingHouse"),
        treasury,
      ]);
    }
    if (ctx.has("RiskEngine")) {
      await ctx.plain("VolatilityChecker", "VolatilityChecker", [
        ctx.address("RiskEngine"),
        ctx.address("ClearingHouse"),
        treasury,
      ]);
    }
  },
};
