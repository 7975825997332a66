import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { amount, requireTask } from "./common.js";

export default async function bid(
  args: { id: bigint; price: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { protocol } = await openProtocol(hre, { signer: args.signer });
    const tasks = protocol.taskRegistry;
    await requireTask(tasks, args.id);
    const t = await tasks.getTask(args.id);
    await (await tasks.bid(args.id, amount(args.price, Number(t.currency)))).wait();
    const after = await tasks.getTask(args.id);
    console.log(`Bid placed on task ${args.id}; ${after.bidCount} bids so far.`);
  });
}
