import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { ch, followOrder, limitPrice, parseSlippageBps, px, sideSize, signerAt, usd } from "./common.js";

export default async function perpOpen(
  args: { side: string; size: string; slippage: number; signer: string; wait: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const size = sideSize(args.side, args.size);
    const slippage = parseSlippageBps(args.slippage);
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const trader = await signerAt(connection, args.signer);
    const perp = protocol.perpMarket.connect(trader);
    const q = await perp.quote(size);
    const limit = limitPrice(size, q.fillPriceWad, slippage);
    const filled = await followOrder(protocol, trader, await perp.commitOrder(size, limit), args.wait);
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
