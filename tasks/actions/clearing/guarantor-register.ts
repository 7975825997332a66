import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, runTask } from "../../lib.js";
import { fmtUsdc } from "./common.js";
import { parseUnits } from "ethers";

export default async function guarantorRegister(
  args: { open: boolean; defaultLimit: string; signer: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre, { signer: args.signer });
    const limit = parseUnits(args.defaultLimit, 6);
    await (await protocol.guarantorPool.registerGuarantor(args.open, limit)).wait();
    console.log(`✔ registered as ${args.open ? "an open" : "a closed"} guarantor (default limit ${fmtUsdc(limit)})`);
    const [minDps] = await protocol.guarantorPool.params();
    console.log(`  next: stake at least ${minDps / 10n ** 18n} DPS (chx:guarantor:stake) and deposit capital`);
    await connection.close();
  });
}
