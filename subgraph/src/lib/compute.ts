// Compute-layer helpers: the ComputeStats singleton, providers, grades (the ComputeStandard's rules), tiers and the
// daily/hourly aggregates. Every value comes from event parameters (no eth_call).
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  ComputeDayData,
  ComputeHourData,
  ComputeStats,
  GradeThresholds,
  Provider,
  ProviderDayData,
  ProviderList,
} from "../../generated/schema";
import { getOrCreateAccount, SECONDS_PER_DAY, SECONDS_PER_HOUR, ZERO } from "./common";

export const STATS_ID = Bytes.fromUTF8("compute");
export const GRADES_ID = Bytes.fromUTF8("grades");
/** The registry stores Wh/CH in a uint96 (saturating). */
export const WH_CAP = BigInt.fromI32(2).pow(96).minus(BigInt.fromI32(1));

function wad(milli: i64): BigInt {
  return BigInt.fromI64(milli).times(BigInt.fromI64(1_000_000_000_000_000));
}

export function getOrCreateStats(): ComputeStats {
  let s = ComputeStats.load(STATS_ID);
  if (s == null) {
    s = new ComputeStats(STATS_ID);
    s.providerCount = 0;
    s.totalStakedDps = ZERO;
    s.totalUnbondingDps = ZERO;
    s.totalLiabilityCh = ZERO;
    s.totalMintedCh = ZERO;
    s.totalDeliveredCh = ZERO;
    s.totalBoughtBackCh = ZERO;
    s.totalAssignedCh = ZERO;
    s.totalSlashedDps = ZERO;
    s.totalCompensationDps = ZERO;
    s.totalAttestedCapacityPflopsWad = ZERO;
    s.attestationCount = 0;
    s.heartbeatCount = ZERO;
    s.assignmentCount = 0;
    s.minStakeDps = ZERO;
    s.collateralFactorWad = ZERO;
    s.mintHorizonSec = ZERO;
    s.unbondingDelaySec = ZERO;
    s.attestationValiditySec = ZERO;
    s.heartbeatIntervalSec = ZERO;
    s.uptimeWindowSec = ZERO;
    s.finderFeeBps = 0;
    s.redemptionPenaltyBps = 0;
    s.dpsPriceWad = ZERO;
    s.tierThresholdsDps = [];
  }
  return s;
}

/** Registered providers in registration order (written only by ProviderRegistered). */
export function providerIds(): Bytes[] {
  const l = ProviderList.load(STATS_ID);
  return l == null ? [] : l.providers;
}

export function appendProvider(provider: Bytes): void {
  let l = ProviderList.load(STATS_ID);
  if (l == null) {
    l = new ProviderList(STATS_ID);
    l.providers = [];
  }
  const ids = l.providers;
  ids.push(provider);
  l.providers = ids;
  l.save();
}

