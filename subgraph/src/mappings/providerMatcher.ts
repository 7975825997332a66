// ProviderMatcher: scoring weights and limits. Selections are views (no events): the task registry's events record
// who was picked.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { LimitsSet, WeightsSet } from "../../generated/ProviderMatcher/ProviderMatcher";
import { ComputeConfigChange, MatcherConfig } from "../../generated/schema";
import { eventId, stamp, ZERO } from "../lib/common";
import { loadOrInitMatcherConfig } from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function getConfig(id: Bytes): MatcherConfig {
  return loadOrInitMatcherConfig(id);
}

function change(event: ethereum.Event, kind: string, values: BigInt[]): void {
  const e = new ComputeConfigChange(eventId(event));
  e.contract = event.address;
  e.kind = kind;
  e.values = values;
  stamp(e, event);
  e.save();
}

export function handleWeightsSet(event: WeightsSet): void {
  const w = event.params.weights;
  const c = getConfig(event.address);
  c.regionBps = w.region;
  c.priceBps = w.price;
  c.uptimeBps = w.uptime;
  c.reputationBps = w.reputation;
  c.capacityBps = w.capacity;
  c.slashRateBps = w.slashRate;
  c.stakeBps = w.stake;
  c.randomnessBps = w.randomness;
  c.save();
  change(event, "matcherWeights", [
    BigInt.fromI32(w.region),
    BigInt.fromI32(w.price),
    BigInt.fromI32(w.uptime),
    BigInt.fromI32(w.reputation),
    BigInt.fromI32(w.capacity),
    BigInt.fromI32(w.slashRate),
    BigInt.fromI32(w.stake),
    BigInt.fromI32(w.randomness),
  ]);
}

export function handleLimitsSet(event: LimitsSet): void {
  const a = event.params;
  const c = getConfig(event.address);
  c.stakeNormDps = a.stakeNormDps;
  c.maxPage = a.maxPage;
  c.maxPick = a.maxPick;
  c.save();
  change(event, "matcherLimits", [a.stakeNormDps, a.maxPage, a.maxPick]);
}
