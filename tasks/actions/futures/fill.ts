import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtCh, fmtPrice, parseCh, readSignedOrder, signerAt } from "./common.js";

/** `chx:futures:fill`: fills a signed futures order (from `chx:futures:order`) as the taker, at its price. */
export default async function futuresFill(
  args: { order: string; size: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const signed = await readSignedOrder(args.order, "--order");
    const order = signed.order;
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const taker = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(taker);
    const [filled, cancelled] = await futures.signedOrderState(order);
    if (cancelled) throw new TaskError("The order was cancelled by its maker.");
    const left = order.sizeCh - filled;
    const size = args.size === "" ? left : parseCh(args.size, "--size");
    if (size === 0n || size > left) throw new TaskError(`Only ${fmtCh(left)} of the order is left.`);
    await (await futures.fillOrder(order, signed.signature, size)).wait();
    const point = await futures.curvePoint(order.seriesId);
    console.log(
      `filled ${fmtCh(size)} of ${order.maker}'s ${order.isBuy ? "buy" : "sell"} on series ${order.seriesId} at ` +
        `${fmtPrice(order.priceWad)}; curve point now ${fmtPrice(point.priceWad)}`,
    );
    await connection.close();
  });
}
