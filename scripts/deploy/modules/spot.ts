import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/**
 * Spot market (CH/USDC). Fee income goes to the treasury (CHX_TREASURY, else the Timelock) and, for the
 * governance-set insurance share, to the InsuranceFund. While the fund is not deployed (it lives in another
 * module), the treasury stands in as the insurance recipient and receives everything; the lead wires the real
 * fund at merge by ordering this module after the insurance module (or through `setFeeRecipients` by governance).
 */
export const spotModule: DeployModule = {
  name: "spot",
  async deploy(ctx: DeployContext) {
    const treasury = ctx.config.dps.genesisRecipient ?? ctx.address("Timelock");
    const insuranceFund = ctx.has("InsuranceFund") ? ctx.address("InsuranceFund") : treasury;
    await ctx.proxy("SpotMarket", "SpotMarket", () => [
      ctx.address("AccessManager"),
      ctx.address("CHToken"),
      ctx.address("USDC"),
      ctx.address("DPSToken"),
      treasury,
      insuranceFund,
    ]);
    // trading, cancelling, staking and fee distribution are permissionless (no `restricted` modifier);
    // parameter setters stay ADMIN (the timelock); the guardian may pause "spot.trade" and "spot.stake".
    await ctx.guardianMayPause("SpotMarket", Roles.GUARDIAN);
  },
};
