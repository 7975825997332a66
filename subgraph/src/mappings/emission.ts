// Emission: epochs, capacity samples, median GFL per provider per epoch, rebalances, DPS rewards (funded, claimed),
// halvings, replenishment, keeper budget, parameters. Every value comes from the event (post-state) or is an exact
// delta applied to a post-state another event carried (keeper budget after bounties); no eth_call.
import {
  CapacityRecorded,
  CollectionBatch,
  EpochClosed,
  Halved,
  HalvingSpanSet,
  KeeperBudgetFunded,
  KeeperConfigSet,
  MinSamplesSet,
  ProviderRebalanced,
  RebalanceBatch as RebalanceBatchEvent,
  Replenished,
  RewardsClaimed,
  RewardsFunded,
} from "../../generated/Emission/Emission";
import {
  CapacitySample,
  CollectionBatch as CollectionBatchEntity,
  EmissionParameterChange,
  EmissionProvider,
  EpochClose,
  Halving,
  KeeperBudgetFunding,
  ProviderEpoch,
  ProviderRebalance,
  RebalanceBatch,
  Replenishment,
  RewardClaim,
  RewardsFunding,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp } from "../lib/common";
import {
  EmissionDelta,
  epochKey,
  getOrCreateEpoch,
  getOrCreateProvider,
  getOrCreateProviderEpoch,
  getOrCreateState,
  payKeeperBounty,
  updateCapacityAggregates,
  updateEmissionAggregates,
} from "../lib/emission";
import { ethereum } from "@graphprotocol/graph-ts";
import { earn } from "../lib/earnings";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

export function handleCapacityRecorded(event: CapacityRecorded): void {
  const state = getOrCreateState(event.address, event.block);
  const epoch = event.params.epoch.toI32();
  state.currentEpoch = epoch;
  const p = getOrCreateProvider(state, event.params.provider, epoch, event);
  if (p.sampleEpoch != epoch) {
    // the ring moves to a new epoch (the previous one was settled just before, ProviderRebalanced)
    p.sampleEpoch = epoch;
    p.settled = false;
  }
  p.sampleCount = event.params.sampleCount.toI32();
  p.epochGfl = event.params.epochGfl;
  p.lastSampleAt = event.block.timestamp;
  p.save();

  const pe = getOrCreateProviderEpoch(p.id, epoch);
  pe.gfl = event.params.epochGfl;
  pe.sampleCount = p.sampleCount;
  pe.save();

  const e = getOrCreateEpoch(epoch);
  e.totalGfl = event.params.epochTotalGfl;
  e.sampleEvents = e.sampleEvents + 1;
  e.save();

  const s = new CapacitySample(eventId(event));
  s.provider = p.id;
  s.epoch = epochKey(epoch);
  s.day = event.params.day.toI32();
  s.daySamplePflopsWad = event.params.daySamplePflopsWad;
  s.sampleCount = p.sampleCount;
  s.epochGfl = event.params.epochGfl;
  s.epochTotalGfl = event.params.epochTotalGfl;
  stamp(s, event);
  s.save();

  state.save();
  updateCapacityAggregates(event, state, 1, 0);
}

