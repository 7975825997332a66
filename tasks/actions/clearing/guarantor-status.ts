import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, runTask, TaskError, defaultAccount } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

export default async function guarantorStatus(
  args: { guarantor: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const signer = await defaultAccount(connection);
    const guarantor = address(args.guarantor, "--guarantor", signer!.address);
    const pool = protocol.guarantorPool;
    const g = await pool.guarantorInfo(guarantor);
    if (!g.registered) throw new TaskError(`${guarantor} is not a registered guarantor.`);
    const [minDps, maxLev] = await pool.params();
    const capacity = (g.capitalUsdc * maxLev) / 10n ** 18n;
    console.log(`guarantor ${guarantor} (${g.open ? "open" : "closed"})`);
    console.log(`  capital   ${fmtUsdc(g.capitalUsdc)} in ${g.totalShares} shares`);
    console.log(`  exposure  ${fmtUsdc(g.exposureUsdc)} of capacity ${fmtUsdc(capacity)}`);
    console.log(`  DPS bond  ${formatUnits(g.dpsStaked, 18)} (minimum ${formatUnits(minDps, 18)})`);
    console.log(`  default customer limit ${fmtUsdc(g.defaultLimitUsdc)}`);
    const mine = await pool.sharesOf(guarantor, signer!.address);
    if (mine > 0n) console.log(`  your shares ${mine} ≈ ${fmtUsdc(await pool.convertToAssets(guarantor, mine))}`);
    await connection.close();
  });
}
