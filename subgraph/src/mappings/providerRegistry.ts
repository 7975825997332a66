// ProviderRegistry: providers, stake, attestations, heartbeats, CH liability (TSK-04: Σ liabilities = CH supply),
// reputation, slashing and redemptions. Every value is the event's post-state (or exact arithmetic on stored
// entities for the assignment reservation): no eth_call.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  AskPriceSet,
  Attested,
  CapacityRecorderSet,
  CapacityRecordFailed,
  CHBoughtBack,
  DeliveryConfirmed,
  DeliveryFailed,
  Heartbeat,
  ParamsSet,
  PriceOracleSet,
  ProviderCHMinted,
  ProviderProfileUpdated,
  ProviderRegistered,
  RedemptionAssigned,
  ReputationChanged,
  Slashed,
  DrawCandidateListed,
  RedemptionReleased,
  StakeLocked,
  StakeReleased,
  Staked,
  TaskOutcomeRecorded,
  TierThresholdsSet,
  UnbondRequested,
  Withdrawn,
} from "../../generated/ProviderRegistry/ProviderRegistry";
import {
  AskPriceChange,
  Attestation,
  CapacityRecordFailure,
  CHBuyBack,
  ComputeConfigChange,
  ComputeStats,
  Provider,
  ProviderCHMint,
  ProviderHeartbeat,
  ProviderProfileChange,
  RedemptionAssignment,
  RedemptionEvent,
  Slash,
  StakeChange,
  TaskOutcome,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import {
  energyGrade,
  getOrCreateStats,
  getThresholds,
  loadProvider,
  newProvider,
  performanceGrade,
  PeriodDelta,
  gradeAttestation,
  reliabilityGrade,
  setLiability,
  setStake,
  tierOf,
  updatePeriods,
  updateProviderDay,
  WH_CAP,
} from "../lib/compute";
import { initRedemptionAssignment } from "../../generated/defaults";
import { count, earn } from "../lib/earnings";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function profileChange(
  event: ethereum.Event,
  provider: Bytes,
  kind: string,
  region: i32,
  mask: BigInt,
  hash: Bytes,
  uri: string,
): void {
  const e = new ProviderProfileChange(eventId(event));
  e.provider = provider;
  e.kind = kind;
  e.region = region;
  e.workloadMask = mask;
  e.hardwareHash = hash;
  e.hardwareUri = uri;
  stamp(e, event);
  e.save();
}

export function handleProviderRegistered(event: ProviderRegistered): void {
  const a = event.params;
  const p = newProvider(a.provider, event);
  p.index = a.index;
  p.region = a.region;
  p.workloadMask = a.workloadMask;
  p.hardwareHash = a.hardwareHash;
  p.hardwareUri = a.hardwareUri;
  const stats = getOrCreateStats();
  p.tier = tierOf(stats, ZERO);
  p.save();
  stats.providerCount += 1;
  stats.save();
  profileChange(event, a.provider, "registered", a.region, a.workloadMask, a.hardwareHash, a.hardwareUri);
  const d = new PeriodDelta();
  d.newProviders = 1;
  updatePeriods(event, stats, d);
}

export function handleProviderProfileUpdated(event: ProviderProfileUpdated): void {
  const a = event.params;
  const p = loadProvider(a.provider, event);
  p.region = a.region;
  p.workloadMask = a.workloadMask;
  p.hardwareHash = a.hardwareHash;
  p.hardwareUri = a.hardwareUri;
  p.save();
  profileChange(event, a.provider, "updated", a.region, a.workloadMask, a.hardwareHash, a.hardwareUri);
}

export function handleAskPriceSet(event: AskPriceSet): void {
  const p = loadProvider(event.params.provider, event);
  p.askPriceWad = event.params.askPriceWad;
  p.save();
  const e = new AskPriceChange(eventId(event));
  e.provider = p.id;
  e.askPriceWad = event.params.askPriceWad;
  stamp(e, event);
  e.save();
}

function stakeChange(
  event: ethereum.Event,
  p: Provider,
  kind: string,
  amount: BigInt,
  readyAt: BigInt | null,
  stats: ComputeStats,
): void {
  const e = new StakeChange(eventId(event));
  e.provider = p.id;
  e.kind = kind;
  e.amount = amount;
  e.stakedDps = p.stakedDps;
  e.unbondingDps = p.unbondingDps;
  e.readyAt = readyAt;
  e.tier = p.tier;
  stamp(e, event);
  e.save();
  p.save();
  stats.save();
  updatePeriods(event, stats, new PeriodDelta());
}

export function handleStaked(event: Staked): void {
  const stats = getOrCreateStats();
  const p = loadProvider(event.params.provider, event);
  setStake(p, stats, event.params.stakedDps, p.unbondingDps, event.params.tier, event);
  stakeChange(event, p, "stake", event.params.amount, null, stats);
}

export function handleUnbondRequested(event: UnbondRequested): void {
  const stats = getOrCreateStats();
  const p = loadProvider(event.params.provider, event);
  setStake(p, stats, event.params.stakedDps, event.params.unbondingDps, event.params.tier, event);
  p.unbondReadyAt = event.params.readyAt;
  stakeChange(event, p, "unbond", event.params.amount, event.params.readyAt, stats);
}

/** Withdrawn empties the unbonding bucket (withdrawUnbonded takes all of it). */
export function handleWithdrawn(event: Withdrawn): void {
  const stats = getOrCreateStats();
  const p = loadProvider(event.params.provider, event);
  setStake(p, stats, event.params.stakedDps, ZERO, -1, event);
  stakeChange(event, p, "withdraw", event.params.amount, null, stats);
}

export function handleAttested(event: Attested): void {
  const a = event.params;
  const r = a.rating;
  const stats = getOrCreateStats();
  const t = getThresholds();
  const p = loadProvider(a.provider, event);
  const wh = r.whPerChWad.gt(WH_CAP) ? WH_CAP : r.whPerChWad;
  stats.totalAttestedCapacityPflopsWad = stats.totalAttestedCapacityPflopsWad
    .plus(a.capacityPflopsWad)
    .minus(p.capacityPflopsWad);
  stats.attestationCount += 1;
  p.attestationNonce = a.nonce.plus(BigInt.fromI32(1));
  p.attestationCount += 1;
  p.workloadClass = a.workloadClass;
  p.standardVersion = r.latestVersion;
  p.correctedPflopsWad = r.correctedPflopsWad;
  p.chPerHourWad = r.chPerHourWad;
  p.whPerChWad = wh;
  p.capacityPflopsWad = a.capacityPflopsWad;
  p.attestedAt = event.block.timestamp;
  p.attestationExpiresAt = a.expiresAt;
  p.lastAttester = a.attester;
  gradeAttestation(p, t, event);
  p.save();
  stats.save();

  const e = new Attestation(eventId(event));
  e.provider = p.id;
  e.attester = a.attester;
  e.workloadClass = a.workloadClass;
  e.nonce = a.nonce;
  e.standardVersion = r.latestVersion;
  e.correctedPflopsWad = r.correctedPflopsWad;
  e.chPerHourWad = r.chPerHourWad;
  e.whPerChWad = r.whPerChWad;
  e.capacityPflopsWad = a.capacityPflopsWad;
  e.expiresAt = a.expiresAt;
  e.performanceGrade = performanceGrade(t, r.chPerHourWad);
  e.energyGrade = energyGrade(t, wh);
  stamp(e, event);
  e.save();
  const d = new PeriodDelta();
  d.attestations = 1;
  updatePeriods(event, stats, d);
}

export function handleHeartbeat(event: Heartbeat): void {
  const a = event.params;
  const stats = getOrCreateStats();
  const t = getThresholds();
  const p = loadProvider(a.provider, event);
  p.heartbeatCount += 1;
  p.lastHeartbeat = event.block.timestamp;
  p.lastSamplePflopsWad = a.samplePflopsWad;
  p.upSeconds = a.upSeconds;
  p.trackedSeconds = a.trackedSeconds;
  p.uptimeWad = a.uptimeWad;
  p.reliabilityGrade = reliabilityGrade(t, a.uptimeWad);
  p.save();
  stats.heartbeatCount = stats.heartbeatCount.plus(BigInt.fromI32(1));
  stats.save();

  const e = new ProviderHeartbeat(eventId(event));
  e.provider = p.id;
  e.samplePflopsWad = a.samplePflopsWad;
  e.upSeconds = a.upSeconds;
  e.trackedSeconds = a.trackedSeconds;
  e.uptimeWad = a.uptimeWad;
  e.reliabilityGrade = p.reliabilityGrade;
  stamp(e, event);
  e.save();
  const d = new PeriodDelta();
  d.heartbeats = 1;
  d.sample = a.samplePflopsWad;
  updatePeriods(event, stats, d);
  updateProviderDay(event, p, a.samplePflopsWad, true, ZERO);
}

export function handleCapacityRecordFailed(event: CapacityRecordFailed): void {
  const p = loadProvider(event.params.provider, event);
  p.capacityRecordFailures += 1;
  p.save();
  const e = new CapacityRecordFailure(eventId(event));
  e.provider = p.id;
  e.recorder = event.params.recorder;
  e.samplePflopsWad = event.params.samplePflopsWad;
  stamp(e, event);
  e.save();
}

export function handleProviderCHMinted(event: ProviderCHMinted): void {
  const a = event.params;
  const stats = getOrCreateStats();
  const p = loadProvider(a.provider, event);
  setLiability(p, stats, a.liabilityCh);
  p.mintedCh = p.mintedCh.plus(a.amount);
  stats.totalMintedCh = stats.totalMintedCh.plus(a.amount);
  p.save();
  stats.save();
  getOrCreateAccount(a.to, event.block);
  const e = new ProviderCHMint(eventId(event));
  e.provider = p.id;
  e.to = a.to;
  e.amount = a.amount;
  e.liabilityCh = a.liabilityCh;
  stamp(e, event);
  e.save();
  const d = new PeriodDelta();
  d.chMinted = a.amount;
  updatePeriods(event, stats, d);
  updateProviderDay(event, p, ZERO, false, a.amount);
}

export function handleCHBoughtBack(event: CHBoughtBack): void {
  const a = event.params;
  const stats = getOrCreateStats();
  const p = loadProvider(a.provider, event);
  setLiability(p, stats, a.liabilityCh);
  stats.totalBoughtBackCh = stats.totalBoughtBackCh.plus(a.boughtBackCh).minus(p.boughtBackCh);
  p.boughtBackCh = a.boughtBackCh;
  p.save();
  stats.save();
  const e = new CHBuyBack(eventId(event));
  e.provider = p.id;
  e.amount = a.amount;
  e.liabilityCh = a.liabilityCh;
  e.boughtBackCh = a.boughtBackCh;
  stamp(e, event);
  e.save();
  const d = new PeriodDelta();
  d.chBoughtBack = a.amount;
  updatePeriods(event, stats, d);
  updateProviderDay(event, p, ZERO, false, ZERO);
}

export function handleTaskOutcomeRecorded(event: TaskOutcomeRecorded): void {
  const a = event.params;
  const p = loadProvider(a.provider, event);
  p.completed = a.completedCount.toI32();
  p.failed = a.failedCount.toI32();
  p.save();
  count(p.id, a.completed ? "tasksCompleted" : "tasksFailed", "", ZERO, event);
  const e = new TaskOutcome(eventId(event));
  e.provider = p.id;
  e.completed = a.completed;
  e.completedCount = p.completed;
  e.failedCount = p.failed;
  stamp(e, event);
  e.save();
}

/** Reputation points and factor after a task outcome or a slash (issue 21 item 3; post-state, docs/compute.md). */
export function handleReputationChanged(event: ReputationChanged): void {
  const a = event.params;
  const p = loadProvider(a.provider, event);
  p.reputationPoints = a.points;
  p.repPct = a.repPct;
  p.reputationUpdatedAt = event.block.timestamp;
  p.save();
}

export function handleSlashed(event: Slashed): void {
  const a = event.params;
  const stats = getOrCreateStats();
  const p = loadProvider(a.provider, event);
  setStake(p, stats, a.stakedDps, a.unbondingDps, -1, event);
  p.slashCount = a.slashCount.toI32();
  p.slashedDps = p.slashedDps.plus(a.slashedDps);
  stats.totalSlashedDps = stats.totalSlashedDps.plus(a.slashedDps);
  count(p.id, "slashCount", "slashedDps", a.slashedDps, event);
  p.save();
  stats.save();
  const e = new Slash(eventId(event));
  e.provider = p.id;
  e.by = a.by;
  e.slashedDps = a.slashedDps;
  e.finder = a.finder;
  e.finderFeeDps = a.finderFeeDps;
  e.burnedDps = a.burnedDps;
  e.stakedDps = a.stakedDps;
  e.unbondingDps = a.unbondingDps;
  e.slashCount = p.slashCount;
  e.reason = a.reason;
  stamp(e, event);
  e.save();
  const d = new PeriodDelta();
  d.slashedDps = a.slashedDps;
  updatePeriods(event, stats, d);
}

function redemptionEvent(event: ethereum.Event, r: RedemptionAssignment, p: Provider, kind: string): void {
  const e = new RedemptionEvent(eventId(event));
  e.assignment = r.id;
  e.provider = p.id;
  e.kind = kind;
  e.chAmount = r.chAmount;
  e.liabilityCh = p.liabilityCh;
  e.assignedCh = p.assignedCh;
  stamp(e, event);
  e.save();
}

function assignmentKey(id: BigInt): Bytes {
  return Bytes.fromI32(id.toI32());
}

export function handleRedemptionAssigned(event: RedemptionAssigned): void {
  const a = event.params;
  const stats = getOrCreateStats();
  const p = loadProvider(a.provider, event);
  stats.totalAssignedCh = stats.totalAssignedCh.plus(a.assignedCh).minus(p.assignedCh);
  stats.assignmentCount += 1;
  p.assignedCh = a.assignedCh;
  p.openAssignments = a.openAssignments.toI32();
  p.save();
  stats.save();
  const r = initRedemptionAssignment(assignmentKey(a.assignmentId));
  r.assignmentId = a.assignmentId;
  r.provider = p.id;
  r.chAmount = a.chAmount;
  r.deadline = a.deadline;
  r.status = "open";
  r.assignedAt = event.block.timestamp;
  r.transactionHash = event.transaction.hash;
  r.save();
  redemptionEvent(event, r, p, "assigned");
}

/** Closing an assignment releases its reservation (ProviderRegistry._close): exact arithmetic on stored values. */
function closeAssignment(r: RedemptionAssignment, p: Provider, stats: ComputeStats, status: string, ts: BigInt): void {
  r.status = status;
  r.closedAt = ts;
  p.assignedCh = p.assignedCh.minus(r.chAmount);
  p.openAssignments -= 1;
  stats.totalAssignedCh = stats.totalAssignedCh.minus(r.chAmount);
}

export function handleDeliveryConfirmed(event: DeliveryConfirmed): void {
  const a = event.params;
  const stats = getOrCreateStats();
  const p = loadProvider(a.provider, event);
  const r = RedemptionAssignment.load(assignmentKey(a.assignmentId));
  if (r == null) return; // unreachable: confirmDelivery requires an open assignment
  closeAssignment(r, p, stats, "delivered", event.block.timestamp);
  setLiability(p, stats, a.liabilityCh);
  stats.totalDeliveredCh = stats.totalDeliveredCh.plus(a.deliveredCh).minus(p.deliveredCh);
  p.deliveredCh = a.deliveredCh;
  r.save();
  p.save();
  stats.save();
  redemptionEvent(event, r, p, "delivered");
  count(p.id, "deliveriesConfirmed", "deliveredCh", a.chAmount, event);
  const d = new PeriodDelta();
  d.chDelivered = a.chAmount;
  updatePeriods(event, stats, d);
  updateProviderDay(event, p, ZERO, false, ZERO);
}

/** The stake taken is reported by the Slashed event that follows in the same transaction. */
export function handleDeliveryFailed(event: DeliveryFailed): void {
  const a = event.params;
  const stats = getOrCreateStats();
  const p = loadProvider(a.provider, event);
  const r = RedemptionAssignment.load(assignmentKey(a.assignmentId));
  if (r == null) return; // unreachable: reportDeliveryFailure requires an open assignment
  closeAssignment(r, p, stats, "failed", event.block.timestamp);
  r.recipient = a.recipient;
  r.indexPriceWad = a.indexPriceWad;
  r.compensationUsdWad = a.compensationUsdWad;
  r.compensationDps = a.compensationDps;
  p.failed = a.failedCount.toI32();
  p.compensationPaidDps = p.compensationPaidDps.plus(a.compensationDps);
  stats.totalCompensationDps = stats.totalCompensationDps.plus(a.compensationDps);
  getOrCreateAccount(a.recipient, event.block);
  r.save();
  p.save();
  stats.save();
  redemptionEvent(event, r, p, "failed");
  count(p.id, "deliveriesFailed", "failedCh", a.chAmount, event);
  earn(p.id, "compensationPaidDps", a.compensationDps, event);
}

/** A task ended without a verdict (TSK-05): the reservation is freed with no penalty; liability unchanged. */
export function handleRedemptionReleased(event: RedemptionReleased): void {
  const a = event.params;
  const stats = getOrCreateStats();
  const p = loadProvider(a.provider, event);
  const r = RedemptionAssignment.load(assignmentKey(a.assignmentId));
  if (r == null) return; // unreachable: releaseRedemption requires an open assignment
  closeAssignment(r, p, stats, "released", event.block.timestamp);
  r.save();
  p.save();
  stats.save();
  redemptionEvent(event, r, p, "released");
}

/** TSK-08: a duty (executor, council seat, stream subscription) locked stake; the event carries the total. */
export function handleStakeLocked(event: StakeLocked): void {
  const p = loadProvider(event.params.provider, event);
  p.dutyLockedDps = event.params.lockedDps;
  p.save();
}

export function handleStakeReleased(event: StakeReleased): void {
  const p = loadProvider(event.params.provider, event);
  p.dutyLockedDps = event.params.lockedDps;
  p.save();
}

/** TSK-07: the provider joined the append-only list council draws sample. */
export function handleDrawCandidateListed(event: DrawCandidateListed): void {
  const p = loadProvider(event.params.provider, event);
  p.drawIndex = event.params.index;
  p.save();
}

function configChange(event: ethereum.Event, kind: string, values: BigInt[]): void {
  const e = new ComputeConfigChange(eventId(event));
  e.contract = event.address;
  e.kind = kind;
  e.values = values;
  stamp(e, event);
  e.save();
}

/** An address as uint160 (a reversed copy: BigInt bytes are little-endian). */
function addressValue(a: Bytes): BigInt {
  const c = Bytes.fromUint8Array(a.slice(0));
  c.reverse();
  return BigInt.fromUnsignedBytes(c);
}

export function handleParamsSet(event: ParamsSet): void {
  const x = event.params.params;
  const stats = getOrCreateStats();
  stats.minStakeDps = x.minStakeDps;
  stats.collateralFactorWad = x.collateralFactorWad;
  stats.mintHorizonSec = x.mintHorizonSec;
  stats.unbondingDelaySec = x.unbondingDelaySec;
  stats.attestationValiditySec = x.attestationValiditySec;
  stats.heartbeatIntervalSec = x.heartbeatIntervalSec;
  stats.uptimeWindowSec = x.uptimeWindowSec;
  stats.finderFeeBps = x.finderFeeBps;
  stats.redemptionPenaltyBps = x.redemptionPenaltyBps;
  stats.dpsPriceWad = x.dpsPriceWad;
  stats.save();
  configChange(event, "params", [
    x.minStakeDps,
    x.collateralFactorWad,
    x.mintHorizonSec,
    x.unbondingDelaySec,
    x.attestationValiditySec,
    x.heartbeatIntervalSec,
    x.uptimeWindowSec,
    BigInt.fromI32(x.finderFeeBps),
    BigInt.fromI32(x.redemptionPenaltyBps),
    x.dpsPriceWad,
  ]);
}

/**
 * New tier thresholds. No provider is re-tiered here (that would cost one write per provider): the registry's views
 * re-derive every tier from the stake at once, the indexed tier follows each provider's next stake event (tieredAt).
 */
export function handleTierThresholdsSet(event: TierThresholdsSet): void {
  const stats = getOrCreateStats();
  stats.tierThresholdsDps = event.params.thresholdsDps;
  stats.tierThresholdsUpdatedAt = event.block.timestamp;
  stats.save();
  configChange(event, "tierThresholds", event.params.thresholdsDps);
}

export function handleCapacityRecorderSet(event: CapacityRecorderSet): void {
  const stats = getOrCreateStats();
  stats.capacityRecorder = event.params.recorder;
  stats.save();
  configChange(event, "capacityRecorder", [addressValue(event.params.recorder)]);
}

export function handlePriceOracleSet(event: PriceOracleSet): void {
  const stats = getOrCreateStats();
  stats.priceOracle = event.params.oracle;
  stats.save();
  configChange(event, "priceOracle", [addressValue(event.params.oracle)]);
}