export function handleEpochClosed(event: EpochClosed): void {
  const state = getOrCreateState(event.address, event.block);
  const epoch = event.params.epoch.toI32();
  const halvings = event.params.halvings.toI32();
  const e = getOrCreateEpoch(epoch);
  e.totalGfl = event.params.totalGfl;
  e.closed = true;
  e.rateWad = event.params.rateWad;
  e.rewardsDps = event.params.rewardsDps;
  e.cumulativeGfl = event.params.cumulativeGfl;
  e.halvingsAfter = halvings;
  e.closedBy = event.params.closedBy;
  e.closeBountyDps = event.params.bountyDps;
  e.closedAt = event.block.timestamp;
  e.closedAtBlock = event.block.number;
  e.save();
  getOrCreateEpoch(epoch + 1).save();

  // without a halving in this close the epoch's rate is the rate in force; Halved set it otherwise
  if (halvings == state.halvingsAtLastClose) state.rewardRateWad = event.params.rateWad;
  state.halvingsAtLastClose = halvings;
  state.halvings = halvings;
  state.currentEpoch = epoch + 1;
  state.epochsClosed = state.epochsClosed + 1;
  state.cumulativeGfl = event.params.cumulativeGfl;
  state.unfundedDps = state.unfundedDps.plus(event.params.rewardsDps);
  state.totalEpochRewardsDps = state.totalEpochRewardsDps.plus(event.params.rewardsDps);
  state.keeperBudgetDps = state.keeperBudgetDps.minus(event.params.bountyDps);
  state.totalBountiesDps = state.totalBountiesDps.plus(event.params.bountyDps);
  state.rebalanceCursor = 0;
  state.minSamples = state.minSamplesNext;
  state.save();
  // schedule vs actual at this close: rewards the schedule owed so far, what providers accrued, DPS minted
  e.scheduledTotalDps = state.totalEpochRewardsDps;
  e.accruedTotalDps = state.totalAccruedDps;
  e.mintedTotalDps = state.totalMintedDps;
  e.save();

  const c = new EpochClose(eventId(event));
  c.epoch = e.id;
  c.totalGfl = event.params.totalGfl;
  c.rateWad = event.params.rateWad;
  c.rewardsDps = event.params.rewardsDps;
  c.cumulativeGfl = event.params.cumulativeGfl;
  c.halvings = halvings;
  c.closedBy = event.params.closedBy;
  c.bountyDps = event.params.bountyDps;
  stamp(c, event);
  c.save();

  const d = new EmissionDelta();
  d.epochsClosed = 1;
  d.epochRewardsDps = event.params.rewardsDps;
  d.bountiesDps = event.params.bountyDps;
  updateEmissionAggregates(event, state, d);
  updateCapacityAggregates(event, state, 0, 0);
}

export function handleHalved(event: Halved): void {
  const state = getOrCreateState(event.address, event.block);
  const epoch = event.params.epoch.toI32();
  getOrCreateEpoch(epoch).save();
  state.halvings = event.params.halvings.toI32();
  state.cumulativeGfl = event.params.cumulativeGfl;
  state.nextThresholdGfl = event.params.nextThresholdGfl;
  state.nextTimeHalvingAt = event.params.nextDueAt;
  state.rewardRateWad = event.params.newRateWad;
  state.save();

  const h = new Halving(eventId(event));
  h.halvings = state.halvings;
  h.epoch = epochKey(epoch);
  h.byThreshold = event.params.byThreshold;
  h.cumulativeGfl = event.params.cumulativeGfl;
  h.nextThresholdGfl = event.params.nextThresholdGfl;
  h.nextDueAt = event.params.nextDueAt;
  h.newRateWad = event.params.newRateWad;
  stamp(h, event);
  h.save();

  const d = new EmissionDelta();
  d.halvings = 1;
  updateEmissionAggregates(event, state, d);
}

export function handleProviderRebalanced(event: ProviderRebalanced): void {
  const state = getOrCreateState(event.address, event.block);
  let p = EmissionProvider.load(event.params.provider);
  if (p == null) p = getOrCreateProvider(state, event.params.provider, event.params.epoch.toI32(), event);
  const reward = event.params.rewardDps;
  const oldGfl = p.gfl;
  // the reward is always for the provider's sample epoch (the event's epoch is the last closed one when GFL drops to 0)
  const rewardEpoch = p.sampleEpoch;
  if (!p.settled) {
    p.settled = true;
    const pe = getOrCreateProviderEpoch(p.id, rewardEpoch);
    pe.rewardDps = reward;
    pe.appliedGfl = event.params.gfl;
    pe.appliedAt = event.block.timestamp;
    pe.save();
    const e = getOrCreateEpoch(rewardEpoch);
    e.accruedDps = e.accruedDps.plus(reward);
    e.save();
  } else if (!event.params.gfl.equals(oldGfl) && event.params.epoch.toI32() == rewardEpoch) {
    // A claim accrues the epoch's reward without applying GFL (docs/emission.md "Rewards and claims"): the
    // rebalance, heartbeat or rebalanceProvider that applies it later carries no reward; record the GFL applied then.
    // (A provider absent from the last epoch drops to 0 under the closed epoch's number: that is not this case.)
    const pe = ProviderEpoch.load(p.id.concatI32(rewardEpoch));
    if (pe != null) {
      pe.appliedGfl = event.params.gfl;
      pe.appliedAt = event.block.timestamp;
      pe.save();
    }
  }
  p.gfl = event.params.gfl;
  p.accruedDps = event.params.accruedDps;
  p.totalRewardDps = p.totalRewardDps.plus(reward);
  p.save();
  earn(p.id, "rewardsAccruedDps", reward, event);

  state.totalGfl = state.totalGfl.plus(event.params.gfl).minus(oldGfl);
  state.totalAccruedDps = state.totalAccruedDps.plus(reward);
  state.save();

  const r = new ProviderRebalance(eventId(event));
  r.provider = p.id;
  r.epoch = event.params.epoch.toI32();
  r.rewardEpoch = rewardEpoch;
  r.oldGfl = oldGfl;
  r.gfl = event.params.gfl;
  r.rewardDps = reward;
  r.accruedDps = event.params.accruedDps;
  stamp(r, event);
  r.save();

  const d = new EmissionDelta();
  d.accruedDps = reward;
  updateEmissionAggregates(event, state, d);
  updateCapacityAggregates(event, state, 0, 1);
}