/** The thresholds in force; the ComputeStandard's initialize emits them, the defaults only cover a missing event. */
export function getThresholds(): GradeThresholds {
  let t = GradeThresholds.load(GRADES_ID);
  if (t == null) {
    t = new GradeThresholds(GRADES_ID);
    t.perfAWad = wad(1500);
    t.perfBWad = wad(1100);
    t.perfCWad = wad(900);
    t.uptime1Wad = wad(999);
    t.uptime2Wad = wad(990);
    t.uptime3Wad = wad(950);
    t.energyXWad = wad(500_000);
    t.energyYWad = wad(1_000_000);
    t.updatedAt = ZERO;
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

export function regrade(p: Provider, t: GradeThresholds): void {
  p.performanceGrade = performanceGrade(t, p.chPerHourWad);
  p.energyGrade = energyGrade(t, p.whPerChWad);
  p.reliabilityGrade = reliabilityGrade(t, p.uptimeWad);
}

export function newProvider(address: Bytes, event: ethereum.Event): Provider {
  getOrCreateAccount(address, event.block);
  const p = new Provider(address);
  p.account = address;
  p.index = ZERO;
  p.region = 0;
  p.workloadMask = ZERO;
  p.hardwareHash = Bytes.empty();
  p.hardwareUri = "";
  p.registeredAt = event.block.timestamp;
  p.askPriceWad = ZERO;
  p.stakedDps = ZERO;
  p.unbondingDps = ZERO;
  p.unbondReadyAt = ZERO;
  p.tier = 0;
  p.attestationNonce = ZERO;
  p.attestationCount = 0;
  p.workloadClass = 0;
  p.standardVersion = 0;
  p.correctedPflopsWad = ZERO;
  p.chPerHourWad = ZERO;
  p.whPerChWad = ZERO;
  p.capacityPflopsWad = ZERO;
  p.attestedAt = ZERO;
  p.attestationExpiresAt = ZERO;
  p.heartbeatCount = 0;
  p.lastHeartbeat = ZERO;
  p.lastSamplePflopsWad = ZERO;
  p.upSeconds = ZERO;
  p.trackedSeconds = ZERO;
  p.uptimeWad = ZERO;
  p.capacityRecordFailures = 0;
  p.liabilityCh = ZERO;
  p.mintedCh = ZERO;
  p.deliveredCh = ZERO;
  p.boughtBackCh = ZERO;
  p.assignedCh = ZERO;
  p.openAssignments = 0;
  p.completed = 0;
  p.failed = 0;
  p.slashCount = 0;
  p.slashedDps = ZERO;
  p.compensationPaidDps = ZERO;
  p.dutyLockedDps = ZERO;
  regrade(p, getThresholds());
  return p;
}

/** The provider of an event; hooks only reach registered providers, so a miss means a missed registration. */
export function loadProvider(address: Bytes, event: ethereum.Event): Provider {
  const p = Provider.load(address);
  if (p != null) return p;
  return newProvider(address, event);
}

/** Sets the provider's stake and moves the totals by the difference; tier from the current thresholds. */
export function setStake(p: Provider, stats: ComputeStats, stakedDps: BigInt, unbondingDps: BigInt): void {
  stats.totalStakedDps = stats.totalStakedDps.plus(stakedDps).minus(p.stakedDps);
  stats.totalUnbondingDps = stats.totalUnbondingDps.plus(unbondingDps).minus(p.unbondingDps);
  p.stakedDps = stakedDps;
  p.unbondingDps = unbondingDps;
  p.tier = tierOf(stats, stakedDps);
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

/** Adds `d` to the day and hour of `event` and closes both at the stats' current totals (call after updating them). */
export function updatePeriods(event: ethereum.Event, stats: ComputeStats, d: PeriodDelta): void {
  const ts = event.block.timestamp.toI32();
  const dayNumber = ts / SECONDS_PER_DAY;
  const hourNumber = ts / SECONDS_PER_HOUR;
  const liability = stats.totalLiabilityCh;

  const dayId = STATS_ID.concatI32(dayNumber);
  let day = ComputeDayData.load(dayId);
  if (day == null) {
    day = new ComputeDayData(dayId);
    day.date = dayNumber * SECONDS_PER_DAY;
    day.chMinted = ZERO;
    day.chBoughtBack = ZERO;
    day.chDelivered = ZERO;
    day.liabilityHigh = liability;
    day.liabilityLow = liability;
    day.slashedDps = ZERO;
    day.heartbeatCount = 0;
    day.capacitySampleSumPflopsWad = ZERO;
    day.attestationCount = 0;
    day.newProviders = 0;
  }
  day.chMinted = day.chMinted.plus(d.chMinted);
  day.chBoughtBack = day.chBoughtBack.plus(d.chBoughtBack);
  day.chDelivered = day.chDelivered.plus(d.chDelivered);
  day.slashedDps = day.slashedDps.plus(d.slashedDps);
  day.heartbeatCount += d.heartbeats;
  day.capacitySampleSumPflopsWad = day.capacitySampleSumPflopsWad.plus(d.sample);
  day.attestationCount += d.attestations;
  day.newProviders += d.newProviders;
  day.liabilityCh = liability;
  if (liability.gt(day.liabilityHigh)) day.liabilityHigh = liability;
  if (liability.lt(day.liabilityLow)) day.liabilityLow = liability;
  day.stakedDps = stats.totalStakedDps;
  day.attestedCapacityPflopsWad = stats.totalAttestedCapacityPflopsWad;
  day.save();

  const hourId = STATS_ID.concatI32(hourNumber);
  let hour = ComputeHourData.load(hourId);
  if (hour == null) {
    hour = new ComputeHourData(hourId);
    hour.periodStartUnix = hourNumber * SECONDS_PER_HOUR;
    hour.chMinted = ZERO;
    hour.chBoughtBack = ZERO;
    hour.chDelivered = ZERO;
    hour.liabilityHigh = liability;
    hour.liabilityLow = liability;
    hour.slashedDps = ZERO;
    hour.heartbeatCount = 0;
    hour.capacitySampleSumPflopsWad = ZERO;
    hour.attestationCount = 0;
    hour.newProviders = 0;
  }
  hour.chMinted = hour.chMinted.plus(d.chMinted);
  hour.chBoughtBack = hour.chBoughtBack.plus(d.chBoughtBack);
  hour.chDelivered = hour.chDelivered.plus(d.chDelivered);
  hour.slashedDps = hour.slashedDps.plus(d.slashedDps);
  hour.heartbeatCount += d.heartbeats;
  hour.capacitySampleSumPflopsWad = hour.capacitySampleSumPflopsWad.plus(d.sample);
  hour.attestationCount += d.attestations;
  hour.newProviders += d.newProviders;
  hour.liabilityCh = liability;
  if (liability.gt(hour.liabilityHigh)) hour.liabilityHigh = liability;
  if (liability.lt(hour.liabilityLow)) hour.liabilityLow = liability;
  hour.stakedDps = stats.totalStakedDps;
  hour.attestedCapacityPflopsWad = stats.totalAttestedCapacityPflopsWad;
  hour.save();
}

/** The provider's day: heartbeat samples and liability at the end of the day. */
export function updateProviderDay(
  event: ethereum.Event,
  p: Provider,
  sample: BigInt,
  beat: boolean,
  minted: BigInt,
): void {
  const dayNumber = event.block.timestamp.toI32() / SECONDS_PER_DAY;
  const id = p.id.concatI32(dayNumber);
  let d = ProviderDayData.load(id);
  if (d == null) {
    d = new ProviderDayData(id);
    d.provider = p.id;
    d.date = dayNumber * SECONDS_PER_DAY;
    d.heartbeatCount = 0;
    d.capacitySampleSumPflopsWad = ZERO;
    d.lastSamplePflopsWad = ZERO;
    d.chMinted = ZERO;
  }
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
