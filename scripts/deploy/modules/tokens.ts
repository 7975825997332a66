import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/** Token layer: CH (the commodity), GFL (capacity index) and the USDC margin asset (a mock on local networks). */
export const tokensModule: DeployModule = {
  name: "tokens",
  async deploy(ctx: DeployContext) {
    const manager = ctx.address("AccessManager");
    await ctx.proxy("CHToken", "CHToken", () => [manager]);
    await ctx.proxy("GFLToken", "GFLToken", () => [manager]);
    await ctx.setFunctionRole("CHToken", ["mint(address,uint256)", "burn(address,uint256)"], Roles.CH_MINTER);
    await ctx.setFunctionRole(
      "GFLToken",
      ["mint(address,uint256)", "burn(address,uint256)", "setBalance(address,uint256)"],
      Roles.EMISSION,
    );
    await ctx.guardianMayPause("CHToken", Roles.GUARDIAN);
    await ctx.guardianMayPause("GFLToken", Roles.GUARDIAN);

    if (ctx.config.useMocks) {
      await ctx.plain("USDC", "MockERC20", ["USD Coin (mock)", "USDC", 6]);
    } else {
      const usdc = ctx.config.external.usdc;
      if (usdc === undefined) throw new Error("deploy: set CHX_USDC to the USDC address on this network");
      ctx.external("USDC", "IERC20", usdc);
    }
  },
};
