// OPS-03 checks for the Emission module. Loaded by scripts/e2e.mjs after the token and governance parts.
// Signers: 0 deployer (ADMIN on local networks, genesis DPS), 4 stands in for the ProviderRegistry/TaskRegistry
// (CAPACITY_RECORDER, REWARD_SOURCE), 5-7 providers, 8 keeper. Epochs are 15 days from the Emission deployment; the earlier parts advance
// the clock ≈ 4 days, so the scenario starts inside epoch 0 (e0 below; the phases count from it).

const CAPACITY_RECORDER = 13n; // Emission.recordCapacity (the ProviderRegistry's role)
const REWARD_SOURCE = 14n; // Emission.replenish (the TaskRegistry's role)
const DAY = 86_400;

/** Advances the clock to `seconds` past the start of `epoch`. */
async function toEpoch(ctx, epoch, seconds = 60) {
  const start = Number(await ctx.as(ctx.signers[0])("Emission").epochStart(epoch));
  const now = (await ctx.provider.getBlock("latest")).timestamp;
  if (start + seconds > now) await ctx.mine(start + seconds - now);
}

export async function scenario(ctx) {
  const { wad, send, mine, checkpoint } = ctx;
  const [deployer, , , , registry, p5, p6, p7, keeper] = ctx.signers;
  const d = ctx.as(deployer);
  const r = ctx.as(registry)("Emission");
  const k = ctx.as(keeper)("Emission");
  const emission = ctx.record.contracts.Emission.address;
  const sample = async (p, pflops) => send(r.recordCapacity(p.address, wad(pflops)));
  // epochs relative to the open one, so parts that run earlier may move the clock (a due epoch is closed first)
  if (await k.epochDue()) await send(k.closeEpochs(64));
  const e0 = Number(await k.currentEpoch());

  // phase 1 (epoch e0): wiring and parameters; one sample each, below the 8-day minimum → GFL 0
  await send(d("AccessManager").grantRole(CAPACITY_RECORDER, registry.address, 0));
  await send(d("AccessManager").grantRole(REWARD_SOURCE, registry.address, 0));
  await send(d("Emission").setMinSamples(3)); // from epoch 1
  await send(d("Emission").setHalvingSpan(wad(400))); // a threshold halving within the scenario
  await send(d("DPSToken").approve(emission, wad(10)));
  await send(d("Emission").fundKeeperBudget(wad(5)));
  await sample(p5, 100);
  await sample(p6, 50);
  await checkpoint();

  // phase 2 (epoch e0 + 1): keeper close (empty epoch, bounty 1 DPS) and batch; four days of samples
  await toEpoch(ctx, e0 + 1);
  await send(k.closeEpoch());
  await send(k.rebalance(10));
  await sample(p5, 100);
  await sample(p6, 50);
  await sample(p7, 10);
  await sample(p5, 90); // same day, lower: the day keeps 90
  await sample(p6, 60); // same day, higher: no change
  await mine(DAY);
  await sample(p5, 110);
  await sample(p6, 50);
  await mine(DAY);
  await sample(p5, 120);
  await sample(p6, 55);
  await sample(p7, 10);
  await mine(DAY);
  await sample(p5, 100);
  await checkpoint();

  // phase 3 (epoch e0 + 2): close e0 + 1 (p5 105, p6 50, p7 0 below 3 days), funding mint, batches of 2 and the rest,
  // a claim, samples, replenishment (the pool pays first at the next funding), keeper parameters
  await toEpoch(ctx, e0 + 2);
  await send(k.closeEpochs(5));
  await send(k.rebalance(2));
  await send(k.rebalance(10));
  await send(ctx.as(p5)("Emission").claim(p5.address));
  for (let day = 0; day < 3; day++) {
    await sample(p5, 200);
    await sample(p7, 300);
    await mine(DAY);
  }
  await send(d("DPSToken").transfer(emission, wad(0.1)));
  await send(r.replenish(wad(0.1)));
  await send(
    d("Emission").setKeeperConfig(
      { closeBountyDps: wad(1), perProviderBountyDps: wad(0.02), maxBountyDps: wad(10) },
      500n,
      100n,
    ),
  );
  await checkpoint();

  // phase 4 (epoch e0 + 3): the close of e0 + 2 crosses the 400 GFL threshold (blended rate, halving), p6 drops to 0,
  // p7 claims with a lazy settle, a batch settles the rest, p6 claims, p5 samples in epoch 3
  await toEpoch(ctx, e0 + 3);
  await send(k.closeEpoch());
  await send(k.rebalanceProvider(p6.address));
  await send(ctx.as(p7)("Emission").claim(p7.address));
  await send(k.rebalance(10));
  await send(ctx.as(p6)("Emission").claim(p6.address));
  await sample(p5, 80);
  await checkpoint();
}

const big = (x) => BigInt(x ?? 0);
const sum = (rows, f) => rows.reduce((s, x) => s + big(x[f]), 0n);

