import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, resolveSigner } from "../../lib.js";
import { address, fmtUsdc, usdcAmount } from "./common.js";

export default async function guarantorDeposit(
  args: { guarantor: string; amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const signer = await resolveSigner(connection, args.signer);
    const me = signer!.address;
    const guarantor = address(args.guarantor, "--guarantor", me);
    const amount = usdcAmount(args.amount);
    const pool = await protocol.guarantorPool.getAddress();
    if ((await protocol.usdc.allowance(me, pool)) < amount) await (await protocol.usdc.approve(pool, amount)).wait();
    await (await protocol.guarantorPool.depositCapital(guarantor, amount)).wait();
    const g = await protocol.guarantorPool.guarantorInfo(guarantor);
    console.log(`✔ deposited ${fmtUsdc(amount)} into ${guarantor}; its capital now ${fmtUsdc(g.capitalUsdc)}`);
    await connection.close();
  });
}
