import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, printJson, runTask, TaskError, defaultAccount } from "../../lib.js";
import { address, fmtUsdc } from "./common.js";

export default async function guarantorStatus(
  args: { guarantor: string; holder: string; json: boolean },
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
      // Issue 20: the insurance requirement of the cleared exposure, the stake meeting it, and the fee income.
      const requiredInsuranceUsdc = await pool.requiredInsuranceUsdc(guarantor);
      const insuranceStakeUsdc = await protocol.insuranceFund.guarantorStake(guarantor);
      const income = await pool.incomeOf(guarantor);
      // CLR-02: the notice period and a capital provider's notice (default: the guarantor's own).
      const holder = address(args.holder, "--holder", guarantor);
      const [noticeSec, windowSec] = await pool.capitalNotice();
      const notice = await pool.withdrawalNotice(guarantor, holder);
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
          requiredInsuranceUsdc,
          insuranceStakeUsdc,
          shortSince: income.shortSince,
          pendingIncomeUsdc: income.pendingUsdc,
          unvestedIncomeUsdc: income.unvestedUsdc,
          capitalNotice: { noticeSec, windowSec },
          withdrawalNotice: {
            holder,
            shares: notice.shares,
            readyAt: notice.readyAt,
            expiresAt: notice.expiresAt,
          },
        });
        return;
      }
      console.log(`guarantor ${guarantor} (${g.open ? "open" : "closed"})`);
      console.log(`  capital   ${fmtUsdc(g.capitalUsdc)} in ${g.totalShares} shares`);
      console.log(`  exposure  ${fmtUsdc(g.exposureUsdc)} of capacity ${fmtUsdc(capacity)}`);
      console.log(`  DPS bond  ${formatUnits(g.dpsStaked, 18)} (minimum ${formatUnits(minDps, 18)})`);
      console.log(`  default customer limit ${fmtUsdc(g.defaultLimitUsdc)}`);
      const short = insuranceStakeUsdc < requiredInsuranceUsdc;
      console.log(
        `  insurance ${fmtUsdc(insuranceStakeUsdc)} staked of ${fmtUsdc(requiredInsuranceUsdc)} required` +
          (short ? " — SHORT: new risk refused; top up with chx:insurance:stake" : ""),
      );
      if (income.shortSince !== 0n) console.log(`  shortfall flagged at ${income.shortSince} (grace clock running)`);
      console.log(
        `  income    ${fmtUsdc(income.pendingUsdc)} accrued, ${fmtUsdc(income.unvestedUsdc)} vesting into the share price`,
      );
      console.log(
        noticeSec === 0n && windowSec === 0n
          ? "  capital   leaves without notice"
          : `  capital   leaves by notice: ${noticeSec} s, then a ${windowSec} s window`,
      );
      if (notice.shares !== 0n) {
        console.log(
          `  notice of ${holder}: ${notice.shares} shares, redeemable from ${notice.readyAt} to ${notice.expiresAt}`,
        );
      }
    } finally {
      await connection.close();
    }
  });
}
