import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, isAddress } from "ethers";
import { openProtocol, printJson, runTask, TaskError, defaultAccount } from "../../lib.js";
import { ENERGY, PERF, RELIABILITY, TIERS } from "./common.js";

export default async function status(
  args: { provider: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.provider !== "" && !isAddress(args.provider)) {
      throw new TaskError(`--provider ${args.provider}: not an address.`);
    }
    const { connection, protocol } = await openProtocol(hre);
    try {
      const reg = protocol.providerRegistry;
      const who = args.provider === "" ? (await defaultAccount(connection)).address : args.provider;
      const i = await reg.providerInfo(who);
      if (!i.registered) throw new TaskError(`${who} is not a registered provider (run chx:provider:register).`);
      const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
      const attestationValid = i.attestationExpiresAt >= now;
      if (args.json) {
        printJson({
          provider: who,
          index: i.index,
          region: i.region,
          workloadMask: i.workloadMask,
          stakedDps: i.stakedDps,
          unbondingDps: i.unbondingDps,
          tier: TIERS[Number(i.tier)] ?? Number(i.tier),
          attestation: {
            workloadClass: i.workloadClass,
            standardVersion: i.standardVersion,
            chPerHourWad: i.chPerHourWad,
            capacityPflopsWad: i.capacityPflopsWad,
            expiresAt: i.attestationExpiresAt,
            valid: attestationValid,
          },
          grades: {
            performance: PERF[Number(i.performanceGrade)] ?? Number(i.performanceGrade),
            reliability: RELIABILITY[Number(i.reliabilityGrade)] ?? Number(i.reliabilityGrade),
            energy: ENERGY[Number(i.energyGrade)] ?? Number(i.energyGrade),
            whPerChWad: i.whPerChWad,
          },
          uptimeWad: i.uptimeWad,
          lastHeartbeat: i.lastHeartbeat,
          ch: {
            liability: i.liabilityCh,
            minted: i.mintedCh,
            delivered: i.deliveredCh,
            boughtBack: i.boughtBackCh,
            reserved: i.assignedCh,
            mintable: i.mintableCh,
          },
          reputation: { completed: i.completed, failed: i.failed, slashCount: i.slashCount, slashedDps: i.slashedDps },
        });
        return;
      }
      const f = (x: bigint) => formatUnits(x, 18);
      console.log(`provider ${who} (#${i.index}, region ${i.region}, workload mask 0b${i.workloadMask.toString(2)})`);
      console.log(
        `  stake       ${f(i.stakedDps)} DPS (tier ${TIERS[Number(i.tier)]}), unbonding ${f(i.unbondingDps)}`,
      );
      console.log(
        `  attestation class ${i.workloadClass} v${i.standardVersion}: ${f(i.chPerHourWad)} CH/h, capacity ${f(i.capacityPflopsWad)} PFLOPS, ` +
          (attestationValid
            ? `valid until ${new Date(Number(i.attestationExpiresAt) * 1000).toISOString()}`
            : "none / expired"),
      );
      console.log(
        `  grades      performance ${PERF[Number(i.performanceGrade)]}, reliability ${RELIABILITY[Number(i.reliabilityGrade)]}, energy ${ENERGY[Number(i.energyGrade)]} (${f(i.whPerChWad)} Wh/CH)`,
      );
      console.log(`  uptime      ${f(i.uptimeWad * 100n)} %, last heartbeat ${i.lastHeartbeat}`);
      console.log(
        `  CH          liability ${f(i.liabilityCh)} (minted ${f(i.mintedCh)}, delivered ${f(i.deliveredCh)}, bought back ${f(i.boughtBackCh)}), reserved ${f(i.assignedCh)}, mintable ${f(i.mintableCh)}`,
      );
      console.log(
        `  reputation  completed ${i.completed}, failed ${i.failed}, slashed ${i.slashCount}× (${f(i.slashedDps)} DPS)`,
      );
    } finally {
      await connection.close();
    }
  });
}
