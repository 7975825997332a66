import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits } from "ethers";
import { openProtocol, printJson, runTask } from "../lib.js";
import { Roles } from "@chx/sdk";

export default async function status(args: { json: boolean }, hre: HardhatRuntimeEnvironment): Promise<void> {
  await runTask(hre, async () => {
    const { connection, record, protocol } = await openProtocol(hre);
    const block = await connection.ethers.provider.getBlockNumber();
    if (args.json) {
      const { governor, timelock, dps, ch, gfl } = protocol;
      printJson({
        record,
        block,
        governance: {
          votingDelaySec: await governor.votingDelay(),
          votingPeriodSec: await governor.votingPeriod(),
          quorumPercent: await governor["quorumNumerator()"](),
          proposalThresholdDps: await governor.proposalThreshold(),
          timelockMinDelaySec: await timelock.getMinDelay(),
        },
        supply: { dps: await dps.totalSupply(), ch: await ch.totalSupply(), gfl: await gfl.totalSupply() },
      });
      await connection.close();
      return;
    }
    console.log(`CHX on ${record.network} (chain ${record.chainId}) at block ${block}`);
    console.log(
      `governance handover: ${record.handover ? "done — the timelock is the only admin" : "no (local bootstrap admin)"}`,
    );
    console.log("\ncontracts:");
    for (const [name, c] of Object.entries(record.contracts)) {
      const impl = c.kind === "uups" ? ` impl ${c.implementation}` : "";
      console.log(`  ${name.padEnd(20)} ${c.address} (${c.kind}, block ${c.deployBlock})${impl}`);
    }
    const { governor, timelock, dps, ch, gfl, accessManager } = protocol;
    console.log("\ngovernance:");
    console.log(`  voting delay ${await governor.votingDelay()} s, period ${await governor.votingPeriod()} s`);
    console.log(
      `  quorum ${await governor["quorumNumerator()"]()}%, threshold ${formatUnits(await governor.proposalThreshold(), 18)} DPS`,
    );
    console.log(`  timelock min delay ${await timelock.getMinDelay()} s`);
    const [tlAdmin] = await accessManager.hasRole(Roles.ADMIN, await timelock.getAddress());
    console.log(`  timelock holds ADMIN_ROLE: ${tlAdmin}`);
    console.log("\ntokens:");
    console.log(
      `  DPS supply ${formatUnits(await dps.totalSupply(), 18)} (emitted ${formatUnits(await dps.totalEmitted(), 18)}, burned ${formatUnits(await dps.totalBurned(), 18)})`,
    );
    console.log(`  CH supply  ${formatUnits(await ch.totalSupply(), 18)}`);
    console.log(`  GFL supply ${formatUnits(await gfl.totalSupply(), 18)}`);
    await connection.close();
  });
}
