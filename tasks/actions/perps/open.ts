import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { ch, followOrder, limitPrice, parseAmount, parseSlippageBps, parseWait, px, signerAt, usd } from "./common.js";

export default async function perpOpen(
  args: { size: string; slippage: string; signer: string; wait: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const size = parseAmount(args.size, 18, "--size");
    if (size === 0n) throw new TaskError("--size must not be 0.");
    const slippage = parseSlippageBps(args.slippage);
    const wait = parseWait(args.wait);
    const { connection, protocol } = await openProtocol(hre);
    const trader = await signerAt(connection, args.signer);
    const perp = protocol.perpMarket.connect(trader);
    const q = await perp.quote(size);
    const limit = limitPrice(size, q.fillPriceWad, slippage);
    const filled = await followOrder(protocol, trader, await perp.commitOrder(size, limit), wait);
    if (!filled) {
      await connection.close();
      return;
    }
    const s = await perp.accountState(trader.address);
    const pos = await protocol.clearingHouse.positionOf(trader.address, await perp.getAddress());
    console.log(
      `${trader.address} traded ${ch(size)} CH at ~${px(q.fillPriceWad)} USDC (index ${px(q.indexPriceWad)}, fee ` +
        `${usd(q.fee.totalUsdc)} USDC); position now ${ch(s.sizeCh)} CH, cost basis ${usd(pos.openNotionalUsdc)} USDC`,
    );
    await connection.close();
  });
}
