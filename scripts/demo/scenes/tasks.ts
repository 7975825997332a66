import { formatUnits, id, parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext, Scene } from "../types.js";
import { batchTerms, driveTask, PRESCRIPTION, RIGHT_RESULT } from "../task-flow.js";

const wad = (x: string) => parseUnits(x, 18);

/** Submits a DPS-paid batch task; providers bid; the council verifies (scripts/demo/task-flow.ts); returns the task id. */
async function runTask(ctx: DemoContext, honest: boolean, providers: HardhatEthersSigner[]): Promise<bigint> {
  const { taskRegistry: tasks, dps } = ctx.protocol;
  const client = ctx.actor("dave");
  await (await dps.connect(ctx.deployer).transfer(client.address, wad("1000"))).wait();
  await (await dps.connect(client).approve(await tasks.getAddress(), wad("1000"))).wait();
  const now = BigInt((await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp);
  await (await tasks.connect(client).submit(batchTerms(2, wad("1000"), now), PRESCRIPTION)).wait();
  const taskId = await tasks.taskCount();
  // two providers bid; the lowest valid bid wins
  const bids = [
    { provider: providers[0]!, price: wad(honest ? "480" : "450") },
    { provider: providers[1]!, price: wad(honest ? "500" : "520") },
  ];
  await driveTask(ctx, taskId, bids, providers, honest ? RIGHT_RESULT : id("made-up-result"));
  return taskId;
}

/** A client buys verified compute twice: once honestly delivered, once from a cheater the council catches. */
export const tasksScene: Scene = {
  title: "Tasks: a client pays in DPS, providers bid, the council verifies; a cheating executor is caught and slashed",
  requires: ["TaskRegistry", "ProviderRegistry"],
  async run(ctx) {
    const { taskRegistry: tasks, providerRegistry: reg, dps, emission } = ctx.protocol;
    const providers = Array.from({ length: Math.max(1, ctx.opts.providers) }, (_, i) => ctx.actor(`provider${i}`));
    if (providers.length < 5)
      throw new Error("the tasks scene needs at least 5 providers (executor + bidder + council of 3)");
    const poolBefore = await dps.balanceOf(await emission.getAddress());
    const ok = await runTask(ctx, true, providers);
    const good = await tasks.getTask(ok);
    ctx.log(
      `task ${ok}: executor ${good.executor.slice(0, 10)}… paid ${formatUnits(good.price, 18)} DPS (status ${good.status}); council agreed`,
    );
    const bad = await runTask(ctx, false, providers);
    const badTask = await tasks.getTask(bad);
    const cheater = await reg.providerInfo(badTask.executor);
    ctx.log(
      `task ${bad}: executor ${badTask.executor.slice(0, 10)}… committed a wrong hash; the council's reveals agree on another result (${badTask.verdictHash.slice(0, 10)}…) → rejected (status ${badTask.status}), executor slashed (slash count ${cheater.slashCount})`,
    );
    ctx.figure("tasks.honestStatus", Number(good.status));
    ctx.figure("tasks.cheaterStatus", Number(badTask.status));
    ctx.figure("tasks.cheaterSlashed", cheater.slashCount > 0);
    ctx.figure(
      "tasks.replenishedDps",
      formatUnits((await dps.balanceOf(await emission.getAddress())) - poolBefore, 18),
    );
  },
};
