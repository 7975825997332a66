import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { address, fmtUsdc, usdcAmount } from "./common.js";

export default async function guarantorAdmit(
  args: { customer: string; limit: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const customer = address(args.customer, "--customer");
    const limit = usdcAmount(args.limit, "--limit");
    await (await protocol.guarantorPool.admitCustomer(customer, limit)).wait();
    console.log(`✔ admitted ${customer} with an exposure limit of ${fmtUsdc(limit)}`);
    await connection.close();
  });
}
