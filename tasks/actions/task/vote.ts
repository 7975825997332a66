import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";

export default async function vote(
  args: { id: string; agree: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { protocol } = await openProtocol(hre, { signer: args.signer });
    const tasks = protocol.taskRegistry;
    const agree = args.agree !== "false";
    await (await tasks.vote(args.id, agree)).wait();
    const t = await tasks.getTask(args.id);
    console.log(`Voted ${agree ? "equal" : "not equal"} on task ${args.id}: ${t.agree} equal, ${t.disagree} not.`);
  });
}
