// RiskEngine: EWMA volatility updates (keeper-driven) and risk parameters per market.
import {
  MarketRiskParamsSet,
  MarketVolatilityUpdated,
  MarketVolParamsSet,
  TenorMarginSet,
  TenorVolatilityUpdated,
  TenorVolParamsSet,
  VolatilityParamsSet,
  VolatilityUpdated,
} from "../../generated/RiskEngine/RiskEngine";
import { Address, BigInt } from "@graphprotocol/graph-ts";
import {
  MarketRiskParams,
  MarketVolatility,
  TenorVolatility,
  VolatilityState,
  VolatilityUpdate,
} from "../../generated/schema";
import { eventId, stamp, ZERO } from "../lib/common";
import { configChange } from "../lib/clearing";
import {
  loadOrInitMarketVolatility,
  loadOrInitTenorVolatility,
  loadOrInitVolatilityState,
} from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function getState(address: Address): VolatilityState {
  return loadOrInitVolatilityState(address);
}

export function handleVolatilityUpdated(event: VolatilityUpdated): void {
  const p = event.params;
  const s = getState(event.address);
  s.priceWad = p.priceWad;
  s.varianceWad = p.varianceWad;
  s.sigmaWad = p.sigmaWad;
  s.updateCount = s.updateCount + 1;
  s.bountiesUsdc = s.bountiesUsdc.plus(p.bountyUsdc);
  s.updatedAt = event.block.timestamp;
  s.save();
  const u = new VolatilityUpdate(eventId(event));
  u.keeper = p.keeper;
  u.priceWad = p.priceWad;
  u.returnWad = p.returnWad;
  u.varianceWad = p.varianceWad;
  u.sigmaWad = p.sigmaWad;
  u.bountyUsdc = p.bountyUsdc;
  stamp(u, event);
  u.save();
}

export function handleVolatilityParamsSet(event: VolatilityParamsSet): void {
  const p = event.params;
  const s = getState(event.address);
  s.lambdaWad = p.lambdaWad;
  s.minUpdateInterval = p.minUpdateInterval;
  s.bountyUsdc = p.bountyUsdc;
  s.save();
  configChange(event, "volatilityParams", null, [], [p.lambdaWad, p.minUpdateInterval, p.bountyUsdc]);
}

export function handleMarketRiskParamsSet(event: MarketRiskParamsSet): void {
  const p = event.params;
  const r = event.params.params;
  let m = MarketRiskParams.load(p.market);
  if (m == null) m = new MarketRiskParams(p.market);
  m.imMultipleWad = r.imMultipleWad;
  m.mmMultipleWad = r.mmMultipleWad;
  m.imFloorWad = r.imFloorWad;
  m.mmFloorWad = r.mmFloorWad;
  m.updatedAt = event.block.timestamp;
  m.save();
  configChange(event, "marketRisk", p.market, [], [r.imMultipleWad, r.mmMultipleWad, r.imFloorWad, r.mmFloorWad]);
}

/** Copies a volatility model (a market's or a tenor bucket's: V is the entity, R the event's params tuple). */
function setModel<V, R>(v: V, r: R, at: BigInt): void {
  v.lambdaWad = r.lambdaWad;
  v.floorSigmaWad = r.floorSigmaWad;
  v.staleSigmaWad = r.staleSigmaWad;
  v.staleAfterSec = r.staleAfterSec;
  v.paramsSetAt = at;
}

/** Folds one σ update (the event's post-state: variance, σ before floor and staleness) into V and saves it. */
function foldUpdate<V, P>(v: V, p: P, at: BigInt): void {
  v.priceWad = p.priceWad;
  v.returnWad = p.returnWad;
  v.elapsedSec = p.elapsedSec;
  v.varianceWad = p.varianceWad;
  v.sigmaWad = p.sigmaWad;
  v.updateCount = v.updateCount + 1;
  v.bountiesUsdc = v.bountiesUsdc.plus(p.bountyUsdc);
  v.lastKeeper = p.keeper;
  v.updatedAt = at;
  v.save();
}

function getMarketVol(market: Address): MarketVolatility {
  const v = loadOrInitMarketVolatility(market);
  v.market = market;
  return v;
}

/** A market's own volatility model (issue 20 item 3); setting it again keeps the market's variance. */
export function handleMarketVolParamsSet(event: MarketVolParamsSet): void {
  const r = event.params.params;
  const v = getMarketVol(event.params.market);
  setModel(v, r, event.block.timestamp);
  v.save();
  configChange(
    event,
    "marketVolParams",
    event.params.market,
    [],
    [r.lambdaWad, r.floorSigmaWad, r.staleSigmaWad, r.staleAfterSec],
  );
}

/** One update of a market's σ: the event carries the post-state (variance, σ before floor and staleness). */
export function handleMarketVolatilityUpdated(event: MarketVolatilityUpdated): void {
  const p = event.params;
  foldUpdate(getMarketVol(p.market), p, event.block.timestamp);
}

function getTenorVol(market: Address, bucket: BigInt): TenorVolatility {
  const v = loadOrInitTenorVolatility(market.concatI32(bucket.toI32()));
  v.market = market;
  v.bucket = bucket.toI32();
  return v;
}

/** A futures market's tenor bucket model (issue 20 item 3); all zeros remove the bucket, its history stays. */
export function handleTenorVolParamsSet(event: TenorVolParamsSet): void {
  const r = event.params.params;
  const v = getTenorVol(event.params.market, event.params.bucket);
  setModel(v, r, event.block.timestamp);
  v.active = !r.staleAfterSec.isZero();
  v.save();
  configChange(
    event,
    "tenorVolParams",
    event.params.market,
    [],
    [event.params.bucket, r.lambdaWad, r.floorSigmaWad, r.staleSigmaWad, r.staleAfterSec],
  );
}

/** One update of a tenor bucket's σ (post-state, σ before floor and staleness). */
export function handleTenorVolatilityUpdated(event: TenorVolatilityUpdated): void {
  const p = event.params;
  foldUpdate(getTenorVol(p.market, p.bucket), p, event.block.timestamp);
}

/** Per-tenor futures margin switched on or off for a market (issue 20 item 3); kept on the market's σ entity. */
export function handleTenorMarginSet(event: TenorMarginSet): void {
  const v = getMarketVol(event.params.market);
  v.tenorMargin = event.params.enabled;
  v.tenorMarginSetAt = event.block.timestamp;
  v.save();
  configChange(event, "tenorMargin", event.params.market, [], [event.params.enabled ? BigInt.fromI32(1) : ZERO]);
}
