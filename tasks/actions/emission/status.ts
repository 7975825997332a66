import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, isAddress } from "ethers";
import { openProtocol, runTask, TaskError } from "../../lib.js";

const fmt = (x: bigint) => (x === 2n ** 256n - 1n ? "∞" : formatUnits(x, 18));

export default async function emissionStatus(
  args: { provider: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.provider !== "" && !isAddress(args.provider)) throw new TaskError(`"${args.provider}" is not an address.`);
    const { connection, protocol } = await openProtocol(hre);
    const { emission, gfl } = protocol;
    const epoch = await emission.currentEpoch();
    const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
    const end = await emission.epochStart(epoch + 1n);
    const n = await emission.halvings();
    const [cumulative, nextThreshold, nextTime] = await emission.halvingState();
    const [pool, budget, minted, replenished] = await emission.pools();
    const [funded, unfunded] = await emission.rewardReserves();
    const [cursor, total] = await emission.rebalanceProgress();
    console.log(
      `epoch ${epoch} ends ${new Date(Number(end) * 1000).toISOString()}${now >= end ? " (due: run chx:emission:close)" : ""}`,
    );
    if (epoch > 0n) {
      const last = await emission.epochInfo(epoch - 1n);
      console.log(`last closed epoch ${epoch - 1n}: ${fmt(last.totalGfl)} GFL at ${fmt(last.rateWad)} DPS/GFL`);
    }
    console.log(`GFL supply ${fmt(await gfl.totalSupply())}; rebalance ${cursor}/${total} providers`);
    console.log(`halvings ${n}; rate ${fmt(await emission.rewardRateWad(n))} DPS per GFL per epoch`);
    console.log(
      `cumulative GFL ${fmt(cumulative)} / next threshold ${fmt(nextThreshold)}; next time halving ${new Date(Number(nextTime) * 1000).toISOString()}`,
    );
    console.log(
      `DPS minted ${fmt(minted)} of bound ${fmt(await emission.emissionBound())}; replenished ${fmt(replenished)}`,
    );
    console.log(`reward pool ${fmt(pool)}, keeper budget ${fmt(budget)}, funded ${fmt(funded)}, owed ${fmt(unfunded)}`);
    if (args.provider !== "") {
      const p = await emission.providerInfo(args.provider);
      console.log(
        `provider ${args.provider}: epoch ${p.sampleEpoch} (${p.sampleCount} days, median ${fmt(p.epochGfl)} GFL), GFL ${fmt(p.gfl)}, claimable ${fmt(await emission.claimable(args.provider))} DPS, claimed ${fmt(p.claimedDps)}`,
      );
    }
    await connection.close();
  });
}
