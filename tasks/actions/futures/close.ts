import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { parseUnits } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtCh, followOrder, parseSeries, requireSeries, signerAt } from "./common.js";

export default async function futuresClose(
  args: { series: bigint; limit: string; signer: string; wait: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const wait = args.wait;
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const trader = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(trader);
    const id = parseSeries(args.series);
    await requireSeries(futures, id);
    const p = await futures.positionOf(id, trader.address);
    if (p.sizeCh === 0n) throw new TaskError(`${trader.address} has no position in series ${id}.`);
    const limit = args.limit === "" ? 0n : parseUnits(args.limit, 18);
    const filled = await followOrder(protocol, trader, id, await futures.closePosition(id, limit), wait);
    if (filled) console.log(`closed ${fmtCh(p.sizeCh)} of series ${id}`);
    await connection.close();
  });
}
