import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { requireTask } from "./common.js";

export default async function vote(
  args: { id: bigint; agree: boolean; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { protocol } = await openProtocol(hre, { signer: args.signer });
    const tasks = protocol.taskRegistry;
    await requireTask(tasks, args.id);
    const agree = args.agree;
    await (await tasks.vote(args.id, agree)).wait();
    const t = await tasks.getTask(args.id);
    console.log(`Voted ${agree ? "equal" : "not equal"} on task ${args.id}: ${t.agree} equal, ${t.disagree} not.`);
  });
}
