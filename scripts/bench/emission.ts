import { id, parseUnits, Wallet } from "ethers";
import type { BenchSuite } from "./lib.js";
import { Roles } from "@chx/sdk";

const pf = (x: number) => parseUnits(String(x), 18);
const DAY = 86_400n;

/**
 * Emission gas: the heartbeat sample (recordCapacity, by case), epoch close, rebalance per provider amortised over
 * a batch of 100 (first GFL mint and steady state), and claims (mint path, pool path, with a lazy settle).
 * Targets (issue 4): rebalance ≤ 40k per provider amortised, claim ≤ 80k.
 */
export const emissionBench: BenchSuite = {
  name: "emission",
  async run(ctx) {
    const { emission, accessManager, dps } = ctx.protocol;
    const { networkHelpers } = ctx.connection;
    await (await accessManager.grantRole(Roles.CAPACITY_RECORDER, ctx.deployer.address, 0)).wait();
    await (await accessManager.grantRole(Roles.REWARD_SOURCE, ctx.deployer.address, 0)).wait();
    await (await emission.setMinSamples(1)).wait(); // from epoch 1: one heartbeat is enough for a bench provider
    const users = ctx.users.slice(0, 3);
    const providers = [
      ...users.map((u) => u.address),
      // fixed keys (scripts/bench/clock.ts: reproducible figures; an address's zero bytes change the calldata cost)
      ...Array.from({ length: 97 }, (_, i) => new Wallet(id(`bench-emission-provider-${i}`)).address),
    ];
    const at = async (epoch: bigint, day: bigint) =>
      networkHelpers.time.increaseTo((await emission.epochStart(epoch)) + day * DAY + 60n);

    await at(1n, 0n);
    await (await emission.closeEpoch()).wait();
    // Epoch 1: first samples ever.
    for (const [i, p] of providers.entries()) {
      const tx = emission.recordCapacity(p, pf(100 + i));
      if (i === 50) await ctx.measure("Emission.recordCapacity:firstSample", tx);
      else await (await tx).wait();
    }
    await ctx.measure("Emission.recordCapacity:sameDayLower", emission.recordCapacity(providers[50]!, pf(90)));
    await ctx.measure("Emission.recordCapacity:sameDayHigher", emission.recordCapacity(providers[50]!, pf(95)));
    await at(1n, 1n);
    await ctx.measure("Emission.recordCapacity:newDay", emission.recordCapacity(providers[50]!, pf(120)));
    await at(1n, 2n);
    await ctx.measure("Emission.recordCapacity:newDay3", emission.recordCapacity(providers[50]!, pf(110)));
    await at(1n, 14n);
    await ctx.measure("Emission.recordCapacity:newDay4", emission.recordCapacity(providers[50]!, pf(115)));

    await at(2n, 0n);
    await ctx.measure("Emission.closeEpoch:mint", emission.closeEpoch());
    const first = await ctx.measure("Emission.rebalance:batch100:firstGfl", emission.rebalance(100));
    ctx.set("Emission.rebalance:perProvider:firstGfl", first / 100n);

    // Epoch 2: every provider heartbeats again (ring roll-over, already rebalanced by the batch).
    for (const [i, p] of providers.entries()) {
      const tx = emission.recordCapacity(p, pf(101 + i));
      if (i === 50) await ctx.measure("Emission.recordCapacity:rollover", tx);
      else await (await tx).wait();
    }
    await at(3n, 0n);
    await (await emission.closeEpoch()).wait();
    const steady = await ctx.measure("Emission.rebalance:batch100:steady", emission.rebalance(100));
    ctx.set("Emission.rebalance:perProvider:steady", steady / 100n);

    // Claims transfer rewards funded at close (the close above minted epoch 2's rewards in one mint).
    const [u0, u1, u2] = users;
    await ctx.measure("Emission.claim:newHolder", emission.connect(u0!).claim(u0!.address));
    await (await dps.transfer(u1!.address, 1n)).wait();
    await ctx.measure("Emission.claim:existingHolder", emission.connect(u1!).claim(u1!.address));
    await (await dps.transfer(await emission.getAddress(), pf(11))).wait();
    await (await emission.replenish(pf(10))).wait();
    await ctx.measure("Emission.replenish", emission.replenish(pf(1)));
    // Epoch 3: u2 heartbeats; after the close (which funds from the pool) it claims, settling lazily (no batch ran).
    await (await emission.recordCapacity(u2!.address, pf(50))).wait();
    await at(4n, 0n);
    await ctx.measure("Emission.closeEpoch:fromPool", emission.closeEpoch());
    await (await dps.transfer(u2!.address, 1n)).wait();
    await ctx.measure("Emission.claim:lazySettle", emission.connect(u2!).claim(u2!.address));
  },
};
