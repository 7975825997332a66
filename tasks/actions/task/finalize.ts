import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { requireTask, STATUSES } from "./common.js";

export default async function finalize(
  args: { id: bigint; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { protocol } = await openProtocol(hre, { signer: args.signer });
    const tasks = protocol.taskRegistry;
    await requireTask(tasks, args.id);
    const before = await tasks.getTask(args.id);
    if (before.status === 2n) await (await tasks.expire(args.id)).wait();
    else await (await tasks.finalize(args.id)).wait();
    const t = await tasks.getTask(args.id);
    console.log(`Task ${args.id} is now ${STATUSES[Number(t.status)]}.`);
  });
}
