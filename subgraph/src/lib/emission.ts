// Emission helpers: module state, epochs, providers, and the daily/hourly emission and capacity aggregates.
// Every value comes from the events (post-state, or exact deltas from a post-state); no eth_call.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { EmissionEpoch, EmissionProvider, EmissionState, ProviderEpoch } from "../../generated/schema";
import {
  initEmissionEpoch,
  initEmissionProvider,
  initEmissionState,
  initProviderEpoch,
} from "../../generated/defaults";
import { Series } from "./buckets";
import { getOrCreateAccount, ZERO } from "./common";

/** type(uint256).max: the next threshold while halvings are time-only. */
export const MAX_UINT256 = BigInt.fromString(
  "115792089237316195423570985008687907853269984665640564039457584007913129639935",
);

export function getOrCreateState(address: Address, block: ethereum.Block): EmissionState {
  let s = EmissionState.load(address);
  if (s == null) {
    s = initEmissionState(address);
    s.nextThresholdGfl = MAX_UINT256;
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
    e = initEmissionEpoch(id);
    e.epoch = epoch;
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
    p = initEmissionProvider(provider);
    p.account = provider;
    p.index = state.providerCount;
    state.providerCount = state.providerCount + 1;
    p.sampleEpoch = epoch;
    p.firstSampleAt = event.block.timestamp;
    p.lastSampleAt = event.block.timestamp;
  }
  return p;
}

export function getOrCreateProviderEpoch(provider: Bytes, epoch: i32): ProviderEpoch {
  const id = provider.concatI32(epoch);
  let pe = ProviderEpoch.load(id);
  if (pe == null) {
    pe = initProviderEpoch(id);
    pe.provider = provider;
    pe.epoch = epochKey(epoch);
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

/** EmissionDayData / EmissionHourData and CapacityDayData / CapacityHourData (id = the Emission proxy ++ bucket) */
const EMISSION = new Series("EmissionDayData", "EmissionHourData", "date", "periodStartUnix", "");
const CAPACITY = new Series("CapacityDayData", "CapacityHourData", "date", "periodStartUnix", "");

/** Applies `d` to the day and hour buckets of `event` and closes them at `state`'s post-state. */
export function updateEmissionAggregates(event: ethereum.Event, state: EmissionState, d: EmissionDelta): void {
  const buckets = EMISSION.open(event.address, event);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.count("epochsClosed", d.epochsClosed).count("halvings", d.halvings).count("claimCount", d.claimCount);
    b.add("epochRewardsDps", d.epochRewardsDps).add("accruedDps", d.accruedDps).add("fromPoolDps", d.fromPoolDps);
    b.add("mintedDps", d.mintedDps).add("claimedDps", d.claimedDps).add("replenishedDps", d.replenishedDps);
    b.add("keeperFundedDps", d.keeperFundedDps).add("bountiesDps", d.bountiesDps);
    b.set("totalMintedDps", state.totalMintedDps).set("rewardPoolDps", state.rewardPoolDps);
    b.set("keeperBudgetDps", state.keeperBudgetDps).setInt("halvingsTotal", state.halvings);
    b.save();
  }
}

/**
 * A keeper batch's bounty (RebalanceBatch, CollectionBatch): it leaves the keeper budget and adds to the bounties
 * paid, on the state (saved here) and in the day/hour buckets.
 */
export function payKeeperBounty(event: ethereum.Event, state: EmissionState, bountyDps: BigInt): void {
  state.keeperBudgetDps = state.keeperBudgetDps.minus(bountyDps);
  state.totalBountiesDps = state.totalBountiesDps.plus(bountyDps);
  state.save();
  const d = new EmissionDelta();
  d.bountiesDps = bountyDps;
  updateEmissionAggregates(event, state, d);
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
  const buckets = CAPACITY.open(event.address, event);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.count("samples", samples).count("rebalances", rebalances);
    b.set("totalGfl", total).range("totalGflHigh", "totalGflLow", total, total).set("openEpochGfl", openEpochGfl);
    b.save();
  }
}
