import { ZeroAddress } from "ethers";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";

/**
 * Read-only periphery for wallets: the AccountLens (contracts/periphery/AccountLens.sol), one call for an account's
 * portfolio, the markets, the open guarantors and the workload classes. Not upgradeable and holds nothing: a new
 * version is a new deployment (the record's "AccountLens" entry moves). Markets that are not deployed are zero.
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
  },
};
