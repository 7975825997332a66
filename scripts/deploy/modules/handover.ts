import { ChxTimelock__factory } from "../../../types/ethers-contracts/index.js";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";

/**
 * Last module. With `handover` (default on real networks) the deployer renounces the timelock admin and
 * AccessManager ADMIN_ROLE, leaving governance (Governor → Timelock) as the only authority. On local
 * networks the deployer keeps ADMIN_ROLE beside the timelock (the demo and tests set parameters directly);
 * docs/governance.md states this.
 */
export const handoverModule: DeployModule = {
  name: "handover",
  async deploy(ctx: DeployContext) {
    ctx.record.handover = ctx.config.handover;
    if (!ctx.config.handover) {
      ctx.log("  local network: deployer keeps bootstrap ADMIN_ROLE beside the timelock");
      return;
    }
    const timelock = ChxTimelock__factory.connect(ctx.address("Timelock"), ctx.deployer);
    const adminRole = await timelock.DEFAULT_ADMIN_ROLE();
    if (await timelock.hasRole(adminRole, ctx.deployerAddress)) {
      await (await timelock.renounceRole(adminRole, ctx.deployerAddress)).wait();
      ctx.txCount += 1;
      ctx.log("  Timelock: deployer renounced admin");
    }
    const manager = ctx.accessManager();
    const [isAdmin] = await manager.hasRole(Roles.ADMIN, ctx.deployerAddress);
    if (isAdmin) {
      await (await manager.renounceRole(Roles.ADMIN, ctx.deployerAddress)).wait();
      ctx.txCount += 1;
      ctx.log("  AccessManager: deployer renounced ADMIN_ROLE — governance alone now");
    }
  },
};
