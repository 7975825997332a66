import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { fmtCh, fmtPrice, fmtUsdc, parseCh, readSignedOrder, signerAt } from "./common.js";

/** `chx:futures:match`: matches a signed buy against a signed sell of one series (each at its own price). */
export default async function futuresMatch(
  args: { buy: string; sell: string; size: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const buy = await readSignedOrder(args.buy, "--buy");
    const sell = await readSignedOrder(args.sell, "--sell");
    if (!buy.order.isBuy || sell.order.isBuy) throw new TaskError("--buy must be a buy order and --sell a sell order.");
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const matcher = await signerAt(connection, args.signer);
    const futures = protocol.futures.connect(matcher);
    const [buyFilled] = await futures.signedOrderState(buy.order);
    const [sellFilled] = await futures.signedOrderState(sell.order);
    const leftBuy = buy.order.sizeCh - buyFilled;
    const leftSell = sell.order.sizeCh - sellFilled;
    const left = leftBuy < leftSell ? leftBuy : leftSell;
    const size = args.size === "" ? left : parseCh(args.size, "--size");
    if (size === 0n || size > left) throw new TaskError(`Only ${fmtCh(left)} can be matched.`);
    const [owedBefore] = await futures.bountiesOwed(matcher.address);
    await (await futures.matchOrders(buy.order, buy.signature, sell.order, sell.signature, size)).wait();
    const [owed] = await futures.bountiesOwed(matcher.address);
    console.log(
      `matched ${fmtCh(size)} on series ${buy.order.seriesId}: ${buy.order.maker} bought at ` +
        `${fmtPrice(buy.order.priceWad)}, ${sell.order.maker} sold at ${fmtPrice(sell.order.priceWad)}; spread ` +
        `${fmtUsdc(owed - owedBefore)} credited to ${matcher.address} (claimBounties)`,
    );
    await connection.close();
  });
}
