import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";
import { fmtUsdc, usdcAmount } from "./common.js";

export default async function marginDeposit(
  args: { amount: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const amount = usdcAmount(args.amount);
    const signer = await resolveSigner(connection, args.signer);
    const me = signer!.address;
    const { usdc, clearingHouse } = protocol;
    const balance = await usdc.balanceOf(me);
    if (balance < amount) throw new TaskError(`You hold ${fmtUsdc(balance)}, less than the ${fmtUsdc(amount)} asked.`);
    const ch = await clearingHouse.getAddress();
    if ((await usdc.allowance(me, ch)) < amount) await (await usdc.approve(ch, amount)).wait();
    await (await clearingHouse.deposit(amount)).wait();
    console.log(`✔ deposited ${fmtUsdc(amount)}; collateral now ${fmtUsdc(await clearingHouse.collateralOf(me))}`);
    await connection.close();
  });
}
