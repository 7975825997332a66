/** Drives a proposal through the real Governor → Timelock path, time-travelling over the voting and delay periods. */
import { id } from "ethers";
import type { Fixture } from "./fixture.js";

export interface Call {
  target: string;
  data: string;
  value?: bigint;
}

let counter = 0;

export async function proposeAndExecute(fx: Fixture, calls: Call[], description?: string): Promise<void> {
  const { governor, dps } = fx.protocol;
  const { time, mine } = fx.connection.networkHelpers;
  const desc = description ?? `CHX proposal #${++counter} ${Date.now()}`;
  // the deployer holds the genesis DPS: make sure its votes count
  if ((await dps.delegates(fx.deployer.address)) !== fx.deployer.address) {
    await (await dps.delegate(fx.deployer.address)).wait();
    await mine(1);
  }
  const targets = calls.map((c) => c.target);
  const values = calls.map((c) => c.value ?? 0n);
  const datas = calls.map((c) => c.data);
  await (await governor.propose(targets, values, datas, desc)).wait();
  const proposalId = await governor.hashProposal(targets, values, datas, id(desc));
  await time.increase(Number(await governor.votingDelay()) + 1);
  await (await governor.castVote(proposalId, 1)).wait();
  await time.increase(Number(await governor.votingPeriod()) + 1);
  await (await governor.queue(targets, values, datas, id(desc))).wait();
  await time.increase(Number(await fx.protocol.timelock.getMinDelay()) + 1);
  await (await governor.execute(targets, values, datas, id(desc))).wait();
}
