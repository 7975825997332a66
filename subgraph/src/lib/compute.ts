// Compute-layer helpers: the ComputeStats singleton, providers, grades (the ComputeStandard's rules), tiers and the
// daily/hourly aggregates. Every value comes from event parameters (no eth_call).
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { ComputeStats, GradeThresholds, Provider, ProviderDayData } from "../../generated/schema";
import { initGradeThresholds, initProvider, loadOrInitComputeStats } from "../../generated/defaults";
import { Series } from "./buckets";
import { getOrCreateAccount, ZERO } from "./common";

export const STATS_ID = Bytes.fromUTF8("compute");
export const GRADES_ID = Bytes.fromUTF8("grades");
/** The registry stores Wh/CH in a uint96 (saturating). */
export const WH_CAP = BigInt.fromI32(2).pow(96).minus(BigInt.fromI32(1));

function wad(milli: i64): BigInt {
  return BigInt.fromI64(milli).times(BigInt.fromI64(1_000_000_000_000_000));
}

export function getOrCreateStats(): ComputeStats {
  return loadOrInitComputeStats(STATS_ID);
}

/** The thresholds in force; the ComputeStandard's initialize emits them, the defaults only cover a missing event. */
export function getThresholds(): GradeThresholds {
  let t = GradeThresholds.load(GRADES_ID);
  if (t == null) {
    t = initGradeThresholds(GRADES_ID);
    t.perfAWad = wad(1500);
    t.perfBWad = wad(1100);
    t.perfCWad = wad(900);
    t.uptime1Wad = wad(999);
    t.uptime2Wad = wad(990);
    t.uptime3Wad = wad(950);
    t.energyXWad = wad(500_000);
    t.energyYWad = wad(1_000_000);
  }
  return t;
}

/** IComputeStandard.performanceGrade: rate ≥ A → A, ≥ B → B, ≥ C → C, else D. */
export function performanceGrade(t: GradeThresholds, chPerHourWad: BigInt): string {
  if (chPerHourWad.ge(t.perfAWad)) return "A";
  if (chPerHourWad.ge(t.perfBWad)) return "B";
  if (chPerHourWad.ge(t.perfCWad)) return "C";
  return "D";
}

/** IComputeStandard.reliabilityGrade: uptime > 1 → R1, ≥ 2 → R2, ≥ 3 → R3, else R4. */
export function reliabilityGrade(t: GradeThresholds, uptimeWad: BigInt): string {
  if (uptimeWad.gt(t.uptime1Wad)) return "R1";
  if (uptimeWad.ge(t.uptime2Wad)) return "R2";
  if (uptimeWad.ge(t.uptime3Wad)) return "R3";
  return "R4";
}

/** IComputeStandard.energyGrade: Wh/CH ≤ X → X, ≤ Y → Y, else Z. */
export function energyGrade(t: GradeThresholds, whPerChWad: BigInt): string {
  if (whPerChWad.le(t.energyXWad)) return "X";
  if (whPerChWad.le(t.energyYWad)) return "Y";
  return "Z";
}

/** ProviderRegistry._tier: the number of thresholds (tiers 1..4) the stake reaches. */
export function tierOf(stats: ComputeStats, stakedDps: BigInt): i32 {
  const th = stats.tierThresholdsDps;
  let t = 0;
  while (t < th.length && t < 4 && stakedDps.ge(th[t])) t++;
  return t;
}

/** Performance and energy grades of the provider's attested rates under `t` (the thresholds in force now). */
export function gradeAttestation(p: Provider, t: GradeThresholds, event: ethereum.Event): void {
  p.performanceGrade = performanceGrade(t, p.chPerHourWad);
  p.energyGrade = energyGrade(t, p.whPerChWad);
  p.gradedAt = event.block.timestamp;
}

export function newProvider(address: Bytes, event: ethereum.Event): Provider {
  getOrCreateAccount(address, event.block);
  const p = initProvider(address);
  p.account = address;
  p.hardwareHash = Bytes.empty();
  p.hardwareUri = "";
  p.registeredAt = event.block.timestamp;
  p.tieredAt = event.block.timestamp;
  p.repPct = BigInt.fromI32(100);
  p.reliabilityGrade = reliabilityGrade(getThresholds(), ZERO);
  gradeAttestation(p, getThresholds(), event);
  return p;
}