export function handleRebalanceBatch(event: RebalanceBatchEvent): void {
  const state = getOrCreateState(event.address, event.block);
  state.rebalanceCursor = event.params.toIndex.toI32();
  payKeeperBounty(event, state, event.params.bountyDps);

  const b = new RebalanceBatch(eventId(event));
  b.epoch = event.params.epoch.toI32();
  b.fromIndex = event.params.fromIndex.toI32();
  b.toIndex = event.params.toIndex.toI32();
  b.rebalanced = event.params.rebalanced.toI32();
  b.keeper = event.params.keeper;
  b.bountyDps = event.params.bountyDps;
  stamp(b, event);
  b.save();
}

// A collection batch of an ended epoch (issue 18 item 4): its per-provider bounty leaves the keeper budget, exactly
// as a rebalance batch's does; the providers it collected each came with their CapacityRecorded.
export function handleCollectionBatch(event: CollectionBatch): void {
  payKeeperBounty(event, getOrCreateState(event.address, event.block), event.params.bountyDps);

  const b = new CollectionBatchEntity(eventId(event));
  b.epoch = event.params.epoch.toI32();
  b.collected = event.params.collected.toI32();
  b.keeper = event.params.keeper;
  b.bountyDps = event.params.bountyDps;
  stamp(b, event);
  b.save();
}

export function handleRewardsFunded(event: RewardsFunded): void {
  const state = getOrCreateState(event.address, event.block);
  state.rewardPoolDps = event.params.rewardPoolDps;
  state.totalMintedDps = event.params.totalMintedDps;
  state.fundedDps = state.fundedDps.plus(event.params.rewardsDps);
  // the contract funds everything owed at once: what remains unfunded is 0 when every close was indexed
  state.unfundedDps = state.unfundedDps.minus(event.params.rewardsDps);
  state.save();

  const f = new RewardsFunding(eventId(event));
  f.rewardsDps = event.params.rewardsDps;
  f.fromPoolDps = event.params.fromPoolDps;
  f.mintedDps = event.params.mintedDps;
  f.rewardPoolDps = event.params.rewardPoolDps;
  f.totalMintedDps = event.params.totalMintedDps;
  stamp(f, event);
  f.save();

  const d = new EmissionDelta();
  d.fromPoolDps = event.params.fromPoolDps;
  d.mintedDps = event.params.mintedDps;
  updateEmissionAggregates(event, state, d);
}

export function handleRewardsClaimed(event: RewardsClaimed): void {
  const state = getOrCreateState(event.address, event.block);
  getOrCreateAccount(event.params.to, event.block);
  let p = EmissionProvider.load(event.params.provider);
  if (p == null) p = getOrCreateProvider(state, event.params.provider, state.currentEpoch, event);
  p.accruedDps = p.accruedDps.minus(event.params.amountDps);
  p.claimedDps = event.params.claimedDps;
  p.save();
  earn(p.id, "rewardsClaimedDps", event.params.amountDps, event);
  state.fundedDps = state.fundedDps.minus(event.params.amountDps);
  state.totalClaimedDps = state.totalClaimedDps.plus(event.params.amountDps);
  state.save();

  const c = new RewardClaim(eventId(event));
  c.provider = p.id;
  c.to = event.params.to;
  c.amountDps = event.params.amountDps;
  c.claimedDps = event.params.claimedDps;
  stamp(c, event);
  c.save();

  const d = new EmissionDelta();
  d.claimedDps = event.params.amountDps;
  d.claimCount = 1;
  updateEmissionAggregates(event, state, d);
}

