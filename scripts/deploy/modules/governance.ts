import { ZeroAddress } from "ethers";
import { ChxTimelock__factory } from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/**
 * Governance layer: the one AccessManager, DPS (votes), the TimelockController and the Governor.
 * The timelock gets AccessManager's ADMIN_ROLE here; the deployer keeps its bootstrap powers until the
 * handover module runs (last).
 */
export const governanceModule: DeployModule = {
  name: "governance",
  async deploy(ctx: DeployContext) {
    const g = ctx.config.governance;
    await ctx.proxy("AccessManager", "ChxAccessManager", () => [ctx.deployerAddress]);
    const manager = ctx.address("AccessManager");
    await ctx.proxy("DPSToken", "DPSToken", () => [
      manager,
      ctx.config.dps.genesisRecipient ?? ctx.deployerAddress,
      ctx.config.dps.genesisAmount,
    ]);
    await ctx.proxy("Timelock", "ChxTimelock", () => [g.timelockMinDelaySec, [], [ZeroAddress], ctx.deployerAddress]);
    await ctx.proxy("Governor", "ChxGovernor", () => [
      ctx.address("DPSToken"),
      ctx.address("Timelock"),
      g.votingDelaySec,
      g.votingPeriodSec,
      g.proposalThreshold,
      g.quorumPercent,
    ]);

    // Timelock: the Governor proposes and cancels. Needs the timelock's own admin (the deployer, pre-handover).
    const timelock = ChxTimelock__factory.connect(ctx.address("Timelock"), ctx.deployer);
    const governor = ctx.address("Governor");
    for (const role of [await timelock.PROPOSER_ROLE(), await timelock.CANCELLER_ROLE()]) {
      if (!(await timelock.hasRole(role, governor))) {
        await (await timelock.grantRole(role, governor)).wait();
        ctx.txCount += 1;
        ctx.log(
          `  Timelock: granted ${role === (await timelock.PROPOSER_ROLE()) ? "PROPOSER" : "CANCELLER"} to Governor`,
        );
      }
    }

    // AccessManager: the timelock is the admin; the guardian may pause.
    await ctx.grantRole(Roles.ADMIN, ctx.address("Timelock"), "Timelock");
    await ctx.grantRole(Roles.GUARDIAN, ctx.config.guardian ?? ctx.deployerAddress, "guardian");
    await ctx.setFunctionRole("DPSToken", ["mint(address,uint256)"], Roles.EMISSION);
    await ctx.guardianMayPause("DPSToken", Roles.GUARDIAN);
  },
};
