import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtCh, fmtUsdc, parseCh, parseSeries, requireSeries, signerAt } from "./common.js";

/** `chx:futures:roll`: moves part or all of a position from one series into another in one transaction. */
export default async function futuresRoll(
  args: { from: bigint; to: bigint; size: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const trader = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(trader);
    const from = parseSeries(args.from);
    const to = parseSeries(args.to);
    await requireSeries(futures, from);
    await requireSeries(futures, to);
    const held = (await futures.positionOf(from, trader.address)).sizeCh;
    if (held === 0n) throw new TaskError(`${trader.address} has no position in series ${from}.`);
    const abs = held < 0n ? -held : held;
    const size = args.size === "" ? abs : parseCh(args.size, "--size");
    if (size > abs) throw new TaskError(`--size ${args.size}: only ${fmtCh(abs)} held in series ${from}.`);
    const receipt = await (await futures.roll(from, to, size)).wait();
    for (const log of receipt?.logs ?? []) {
      const ev = futures.interface.parseLog(log);
      if (ev?.name === "PositionRolled") {
        console.log(
          `rolled ${fmtCh(ev.args.sizeDeltaCh)} from series ${from} into ${to}: now ${fmtCh(ev.args.fromSizeCh)} / ` +
            `${fmtCh(ev.args.toSizeCh)}, fees ${fmtUsdc(ev.args.feeUsdc)}`,
        );
      }
    }
    await connection.close();
  });
}
