import { AbiCoder, concat, formatUnits, id, keccak256, parseUnits } from "ethers";
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

/** Merkle levels of a checkpoint chain (leaves first; nodes keccak256(left ‖ right), as TaskChains.verify). */
function levelsOf(leaves: string[]): string[][] {
  const levels = [leaves];
  while (levels[levels.length - 1]!.length > 1) {
    const l = levels[levels.length - 1]!;
    levels.push(l.filter((_, i) => i % 2 === 0).map((x, i) => keccak256(concat([x, l[2 * i + 1]!]))));
  }
  return levels;
}

const proofOf = (levels: string[][], index: number) => levels.slice(0, -1).map((l, d) => l[(index >> d) ^ 1]!);

export interface NarrowedDispute {
  taskId: bigint;
  moves: number;
  step: number;
  executorSlashedDps: bigint;
  bondReturnedDps: bigint;
  status: bigint;
}

/**
 * Issue 21 item 2: a cheating executor caught through a narrowed dispute. A council of one; the executor's
 * 1,024-checkpoint chain goes wrong at step 600; the council member (who computed the right result) bonds and bisects;
 * each move is a proven midpoint leaf; the single step is judged by three freshly drawn referees.
 */
async function runNarrowedDispute(ctx: DemoContext, providers: HardhatEthersSigner[]): Promise<NarrowedDispute> {
  const { taskRegistry: tasks, providerRegistry: reg, dps } = ctx.protocol;
  const helpers = ctx.connection.networkHelpers;
  const tasksAddr = await tasks.getAddress();
  const client = ctx.actor("dave");
  const signer = (a: string) => {
    const p = providers.find((x) => x.address === a);
    if (p === undefined) throw new Error(`${a} is not one of the demo's providers`);
    return p;
  };
  await (await dps.connect(ctx.deployer).transfer(client.address, wad("1000"))).wait();
  await (await dps.connect(client).approve(tasksAddr, wad("1000"))).wait();
  const now = BigInt((await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp);
  const terms = { ...batchTerms(2, wad("1000"), now), councilSize: 1, quorum: 1 };
  await (await tasks.connect(client).submit(terms, PRESCRIPTION)).wait();
  const taskId = await tasks.taskCount();
  await (await tasks.connect(providers[0]!).bid(taskId, wad("450"))).wait();
  await helpers.time.increase(3601);
  await (await tasks.closeBidding(taskId)).wait();
  await helpers.mine(1);
  await (await tasks.closeBidding(taskId)).wait();
  await (await tasks.drawCouncil(taskId)).wait();
  const executor = signer((await tasks.getTask(taskId)).executor);
  const N = 1024;
  const honest = Array.from({ length: N }, (_, i) => id(`demo checkpoint ${i}`));
  const cheat = honest.map((h, i) => (i < 600 ? h : id(`skipped work ${i}`)));
  const execL = levelsOf(cheat);
  const chalL = levelsOf(honest);
  await (await tasks.connect(executor).commit(taskId, 0, cheat[N - 1]!)).wait();
  await (await tasks.connect(executor).commitChain(taskId, execL[10]![0]!, N, proofOf(execL, N - 1))).wait();
  // the council member computes the right result, commits it salted and reveals it
  const member = signer((await tasks.councilOf(taskId, 0))[0]!);
  const coder = AbiCoder.defaultAbiCoder();
  const commitReveal = async (who: HardhatEthersSigner[], result: (w: HardhatEthersSigner) => string) => {
    for (const w of who) {
      const c = keccak256(
        coder.encode(["uint256", "address", "bytes32", "bytes32"], [taskId, w.address, result(w), id(w.address)]),
      );
      await (await tasks.connect(w).commitResult(taskId, c)).wait();
    }
    await helpers.time.increaseTo(Number((await tasks.getTask(taskId)).commitEnds) + 1);
    for (const w of who) await (await tasks.connect(w).revealResult(taskId, result(w), id(w.address))).wait();
  };
  await commitReveal([member], () => honest[N - 1]!);
  // it bonds 10 % of the deposit and opens the bisection with its own chain
  const bond = await tasks.bisectionBond(taskId);
  await (await dps.connect(ctx.deployer).transfer(member.address, bond)).wait();
  await (await dps.connect(member).approve(tasksAddr, bond)).wait();
  const mid0 = (N - 1) >> 1;
  await (
    await tasks
      .connect(member)
      .openBisection(taskId, chalL[10]![0]!, honest[N - 1]!, proofOf(chalL, N - 1), honest[mid0]!, proofOf(chalL, mid0))
  ).wait();
  const dpsBefore = await dps.balanceOf(member.address); // the bond is held by the registry now
  let moves = 1;
  for (;;) {
    const d = await tasks.bisectionOf(taskId);
    if (d.phase !== 1n && d.phase !== 2n) break;
    const [leaves, levels, who] = d.phase === 1n ? [cheat, execL, executor] : [honest, chalL, member];
    const mid = Number((d.lo + d.hi) / 2n);
    const [lo, hi] = leaves[mid] === d.pending ? [mid + 1, Number(d.hi)] : [Number(d.lo), mid];
    const next = (lo + hi) >> 1;
    const nextProof = lo === hi ? [] : proofOf(levels, next);
    await (
      await tasks.connect(who).bisect(taskId, leaves[mid]!, proofOf(levels, mid), leaves[next]!, nextProof)
    ).wait();
    moves++;
  }
  // three referees are drawn from a fresh seed block and judge the single step by commit–reveal
  const judged = await tasks.bisectionOf(taskId);
  await helpers.mine(1);
  await (await tasks.drawCouncil(taskId)).wait();
  const referees = (await tasks.councilOf(taskId, 1)).map(signer);
  await commitReveal(referees, () => judged.challengerStep);
  const slashedBefore = (await reg.providerInfo(executor.address)).slashedDps;
  await (await tasks.finalize(taskId)).wait();
  return {
    taskId,
    moves,
    step: Number(judged.hi),
    executorSlashedDps: (await reg.providerInfo(executor.address)).slashedDps - slashedBefore,
    bondReturnedDps: (await dps.balanceOf(member.address)) - dpsBefore,
    status: (await tasks.getTask(taskId)).status,
  };
}

/** A client buys verified compute twice: once honestly delivered, once from a cheater the council catches. */
export const tasksScene: Scene = {
  title:
    "Tasks: a client pays in DPS, providers bid, the council verifies; a cheating executor is caught and slashed, another caught through a narrowed dispute",
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
    const nd = await runNarrowedDispute(ctx, providers);
    ctx.log(
      `task ${nd.taskId}: a 1,024-checkpoint chain wrong from step ${nd.step}; the challenger bisected it in ${nd.moves} moves, three referees judged the step → status ${nd.status}, executor slashed ${formatUnits(nd.executorSlashedDps, 18)} DPS, challenger's bond of ${formatUnits(nd.bondReturnedDps, 18)} DPS returned`,
    );
    ctx.figure("tasks.disputeMoves", nd.moves);
    ctx.figure("tasks.disputeStep", nd.step);
    ctx.figure("tasks.disputeStatus", Number(nd.status));
    ctx.figure("tasks.executorSlashed", formatUnits(nd.executorSlashedDps, 18));
    ctx.figure("tasks.challengerBondReturned", formatUnits(nd.bondReturnedDps, 18));
  },
};
