import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, printJson, runTask, TaskError, defaultAccount } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

export default async function guarantorStatus(
  args: { guarantor: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    try {
      const guarantor =
        args.guarantor === "" ? (await defaultAccount(connection)).address : address(args.guarantor, "--guarantor");
      const pool = protocol.guarantorPool;
      const g = await pool.guarantorInfo(guarantor);
      if (!g.registered) throw new TaskError(`${guarantor} is not a registered guarantor.`);
      const [minDps, maxLev] = await pool.params();
      const capacity = (g.capitalUsdc * maxLev) / 10n ** 18n;
      if (args.json) {
        printJson({
          guarantor,
          open: g.open,
          capitalUsdc: g.capitalUsdc,
          totalShares: g.totalShares,
          exposureUsdc: g.exposureUsdc,
          capacityUsdc: capacity,
          dpsStaked: g.dpsStaked,
          minDps,
          defaultLimitUsdc: g.defaultLimitUsdc,
        });
        return;
      }
      console.log(`guarantor ${guarantor} (${g.open ? "open" : "closed"})`);
      console.log(`  capital   ${fmtUsdc(g.capitalUsdc)} in ${g.totalShares} shares`);
      console.log(`  exposure  ${fmtUsdc(g.exposureUsdc)} of capacity ${fmtUsdc(capacity)}`);
      console.log(`  DPS bond  ${formatUnits(g.dpsStaked, 18)} (minimum ${formatUnits(minDps, 18)})`);
      console.log(`  default customer limit ${fmtUsdc(g.defaultLimitUsdc)}`);
    } finally {
      await connection.close();
    }
  });
}
