import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { hash32, requireTask } from "./common.js";

interface Args {
  id: bigint;
  checkpoint: number;
  result: string;
  signer: string;
}

export default async function commit(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { protocol } = await openProtocol(hre, { signer: args.signer });
    const tasks = protocol.taskRegistry;
    await requireTask(tasks, args.id);
    // Closing takes two calls (seal, then select once the seed block is mined): try both, the second may wait.
    for (let i = 0; i < 2 && (await tasks.getTask(args.id)).status === 1n; i++) {
      try {
        await (await tasks.closeBidding(args.id)).wait();
      } catch {
        break; // seed block not mined yet: selection happens on a later call (or by a keeper)
      }
    }
    const h = hash32(args.result);
    await (await tasks.commit(args.id, args.checkpoint, h)).wait();
    if ((await tasks.councilOf(args.id, 0)).length === 0) {
      try {
        await (await tasks.drawCouncil(args.id)).wait();
      } catch {
        // the seed block may not be mined yet; anyone can draw later
      }
    }
    const t = await tasks.getTask(args.id);
    console.log(`Task ${args.id}: checkpoint ${args.checkpoint} committed (${h}); ${t.commits}/${t.checkpoints} done.`);
  });
}
