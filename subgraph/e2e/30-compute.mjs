// OPS-03 checks for the compute layer (ComputeStandard, ProviderRegistry, ProviderMatcher). Signers 8 and 9 are
// the providers (0-7 belong to the other parts); the deployer (signer 0) is the local ATTESTER (compute deploy
// module, useMocks) and ADMIN, and grants itself COMPUTE and SLASHER to drive the task-registry hooks.
import fs from "node:fs";
import { Contract, ContractFactory, ZeroAddress } from "ethers";
import { domainOf, signAttestation } from "@chx/sdk";

const STATS = "0x" + Buffer.from("compute").toString("hex");
const GRADES = "0x" + Buffer.from("grades").toString("hex");
const WAD = 10n ** 18n;
const PERF = ["A", "B", "C", "D"];
const REL = ["R1", "R2", "R3", "R4"];
const ENERGY = ["X", "Y", "Z"];

export async function attest(ctx, attester, provider, { avg, capacity, power }) {
  const reg = ctx.as(attester)("ProviderRegistry");
  const std = ctx.as(attester)("ComputeStandard");
  const block = await ctx.provider.getBlock("latest");
  const message = {
    provider: provider.address,
    workloadClass: 1,
    standardVersion: Number(await std.latestVersion(1)),
    avgPflopsWad: avg,
    factorsWad: [WAD, WAD, WAD],
    capacityPflopsWad: capacity,
    powerWattsWad: power,
    nonce: await reg.attestationNonce(provider.address),
    deadline: BigInt(block.timestamp) + 3600n,
  };
  const domain = await domainOf(ctx.provider, "ProviderRegistry", await reg.getAddress());
  const signature = await signAttestation(attester, domain, message);
  await ctx.send(reg.attest(message, signature));
}

/**
 * Redemption failures need an index price. Keeps the deployed ComputePriceOracle when it answers; otherwise (no
 * oracle module, or no price yet) points the registry at a MockPriceIndex at 2 USDC per CH (ADMIN is the deployer).
 */
async function usablePriceOracle(ctx, deployer) {
  const reg = ctx.as(deployer)("ProviderRegistry");
  const current = await reg.priceOracle();
  if (current !== ZeroAddress) {
    try {
      await new Contract(current, ["function indexPrice() view returns (uint256)"], ctx.provider).indexPrice();
      return;
    } catch {
      /* no price: use the mock */
    }
  }
  const artifact = JSON.parse(
    fs.readFileSync(new URL("../../artifacts/contracts/mocks/MockPriceIndex.sol/MockPriceIndex.json", import.meta.url)),
  );
  const mock = await new ContractFactory(artifact.abi, artifact.bytecode, deployer).deploy(ctx.wad(2));
  await mock.waitForDeployment();
  await ctx.send(reg.setPriceOracle(await mock.getAddress()));
}

/**
 * Phase 1: two providers register, stake (12 000 / 2 000 DPS), are attested (class 1: 0.5 PFLOPS → 1.60 CH/h,
 * grade A, 700 W → X; 0.3 PFLOPS → 0.96 CH/h, C, 2 000 W → Z), beat twice an hour apart and mint 100 / 50 CH.
 * Phase 2 (next day): buy-back, a redemption assigned and delivered, task outcomes, a slash with a finder, an unbond,
 * a late heartbeat (uptime drops), new grade thresholds (A needs 2.0) and matcher limits. Phase 3: 3 silent hours.
 */
