import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtCh, parseCh, parseSeries, requireSeries, signerAt } from "./common.js";

export default async function futuresDeliver(
  args: { series: bigint; amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const short = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(short);
    const id = parseSeries(args.series);
    await requireSeries(futures, id);
    const p = await futures.positionOf(id, short.address);
    const [assigned, escrow, deadline] = await futures.deliveryObligation(id, short.address);
    const base = p.baseTaken ? p.deliveryBaseCh : p.sizeCh < 0n ? -p.sizeCh : 0n;
    const target = deadline !== 0n ? assigned : base;
    const amount = args.amount === "" ? target - escrow : parseCh(args.amount, "--amount");
    if (amount <= 0n) throw new TaskError(`Nothing to deliver: ${fmtCh(escrow)} escrowed for ${fmtCh(target)}.`);
    const balance = await protocol.ch.balanceOf(short.address);
    if (balance < amount) throw new TaskError(`You hold ${fmtCh(balance)}, less than the ${fmtCh(amount)} to deliver.`);
    await (await protocol.ch.connect(short).approve(await futures.getAddress(), amount)).wait();
    await (await futures.deliver(id, amount)).wait();
    console.log(`escrowed ${fmtCh(amount)} for delivery in series ${id} (total ${fmtCh(escrow + amount)})`);
    await connection.close();
  });
}
