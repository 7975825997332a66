import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { readFile } from "node:fs/promises";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtCh, fmtPrice, parseCh, signerAt } from "./common.js";

interface SignedJson {
  order: Record<string, string>;
  signature: string;
}

/** `chx:futures:fill`: fills a signed futures order (from `chx:futures:order`) as the taker, at its price. */
export default async function futuresFill(
  args: { order: string; size: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    let signed: SignedJson;
    try {
      signed = JSON.parse(await readFile(args.order, "utf8")) as SignedJson;
    } catch {
      throw new TaskError(`--order ${args.order}: not a signed futures order JSON file (see chx:futures:order).`);
    }
    const o = signed.order;
    const order = {
      maker: o.maker ?? "",
      seriesId: BigInt(o.seriesId ?? "0"),
      isBuy: o.isBuy === "true",
      sizeCh: BigInt(o.sizeCh ?? "0"),
      priceWad: BigInt(o.priceWad ?? "0"),
      nonce: BigInt(o.nonce ?? "0"),
      expiry: BigInt(o.expiry ?? "0"),
      taker: o.taker ?? "",
    };
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const taker = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(taker);
    const [filled, cancelled] = await futures.signedOrderState(await futures.orderDigest(order));
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
