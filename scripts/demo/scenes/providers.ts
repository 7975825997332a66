import { formatUnits, parseUnits, ZeroHash, type Signer } from "ethers";
import type { DemoContext, Scene } from "../types.js";
import { domainOf, signAttestation } from "@chx/sdk";

const DAY = 86_400;
const wad = (x: string) => parseUnits(x, 18);
const GRADES_P = ["A", "B", "C", "D"];
const GRADES_E = ["X", "Y", "Z"];

/** Hardware of the cast: measured performance vs the ML-training reference (0.312 PFLOPS), capacity, power. */
const FLEET = [
  {
    label: "H100 pod",
    avg: "0.60",
    factors: ["1.02", "0.98", "1.0"],
    capacity: 100,
    watts: "160",
    region: 1,
    ask: "2.1",
  },
  {
    label: "A100 rack",
    avg: "0.34",
    factors: ["1.0", "0.96", "1.0"],
    capacity: 40,
    watts: "140",
    region: 2,
    ask: "1.8",
  },
  {
    label: "L40 farm",
    avg: "0.30",
    factors: ["0.95", "1.0", "0.9"],
    capacity: 25,
    watts: "220",
    region: 1,
    ask: "1.5",
  },
  {
    label: "gaming GPUs",
    avg: "0.20",
    factors: ["0.9", "0.85", "0.8"],
    capacity: 8,
    watts: "450",
    region: 3,
    ask: "1.1",
  },
  { label: "old V100s", avg: "0.12", factors: ["0.8", "0.8", "0.7"], capacity: 5, watts: "600", region: 2, ask: "0.9" },
  {
    label: "edge boxes",
    avg: "0.05",
    factors: ["0.7", "0.6", "0.8"],
    capacity: 2,
    watts: "500",
    region: 4,
    ask: "0.7",
  },
];

/** A fresh attestation of provider `i` of the demo fleet (the futures scene renews lapsed ones with it). */
export async function attest(ctx: DemoContext, provider: Signer, i: number): Promise<void> {
  const reg = ctx.protocol.providerRegistry;
  const hw = FLEET[i % FLEET.length]!;
  const now = (await ctx.connection.ethers.provider.getBlock("latest"))!.timestamp;
  const message = {
    provider: await provider.getAddress(),
    workloadClass: 1,
    standardVersion: 1,
    avgPflopsWad: wad(hw.avg),
    factorsWad: hw.factors.map(wad),
    capacityPflopsWad: wad(String(hw.capacity)),
    powerWattsWad: wad(hw.watts),
    nonce: await reg.attestationNonce(await provider.getAddress()),
    deadline: BigInt(now + DAY),
  };
  // the deployer holds ATTESTER on local networks (the council / oracle signer on a real network)
  const signature = await signAttestation(
    ctx.deployer,
    await domainOf(ctx.connection.ethers.provider, "ProviderRegistry", await reg.getAddress()),
    message,
  );
  await (await reg.connect(provider).attest(message, signature)).wait();
}

/**
 * Providers join with different hardware, are attested and graded, mint CH; their daily heartbeats feed the
 * Emission module; every 15 days the keeper program closes the epoch and rebalances GFL on the median; providers claim DPS;
 * after a year the reward rate halves.
 */
