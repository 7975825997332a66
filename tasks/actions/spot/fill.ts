import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, MaxUint256, parseUnits } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { orderFromRelay, readOrder, signerAt } from "./common.js";

export default async function spotFill(
  args: { order: string; hash: string; relay: string; amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const taker = await signerAt(connection, args.signer);
    const spot = protocol.spot.connect(taker);
    const market = await spot.getAddress();
    // from the relay by hash (--hash), else from a signed-order file (--order)
    const { order, signature } =
      args.hash !== "" ? await orderFromRelay(args.relay, args.hash, market) : await readOrder(args.order, market);
    const hash = await spot.orderDigest(order);
    const state = await spot.orderState(order.maker, order.nonce, hash);
    const remaining = order.amountCh - state.filledCh;
    const amount = args.amount === "" ? remaining : parseUnits(args.amount, 18);
    if (amount === 0n) throw new TaskError(`Order ${hash} has nothing left to fill.`);
    // the taker pays USDC for a sell order and CH for a buy order
    const token = order.isBuy ? protocol.ch.connect(taker) : protocol.usdc.connect(taker);
    if ((await token.allowance(taker.address, market)) < (order.isBuy ? amount : 1n << 255n)) {
      await (await token.approve(market, MaxUint256)).wait();
      console.log(`approved the market for your ${order.isBuy ? "CH" : "USDC"}`);
    }
    const filledAfter = await spot.fillOrder.staticCall(order, signature, amount);
    const receipt = await (await spot.fillOrder(order, signature, amount)).wait();
    console.log(
      `filled ${formatUnits(amount, 18)} CH of ${hash} at ${formatUnits(order.priceWad, 18)} USDC ` +
        `(filled ${formatUnits(filledAfter, 18)} / ${formatUnits(order.amountCh, 18)}; gas ${receipt?.gasUsed})`,
    );
    await connection.close();
  });
}
