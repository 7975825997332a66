import { formatUnits, id, parseUnits } from "ethers";
import type { Scene } from "../types.js";

/** DPS holders delegate, propose and pass a parameter change through Governor → Timelock. */
export const governanceScene: Scene = {
  title: "Governance: DPS holders vote a parameter change through the timelock",
  requires: ["Governor", "Timelock", "DPSToken"],
  async run(ctx) {
    const { dps, governor, timelock, ch } = ctx.protocol;
    const treasury = ctx.deployer;
    const voters = ["alice", "bob", "carol"].map((n) => ctx.actor(n));
    for (const v of voters) await (await dps.connect(treasury).transfer(v.address, parseUnits("200000", 18))).wait();
    await (await dps.connect(treasury).delegate(treasury.address)).wait();
    for (const v of voters) await (await dps.connect(v).delegate(v.address)).wait();
    ctx.log(`DPS genesis ${formatUnits(await dps.genesisSupply(), 18)}; 3 holders got 200,000 DPS each and delegated`);

    // The guardian pauses CH transfers-feature flag, then governance lifts it: pause is guardian-only, unpause is a vote.
    const feature = id("ch.demo");
    await (await ch.connect(treasury).pauseFeature(feature)).wait();
    const target = await ch.getAddress();
    const data = ch.interface.encodeFunctionData("unpauseFeature", [feature]);
    const description = `Demo: lift the guardian's pause (${ctx.opts.seed})`;
    await (await governor.connect(ctx.actor("alice")).propose([target], [0n], [data], description)).wait();
    const pid = await governor.hashProposal([target], [0n], [data], id(description));
    await ctx.advance(Number(await governor.votingDelay()) + 1);
    for (const v of [treasury, ...voters]) await (await governor.connect(v).castVote(pid, 1)).wait();
    await ctx.advance(Number(await governor.votingPeriod()) + 1);
    await (await governor.queue([target], [0n], [data], id(description))).wait();
    await ctx.advance(Number(await timelock.getMinDelay()) + 1);
    await (await governor.execute([target], [0n], [data], id(description))).wait();
    const paused = await ch.isFeaturePaused(feature);
    ctx.log(`proposal ${pid.toString().slice(0, 10)}… passed and executed by the timelock; feature paused = ${paused}`);
    ctx.figure("governance.proposalExecuted", !paused);
  },
};
