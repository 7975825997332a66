import { parseUnits } from "ethers";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";
import { Emission__factory, GFLToken__factory } from "../../../types/ethers-contracts/index.js";

/**
 * Emission parameters. SPEC section 5 fixes the reward share (20 %) and R_0 (1/100); the halving span, the
 * minimum sample count and the keeper bounties are governance parameters with these starting values
 * (overridable by environment for a real network; docs/emission.md explains each).
 */
export function emissionParams(env: NodeJS.ProcessEnv = process.env) {
  return {
    rewardShareBps: 2_000n,
    initialRatioWad: parseUnits("0.01", 18),
    /** Cumulative GFL-epochs per halving era: 10,000,000 GFL-epochs ⇒ at most 40,000 DPS ever minted. */
    halvingSpanGfl: parseUnits(env.CHX_EMISSION_HALVING_SPAN_GFL ?? "10000000", 18),
    /** A provider needs samples on 8 of the 15 days for a non-zero GFL. */
    minSamples: BigInt(env.CHX_EMISSION_MIN_SAMPLES ?? "8"),
    bounty: {
      closeBountyDps: parseUnits("1", 18),
      perProviderBountyDps: parseUnits("0.05", 18),
      maxBountyDps: parseUnits("10", 18),
    },
    keeperShareBps: 500n,
    keeperBatchSize: 100n,
  };
}

/** Compute layer: the GFL/DPS emission module (epochs, median rebalancing, rewards, halvings, replenishment). */
export const emissionModule: DeployModule = {
  name: "emission",
  async deploy(ctx: DeployContext) {
    const p = emissionParams();
    await ctx.proxy("Emission", "Emission", () => [
      ctx.address("AccessManager"),
      {
        gfl: ctx.address("GFLToken"),
        dps: ctx.address("DPSToken"),
        genesisTime: 0n,
        rewardShareBps: p.rewardShareBps,
        initialRatioWad: p.initialRatioWad,
        halvingSpanGfl: p.halvingSpanGfl,
        minSamples: p.minSamples,
        bounty: p.bounty,
        keeperShareBps: p.keeperShareBps,
        keeperBatchSize: p.keeperBatchSize,
      },
    ]);
    // One role per capability: capacity samples come from the ProviderRegistry's heartbeats only
    // (CAPACITY_RECORDER); compute payments return to the pool from the TaskRegistry (REWARD_SOURCE).
    await ctx.setFunctionRole("Emission", ["recordCapacity(address,uint256)"], Roles.CAPACITY_RECORDER);
    await ctx.setFunctionRole("Emission", ["replenish(uint256)"], Roles.REWARD_SOURCE);
    await ctx.grantRole(Roles.EMISSION, ctx.address("Emission"), "Emission");
    await ctx.guardianMayPause("Emission", Roles.GUARDIAN);
    await trustHotCallers(ctx);
  },
};

/**
 * Hot-path callers trusted by address (one SLOAD instead of an AccessManager call, governance may re-point them):
 * the GFL token's minter is Emission (every rebalance and lazy settle), Emission's trusted recorder is the
 * ProviderRegistry (every heartbeat). The roles above stay granted; each step is idempotent.
 */
async function trustHotCallers(ctx: DeployContext): Promise<void> {
  const emission = ctx.address("Emission");
  const gfl = GFLToken__factory.connect(ctx.address("GFLToken"), ctx.deployer);
  if ((await gfl.minter()).toLowerCase() !== emission.toLowerCase()) {
    const data = gfl.interface.encodeFunctionData("setMinter", [emission]);
    await ctx.adminCall(await gfl.getAddress(), data, "GFLToken: minter → Emission");
  }
  if (!ctx.has("ProviderRegistry")) return;
  const registry = ctx.address("ProviderRegistry");
  const em = Emission__factory.connect(emission, ctx.deployer);
  if ((await em.trustedRecorder()).toLowerCase() !== registry.toLowerCase()) {
    const data = em.interface.encodeFunctionData("setTrustedRecorder", [registry]);
    await ctx.adminCall(emission, data, "Emission: trusted recorder → ProviderRegistry");
  }
}