export async function compare(ctx) {
  const { replay, at, tag, eq, check } = ctx;
  const em = ctx.contract("Emission");
  const address = ctx.address("Emission");
  const s = replay.entity("EmissionState", address);
  if (!s) return check(`Emission state indexed ${tag}`, false, "no EmissionState");

  // module state
  eq(`Emission currentEpoch ${tag}`, s.currentEpoch, await em.currentEpoch(at));
  eq(`Emission halvings ${tag}`, s.halvings, await em.halvings(at));
  const [cumulative, nextThreshold, nextTime] = await em.halvingState(at);
  eq(`Emission cumulativeGfl ${tag}`, s.cumulativeGfl, cumulative);
  eq(`Emission nextThresholdGfl ${tag}`, s.nextThresholdGfl, nextThreshold);
  if (s.nextTimeHalvingAt != null) eq(`Emission nextTimeHalvingAt ${tag}`, s.nextTimeHalvingAt, nextTime);
  const [pool, budget, minted, replenished] = await em.pools(at);
  eq(`Emission reward pool ${tag}`, s.rewardPoolDps, pool);
  eq(`Emission keeper budget ${tag}`, s.keeperBudgetDps, budget);
  eq(`Emission DPS minted ${tag}`, s.totalMintedDps, minted);
  eq(`Emission DPS replenished ${tag}`, s.totalReplenishedDps, replenished);
  const [fundedDps, unfundedDps] = await em.rewardReserves(at);
  eq(`Emission funded rewards ${tag}`, s.fundedDps, fundedDps);
  eq(`Emission unfunded rewards ${tag}`, s.unfundedDps, unfundedDps);
  eq(`Emission providerCount ${tag}`, s.providerCount, await em.providerCount(at));
  const [cursor] = await em.rebalanceProgress(at);
  eq(`Emission rebalance cursor ${tag}`, s.rebalanceCursor, cursor);
  const [minCurrent, minNext] = await em.minSamples(at);
  eq(`Emission minSamples ${tag}`, s.minSamples, minCurrent);
  eq(`Emission minSamples next ${tag}`, s.minSamplesNext, minNext);
  const [bounty, share, batch] = await em.keeperConfig(at);
  const cfg = [s.closeBountyDps, s.perProviderBountyDps, s.maxBountyDps, s.keeperShareBps, s.keeperBatchSize];
  const chainCfg = [bounty.closeBountyDps, bounty.perProviderBountyDps, bounty.maxBountyDps, share, batch];
  check(
    `Emission keeper config ${tag}`,
    cfg.every((v, i) => big(v) === chainCfg[i]),
    `${cfg.join("/")} ≠ ${chainCfg.join("/")}`,
  );
  if (s.rewardRateWad != null)
    eq(`Emission rate in force ${tag}`, s.rewardRateWad, await em.rewardRateWad(s.halvings, at));
  const halvings = replay.entities("Halving");
  eq(`Emission halving events ${tag}`, halvings.length, await em.halvings(at));

  // DPS: the module's balance is exactly pool + keeper budget + funded rewards (rounding dust stays in funded);
  // the DPSEmitted mints to the module add up to its totalMinted
  const dpsBalance = await ctx.contract("DPSToken").balanceOf(address, at);
  eq(
    `Emission DPS held = pool + budget + funded ${tag}`,
    big(s.rewardPoolDps) + big(s.keeperBudgetDps) + big(s.fundedDps),
    dpsBalance,
  );
  const mints = replay.entities("DPSEmission").filter((x) => x.to === address);
  eq(`Emission DPSEmitted to the module ${tag}`, sum(mints, "amount"), minted);
  eq(`Emission claims ${tag}`, sum(replay.entities("RewardClaim"), "amountDps"), s.totalClaimedDps);

  // epochs: running or final total GFL, rate, halvings after, closed; Σ provider GFL per epoch = the epoch's total
  const current = Number(await em.currentEpoch(at));
  const providerEpochs = replay.entities("ProviderEpoch");
  let bad = [];
  for (const e of replay.entities("EmissionEpoch")) {
    if (e.epoch > current) continue;
    const info = await em.epochInfo(e.epoch, at);
    if (big(e.totalGfl) !== info.totalGfl) bad.push(`epoch ${e.epoch} totalGfl ${e.totalGfl} ≠ ${info.totalGfl}`);
    if (e.closed !== info.closed) bad.push(`epoch ${e.epoch} closed ${e.closed} ≠ ${info.closed}`);
    if (e.closed && big(e.rateWad) !== info.rateWad) bad.push(`epoch ${e.epoch} rate ${e.rateWad} ≠ ${info.rateWad}`);
    if (e.closed && big(e.halvingsAfter) !== info.halvingsAfter)
      bad.push(`epoch ${e.epoch} halvingsAfter ${e.halvingsAfter} ≠ ${info.halvingsAfter}`);
    const perProvider = sum(
      providerEpochs.filter((x) => x.epoch === e.id),
      "gfl",
    );
    if (perProvider !== info.totalGfl) bad.push(`epoch ${e.epoch} Σ provider GFL ${perProvider} ≠ ${info.totalGfl}`);
    if (e.closed && big(e.accruedDps) > big(e.rewardsDps)) bad.push(`epoch ${e.epoch} accrued > rewards`);
  }
  check(`Emission epochs ${tag}`, bad.length === 0, bad.join("; "));

  // providers: providerInfo, claimable (indexed: accrued + the pending settle-on-claim reward), GFL balance, order
  bad = [];
  const epochs = new Map(replay.entities("EmissionEpoch").map((e) => [e.epoch, e]));
  let totalGfl = 0n;
  const gfl = ctx.contract("GFLToken");
  for (const p of replay.entities("EmissionProvider")) {
    const info = await em.providerInfo(p.id, at);
    const pairs = [
      ["sampleEpoch", p.sampleEpoch, info.sampleEpoch],
      ["sampleCount", p.sampleCount, info.sampleCount],
      ["epochGfl", p.epochGfl, info.epochGfl],
      ["gfl", p.gfl, info.gfl],
      ["accruedDps", p.accruedDps, info.accruedDps],
      ["claimedDps", p.claimedDps, info.claimedDps],
    ];
    for (const [f, x, y] of pairs) if (big(x) !== big(y)) bad.push(`${p.id} ${f} ${x} ≠ ${y}`);
    if (p.settled !== info.settled) bad.push(`${p.id} settled ${p.settled} ≠ ${info.settled}`);
    const se = epochs.get(p.sampleEpoch);
    const pending =
      !p.settled && p.sampleEpoch < current && se?.closed ? (big(p.epochGfl) * big(se.rateWad)) / 10n ** 18n : 0n;
    const claimable = await em.claimable(p.id, at);
    if (big(p.accruedDps) + pending !== claimable)
      bad.push(`${p.id} claimable ${big(p.accruedDps) + pending} ≠ ${claimable}`);
    const balance = await gfl.balanceOf(p.id, at);
    if (big(p.gfl) !== balance) bad.push(`${p.id} GFL ${p.gfl} ≠ balanceOf ${balance}`);
    if ((await em.providerAt(p.index, at)).toLowerCase() !== p.id) bad.push(`${p.id} index ${p.index}`);
    totalGfl += big(p.gfl);
  }
  if (totalGfl !== big(s.totalGfl)) bad.push(`Σ provider GFL ${totalGfl} ≠ state ${s.totalGfl}`);
  check(`Emission providers (info, claimable, GFL) ${tag}`, bad.length === 0, bad.join("; "));

  // daily and hourly aggregates add up to the totals and close at the post-state of the block
  bad = [];
  const rebalances = replay.entities("ProviderRebalance").length;
  const samples = replay.entities("CapacitySample").length;
  for (const [type, capType] of [
    ["EmissionDayData", "CapacityDayData"],
    ["EmissionHourData", "CapacityHourData"],
  ]) {
    const rows = replay.entities(type);
    if (rows.length === 0) continue;
    const start = (x) => x.date ?? x.periodStartUnix;
    const latest = rows.reduce((m, x) => (start(x) > start(m) ? x : m));
    for (const [f, total] of [
      ["mintedDps", minted],
      ["claimedDps", s.totalClaimedDps],
      ["replenishedDps", replenished],
      ["bountiesDps", s.totalBountiesDps],
      ["epochRewardsDps", s.totalEpochRewardsDps],
      ["accruedDps", s.totalAccruedDps],
      ["epochsClosed", s.epochsClosed],
      ["halvings", halvings.length],
    ])
      if (sum(rows, f) !== big(total)) bad.push(`${type} Σ ${f} ${sum(rows, f)} ≠ ${total}`);
    for (const [f, v] of [
      ["totalMintedDps", minted],
      ["rewardPoolDps", pool],
      ["keeperBudgetDps", budget],
    ])
      if (big(latest[f]) !== v) bad.push(`${type} close ${f} ${latest[f]} ≠ ${v}`);
    const caps = replay.entities(capType);
    if (sum(caps, "samples") !== BigInt(samples)) bad.push(`${capType} Σ samples ≠ ${samples}`);
    if (sum(caps, "rebalances") !== BigInt(rebalances)) bad.push(`${capType} Σ rebalances ≠ ${rebalances}`);
    const capLatest = caps.reduce((m, x) => (start(x) > start(m) ? x : m));
    if (big(capLatest.totalGfl) !== totalGfl) bad.push(`${capType} close totalGfl ${capLatest.totalGfl} ≠ ${totalGfl}`);
    const open = (await em.epochInfo(current, at)).totalGfl;
    if (big(capLatest.openEpochGfl) !== open) bad.push(`${capType} openEpochGfl ${capLatest.openEpochGfl} ≠ ${open}`);
  }
  check(`Emission daily and hourly aggregates ${tag}`, bad.length === 0, bad.join("; "));
}
