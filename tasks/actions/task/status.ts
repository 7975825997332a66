import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask } from "../../lib.js";
import { CURRENCIES, STATUSES, decimalsOf } from "./common.js";

export default async function status(args: { id: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { protocol } = await openProtocol(hre);
    const tasks = protocol.taskRegistry;
    const t = await tasks.getTask(args.id);
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
    for (const r of [0, 1]) {
      const c = await tasks.councilOf(args.id, r);
      if (c.length > 0) console.log(`  council ${r}  ${c.join(", ")}`);
    }
  });
}
