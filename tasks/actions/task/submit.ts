import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { ZeroHash } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { amount, currencyIndex } from "./common.js";

interface Args {
  currency: string;
  max: string;
  council: number;
  quorum: number;
  checkpoints: number;
  window: number;
  maxBids: number;
  hours: number;
  workload: number;
  capacity: string;
  uri: string;
  signer: string;
}

export default async function submit(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const { taskRegistry: tasks } = protocol;
    if (!(args.hours > 0)) throw new TaskError(`--hours ${args.hours}: give the deadline in hours from now (> 0).`);
    const cur = currencyIndex(args.currency);
    const max = amount(args.max, cur);
    const token = [protocol.ch, protocol.usdc, protocol.dps][cur]!;
    await (await token.approve(await tasks.getAddress(), max)).wait();
    const block = await connection.ethers.provider.getBlock("latest");
    const terms = {
      currency: cur,
      responseMode: args.checkpoints > 1 ? 1 : 0,
      councilSize: args.council,
      quorum: args.quorum,
      checkpoints: args.checkpoints,
      maxBids: args.maxBids,
      workloadClass: args.workload,
      region: 0,
      bidWindowSec: args.window,
      deadline: BigInt(block!.timestamp) + BigInt(Math.round(args.hours * 3600)),
      maxPayment: max,
      capacityPflopsWad: amount(args.capacity, 0),
      paymentParams: 0n,
    };
    const pr = {
      dataHash: ZeroHash,
      modelHash: ZeroHash,
      inputHash: ZeroHash,
      outputFnHash: ZeroHash,
      evalHash: ZeroHash,
      uri: args.uri,
    };
    await (await tasks.submit(terms, pr)).wait();
    const id = await tasks.taskCount();
    console.log(`Task ${id} submitted: ${args.max} ${args.currency.toUpperCase()} escrowed, council ${args.council}.`);
  });
}