export const providersScene: Scene = {
  title: "Providers join, are attested and graded; epochs rebalance GFL on the median; DPS is claimed; a halving",
  requires: ["ProviderRegistry", "ComputeStandard", "Emission"],
  async run(ctx) {
    const { providerRegistry: reg, dps, emission, gfl, ch } = ctx.protocol;
    const n = Math.max(1, ctx.opts.providers);
    const providers = Array.from({ length: n }, (_, i) => ctx.actor(`provider${i}`));
    // demo scale: one heartbeat a day (governance parameter; production default is hourly)
    const p = await reg.params();
    await (
      await reg.setParams({
        minStakeDps: p.minStakeDps,
        collateralFactorWad: p.collateralFactorWad,
        mintHorizonSec: p.mintHorizonSec,
        unbondingDelaySec: p.unbondingDelaySec,
        attestationValiditySec: p.attestationValiditySec,
        heartbeatIntervalSec: DAY,
        uptimeWindowSec: p.uptimeWindowSec,
        finderFeeBps: p.finderFeeBps,
        redemptionPenaltyBps: p.redemptionPenaltyBps,
        dpsPriceWad: p.dpsPriceWad,
      })
    ).wait();

    for (const [i, prov] of providers.entries()) {
      const hw = FLEET[i % FLEET.length]!;
      const stake = wad(String(20_000 + 10_000 * (n - i)));
      await (await dps.connect(ctx.deployer).transfer(prov.address, stake)).wait();
      await (await reg.connect(prov).register(hw.region, 1n << 1n, ZeroHash, `ipfs://chx-demo/${hw.label}`)).wait();
      await (await dps.connect(prov).approve(await reg.getAddress(), stake)).wait();
      await (await reg.connect(prov).stake(stake)).wait();
      await (await reg.connect(prov).setAskPrice(wad(hw.ask))).wait();
      await attest(ctx, prov, i);
      await (await reg.connect(prov).heartbeat(wad(String(hw.capacity)))).wait();
      const info = await reg.providerInfo(prov.address);
      ctx.log(
        `${hw.label} (provider${i}): stake ${formatUnits(stake, 18)} DPS, ${formatUnits(info.chPerHourWad, 18)} CH/h, ` +
          `grade ${GRADES_P[Number(info.performanceGrade)] ?? info.performanceGrade}/${Number(info.reliabilityGrade) + 1}/` +
          `${GRADES_E[Number(info.energyGrade)] ?? info.energyGrade}, tier ${info.tier}`,
      );
    }
    // providers mint CH against verified capacity (each CH is their delivery liability)
    for (const [i, prov] of providers.entries()) {
      const mintable = await reg.mintableCh(prov.address);
      const amount = mintable / 4n;
      if (amount > 0n) await (await reg.connect(prov).mintCH(amount, prov.address)).wait();
      if (i === 0) ctx.figure("compute.ch.mintedByLargest", formatUnits(amount, 18));
    }
    ctx.figure("compute.ch.supply", formatUnits(await ch.totalSupply(), 18));
    let liabilities = 0n;
    for (const prov of providers) liabilities += await reg.liabilityOf(prov.address);
    ctx.figure("compute.ch.supplyEqualsLiabilities", liabilities === (await ch.totalSupply()));

    // days pass: daily heartbeats (seeded noise, provider0 drops 1 PFLOPS mid-run as in the seed's example). The
    // keeper program ticks after each day (ctx.advance): its emission job closes the due epoch (priority) and pages
    // the GFL median rebalance through every provider — no demo code calls Emission's upkeep.
    let lastEpoch = Number(await emission.currentEpoch());
    for (let day = 1; day <= ctx.opts.days; day++) {
      await ctx.advance(DAY);
      if (day % 25 === 0) for (const [i, prov] of providers.entries()) await attest(ctx, prov, i);
      for (const [i, prov] of providers.entries()) {
        const hw = FLEET[i % FLEET.length]!;
        const dropped = i === 0 && day > ctx.opts.days / 2 ? 1 : 0;
        const noise = ctx.rng.next() < 0.1 ? 0.9 : 1; // an occasional bad day: the median ignores it
        const cap = (hw.capacity - dropped) * noise;
        await (await reg.connect(prov).heartbeat(wad(cap.toFixed(6)))).wait();
      }
      const epoch = Number(await emission.currentEpoch());
      if (epoch !== lastEpoch) {
        for (let e = lastEpoch; e < epoch; e++) {
          const info = await emission.epochInfo(e);
          ctx.series("emission", {
            epoch: e,
            totalGfl: Number(formatUnits(info.totalGfl, 18)),
            dpsMinted: Number(formatUnits((info.totalGfl * BigInt(info.rateWad) * 2000n) / 10_000n / 10n ** 18n, 18)),
            rate: Number(formatUnits(info.rateWad, 18)),
          });
          ctx.series("gfl", { epoch: e, totalGfl: Number(formatUnits(info.totalGfl, 18)) });
          if (e > 0) {
            const prev = await emission.epochInfo(e - 1);
            if (info.halvingsAfter > prev.halvingsAfter) ctx.series("halvings", { epoch: e });
          }
        }
        // half of the providers claim every epoch, the others only at the end (path independence)
        for (const [i, prov] of providers.entries())
          if (i % 2 === 0) await (await emission.connect(prov).claim(prov.address)).wait();
        lastEpoch = epoch;
      }
    }
    for (const prov of providers) await (await emission.connect(prov).claim(prov.address)).wait();

    for (const [i, prov] of providers.entries()) {
      const info = await reg.providerInfo(prov.address);
      const grade = `${GRADES_P[Number(info.performanceGrade)] ?? "?"}/${Number(info.reliabilityGrade) + 1}/${GRADES_E[Number(info.energyGrade)] ?? "?"}`;
      ctx.log(
        `${FLEET[i % FLEET.length]!.label}: uptime ${formatUnits(info.uptimeWad * 100n, 18).slice(0, 6)} %, grade ${grade}`,
      );
      if (i === 0) ctx.figure("compute.provider0Grade", grade);
    }
    const halvings = Number(await emission.halvings());
    const emitted = await dps.totalEmitted();
    ctx.log(
      `${lastEpoch} epochs closed, ${halvings} halving(s), DPS emitted ${formatUnits(emitted, 18)}, total GFL ${formatUnits(await gfl.totalSupply(), 18)}`,
    );
    ctx.figure("emission.epochs", lastEpoch);
    ctx.figure("emission.halvings", halvings);
    ctx.figure("emission.dpsEmitted", formatUnits(emitted, 18));
    ctx.figure("emission.withinBound", emitted <= (await emission.emissionBound()));
    ctx.figure("emission.totalGfl", formatUnits(await gfl.totalSupply(), 18));
    const p0 = await emission.providerInfo(providers[0]!.address);
    ctx.figure("emission.provider0Gfl", formatUnits(p0.gfl, 18));
  },
};