export async function scenario(ctx) {
  const { Roles, wad, send, mine, checkpoint } = ctx;
  const deployer = ctx.signers[0];
  const [p8, p9] = [ctx.signers[8], ctx.signers[9]];
  const d = ctx.as(deployer);
  const [a, b] = [ctx.as(p8), ctx.as(p9)];
  const registry = await d("ProviderRegistry").getAddress();

  await send(d("DPSToken").transfer(p8.address, wad(20000)));
  await send(d("DPSToken").transfer(p9.address, wad(5000)));
  await send(a("ProviderRegistry").register(1, 0b10n, "0x" + "a8".repeat(32), "ipfs://provider-8"));
  await send(b("ProviderRegistry").register(2, 0b110n, "0x" + "a9".repeat(32), "ipfs://provider-9"));
  await send(a("ProviderRegistry").setAskPrice(wad("2.5")));
  await send(a("DPSToken").approve(registry, wad(12000)));
  await send(a("ProviderRegistry").stake(wad(12000)));
  await send(b("DPSToken").approve(registry, wad(2000)));
  await send(b("ProviderRegistry").stake(wad(2000)));
  await attest(ctx, deployer, p8, { avg: wad("0.5"), capacity: wad(2), power: wad(700) });
  await attest(ctx, deployer, p9, { avg: wad("0.3"), capacity: wad(1), power: wad(2000) });
  await send(a("ProviderRegistry").heartbeat(wad("1.5")));
  await send(b("ProviderRegistry").heartbeat(wad(3)));
  await mine(3600);
  await send(a("ProviderRegistry").heartbeat(wad("1.8")));
  await send(b("ProviderRegistry").heartbeat(wad("0.9")));
  await send(a("ProviderRegistry").mintCH(wad(100), p8.address));
  await send(b("ProviderRegistry").mintCH(wad(50), p9.address));
  await checkpoint();

  await mine(86_400);
  await send(d("AccessManager").grantRole(Roles.COMPUTE, deployer.address, 0));
  await send(d("AccessManager").grantRole(Roles.PROVIDER_SLASHER, deployer.address, 0));
  await send(a("ProviderRegistry").heartbeat(wad(2)));
  await send(a("ProviderRegistry").buyBack(wad(30)));
  const now = (await ctx.provider.getBlock("latest")).timestamp;
  await send(d("ProviderRegistry").assignRedemption(p8.address, wad(20), now + 3600));
  await send(a("CHToken").transfer(registry, wad(20)));
  await send(d("ProviderRegistry").confirmDelivery(1));
  await send(d("ProviderRegistry").assignRedemption(p9.address, wad(10), now + 3600));
  await send(d("ProviderRegistry").recordTaskOutcome(p8.address, true));
  await send(d("ProviderRegistry").recordTaskOutcome(p8.address, true));
  await send(d("ProviderRegistry").recordTaskOutcome(p9.address, false));
  await send(d("ProviderRegistry").slash(p9.address, wad(500), deployer.address, "0x" + "5a".repeat(32)));
  await send(b("ProviderRegistry").requestUnbond(wad(300)));
  await send(b("ProviderRegistry").heartbeat(wad(1)));
  const t = await d("ComputeStandard").gradeThresholds();
  await send(
    d("ComputeStandard").setGradeThresholds({
      perfAWad: wad(2),
      perfBWad: t.perfBWad,
      perfCWad: t.perfCWad,
      uptime1Wad: t.uptime1Wad,
      uptime2Wad: t.uptime2Wad,
      uptime3Wad: t.uptime3Wad,
      energyXWad: t.energyXWad,
      energyYWad: t.energyYWad,
    }),
  );
  await send(d("ProviderMatcher").setLimits(wad(40000), 80, 16));
  await usablePriceOracle(ctx, deployer);
  await checkpoint();

  // Phase 3: three silent hours; the registry's views decay uptime (the compare recomputes it from indexed state).
  // Provider 9 missed redemption 2: the failure compensates the client (10 CH × 2 USDC × 1.1 / 1 USDC = 22 DPS).
  await mine(3 * 3600);
  await send(d("ProviderRegistry").reportDeliveryFailure(2, ctx.signers[7].address));
  await checkpoint();
}

/** The registry's uptime view: the indexed counters plus a silent gap since the last beat (ProviderRegistry._uptime). */
function uptimeAt(p, stats, now) {
  let up = BigInt(p.upSeconds);
  let tracked = BigInt(p.trackedSeconds);
  const last = BigInt(p.lastHeartbeat);
  if (last !== 0n) {
    const interval = BigInt(stats.heartbeatIntervalSec);
    const window = BigInt(stats.uptimeWindowSec);
    const gap = now - last;
    if (gap > interval + interval / 4n) {
      up += interval;
      tracked += gap;
      while (tracked > window && window !== 0n) {
        up /= 2n;
        tracked /= 2n;
      }
    }
  }
  return tracked === 0n ? 0n : (up * WAD) / tracked;
}

/** IComputeStandard.performanceGrade / energyGrade and ProviderRegistry._tier, from indexed inputs. */
function perfGrade(t, rate) {
  const r = BigInt(rate);
  return r >= BigInt(t.perfAWad) ? "A" : r >= BigInt(t.perfBWad) ? "B" : r >= BigInt(t.perfCWad) ? "C" : "D";
}
function energyGrade(t, wh) {
  const w = BigInt(wh);
  return w <= BigInt(t.energyXWad) ? "X" : w <= BigInt(t.energyYWad) ? "Y" : "Z";
}
function tierOf(thresholds, staked) {
  let t = 0;
  while (t < 4 && t < (thresholds ?? []).length && BigInt(staked) >= BigInt(thresholds[t])) t++;
  return t;
}

