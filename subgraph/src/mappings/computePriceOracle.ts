// ComputePriceOracle: configuration (feed, bounds, sequencer feed, spot source) and the prices transactions pin.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  OracleBoundsSet,
  OracleFeedSet,
  OraclePricePinned,
  OracleSequencerFeedSet,
  OracleSpotSourceSet,
} from "../../generated/ComputePriceOracle/ComputePriceOracle";
import { OracleConfig, OracleConfigChange, OraclePricePin } from "../../generated/schema";
import { eventId, stamp, ZERO } from "../lib/common";
import { loadOrInitOracleConfig } from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function getConfig(address: Address): OracleConfig {
  return loadOrInitOracleConfig(address);
}

function change(event: ethereum.Event, kind: string, target: Bytes | null, values: BigInt[]): void {
  const e = new OracleConfigChange(eventId(event));
  e.oracle = event.address;
  e.kind = kind;
  e.target = target;
  e.values = values;
  stamp(e, event);
  e.save();
}

export function handleOracleFeedSet(event: OracleFeedSet): void {
  const p = event.params;
  const c = getConfig(event.address);
  c.feed = p.feed;
  c.heartbeatSec = p.heartbeatSec;
  c.decimals = p.decimals;
  c.save();
  change(event, "feed", p.feed, [p.heartbeatSec, BigInt.fromI32(p.decimals)]);
}

export function handleOracleBoundsSet(event: OracleBoundsSet): void {
  const p = event.params;
  const c = getConfig(event.address);
  c.minPriceWad = p.minPriceWad;
  c.maxPriceWad = p.maxPriceWad;
  c.save();
  change(event, "bounds", null, [p.minPriceWad, p.maxPriceWad]);
}

export function handleOracleSequencerFeedSet(event: OracleSequencerFeedSet): void {
  const p = event.params;
  const c = getConfig(event.address);
  c.sequencerFeed = p.feed;
  c.gracePeriodSec = p.gracePeriodSec;
  c.save();
  change(event, "sequencerFeed", p.feed, [p.gracePeriodSec]);
}

export function handleOracleSpotSourceSet(event: OracleSpotSourceSet): void {
  const p = event.params;
  const c = getConfig(event.address);
  c.spotSource = p.source;
  c.spotWindowSec = p.windowSec;
  c.maxDeviationBps = p.maxDeviationBps;
  c.save();
  change(event, "spotSource", p.source, [p.windowSec, BigInt.fromI32(p.maxDeviationBps)]);
}

export function handleOraclePricePinned(event: OraclePricePinned): void {
  const p = event.params;
  const c = getConfig(event.address);
  c.lastPriceWad = p.priceWad;
  c.lastPinnedAt = event.block.timestamp;
  c.pinCount = c.pinCount + 1;
  c.save();
  const e = new OraclePricePin(eventId(event));
  e.oracle = event.address;
  e.priceWad = p.priceWad;
  e.pinnedBy = p.pinnedBy;
  e.blockNumber = event.block.number;
  e.timestamp = event.block.timestamp;
  e.transactionHash = event.transaction.hash;
  e.save();
}
