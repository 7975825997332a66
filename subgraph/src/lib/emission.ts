// Emission helpers: module state, epochs, providers, and the daily/hourly emission and capacity aggregates.
// Every value comes from the events (post-state, or exact deltas from a post-state); no eth_call.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  CapacityDayData,
  CapacityHourData,
  EmissionDayData,
  EmissionEpoch,
  EmissionHourData,
  EmissionProvider,
  EmissionState,
  ProviderEpoch,
} from "../../generated/schema";
import { getOrCreateAccount, SECONDS_PER_DAY, SECONDS_PER_HOUR, ZERO } from "./common";

/** type(uint256).max: the next threshold while halvings are time-only. */
export const MAX_UINT256 = BigInt.fromString(
  "115792089237316195423570985008687907853269984665640564039457584007913129639935",
);

export function getOrCreateState(address: Address, block: ethereum.Block): EmissionState {
  let s = EmissionState.load(address);
  if (s == null) {
    s = new EmissionState(address);
    s.currentEpoch = 0;
    s.epochsClosed = 0;
    s.halvings = 0;
    s.halvingsAtLastClose = 0;
    s.cumulativeGfl = ZERO;
    s.nextThresholdGfl = MAX_UINT256;
    s.halvingSpanGfl = ZERO;
    s.minSamples = 0;
    s.minSamplesNext = 0;
    s.rewardPoolDps = ZERO;
    s.keeperBudgetDps = ZERO;
    s.totalMintedDps = ZERO;
    s.totalReplenishedDps = ZERO;
    s.fundedDps = ZERO;
    s.unfundedDps = ZERO;
    s.totalEpochRewardsDps = ZERO;
    s.totalAccruedDps = ZERO;
    s.totalClaimedDps = ZERO;
    s.totalBountiesDps = ZERO;
    s.totalGfl = ZERO;
    s.providerCount = 0;
    s.rebalanceCursor = 0;
    s.closeBountyDps = ZERO;
    s.perProviderBountyDps = ZERO;
    s.maxBountyDps = ZERO;
    s.keeperShareBps = ZERO;
    s.keeperBatchSize = ZERO;
  }
  s.lastUpdatedBlock = block.number;
  return s;
}

/** Id of epoch `epoch`: 4 bytes little-endian. */
export function epochKey(epoch: i32): Bytes {
  return Bytes.fromI32(epoch);
}

export function getOrCreateEpoch(epoch: i32): EmissionEpoch {
  const id = epochKey(epoch);
  let e = EmissionEpoch.load(id);
  if (e == null) {
    e = new EmissionEpoch(id);
    e.epoch = epoch;
    e.totalGfl = ZERO;
    e.sampleEvents = 0;
    e.providerCount = 0;
    e.closed = false;
    e.accruedDps = ZERO;
  }
  return e;
}

/** The provider, created on its first sample with the next rebalance index (the contract's providerList order). */
export function getOrCreateProvider(
  state: EmissionState,
  provider: Address,
  epoch: i32,
  event: ethereum.Event,
): EmissionProvider {
  let p = EmissionProvider.load(provider);
  if (p == null) {
    getOrCreateAccount(provider, event.block);
    p = new EmissionProvider(provider);
    p.account = provider;
    p.index = state.providerCount;
    state.providerCount = state.providerCount + 1;
    p.sampleEpoch = epoch;
    p.sampleCount = 0;
    p.settled = false;
    p.epochGfl = ZERO;
    p.gfl = ZERO;
    p.accruedDps = ZERO;
    p.claimedDps = ZERO;
    p.totalRewardDps = ZERO;
    p.firstSampleAt = event.block.timestamp;
    p.lastSampleAt = event.block.timestamp;
  }
  return p;
}

export function getOrCreateProviderEpoch(provider: Bytes, epoch: i32): ProviderEpoch {
  const id = provider.concatI32(epoch);
  let pe = ProviderEpoch.load(id);
  if (pe == null) {
    pe = new ProviderEpoch(id);
    pe.provider = provider;
    pe.epoch = epochKey(epoch);
    pe.gfl = ZERO;
    pe.sampleCount = 0;
    const e = getOrCreateEpoch(epoch);
    e.providerCount = e.providerCount + 1;
    e.save();
  }
  return pe;
}

/** Increments of the emission aggregates for one event. */
export class EmissionDelta {
  epochsClosed: i32 = 0;
  halvings: i32 = 0;
  epochRewardsDps: BigInt = ZERO;
  accruedDps: BigInt = ZERO;
  fromPoolDps: BigInt = ZERO;
  mintedDps: BigInt = ZERO;
  claimedDps: BigInt = ZERO;
  claimCount: i32 = 0;
  replenishedDps: BigInt = ZERO;
  keeperFundedDps: BigInt = ZERO;
  bountiesDps: BigInt = ZERO;
}

