import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { fmtCh, parseCh, parseSeries, requireSeries, signerAt } from "./common.js";

export default async function futuresElect(
  args: { series: bigint; amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const trader = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(trader);
    const id = parseSeries(args.series);
    await requireSeries(futures, id);
    await (await futures.electDelivery(id, parseCh(args.amount, "--amount"))).wait();
    const s = await futures.seriesInfo(id);
    console.log(`elected delivery of ${fmtCh(parseCh(args.amount, "--amount"))} (series total ${fmtCh(s.electedCh)})`);
    await connection.close();
  });
}