export function handleReplenished(event: Replenished): void {
  const state = getOrCreateState(event.address, event.block);
  state.rewardPoolDps = event.params.rewardPoolDps;
  state.keeperBudgetDps = event.params.keeperBudgetDps;
  state.cumulativeGfl = event.params.cumulativeGfl;
  state.totalReplenishedDps = state.totalReplenishedDps.plus(event.params.dpsAmount);
  state.save();

  const r = new Replenishment(eventId(event));
  r.by = event.params.by;
  r.dpsAmount = event.params.dpsAmount;
  r.toPoolDps = event.params.toPoolDps;
  r.toKeeperDps = event.params.toKeeperDps;
  r.gflEquivalent = event.params.gflEquivalent;
  r.cumulativeGfl = event.params.cumulativeGfl;
  r.rewardPoolDps = event.params.rewardPoolDps;
  r.keeperBudgetDps = event.params.keeperBudgetDps;
  r.emissionBoundDps = event.params.emissionBoundDps;
  stamp(r, event);
  r.save();

  const d = new EmissionDelta();
  d.replenishedDps = event.params.dpsAmount;
  updateEmissionAggregates(event, state, d);
}

export function handleKeeperBudgetFunded(event: KeeperBudgetFunded): void {
  const state = getOrCreateState(event.address, event.block);
  state.keeperBudgetDps = event.params.keeperBudgetDps;
  state.save();

  const k = new KeeperBudgetFunding(eventId(event));
  k.by = event.params.by;
  k.dpsAmount = event.params.dpsAmount;
  k.keeperBudgetDps = event.params.keeperBudgetDps;
  stamp(k, event);
  k.save();

  const d = new EmissionDelta();
  d.keeperFundedDps = event.params.dpsAmount;
  updateEmissionAggregates(event, state, d);
}

function parameterChange(event: ethereum.Event, parameter: string): EmissionParameterChange {
  const c = new EmissionParameterChange(eventId(event));
  c.parameter = parameter;
  stamp(c, event);
  return c;
}

export function handleHalvingSpanSet(event: HalvingSpanSet): void {
  const state = getOrCreateState(event.address, event.block);
  state.halvingSpanGfl = event.params.spanGfl;
  state.nextThresholdGfl = event.params.nextThresholdGfl;
  state.save();
  const c = parameterChange(event, "halvingSpan");
  c.spanGfl = event.params.spanGfl;
  c.nextThresholdGfl = event.params.nextThresholdGfl;
  c.save();
}

export function handleMinSamplesSet(event: MinSamplesSet): void {
  const state = getOrCreateState(event.address, event.block);
  const value = event.params.minSamples.toI32();
  // the first one is initialize(), which puts the value in force at once; later ones apply from the next epoch
  if (state.minSamples == 0) state.minSamples = value;
  state.minSamplesNext = value;
  state.save();
  const c = parameterChange(event, "minSamples");
  c.minSamples = value;
  c.save();
}

export function handleKeeperConfigSet(event: KeeperConfigSet): void {
  const state = getOrCreateState(event.address, event.block);
  const bounty = event.params.bounty;
  state.closeBountyDps = bounty.closeBountyDps;
  state.perProviderBountyDps = bounty.perProviderBountyDps;
  state.maxBountyDps = bounty.maxBountyDps;
  state.keeperShareBps = event.params.keeperShareBps;
  state.keeperBatchSize = event.params.keeperBatchSize;
  state.save();
  const c = parameterChange(event, "keeperConfig");
  c.closeBountyDps = bounty.closeBountyDps;
  c.perProviderBountyDps = bounty.perProviderBountyDps;
  c.maxBountyDps = bounty.maxBountyDps;
  c.keeperShareBps = event.params.keeperShareBps;
  c.keeperBatchSize = event.params.keeperBatchSize;
  c.save();
}
