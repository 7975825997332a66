import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { parseUnits } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtCh, fmtPrice, followOrder, parseCh, parseSeries, requireSeries, signerAt } from "./common.js";

export default async function futuresOpen(
  args: { series: bigint; side: string; size: string; limit: string; signer: string; wait: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const wait = args.wait;
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const trader = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(trader);
    const id = parseSeries(args.series);
    await requireSeries(futures, id);
    if (args.side !== "long" && args.side !== "short") {
      throw new TaskError(`Pass --side long or --side short (got "${args.side}").`);
    }
    const abs = parseCh(args.size, "--size");
    if (abs <= 0n) throw new TaskError("--size must be positive (the side gives the direction).");
    const size = args.side === "long" ? abs : -abs;
    const limit = args.limit === "" ? 0n : parseUnits(args.limit, 18);
    const [quote] = await futures.quote(id, size);
    console.log(`${size > 0n ? "buying" : "selling"} ${fmtCh(size < 0n ? -size : size)} at about ${fmtPrice(quote)}`);
    const filled = await followOrder(protocol, trader, id, await futures.commitOrder(id, size, limit), wait);
    if (!filled) {
      await connection.close();
      return;
    }
    const p = await futures.positionOf(id, trader.address);
    console.log(`position in series ${id}: ${fmtCh(p.sizeCh)} at ${fmtPrice(p.entryPriceWad)}`);
    await connection.close();
  });
}