function reliability(t, uptime) {
  if (uptime > BigInt(t.uptime1Wad)) return "R1";
  if (uptime >= BigInt(t.uptime2Wad)) return "R2";
  if (uptime >= BigInt(t.uptime3Wad)) return "R3";
  return "R4";
}

/** ProviderRegistry._mintable from indexed state (0 when the attestation expired or the stake is below minimum). */
function mintableAt(p, stats, now) {
  if (BigInt(p.attestationExpiresAt) < now) return 0n;
  const staked = BigInt(p.stakedDps);
  if (staked < BigInt(stats.minStakeDps)) return 0n;
  const rateCap = (BigInt(p.chPerHourWad) * BigInt(stats.mintHorizonSec)) / 3600n;
  const collateralCap = (staked * BigInt(stats.collateralFactorWad)) / WAD;
  const cap = rateCap < collateralCap ? rateCap : collateralCap;
  const liability = BigInt(p.liabilityCh);
  return cap > liability ? cap - liability : 0n;
}

export async function compare(ctx) {
  const { replay, at, tag, eq, check, contract } = ctx;
  if (!ctx.record.contracts.ProviderRegistry) return;
  const reg = contract("ProviderRegistry");
  const std = contract("ComputeStandard");
  const stats = replay.entity("ComputeStats", STATS) ?? {};
  const grades = replay.entity("GradeThresholds", GRADES) ?? {};
  // registration order from the providers' own index (no list entity: registering does not rewrite a growing list)
  const list = replay
    .entities("Provider")
    .sort((x, y) => (BigInt(x.index) < BigInt(y.index) ? -1 : 1))
    .map((x) => x.id);
  const ts = BigInt((await reg.runner.getBlock(at.blockTag)).timestamp);

  // providers: list, then every field the registry reports
  const count = await reg.providerCount(at);
  eq(`compute providerCount ${tag}`, stats.providerCount ?? 0, count);
  const chainList = count === 0n ? [] : (await reg.providersPage(0, count, at)).map((x) => x.toLowerCase());
  check(
    `compute provider list order ${tag}`,
    JSON.stringify(list) === JSON.stringify(chainList),
    `${list} ≠ ${chainList}`,
  );
  const bad = [];
  let staleGrades = 0;
  let sumLiability = 0n;
  let sumStaked = 0n;
  let sumUnbonding = 0n;
  let sumCapacity = 0n;
  let sumAssigned = 0n;
  const f = (p, i, field, chain, indexed = p[field]) => {
    if (String(indexed) !== String(chain)) bad.push(`${p.id} ${field}: ${indexed} ≠ ${chain}`);
  };
  for (const addr of chainList) {
    const p = replay.entity("Provider", addr);
    if (!p) {
      bad.push(`${addr} not indexed`);
      continue;
    }
    const i = await reg.providerInfo(addr, at);
    for (const k of [
      "index",
      "region",
      "workloadMask",
      "registeredAt",
      "attestationNonce",
      "askPriceWad",
      "stakedDps",
      "unbondingDps",
      "unbondReadyAt",
      "workloadClass",
      "standardVersion",
      "chPerHourWad",
      "capacityPflopsWad",
      "attestedAt",
      "attestationExpiresAt",
      "whPerChWad",
      "lastHeartbeat",
      "lastSamplePflopsWad",
      "liabilityCh",
      "mintedCh",
      "deliveredCh",
      "boughtBackCh",
      "assignedCh",
      "openAssignments",
      "completed",
      "failed",
      "slashCount",
      "slashedDps",
    ])
      f(p, i, k, i[k]);
    // Grades and tier are stored as of the provider's own last event; the registry's views re-derive them under the
    // thresholds in force. So: the derivation from the indexed inputs and current thresholds equals the view, and
    // the stored value equals the view unless the thresholds changed after the provider's last event.
    const gradesCurrent = BigInt(p.gradedAt) >= BigInt(grades.updatedAt ?? 0);
    const tierCurrent = BigInt(p.tieredAt) >= BigInt(stats.tierThresholdsUpdatedAt ?? 0);
    f(p, i, "performanceGrade (derived)", PERF[Number(i.performanceGrade)], perfGrade(grades, p.chPerHourWad));
    f(p, i, "energyGrade (derived)", ENERGY[Number(i.energyGrade)], energyGrade(grades, p.whPerChWad));
    f(p, i, "tier (derived)", i.tier, tierOf(stats.tierThresholdsDps, p.stakedDps));
    if (gradesCurrent) {
      f(p, i, "performanceGrade", PERF[Number(i.performanceGrade)]);
      f(p, i, "energyGrade", ENERGY[Number(i.energyGrade)]);
    }
    if (tierCurrent) f(p, i, "tier", i.tier);
    if (!gradesCurrent) staleGrades++;
    // reliability: the view decays a silent provider; the indexed counters give the same number and grade
    const uptime = uptimeAt(p, stats, ts);
    f(p, i, "uptimeWad (decayed)", i.uptimeWad, uptime);
    f(p, i, "reliabilityGrade (decayed)", REL[Number(i.reliabilityGrade)], reliability(grades, uptime));
    if (ts - BigInt(p.lastHeartbeat) <= (BigInt(stats.heartbeatIntervalSec) * 5n) / 4n) {
      f(p, i, "uptimeWad", i.uptimeWad);
      f(p, i, "reliabilityGrade", REL[Number(i.reliabilityGrade)]);
    }
    f(p, i, "mintableCh (derived)", i.mintableCh, mintableAt(p, stats, ts));
    f(p, i, "liabilityOf", await reg.liabilityOf(addr, at), p.liabilityCh);
    const identity = BigInt(p.liabilityCh) + BigInt(p.deliveredCh) + BigInt(p.boughtBackCh);
    if (identity !== BigInt(p.mintedCh)) bad.push(`${addr} minted ${p.mintedCh} ≠ liability+delivered+boughtBack`);
    sumLiability += i.liabilityCh;
    sumStaked += i.stakedDps;
    sumUnbonding += i.unbondingDps;
    sumCapacity += i.capacityPflopsWad;
    sumAssigned += i.assignedCh;
  }
  // the scenario changes the grade thresholds after the providers' attestations: the stale path must be taken
  if (ctx.block === ctx.lastCheckpoint && staleGrades === 0) bad.push("no provider graded before the last threshold change");
  check(
    `compute providers: stake, tier, grades, uptime, liability, reputation ${tag}`,
    bad.length === 0,
    bad.join("; "),
  );

  // totals: Σ liabilities (TSK-04) and the CH supply
  eq(`compute Σ liabilities ${tag}`, stats.totalLiabilityCh, sumLiability);
  eq(`compute total staked ${tag}`, stats.totalStakedDps, sumStaked);
  eq(`compute total unbonding ${tag}`, stats.totalUnbondingDps, sumUnbonding);
  eq(`compute total attested capacity ${tag}`, stats.totalAttestedCapacityPflopsWad, sumCapacity);
  eq(`compute total assigned ${tag}`, stats.totalAssignedCh, sumAssigned);
  // CH outside the registry: the token part mints/burns CH directly as a CH_MINTER; every other CH mint/burn is
  // in a transaction with a registry event. CH supply = Σ liabilities + that direct CH.
  const registryTxs = new Set(
    [
      ...replay.entities("ProviderCHMint"),
      ...replay.entities("CHBuyBack"),
      ...replay.entities("RedemptionEvent").filter((e) => e.kind === "delivered"),
    ].map((e) => e.transactionHash),
  );
  const direct =
    replay
      .entities("CHMint")
      .filter((e) => !registryTxs.has(e.transactionHash))
      .reduce((s, e) => s + BigInt(e.amount), 0n) -
    replay
      .entities("CHBurn")
      .filter((e) => !registryTxs.has(e.transactionHash))
      .reduce((s, e) => s + BigInt(e.amount), 0n);
  eq(
    `compute CH outstanding = Σ liabilities + direct CH_MINTER CH ${tag}`,
    BigInt(stats.totalLiabilityCh ?? 0) + direct,
    await contract("CHToken").totalSupply(at),
  );

  // daily / hourly aggregates add up and close at the chain's totals
  const agg = [];
  for (const type of ["ComputeDayData", "ComputeHourData"]) {
    const rows = replay.entities(type);
    if (rows.length === 0) continue;
    const sum = (k) => rows.reduce((s, x) => s + BigInt(x[k]), 0n);
    const start = (x) => x.date ?? x.periodStartUnix;
    const latest = rows.reduce((m, x) => (start(x) > start(m) ? x : m));
    for (const [k, total] of [
      ["chMinted", stats.totalMintedCh],
      ["chBoughtBack", stats.totalBoughtBackCh],
      ["chDelivered", stats.totalDeliveredCh],
      ["slashedDps", stats.totalSlashedDps],
      ["heartbeatCount", stats.heartbeatCount],
      ["attestationCount", stats.attestationCount],
      ["newProviders", stats.providerCount],
    ])
      if (sum(k) !== BigInt(total)) agg.push(`${type} Σ${k} ${sum(k)} ≠ ${total}`);
    if (BigInt(latest.liabilityCh) !== sumLiability)
      agg.push(`${type} close liability ${latest.liabilityCh} ≠ ${sumLiability}`);
    if (BigInt(latest.stakedDps) !== sumStaked) agg.push(`${type} close stake ${latest.stakedDps} ≠ ${sumStaked}`);
    if (BigInt(latest.attestedCapacityPflopsWad) !== sumCapacity) agg.push(`${type} close capacity`);
    for (const x of rows)
      if (BigInt(x.liabilityLow) > BigInt(x.liabilityCh) || BigInt(x.liabilityHigh) < BigInt(x.liabilityCh))
        agg.push(`${type} ${start(x)} high/low`);
  }
  check(`compute daily and hourly aggregates ${tag}`, agg.length === 0, agg.join("; "));

  // configuration: grade thresholds, references, params, tiers, matcher
  const cfg = [];
  const t = await std.gradeThresholds(at);
  for (const k of [
    "perfAWad",
    "perfBWad",
    "perfCWad",
    "uptime1Wad",
    "uptime2Wad",
    "uptime3Wad",
    "energyXWad",
    "energyYWad",
  ])
    if (String(grades[k]) !== String(t[k])) cfg.push(`threshold ${k} ${grades[k]} ≠ ${t[k]}`);
  for (const w of replay.entities("WorkloadClass")) {
    const latest = await std.latestVersion(w.workloadClass, at);
    if (BigInt(w.latestVersion) !== latest) cfg.push(`class ${w.workloadClass} latest ${w.latestVersion} ≠ ${latest}`);
  }
  for (const r of replay.entities("ReferenceSystem")) {
    const chain = await std.referenceSystem(r.workloadClass, r.version, at);
    if (BigInt(r.refPflopsWad) !== chain.refPflopsWad) cfg.push(`ref ${r.workloadClass}/${r.version}`);
    if (JSON.stringify(r.weightsWad) !== JSON.stringify(chain.weightsWad.map(String)))
      cfg.push(`weights ${r.workloadClass}/${r.version}`);
  }
  const params = await reg.params(at);
  for (const k of Object.keys(params.toObject()))
    if (String(stats[k]) !== String(params[k])) cfg.push(`param ${k} ${stats[k]} ≠ ${params[k]}`);
  const tiers = (await reg.tierThresholds(at)).map(String);
  if (JSON.stringify(stats.tierThresholdsDps) !== JSON.stringify(tiers)) cfg.push(`tiers ${stats.tierThresholdsDps}`);
  const recorder = await reg.capacityRecorder(at);
  if ((stats.capacityRecorder ?? ZeroAddress.toLowerCase()) !== recorder.toLowerCase()) cfg.push(`recorder`);
  const oracle = await reg.priceOracle(at);
  if ((stats.priceOracle ?? ZeroAddress.toLowerCase()) !== oracle.toLowerCase()) cfg.push(`oracle`);
  if (ctx.record.contracts.ProviderMatcher) {
    const m = replay.entity("MatcherConfig", ctx.address("ProviderMatcher")) ?? {};
    const mw = await contract("ProviderMatcher").weights(at);
    for (const k of ["region", "price", "uptime", "reputation", "capacity", "slashRate", "stake", "randomness"])
      if (String(m[`${k}Bps`]) !== String(mw[k])) cfg.push(`matcher ${k}`);
    const [norm, page, pick] = await contract("ProviderMatcher").limits(at);
    if (`${m.stakeNormDps}/${m.maxPage}/${m.maxPick}` !== `${norm}/${page}/${pick}`) cfg.push(`matcher limits`);
  }
  for (const r of replay.entities("RedemptionAssignment")) {
    const chain = await reg.assignment(r.assignmentId, at);
    const status = ["none", "open", "delivered", "failed"][Number(chain.status)];
    if (status !== r.status || BigInt(r.chAmount) !== chain.chAmount)
      cfg.push(`assignment ${r.assignmentId} ${r.status} ≠ ${status}`);
  }
  check(`compute configuration, references and assignments ${tag}`, cfg.length === 0, cfg.join("; "));
}
