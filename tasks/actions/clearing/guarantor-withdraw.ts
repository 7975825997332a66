import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask, TaskError, resolveSigner } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

export default async function guarantorWithdraw(
  args: { guarantor: string; shares: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const signer = await resolveSigner(connection, args.signer);
    const me = signer!.address;
    const guarantor = address(args.guarantor, "--guarantor", me);
    const held = await protocol.guarantorPool.sharesOf(guarantor, me);
    const shares = args.shares === "" ? held : BigInt(args.shares);
    if (shares === 0n) throw new TaskError(`You hold no shares of guarantor ${guarantor}.`);
    const value = await protocol.guarantorPool.convertToAssets(guarantor, shares);
    await (await protocol.guarantorPool.withdrawCapital(guarantor, shares, me)).wait();
    console.log(`✔ redeemed ${shares} shares of ${guarantor} for about ${fmtUsdc(value)}`);
    await connection.close();
  });
}
