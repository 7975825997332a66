import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { openProtocol, printJson, runTask, defaultAccount } from "../../lib.js";
import { fmtShares, fmtUsdc, when } from "./common.js";

interface Args {
  account: string;
  json: boolean;
}

export default async function status(args: Args, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, protocol } = await openProtocol(hre);
    const fund = protocol.insuranceFund;
    const who = args.account === "" ? (await defaultAccount(connection)).address : args.account;
    const [cooldownSec, windowSec] = await fund.cooldown();
    const totalShares = await fund.totalShares();
    if (args.json) {
      const req = await fund.withdrawRequest(who);
      printJson({
        fund: await fund.getAddress(),
        totalAssetsUsdc: await fund.totalAssets(),
        totalShares,
        cooldownSec,
        windowSec,
        stakePaused: await fund.isFeaturePaused(await fund.STAKE_FEATURE()),
        account: who,
        shares: await fund.sharesOf(who),
        valueUsdc: await fund.guarantorStake(who),
        guarantorRequirementUsdc: await fund.guarantorRequirement(who),
        withdrawRequest: { shares: req.shares, readyAt: req.readyAt, expiresAt: req.expiresAt },
      });
      await connection.close();
      return;
    }
    console.log(`InsuranceFund ${await fund.getAddress()}`);
    console.log(`  total assets ${fmtUsdc(await fund.totalAssets())}, ${fmtShares(totalShares)}`);
    console.log(`  1 share = ${fmtUsdc(await fund.previewWithdraw(10n ** 12n))}`);
    console.log(`  cooldown ${cooldownSec} s, then a ${windowSec} s window`);
    console.log(`  stakes paused: ${await fund.isFeaturePaused(await fund.STAKE_FEATURE())}`);
    const held = await fund.sharesOf(who);
    const req = await fund.withdrawRequest(who);
    console.log(`\n${who}`);
    console.log(`  ${fmtShares(held)} worth ${fmtUsdc(await fund.guarantorStake(who))}`);
    const required = await fund.guarantorRequirement(who);
    if (required > 0n) {
      console.log(
        `  guarantor requirement ${fmtUsdc(required)}, shortfall ${fmtUsdc(await fund.guarantorShortfall(who))}`,
      );
    }
    if (req.shares > 0n) {
      console.log(`  withdrawal request ${fmtShares(req.shares)}: ${when(req.readyAt)} → ${when(req.expiresAt)}`);
    }
    await connection.close();
  });
}
