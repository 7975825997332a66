import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, plain, printJson, runTask } from "../../lib.js";
import { CURRENCIES, STATUSES, decimalsOf, requireTask } from "./common.js";

export default async function status(
  args: { id: bigint; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    try {
      const tasks = protocol.taskRegistry;
      await requireTask(tasks, args.id);
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
