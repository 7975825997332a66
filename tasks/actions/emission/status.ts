import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { formatUnits, isAddress } from "ethers";
import { openProtocol, printJson, runTask, TaskError } from "../../lib.js";

const UNBOUNDED = 2n ** 256n - 1n;
const fmt = (x: bigint) => (x === UNBOUNDED ? "∞" : formatUnits(x, 18));
const iso = (t: bigint) => new Date(Number(t) * 1000).toISOString();

export default async function emissionStatus(
  args: { provider: string; json: boolean },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    if (args.provider !== "" && !isAddress(args.provider)) throw new TaskError(`"${args.provider}" is not an address.`);
    const { connection, protocol } = await openProtocol(hre);
    try {
      const { emission, gfl } = protocol;
      const epoch = await emission.currentEpoch();
      const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
      const end = await emission.epochStart(epoch + 1n);
      const n = await emission.halvings();
      const [cumulative, nextThreshold, nextTime] = await emission.halvingState();
      const [pool, budget, minted, replenished] = await emission.pools();
      const [funded, unfunded] = await emission.rewardReserves();
      const [cursor, total] = await emission.rebalanceProgress();
      const last = epoch > 0n ? await emission.epochInfo(epoch - 1n) : undefined;
      const gflSupply = await gfl.totalSupply();
      const rateWad = await emission.rewardRateWad(n);
      const bound = await emission.emissionBound();
      const p = args.provider === "" ? undefined : await emission.providerInfo(args.provider);
      const claimable = p === undefined ? 0n : await emission.claimable(args.provider);
      if (args.json) {
        printJson({
          emission: await emission.getAddress(),
          epoch,
          epochEndsAt: end,
          closeDue: now >= end,
          lastClosedEpoch:
            last === undefined ? null : { epoch: epoch - 1n, totalGfl: last.totalGfl, rateWad: last.rateWad },
          gflSupply,
          rebalance: { cursor, total },
          halvings: n,
          rewardRateWad: rateWad,
          cumulativeGfl: cumulative,
          nextHalvingThresholdGfl: nextThreshold,
          nextTimeHalvingAt: nextTime,
          dpsMinted: minted,
          emissionBound: bound === UNBOUNDED ? null : bound,
          replenished,
          rewardPool: pool,
          keeperBudget: budget,
          funded,
          owed: unfunded,
          provider:
            p === undefined
              ? null
              : {
                  address: args.provider,
                  sampleEpoch: p.sampleEpoch,
                  sampleCount: p.sampleCount,
                  epochGfl: p.epochGfl,
                  gfl: p.gfl,
                  claimableDps: claimable,
                  claimedDps: p.claimedDps,
                },
        });
        return;
      }
      console.log(`epoch ${epoch} ends ${iso(end)}${now >= end ? " (due: run chx:emission:close)" : ""}`);
      if (last !== undefined) {
        console.log(`last closed epoch ${epoch - 1n}: ${fmt(last.totalGfl)} GFL at ${fmt(last.rateWad)} DPS/GFL`);
      }
      console.log(`GFL supply ${fmt(gflSupply)}; rebalance ${cursor}/${total} providers`);
      console.log(`halvings ${n}; rate ${fmt(rateWad)} DPS per GFL per epoch`);
      console.log(
        `cumulative GFL ${fmt(cumulative)} / next threshold ${fmt(nextThreshold)}; next time halving ${iso(nextTime)}`,
      );
      console.log(`DPS minted ${fmt(minted)} of bound ${fmt(bound)}; replenished ${fmt(replenished)}`);
      console.log(
        `reward pool ${fmt(pool)}, keeper budget ${fmt(budget)}, funded ${fmt(funded)}, owed ${fmt(unfunded)}`,
      );
      if (p !== undefined) {
        console.log(
          `provider ${args.provider}: epoch ${p.sampleEpoch} (${p.sampleCount} days, median ${fmt(p.epochGfl)} GFL), GFL ${fmt(p.gfl)}, claimable ${fmt(claimable)} DPS, claimed ${fmt(p.claimedDps)}`,
        );
      }
    } finally {
      await connection.close();
    }
  });
}
