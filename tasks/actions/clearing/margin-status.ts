import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, ZeroAddress } from "ethers";
import { openProtocol, runTask, defaultAccount } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

export default async function marginStatus(args: { account: string }, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const signer = await defaultAccount(connection);
    const account = address(args.account, "--account", signer!.address);
    const { clearingHouse, guarantorPool, liquidationEngine } = protocol;
    const guarantor = await guarantorPool.guarantorOf(account);
    const [limit, exposure] = await guarantorPool.customerInfo(account);
    console.log(`account ${account}`);
    console.log(`  guarantor   ${guarantor === ZeroAddress ? "none (cannot open positions)" : guarantor}`);
    console.log(`  limit       ${fmtUsdc(limit)} (exposure ${fmtUsdc(exposure)})`);
    console.log(`  collateral  ${fmtUsdc(await clearingHouse.collateralOf(account))}`);
    const markets = await clearingHouse.marketsOf(account);
    for (const m of markets) {
      const p = await clearingHouse.positionOf(account, m);
      console.log(`  position    ${m}: ${formatUnits(p.sizeCh, 18)} CH, basis ${fmtUsdc(p.openNotionalUsdc)}`);
    }
    try {
      const s = await clearingHouse.marginState(account);
      console.log(`  equity      ${fmtUsdc(s.equityUsdc)} (unrealised ${fmtUsdc(s.unrealisedPnlUsdc)})`);
      console.log(`  initial     ${fmtUsdc(s.initialMarginUsdc)}, maintenance ${fmtUsdc(s.maintenanceMarginUsdc)}`);
      const [liquidatable] = await liquidationEngine.isLiquidatable(account);
      console.log(`  status      ${liquidatable ? "LIQUIDATABLE (below maintenance)" : "healthy"}`);
    } catch {
      console.log("  equity      unavailable: the price index is not valid right now");
    }
    await connection.close();
  });
}
