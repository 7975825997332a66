import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, parseUnits } from "ethers";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";

export default async function guarantorStake(
  args: { amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    if (args.amount === "") throw new TaskError("Pass --amount (DPS).");
    const amount = parseUnits(args.amount, 18);
    const pool = await protocol.guarantorPool.getAddress();
    const signer = await resolveSigner(connection, args.signer);
    if ((await protocol.dps.allowance(signer!.address, pool)) < amount) {
      await (await protocol.dps.approve(pool, amount)).wait();
    }
    await (await protocol.guarantorPool.stakeDps(amount)).wait();
    const g = await protocol.guarantorPool.guarantorInfo(signer!.address);
    console.log(`✔ staked ${args.amount} DPS; bond now ${formatUnits(g.dpsStaked, 18)} DPS`);
    await connection.close();
  });
}