/** Applies `d` to the day and hour buckets of `event` and closes them at `state`'s post-state. */
export function updateEmissionAggregates(event: ethereum.Event, state: EmissionState, d: EmissionDelta): void {
  const ts = event.block.timestamp.toI32();
  const day = ts / SECONDS_PER_DAY;
  const dayId = event.address.concatI32(day);
  let x = EmissionDayData.load(dayId);
  if (x == null) {
    x = new EmissionDayData(dayId);
    x.date = day * SECONDS_PER_DAY;
    x.epochsClosed = 0;
    x.halvings = 0;
    x.epochRewardsDps = ZERO;
    x.accruedDps = ZERO;
    x.fromPoolDps = ZERO;
    x.mintedDps = ZERO;
    x.claimedDps = ZERO;
    x.claimCount = 0;
    x.replenishedDps = ZERO;
    x.keeperFundedDps = ZERO;
    x.bountiesDps = ZERO;
  }
  x.epochsClosed = x.epochsClosed + d.epochsClosed;
  x.halvings = x.halvings + d.halvings;
  x.epochRewardsDps = x.epochRewardsDps.plus(d.epochRewardsDps);
  x.accruedDps = x.accruedDps.plus(d.accruedDps);
  x.fromPoolDps = x.fromPoolDps.plus(d.fromPoolDps);
  x.mintedDps = x.mintedDps.plus(d.mintedDps);
  x.claimedDps = x.claimedDps.plus(d.claimedDps);
  x.claimCount = x.claimCount + d.claimCount;
  x.replenishedDps = x.replenishedDps.plus(d.replenishedDps);
  x.keeperFundedDps = x.keeperFundedDps.plus(d.keeperFundedDps);
  x.bountiesDps = x.bountiesDps.plus(d.bountiesDps);
  x.totalMintedDps = state.totalMintedDps;
  x.rewardPoolDps = state.rewardPoolDps;
  x.keeperBudgetDps = state.keeperBudgetDps;
  x.halvingsTotal = state.halvings;
  x.save();

  const hour = ts / SECONDS_PER_HOUR;
  const hourId = event.address.concatI32(hour);
  let h = EmissionHourData.load(hourId);
  if (h == null) {
    h = new EmissionHourData(hourId);
    h.periodStartUnix = hour * SECONDS_PER_HOUR;
    h.epochsClosed = 0;
    h.halvings = 0;
    h.epochRewardsDps = ZERO;
    h.accruedDps = ZERO;
    h.fromPoolDps = ZERO;
    h.mintedDps = ZERO;
    h.claimedDps = ZERO;
    h.claimCount = 0;
    h.replenishedDps = ZERO;
    h.keeperFundedDps = ZERO;
    h.bountiesDps = ZERO;
  }
  h.epochsClosed = h.epochsClosed + d.epochsClosed;
  h.halvings = h.halvings + d.halvings;
  h.epochRewardsDps = h.epochRewardsDps.plus(d.epochRewardsDps);
  h.accruedDps = h.accruedDps.plus(d.accruedDps);
  h.fromPoolDps = h.fromPoolDps.plus(d.fromPoolDps);
  h.mintedDps = h.mintedDps.plus(d.mintedDps);
  h.claimedDps = h.claimedDps.plus(d.claimedDps);
  h.claimCount = h.claimCount + d.claimCount;
  h.replenishedDps = h.replenishedDps.plus(d.replenishedDps);
  h.keeperFundedDps = h.keeperFundedDps.plus(d.keeperFundedDps);
  h.bountiesDps = h.bountiesDps.plus(d.bountiesDps);
  h.totalMintedDps = state.totalMintedDps;
  h.rewardPoolDps = state.rewardPoolDps;
  h.keeperBudgetDps = state.keeperBudgetDps;
  h.halvingsTotal = state.halvings;
  h.save();
}

/** Capacity buckets: `samples`/`rebalances` added, closed at the module's total GFL and the open epoch's total. */
export function updateCapacityAggregates(
  event: ethereum.Event,
  state: EmissionState,
  samples: i32,
  rebalances: i32,
): void {
  const openEpochGfl = getOrCreateEpoch(state.currentEpoch).totalGfl;
  const total = state.totalGfl;
  const ts = event.block.timestamp.toI32();
  const day = ts / SECONDS_PER_DAY;
  const dayId = event.address.concatI32(day);
  let x = CapacityDayData.load(dayId);
  if (x == null) {
    x = new CapacityDayData(dayId);
    x.date = day * SECONDS_PER_DAY;
    x.samples = 0;
    x.rebalances = 0;
    x.totalGflHigh = total;
    x.totalGflLow = total;
  }
  x.samples = x.samples + samples;
  x.rebalances = x.rebalances + rebalances;
  x.totalGfl = total;
  if (total.gt(x.totalGflHigh)) x.totalGflHigh = total;
  if (total.lt(x.totalGflLow)) x.totalGflLow = total;
  x.openEpochGfl = openEpochGfl;
  x.save();

  const hour = ts / SECONDS_PER_HOUR;
  const hourId = event.address.concatI32(hour);
  let h = CapacityHourData.load(hourId);
  if (h == null) {
    h = new CapacityHourData(hourId);
    h.periodStartUnix = hour * SECONDS_PER_HOUR;
    h.samples = 0;
    h.rebalances = 0;
    h.totalGflHigh = total;
    h.totalGflLow = total;
  }
  h.samples = h.samples + samples;
  h.rebalances = h.rebalances + rebalances;
  h.totalGfl = total;
  if (total.gt(h.totalGflHigh)) h.totalGflHigh = total;
  if (total.lt(h.totalGflLow)) h.totalGflLow = total;
  h.openEpochGfl = openEpochGfl;
  h.save();
}
