import { AbiCoder, formatUnits, id, keccak256, parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext, Scene } from "../types.js";

const wad = (x: string) => parseUnits(x, 18);

/** Submits a DPS-paid batch task; providers bid; the council verifies; returns the task id. */
async function runTask(ctx: DemoContext, honest: boolean, providers: HardhatEthersSigner[]): Promise<bigint> {
  const { taskRegistry: tasks, dps } = ctx.protocol;
  const client = ctx.actor("dave");
  const helpers = ctx.connection.networkHelpers;
  await (await dps.connect(ctx.deployer).transfer(client.address, wad("1000"))).wait();
  await (await dps.connect(client).approve(await tasks.getAddress(), wad("1000"))).wait();
  const now = BigInt((await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp);
  await (
    await tasks.connect(client).submit(
      {
        currency: 2,
        responseMode: 0,
        councilSize: 3,
        quorum: 2,
        checkpoints: 1,
        maxBids: 0,
        workloadClass: 1,
        region: 0,
        bidWindowSec: 3600,
        deadline: now + 86_400n,
        maxPayment: wad("1000"),
        capacityPflopsWad: wad("0.1"),
        paymentParams: 0n,
      },
      { dataHash: id("D"), modelHash: id("M"), inputHash: id("I"), outputFnHash: id("f"), evalHash: id("e"), uri: "" },
    )
  ).wait();
  const taskId = await tasks.taskCount();
  // two providers bid; the lowest valid bid wins
  await (await tasks.connect(providers[0]!).bid(taskId, wad(honest ? "480" : "450"))).wait();
  await (await tasks.connect(providers[1]!).bid(taskId, wad(honest ? "500" : "520"))).wait();
  await helpers.time.increase(3601);
  // closing seals the bids and commits the next block as the seed; once it is mined the executor is selected
  await (await tasks.closeBidding(taskId)).wait();
  await helpers.mine(1);
  await (await tasks.closeBidding(taskId)).wait();
  await (await tasks.drawCouncil(taskId)).wait();
  const t = await tasks.getTask(taskId);
  const executor = providers.find((p) => p.address === t.executor)!;
  // the executor commits its result hash at the checkpoint; a cheater commits something else
  await (await tasks.connect(executor).commit(taskId, 0, id(honest ? "the-right-result" : "made-up-result"))).wait();
  // Commit–reveal: each council member computes the result itself and commits it salted while the commit window is
  // open (nobody sees another's answer), then reveals; the accepted result is the one a quorum reveals.
  const council = await tasks.councilOf(taskId, 0);
  const own = id("the-right-result");
  const coder = AbiCoder.defaultAbiCoder();
  const members = council.map((m) => providers.find((p) => p.address === m)).filter((m) => m !== undefined);
  for (const member of members) {
    const salt = id(`salt-${member.address}-${taskId}`);
    const c = keccak256(
      coder.encode(["uint256", "address", "bytes32", "bytes32"], [taskId, member.address, own, salt]),
    );
    await (await tasks.connect(member).commitResult(taskId, c)).wait();
  }
  await helpers.time.increaseTo(Number((await tasks.getTask(taskId)).commitEnds) + 1);
  for (const member of members) {
    await (await tasks.connect(member).revealResult(taskId, own, id(`salt-${member.address}-${taskId}`))).wait();
  }
  const after = await tasks.getTask(taskId);
  if (!honest) await helpers.time.increaseTo(Number(after.votingEnds) + 1); // the executor's appeal window passes
  await (await tasks.finalize(taskId)).wait(); // the deployer finalises as a keeper and earns the bounty
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
