import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

export default async function guarantorJoin(
  args: { guarantor: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const guarantor = address(args.guarantor, "--guarantor");
    await (await protocol.guarantorPool.joinOpenGuarantor(guarantor)).wait();
    const g = await protocol.guarantorPool.guarantorInfo(guarantor);
    console.log(`✔ joined open guarantor ${guarantor} (limit ${fmtUsdc(g.defaultLimitUsdc)})`);
    await connection.close();
  });
}
