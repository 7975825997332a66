import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { wireComputeHooks } from "./compute.js";
import { Roles } from "../../lib/roles.js";

/**
 * Cross-module hooks that need both ends deployed (a lower module pointing at a higher one through an
 * interface registered by governance — SPEC section 13). Runs after every module, before handover. Each step is
 * idempotent (it checks the slot first).
 */
export const wiringModule: DeployModule = {
  name: "wiring",
  async deploy(ctx: DeployContext) {
    await wireComputeHooks(ctx);
    // fee payers of the insurance fund
    if (ctx.has("InsuranceFund")) {
      for (const payer of ["ClearingHouse", "SpotMarket"]) {
        if (ctx.has(payer)) await ctx.grantRole(Roles.FEE_SOURCE, ctx.address(payer), payer);
      }
    }
  },
};
