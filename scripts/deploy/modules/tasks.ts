import { parseUnits, ZeroAddress } from "ethers";
import type { DeployContext, DeployModule } from "../../lib/deployer.js";
import { Roles } from "../../lib/roles.js";
import { ProviderRegistry__factory, StreamTasks__factory } from "../../../types/ethers-contracts/index.js";

/** Default TaskRegistry parameters (docs/tasks.md explains each choice). */
export const defaultTaskParams = {
  /** 1 % of the executor's price per council member who votes with the outcome. */
  councilFeeBps: 100n,
  /** DPS-paying clients pay 10 % less than the quoted price … */
  dpsDiscountBps: 1_000n,
  /** … and 20 % of what they pay returns to the Emission reward pool. */
  dpsReplenishBps: 2_000n,
  maxCouncil: 7n,
  councilWindow: 64n,
  verifyWindowSec: 86_400n,
  disputeWindowSec: 3n * 86_400n,
  redemptionGraceSec: 86_400n,
  slashDps: parseUnits("100", 18),
};

/** Receipts of a retracted stream may still settle for this long. */
export const STREAM_SETTLE_GRACE_SEC = 86_400n;

/** DPS a stream subscription locks until the subscriber leaves (TSK-08): the batch fault amount. */
export const STREAM_SUBSCRIPTION_LOCK_DPS = defaultTaskParams.slashDps;

/** Stream consensus (issue 21 item 4; docs/tasks.md "Stream consensus"): windows, slash and client penalty. */
export const streamConsensusParams = {
  answerWindowSec: 600,
  revealWindowSec: 600,
  challengeWindowSec: 3_600,
  slashWindowSec: 86_400,
  payGraceSec: 86_400,
  /** A client that leaves a proven answer unpaid pays it plus half again to the provider. */
  clientPenaltyBps: 5_000,
  /** A challenge bonds ten requests at the stream's maximum price. */
  challengeBondRequests: 10,
  /** One fault slashes the whole subscription lock (≤ it, enforced on chain). */
  slashDps: STREAM_SUBSCRIPTION_LOCK_DPS,
};

/**
 * Task layer: the TaskRegistry (batch tasks, councils, disputes, CH redemption) and StreamTasks
 * (subscriptions, batched receipt settlement, on-chain consensus requests; holds STAKE_LOCKER and PROVIDER_SLASHER
 * for members outside consensus, linking the StreamSubscriptions, StreamSettlement, StreamConsensus, StreamVerdict and
 * StreamDuties libraries: ctx.proxy deploys each once), plus the keepers' read-only TaskKeeperLens. The registry
 * holds COMPUTE (the ProviderRegistry's outcome and redemption hooks), PROVIDER_SLASHER (ProviderRegistry.slash for
 * the side found wrong) and REWARD_SOURCE (Emission.replenish) — one role per capability (issue 17 item 19).
 */
export const tasksModule: DeployModule = {
  name: "tasks",
  async deploy(ctx: DeployContext) {
    await ctx.proxy("TaskRegistry", "TaskRegistry", () => [
      ctx.address("AccessManager"),
      ctx.address("ProviderRegistry"),
      ctx.address("ProviderMatcher"),
      [ctx.address("CHToken"), ctx.address("USDC"), ctx.address("DPSToken")],
      ctx.has("Emission") ? ctx.address("Emission") : ZeroAddress,
      defaultTaskParams,
    ]);
    await ctx.proxy("StreamTasks", "StreamTasks", () => [
      ctx.address("AccessManager"),
      ctx.address("ProviderMatcher"),
      [ctx.address("CHToken"), ctx.address("USDC"), ctx.address("DPSToken")],
      STREAM_SETTLE_GRACE_SEC,
    ]);
    const tasks = ctx.address("TaskRegistry");
    // Keeper scan of every task (periphery, read-only, not upgradeable): docs/keepers.md, job `tasks`.
    await ctx.plain("TaskKeeperLens", "TaskKeeperLens", [tasks, ctx.address("ProviderRegistry")]);
    await ctx.grantRole(Roles.COMPUTE, tasks, "TaskRegistry");
    await ctx.grantRole(Roles.PROVIDER_SLASHER, tasks, "TaskRegistry");
    await ctx.grantRole(Roles.REWARD_SOURCE, tasks, "TaskRegistry");
    // TSK-08: executor and council seats (TaskRegistry) and subscriptions (StreamTasks) lock the stake they may slash.
    await ctx.grantRole(Roles.STAKE_LOCKER, tasks, "TaskRegistry");
    await ctx.grantRole(Roles.STAKE_LOCKER, ctx.address("StreamTasks"), "StreamTasks");
    // Issue 18 gas: the registry's duty and outcome hooks skip the AccessManager call for this TaskRegistry.
    const providerRegistry = ProviderRegistry__factory.connect(ctx.address("ProviderRegistry"), ctx.deployer);
    if ((await providerRegistry.trustedTaskRegistry()).toLowerCase() !== tasks.toLowerCase()) {
      const data = providerRegistry.interface.encodeFunctionData("setTrustedTaskRegistry", [tasks]);
      await ctx.adminCall(
        ctx.address("ProviderRegistry"),
        data,
        "ProviderRegistry: trusted task registry → TaskRegistry",
      );
    }
    const streams = StreamTasks__factory.connect(ctx.address("StreamTasks"), ctx.deployer);
    if ((await streams.subscriptionLock()) !== STREAM_SUBSCRIPTION_LOCK_DPS) {
      const data = streams.interface.encodeFunctionData("setSubscriptionLock", [STREAM_SUBSCRIPTION_LOCK_DPS]);
      await ctx.adminCall(ctx.address("StreamTasks"), data, "StreamTasks: subscription stake lock");
    }
    // Issue 21 item 4: StreamTasks slashes stream members outside consensus through ProviderRegistry.slash.
    await ctx.grantRole(Roles.PROVIDER_SLASHER, ctx.address("StreamTasks"), "StreamTasks");
    if ((await streams.consensusParams()).answerWindowSec === 0n) {
      const data = streams.interface.encodeFunctionData("setConsensusParams", [streamConsensusParams]);
      await ctx.adminCall(ctx.address("StreamTasks"), data, "StreamTasks: consensus parameters");
    }
    await ctx.guardianMayPause("TaskRegistry", Roles.GUARDIAN);
    await ctx.guardianMayPause("StreamTasks", Roles.GUARDIAN);
  },
};
