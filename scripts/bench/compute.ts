import { id, parseUnits, ZeroHash } from "ethers";
import type { BenchSuite } from "./lib.js";
import { domainOf, signAttestation, type AttestationMessage } from "@chx/sdk";

const wad = (x: string) => parseUnits(x, 18);

/** Compute layer: register, stake, attest, heartbeat, mint CH, and matching over a 50-provider page. */
export const computeBench: BenchSuite = {
  name: "compute",
  async run(ctx) {
    const { providerRegistry: reg, providerMatcher: matcher, dps, computeStandard } = ctx.protocol;
    const provider = ctx.connection.ethers.provider;
    const regAddr = await reg.getAddress();
    const now = async () => BigInt((await provider.getBlock("latest"))!.timestamp);
    const attest = async (who: string, key: string) => {
      const m: AttestationMessage = {
        provider: who,
        workloadClass: 1,
        standardVersion: Number(await computeStandard.latestVersion(1)),
        avgPflopsWad: wad("0.5"),
        factorsWad: [wad("1.2"), wad("0.9"), wad("1")],
        capacityPflopsWad: wad("0.5"),
        powerWattsWad: wad("700"),
        nonce: await reg.attestationNonce(who),
        deadline: (await now()) + 3600n,
      };
      const sig = await signAttestation(ctx.deployer, await domainOf(provider, "ProviderRegistry", regAddr), m);
      return key === "" ? (await reg.attest(m, sig)).wait() : ctx.measure(key, reg.attest(m, sig));
    };

    const [a, b] = ctx.users;
    if (a === undefined || b === undefined) throw new Error("bench needs users");
    await ctx.measure("ProviderRegistry.register", reg.connect(a).register(1, 0b110n, ZeroHash, "ipfs://hw"));
    await (await dps.transfer(a.address, wad("20000"))).wait();
    await (await dps.connect(a).approve(regAddr, wad("20000"))).wait();
    await ctx.measure("ProviderRegistry.stake:first", reg.connect(a).stake(wad("10000")));
    await ctx.measure("ProviderRegistry.stake", reg.connect(a).stake(wad("10000")));
    await attest(a.address, "ProviderRegistry.attest:first");
    await attest(a.address, "ProviderRegistry.attest");
    await ctx.measure("ProviderRegistry.heartbeat:first", reg.connect(a).heartbeat(wad("0.5")));
    await ctx.connection.networkHelpers.time.increase(3600);
    // Same recorder day, sample not lower: the day's (lowest) sample cannot change, so nothing is written (the usual
    // beat).
    await ctx.measure("ProviderRegistry.heartbeat", reg.connect(a).heartbeat(wad("0.5")));
    // The first beat of a new day writes the day's slot of the provider's capacity ring in the registry (issue 18
    // item 4: Emission collects the epoch after its end; the beat never calls it).
    await ctx.connection.networkHelpers.time.increase(86_400);
    await ctx.measure("ProviderRegistry.heartbeat:newDay", reg.connect(a).heartbeat(wad("0.5")));
    // With a recorder without epochs (a mock; genesis 0, so a new ring epoch): a lower reading writes the ring (the
    // key's name is historical: the beat no longer calls the recorder).
    const recorder = await (await ctx.connection.ethers.getContractFactory("MockCapacityRecorder")).deploy();
    await (await reg.setCapacityRecorder(await recorder.getAddress())).wait();
    await (await recorder.recordCapacity(a.address, 1n)).wait(); // warm the mock's slots (steady state)
    await ctx.connection.networkHelpers.time.increase(3600);
    await ctx.measure("ProviderRegistry.heartbeat:mockRecorder", reg.connect(a).heartbeat(wad("0.4")));
    await (await reg.setCapacityRecorder("0x0000000000000000000000000000000000000000")).wait();
    await ctx.measure("ProviderRegistry.mintCH:first", reg.connect(a).mintCH(wad("10"), b.address));
    await ctx.measure("ProviderRegistry.mintCH", reg.connect(a).mintCH(wad("10"), b.address));
    await (await reg.connect(a).mintCH(wad("1"), a.address)).wait();
    await ctx.measure("ProviderRegistry.buyBack", reg.connect(a).buyBack(wad("1")));

    // 50 attested, staked providers: matching over a full page.
    const wallets = [];
    for (let i = 0; i < 50; i++) {
      // a fixed key per provider: reproducible figures (scripts/bench/clock.ts)
      const w = new ctx.connection.ethers.Wallet(id(`bench-compute-provider-${i}`)).connect(provider);
      await (await ctx.deployer.sendTransaction({ to: w.address, value: wad("1") })).wait();
      await (await reg.connect(w).register(1 + (i % 3), 0b10n, ZeroHash, "")).wait();
      await (await dps.transfer(w.address, wad("2000"))).wait();
      await (await dps.connect(w).approve(regAddr, wad("2000"))).wait();
      await (await reg.connect(w).stake(wad("2000"))).wait();
      await (await reg.connect(w).setAskPrice(wad(String(1 + (i % 5))))).wait();
      await attest(w.address, "");
      wallets.push(w.address);
    }
    const q = {
      mode: 0,
      workloadClass: 1,
      region: 1,
      regionStrict: false,
      budgetPriceWad: wad("4"),
      requiredCapacityPflopsWad: wad("0.1"),
      requiredCh: 0n,
    };
    ctx.set(
      "ProviderMatcher.selectFromCandidates:50",
      await matcher.selectFromCandidates.estimateGas(q, wallets, [], id("seed"), 5),
    );
    // TSK-07: the unmovable council draw from the registry snapshot (5 seats, 56 listed providers)
    const head = (await provider.getBlock("latest"))!;
    const dq = {
      workloadClass: 1,
      requiredCapacityPflopsWad: wad("0.1"),
      atBlock: BigInt(head.number),
      atTime: BigInt(head.timestamp),
      candidates: await reg.drawCount(),
      extraSamples: 64n,
    };
    ctx.set("ProviderMatcher.drawFromSnapshot:5", await matcher.drawFromSnapshot.estimateGas(dq, [], id("seed"), 5));
  },
};
