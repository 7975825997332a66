import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import cliProgress from "cli-progress";
import { openProtocol, runTask, TaskError } from "../../lib.js";

export default async function emissionRebalance(
  args: { batch: number; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.batch < 1 || args.batch > 200)
      throw new TaskError(`--batch must be between 1 and 200 (got ${args.batch}).`);
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const { emission } = protocol;
    if (await emission.epochDue()) throw new TaskError("An epoch is due: run `chx:emission:close` first.");
    let [cursor, total] = await emission.rebalanceProgress();
    if ((await emission.currentEpoch()) === 0n || cursor >= total) {
      console.log("every provider is already rebalanced for the last closed epoch");
      await connection.close();
      return;
    }
    const bar = new cliProgress.SingleBar({ format: "rebalance [{bar}] {value}/{total} providers" });
    bar.start(Number(total), Number(cursor));
    let changed = 0n;
    while (cursor < total) {
      const receipt = await (await emission.rebalance(BigInt(args.batch))).wait();
      for (const log of receipt?.logs ?? []) {
        const parsed = emission.interface.parseLog(log);
        if (parsed?.name === "RebalanceBatch") changed += parsed.args.rebalanced as bigint;
      }
      [cursor, total] = await emission.rebalanceProgress();
      bar.update(Number(cursor));
    }
    bar.stop();
    console.log(`rebalanced ${changed} provider(s); ${total} in the set`);
    await connection.close();
  });
}
