import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

export default async function liquidate(
  args: { account: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const account = address(args.account, "--account");
    const engine = protocol.liquidationEngine;
    const [liquidatable, equity, maintenance] = await engine.isLiquidatable(account);
    if (!liquidatable) {
      throw new TaskError(
        `${account} is healthy: equity ${fmtUsdc(equity)} ≥ maintenance margin ${fmtUsdc(maintenance)}; nothing to do.`,
      );
    }
    const [fraction, bounty] = await engine.liquidate.staticCall(account);
    const receipt = await (await engine.liquidate(account)).wait();
    console.log(
      `✔ liquidated ${formatUnits(fraction * 100n, 18)} % of ${account}'s positions; bounty ${fmtUsdc(bounty)} (tx ${receipt?.hash})`,
    );
    await connection.close();
  });
}
