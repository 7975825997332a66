import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, plain, printJson, runTask, TaskError } from "../../lib.js";
import { CURRENCIES, STATUSES, decimalsOf } from "./common.js";

export default async function status(
  args: { id: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    try {
      const tasks = protocol.taskRegistry;
      if (!/^[1-9][0-9]*$/.test(args.id)) throw new TaskError(`Pass --id <task id> (1, 2, …; got "${args.id}").`);
      const count = await tasks.taskCount();
      if (BigInt(args.id) > count) throw new TaskError(`Task ${args.id} does not exist (${count} task(s) submitted).`);
      const t = await tasks.getTask(args.id);
      const councils = [await tasks.councilOf(args.id, 0), await tasks.councilOf(args.id, 1)];
      if (args.json) {
        printJson({ id: args.id, status: STATUSES[Number(t.status)], task: plain(t), councils });
        return;
      }
      const cur = Number(t.currency);
      const fmt = (x: bigint) => `${formatUnits(x, decimalsOf(cur))} ${CURRENCIES[cur]}`;
      console.log(`Task ${args.id}: ${STATUSES[Number(t.status)]}`);
      console.log(`  client     ${t.client}`);
      console.log(`  executor   ${t.executor} at ${fmt(t.price)} (${t.bidCount} bids)`);
      console.log(`  escrow     ${fmt(t.escrow)} of ${fmt(t.maxPayment)}`);
      console.log(`  commits    ${t.commits}/${t.checkpoints}  result ${t.resultHash}`);
      console.log(
        `  round ${t.round}: ${t.agree} equal, ${t.disagree} not equal (quorum ${t.quorum} of ${t.councilSize})`,
      );
      councils.forEach((c, r) => {
        if (c.length > 0) console.log(`  council ${r}  ${c.join(", ")}`);
      });
    } finally {
      await connection.close();
    }
  });
}
