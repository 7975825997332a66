import { parseUnits, ZeroAddress } from "ethers";
import { ComputeStandard__factory, ProviderRegistry__factory } from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/** Default registry parameters (docs/compute.md explains each choice). */
export const defaultRegistryParams = {
  minStakeDps: parseUnits("1000", 18),
  collateralFactorWad: parseUnits("0.5", 18),
  unbondingDelaySec: 7n * 86_400n,
  attestationValiditySec: 30n * 86_400n,
  mintHorizonSec: 30n * 86_400n,
  heartbeatIntervalSec: 3_600n,
  uptimeWindowSec: 30n * 86_400n,
  finderFeeBps: 1_000n,
  redemptionPenaltyBps: 1_000n,
  dpsPriceWad: parseUnits("1", 18),
};

/**
 * Genesis reference systems (version 1 of each workload class). Performance in PFLOPS (WAD); weights over the
 * normalised factors [FLOPS, memory bandwidth, memory capacity] (or [FLOPS, memory] for CPU), summing to 1.
 */
export const genesisReferences: Array<{ workloadClass: number; name: string; refPflops: string; weights: string[] }> = [
  { workloadClass: 1, name: "ML training", refPflops: "0.312", weights: ["0.5", "0.3", "0.2"] },
  { workloadClass: 2, name: "ML inference", refPflops: "0.312", weights: ["0.4", "0.4", "0.2"] },
  { workloadClass: 3, name: "Rendering", refPflops: "0.036", weights: ["0.6", "0.2", "0.2"] },
  { workloadClass: 4, name: "General CPU", refPflops: "0.004", weights: ["0.7", "0.3"] },
];

/**
 * Compute layer: ComputeStandard, ProviderRegistry (stake, attestations, heartbeats, CH liability, slashing) and
 * ProviderMatcher. The registry mints and burns CH (CH_MINTER) and reports capacity to Emission (CAPACITY_RECORDER);
 * its task hooks are COMPUTE and `slash` PROVIDER_SLASHER (held by the TaskRegistry, tasks module).
 */
export const computeModule: DeployModule = {
  name: "compute",
  async deploy(ctx: DeployContext) {
    const manager = ctx.address("AccessManager");
    await ctx.proxy("ComputeStandard", "ComputeStandard", () => [manager]);
    await ctx.proxy("ProviderRegistry", "ProviderRegistry", () => [
      manager,
      ctx.address("DPSToken"),
      ctx.address("CHToken"),
      ctx.address("ComputeStandard"),
      defaultRegistryParams,
    ]);
    await ctx.proxy("ProviderMatcher", "ProviderMatcher", () => [manager, ctx.address("ProviderRegistry")]);

    const registry = ctx.address("ProviderRegistry");
    await ctx.grantRole(Roles.CH_MINTER, registry, "ProviderRegistry");
    await ctx.grantRole(Roles.CAPACITY_RECORDER, registry, "ProviderRegistry");
    await ctx.setFunctionRole(
      "ProviderRegistry",
      [
        "recordTaskOutcome(address,bool)",
        "assignRedemption(address,uint256,uint256)",
        "confirmDelivery(uint256)",
        "reportDeliveryFailure(uint256,address)",
        "releaseRedemption(uint256)",
      ],
      Roles.COMPUTE,
    );
    await ctx.setFunctionRole(
      "ProviderRegistry",
      ["slash(address,uint256,address,bytes32)", "slashTo(address,uint256,address,address,bytes32)"],
      Roles.PROVIDER_SLASHER,
    );
    // TSK-08: the modules holding executor, council and stream duties lock the stake those duties may slash.
    await ctx.setFunctionRole(
      "ProviderRegistry",
      ["lockStake(address[],uint256)", "releaseStake(address[],uint256)"],
      Roles.STAKE_LOCKER,
    );
    for (const name of ["ComputeStandard", "ProviderRegistry", "ProviderMatcher"]) {
      await ctx.guardianMayPause(name, Roles.GUARDIAN);
    }
    // Local networks: the deployer signs benchmark attestations (the demo's stand-in for the council/oracle).
    if (ctx.config.useMocks) await ctx.grantRole(Roles.ATTESTER, ctx.deployerAddress, "deployer (local attester)");

    // Parameter writes below need ADMIN; before handover the deployer has it. After handover they are governance's.
    if (!(await ctx.isAdmin())) return;
    await wireComputeHooks(ctx);
    const standard = ComputeStandard__factory.connect(ctx.address("ComputeStandard"), ctx.deployer);
    for (const ref of genesisReferences) {
      if ((await standard.latestVersion(ref.workloadClass)) !== 0n) continue;
      const weights = ref.weights.map((w) => parseUnits(w, 18));
      await (
        await standard.publishReference(ref.workloadClass, parseUnits(ref.refPflops, 18), weights, ref.name, ZeroHash)
      ).wait();
      ctx.txCount += 1;
      ctx.log(`  ComputeStandard: published ${ref.name} v1`);
    }
  },
};

const ZeroHash = "0x" + "00".repeat(32);

/**
 * Points the ProviderRegistry at Emission (capacity recorder) and ComputePriceOracle (redemption compensation)
 * when those records exist and the registry's slot is still empty. Idempotent; safe to call again from a module
 * that runs later (emission, oracle) or at merge, whatever the module order.
 */
export async function wireComputeHooks(ctx: DeployContext): Promise<void> {
  if (!ctx.has("ProviderRegistry") || !(await ctx.isAdmin())) return;
  const reg = ProviderRegistry__factory.connect(ctx.address("ProviderRegistry"), ctx.deployer);
  if (ctx.has("Emission") && (await reg.capacityRecorder()) === ZeroAddress) {
    await (await reg.setCapacityRecorder(ctx.address("Emission"))).wait();
    ctx.txCount += 1;
    ctx.log("  ProviderRegistry: capacity recorder → Emission");
  }
  if (ctx.has("ComputePriceOracle") && (await reg.priceOracle()) === ZeroAddress) {
    await (await reg.setPriceOracle(ctx.address("ComputePriceOracle"))).wait();
    ctx.txCount += 1;
    ctx.log("  ProviderRegistry: price oracle → ComputePriceOracle");
  }
}
