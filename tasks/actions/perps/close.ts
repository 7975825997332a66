import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { ch, followOrder, limitPrice, parseSlippageBps, px, signerAt, usd } from "./common.js";

export default async function perpClose(
  args: { slippage: number; signer: string; wait: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const slippage = parseSlippageBps(args.slippage);
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const trader = await signerAt(connection, args.signer);
    const perp = protocol.perpMarket.connect(trader);
    const size = (await perp.accountState(trader.address)).sizeCh;
    if (size === 0n) throw new TaskError(`${trader.address} has no perpetual position to close.`);
    const q = await perp.quote(-size);
    const before = await protocol.clearingHouse.collateralOf(trader.address);
    const commit = await perp.closePosition(limitPrice(-size, q.fillPriceWad, slippage));
    if (!(await followOrder(protocol, trader, commit, args.wait))) {
      await connection.close();
      return;
    }
    const after = await protocol.clearingHouse.collateralOf(trader.address);
    console.log(
      `${trader.address} closed ${ch(size)} CH at ~${px(q.fillPriceWad)} USDC; collateral ${usd(before)} → ${usd(after)} USDC`,
    );
    await connection.close();
  });
}