/** The provider of an event; hooks only reach registered providers, so a miss means a missed registration. */
export function loadProvider(address: Bytes, event: ethereum.Event): Provider {
  const p = Provider.load(address);
  if (p != null) return p;
  return newProvider(address, event);
}

/**
 * Sets the provider's stake and moves the totals by the difference; the tier is `tier` when the event carries it,
 * else (-1) the one the thresholds in force give.
 */
export function setStake(
  p: Provider,
  stats: ComputeStats,
  stakedDps: BigInt,
  unbondingDps: BigInt,
  tier: i32,
  event: ethereum.Event,
): void {
  stats.totalStakedDps = stats.totalStakedDps.plus(stakedDps).minus(p.stakedDps);
  stats.totalUnbondingDps = stats.totalUnbondingDps.plus(unbondingDps).minus(p.unbondingDps);
  p.stakedDps = stakedDps;
  p.unbondingDps = unbondingDps;
  p.tier = tier >= 0 ? tier : tierOf(stats, stakedDps);
  p.tieredAt = event.block.timestamp;
}

/** Sets the provider's liability (post-state from the event) and moves Σ liabilities by the difference. */
export function setLiability(p: Provider, stats: ComputeStats, liabilityCh: BigInt): void {
  stats.totalLiabilityCh = stats.totalLiabilityCh.plus(liabilityCh).minus(p.liabilityCh);
  p.liabilityCh = liabilityCh;
}

/** What one event adds to the period aggregates. */
export class PeriodDelta {
  chMinted: BigInt = ZERO;
  chBoughtBack: BigInt = ZERO;
  chDelivered: BigInt = ZERO;
  slashedDps: BigInt = ZERO;
  heartbeats: i32 = 0;
  sample: BigInt = ZERO;
  attestations: i32 = 0;
  newProviders: i32 = 0;
}

/** ComputeDayData / ComputeHourData (one series for the compute layer) */
const SERIES = new Series("ComputeDayData", "ComputeHourData", "date", "periodStartUnix", "");

/** Adds `d` to the day and hour of `event` and closes both at the stats' current totals (call after updating them). */
export function updatePeriods(event: ethereum.Event, stats: ComputeStats, d: PeriodDelta): void {
  const liability = stats.totalLiabilityCh;
  const buckets = SERIES.open(STATS_ID, event);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.add("chMinted", d.chMinted).add("chBoughtBack", d.chBoughtBack).add("chDelivered", d.chDelivered);
    b.add("slashedDps", d.slashedDps).add("capacitySampleSumPflopsWad", d.sample);
    b.count("heartbeatCount", d.heartbeats).count("attestationCount", d.attestations);
    b.count("newProviders", d.newProviders);
    b.set("liabilityCh", liability).range("liabilityHigh", "liabilityLow", liability, liability);
    b.set("stakedDps", stats.totalStakedDps).set("attestedCapacityPflopsWad", stats.totalAttestedCapacityPflopsWad);
    b.save();
  }
}

/** ProviderDayData (daily only) */
const PROVIDER_DAYS = new Series("ProviderDayData", "", "date", "", "provider");

/** The provider's day: heartbeat samples and liability at the end of the day. */
export function updateProviderDay(
  event: ethereum.Event,
  p: Provider,
  sample: BigInt,
  beat: boolean,
  minted: BigInt,
): void {
  const d = changetype<ProviderDayData>(PROVIDER_DAYS.open(p.id, event)[0].e);
  if (beat) {
    d.heartbeatCount += 1;
    d.capacitySampleSumPflopsWad = d.capacitySampleSumPflopsWad.plus(sample);
    d.lastSamplePflopsWad = sample;
  }
  d.chMinted = d.chMinted.plus(minted);
  d.uptimeWad = p.uptimeWad;
  d.liabilityCh = p.liabilityCh;
  d.save();
}
