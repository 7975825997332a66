import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, resolveSigner } from "../../lib.js";
import { address, fmtUsdc, usdcAmount } from "./common.js";

export default async function marginWithdraw(
  args: { amount: string; to: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const amount = usdcAmount(args.amount);
    const signer = await resolveSigner(connection, args.signer);
    const me = signer!.address;
    const to = address(args.to, "--to", me);
    await (await protocol.clearingHouse.withdraw(amount, to)).wait();
    console.log(
      `✔ withdrew ${fmtUsdc(amount)} to ${to}; collateral now ${fmtUsdc(await protocol.clearingHouse.collateralOf(me))}`,
    );
    await connection.close();
  });
}
