import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { parseUnits } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtCh, fmtPrice, parseCh, parseSeries, requireSeries, signerAt } from "./common.js";

export default async function futuresOpen(
  args: { series: string; size: string; limit: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const trader = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(trader);
    const id = parseSeries(args.series);
    await requireSeries(futures, id);
    const size = parseCh(args.size, "--size");
    if (size === 0n) throw new TaskError("--size must not be zero (+ buys, − sells).");
    const limit = args.limit === "" ? 0n : parseUnits(args.limit, 18);
    const [quote] = await futures.quote(id, size);
    console.log(`${size > 0n ? "buying" : "selling"} ${fmtCh(size < 0n ? -size : size)} at about ${fmtPrice(quote)}`);
    await (await futures.openPosition(id, size, limit)).wait();
    const p = await futures.positionOf(id, trader.address);
    console.log(`position in series ${id}: ${fmtCh(p.sizeCh)} at ${fmtPrice(p.entryPriceWad)}`);
    await connection.close();
  });
}
