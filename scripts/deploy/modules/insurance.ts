import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/** The insurance fund's clearing-facing functions, mapped to Roles.CLEARING. */
export const INSURANCE_CLEARING_FUNCTIONS = [
  "coverBadDebt(uint256,address)",
  "depositFees(uint256)",
  "setGuarantorRequirement(address,uint256)",
];

/**
 * Clearing layer, part one: the InsuranceFund over USDC. Cooldown CHX_INSURANCE_COOLDOWN_SEC (default 7 days),
 * withdrawal window CHX_INSURANCE_WINDOW_SEC (default 2 days). Bad-debt cover, fee deposits and guarantor
 * requirements belong to Roles.CLEARING (the clearing module grants it to its ClearingHouse / LiquidationEngine).
 */
export const insuranceModule: DeployModule = {
  name: "insurance",
  async deploy(ctx: DeployContext) {
    const env = process.env;
    const cooldownSec = Number(env.CHX_INSURANCE_COOLDOWN_SEC ?? 7 * 86_400);
    const windowSec = Number(env.CHX_INSURANCE_WINDOW_SEC ?? 2 * 86_400);
    await ctx.proxy("InsuranceFund", "InsuranceFund", () => [
      ctx.address("AccessManager"),
      ctx.address("USDC"),
      cooldownSec,
      windowSec,
    ]);
    await ctx.setFunctionRole("InsuranceFund", INSURANCE_CLEARING_FUNCTIONS, Roles.CLEARING);
    await ctx.guardianMayPause("InsuranceFund", Roles.GUARDIAN);
  },
};
