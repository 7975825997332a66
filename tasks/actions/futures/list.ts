import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtTime, parseCh, signerAt, TENORS } from "./common.js";

export default async function futuresList(
  args: { tenor: string; expiry: string; cap: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const futures = protocol.futures.connect(await signerAt(connection, args.signer));
    let receipt;
    if (args.expiry !== "") {
      if (!/^[0-9]+$/.test(args.expiry)) throw new TaskError(`--expiry ${args.expiry}: give a unix time in seconds.`);
      receipt = await (await futures.listSeries(BigInt(args.expiry), parseCh(args.cap, "--cap"))).wait();
    } else {
      const tenor = TENORS.indexOf(args.tenor as (typeof TENORS)[number]);
      if (tenor < 0) throw new TaskError(`--tenor ${args.tenor}: use one of ${TENORS.join(", ")}.`);
      receipt = await (await futures.listStandardSeries(tenor)).wait();
    }
    for (const log of receipt?.logs ?? []) {
      const ev = futures.interface.parseLog(log);
      if (ev?.name === "SeriesListed") {
        console.log(
          `listed series ${ev.args.seriesId}: expiry ${fmtTime(ev.args.expiry)}, elections close ` +
            `${fmtTime(ev.args.electionCutoff)} (${ev.args.liveSeries} live series)`,
        );
      }
    }
    await connection.close();
  });
}
