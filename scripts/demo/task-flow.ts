/**
 * The whole lifecycle of one TaskRegistry batch task after it was submitted, shared by the tasks scene (DPS-paid tasks
 * of a client) and the futures scene (CH-paid tasks of a delivery order): providers bid, bidding closes in two steps
 * (seal, then the executor drawn from the mined seed block), the council is drawn, the executor commits its result at
 * the checkpoint, the council commits salted results and reveals them, and a keeper finalises.
 */
import { AbiCoder, id, keccak256 } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { DemoContext } from "./types.js";

/** The result every honest party computes (the executor and the council). */
export const RIGHT_RESULT = id("the-right-result");

/** Terms of a one-checkpoint batch task of the demo (council of 3, quorum 2, class 1, a day to run). */
export function batchTerms(currency: 0 | 1 | 2, maxPayment: bigint, now: bigint) {
  return {
    currency,
    responseMode: 0,
    councilSize: 3,
    quorum: 2,
    checkpoints: 1,
    maxBids: 0,
    workloadClass: 1,
    region: 0,
    bidWindowSec: 3600,
    deadline: now + 86_400n,
    maxPayment,
    capacityPflopsWad: 10n ** 17n, // 0.1 PFLOPS
    paymentParams: 0n,
  };
}

/** The demo's prescription (hashes of the data, model, inputs, output function and evaluation). */
export const PRESCRIPTION = {
  dataHash: id("D"),
  modelHash: id("M"),
  inputHash: id("I"),
  outputFnHash: id("f"),
  evalHash: id("e"),
  uri: "",
};

export interface TaskOutcome {
  taskId: bigint;
  executor: string;
  /** Final TaskRegistry status (2 Accepted, 3 Rejected, …). */
  status: bigint;
}

/**
 * Drives submitted task `taskId` to its end. `bids` are placed in order; `providers` are the signers the executor and
 * the council are found among; `executorResult` is what the executor commits (RIGHT_RESULT when honest). A dishonest
 * executor's appeal window is waited out before finalising.
 */
export async function driveTask(
  ctx: DemoContext,
  taskId: bigint,
  bids: Array<{ provider: HardhatEthersSigner; price: bigint }>,
  providers: HardhatEthersSigner[],
  executorResult: string = RIGHT_RESULT,
): Promise<TaskOutcome> {
  const { taskRegistry: tasks } = ctx.protocol;
  const helpers = ctx.connection.networkHelpers;
  for (const b of bids) await (await tasks.connect(b.provider).bid(taskId, b.price)).wait();
  await helpers.time.increase(3601);
  // closing seals the bids and commits the next block as the seed; once it is mined the executor is selected
  await (await tasks.closeBidding(taskId)).wait();
  await helpers.mine(1);
  await (await tasks.closeBidding(taskId)).wait();
  await (await tasks.drawCouncil(taskId)).wait();
  const t = await tasks.getTask(taskId);
  const executor = providers.find((p) => p.address === t.executor);
  if (executor === undefined)
    throw new Error(`task ${taskId}: executor ${t.executor} is not one of the demo's providers`);
  // the executor commits its result hash at the checkpoint; a cheater commits something else
  await (await tasks.connect(executor).commit(taskId, 0, executorResult)).wait();
  // Commit–reveal: each council member computes the result itself and commits it salted while the commit window is
  // open (nobody sees another's answer), then reveals; the accepted result is the one a quorum reveals.
  const council = await tasks.councilOf(taskId, 0);
  const coder = AbiCoder.defaultAbiCoder();
  const members = council.map((m) => providers.find((p) => p.address === m)).filter((m) => m !== undefined);
  const salt = (member: HardhatEthersSigner) => id(`salt-${member.address}-${taskId}`);
  for (const member of members) {
    const c = keccak256(
      coder.encode(["uint256", "address", "bytes32", "bytes32"], [taskId, member.address, RIGHT_RESULT, salt(member)]),
    );
    await (await tasks.connect(member).commitResult(taskId, c)).wait();
  }
  await helpers.time.increaseTo(Number((await tasks.getTask(taskId)).commitEnds) + 1);
  for (const member of members) {
    await (await tasks.connect(member).revealResult(taskId, RIGHT_RESULT, salt(member))).wait();
  }
  const after = await tasks.getTask(taskId);
  // the executor's appeal window passes before a rejection is final
  if (executorResult !== RIGHT_RESULT) await helpers.time.increaseTo(Number(after.votingEnds) + 1);
  await (await tasks.finalize(taskId)).wait(); // the deployer finalises as a keeper and earns the bounty
  const end = await tasks.getTask(taskId);
  return { taskId, executor: end.executor, status: end.status };
}
