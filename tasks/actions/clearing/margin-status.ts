import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { ZeroAddress } from "ethers";
import { formatCh, formatUsdc, formatWad, PositionKindNames } from "@chx/sdk";
import { defaultAccount, openProtocol, plain, printJson, runTask, TaskError } from "../../lib.js";
import { address } from "./common.js";

/** An account's whole state through the AccountLens (one call): collateral, positions, margin, liquidation price. */
export default async function marginStatus(
  args: { account: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    try {
      const account =
        args.account === "" ? (await defaultAccount(connection)).address : address(args.account, "--account");
      const lens = protocol.accountLens;
      if (lens === undefined) throw new TaskError("This deployment has no AccountLens (re-run the deploy to add it).");
      const pf = await lens.portfolio(account);
      if (args.json) {
        printJson(plain(pf));
        return;
      }
      const g = pf.guarantor;
      console.log(`account ${account}`);
      console.log(`  guarantor   ${g.guarantor === ZeroAddress ? "none (cannot open positions)" : g.guarantor}`);
      console.log(
        `  limit       ${formatUsdc(g.customerLimitUsdc)} USDC (exposure ${formatUsdc(g.customerExposureUsdc)}, room ${formatUsdc(g.remainingUsdc)})`,
      );
      for (const c of pf.collateral) console.log(`  collateral  ${c.amount} of ${c.asset} held by ${c.holder}`);
      for (const r of pf.positions) {
        const series = r.seriesId > 0n ? ` #${r.seriesId}` : "";
        console.log(
          `  position    ${PositionKindNames[Number(r.kind)]}${series}: ${formatCh(r.sizeCh)} CH, uPnL ${formatUsdc(r.unrealisedPnlUsdc)} USDC`,
        );
      }
      if (!pf.priceOk) {
        console.log("  equity      unavailable: the price index is not valid right now");
        return;
      }
      console.log(
        `  equity      ${formatUsdc(pf.margin.equityUsdc)} USDC (unrealised ${formatUsdc(pf.margin.unrealisedPnlUsdc)})`,
      );
      console.log(
        `  initial     ${formatUsdc(pf.margin.initialMarginUsdc)} USDC, maintenance ${formatUsdc(pf.margin.maintenanceMarginUsdc)}`,
      );
      console.log(`  withdrawable ${formatUsdc(pf.maxWithdrawableUsdc)} USDC`);
      if (pf.liquidationPriceWad > 0n) {
        console.log(
          `  liquidation if the index ${pf.liquidationBelow ? "falls" : "rises"} to ${formatWad(pf.liquidationPriceWad)} USDC/CH`,
        );
      }
      console.log(`  status      ${pf.liquidatable ? "LIQUIDATABLE (below maintenance)" : "healthy"}`);
    } finally {
      await connection.close();
    }
  });
}
