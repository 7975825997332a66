// PerpMarket: delayed orders (committed, executed, cancelled), trades, positions, funding (every index update),
// liquidations the vault took over, fee split, burn reserve, keeper bounties and vault capital; hourly and daily open
// interest, volume, fees and funding-rate candles.
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import {
  BurnReserveFlushed,
  BurnSinkSet,
  FundingPoked,
  FundingSettled,
  KeeperBountyClaimed,
  OrderCancelled,
  OrderCommitted,
  OrderExecuted,
  PerpLiquidated,
  PerpParamsSet,
  PerpTraded,
  VaultCapitalMoved,
} from "../../generated/PerpMarket/PerpMarket";
import {
  FundingUpdate,
  PerpFundingSettlement,
  PerpLiquidation,
  PerpMarket,
  PerpOrderEvent,
  PerpPosition,
  PerpTrade,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { orderStep } from "../lib/orders";
import { initPerpPosition, loadOrInitPerpMarket } from "../../generated/defaults";
import { Series } from "../lib/buckets";
import { notionalUsdc } from "../lib/markets";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function getMarket(address: Address): PerpMarket {
  return loadOrInitPerpMarket(address);
}

function getPosition(market: Address, account: Address, event: ethereum.Event): PerpPosition {
  const id = market.concat(account);
  let p = PerpPosition.load(id);
  if (p == null) {
    p = initPerpPosition(id);
    p.market = market;
    p.account = getOrCreateAccount(account, event.block).id;
  }
  p.updatedAt = event.block.timestamp;
  return p;
}

/** PerpMarketDayData / PerpMarketHourData */
const SERIES = new Series("PerpMarketDayData", "PerpMarketHourData", "date", "date", "market");

/** The market as it stood before the event: a new bucket opens at these values. */
class Before {
  rate: BigInt;
  oi: BigInt;
  constructor(m: PerpMarket) {
    this.rate = m.fundingRateWad;
    this.oi = m.longOiCh.plus(m.shortOiCh);
  }
}

/**
 * Rolls the market's post-state into its day and hour buckets: volume, trades, liquidations and fees given, open
 * interest and the funding rate / index / index price as they stand after the event (a new bucket opens at `before`).
 */
function aggregate(
  m: PerpMarket,
  before: Before,
  event: ethereum.Event,
  volumeCh: BigInt,
  volumeUsdc: BigInt,
  trades: i32,
  liquidations: i32,
  feesUsdc: BigInt,
): void {
  const buckets = SERIES.open(m.id, event);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.set("longOiCh", m.longOiCh).set("shortOiCh", m.shortOiCh);
    b.range("openInterestHighCh", "", before.oi, m.longOiCh.plus(m.shortOiCh));
    b.add("volumeCh", volumeCh).add("volumeUsdc", volumeUsdc).add("feesUsdc", feesUsdc);
    b.count("tradeCount", trades).count("liquidationCount", liquidations);
    b.candle("fundingRate*Wad", before.rate, m.fundingRateWad);
    b.set("fundingIndexWad", m.fundingIndexWad).set("indexPriceWad", m.lastIndexPriceWad);
    b.save();
  }
}

function funding(event: ethereum.Event, m: PerpMarket, kind: string, index: BigInt, rate: BigInt): FundingUpdate {
  const f = new FundingUpdate(eventId(event));
  f.market = m.id;
  f.kind = kind;
  f.fundingIndexWad = index;
  f.fundingRateWad = rate;
  stamp(f, event);
  return f;
}

export function handlePerpTraded(event: PerpTraded): void {
  const p = event.params;
  const m = getMarket(event.address);
  // A bucket the event opens starts at the previous close (funding rate, open interest).
  const before = new Before(m);
  const absDelta = p.sizeDeltaCh.abs();
  const notional = notionalUsdc(absDelta, p.fillPriceWad);
  const fees = p.lpFeeUsdc.plus(p.insuranceFeeUsdc).plus(p.burnFeeUsdc);
  m.fundingIndexWad = p.fundingIndexWad;
  m.fundingRateWad = p.fundingRateWad;
  m.lastFundingTime = event.block.timestamp;
  m.fundingRateAsOf = event.block.timestamp;
  m.lastIndexPriceWad = p.indexPriceWad;
  m.lastFillPriceWad = p.fillPriceWad;
  m.longOiCh = p.longOiCh;
  m.shortOiCh = p.shortOiCh;
  m.volumeCh = m.volumeCh.plus(absDelta);
  m.volumeUsdc = m.volumeUsdc.plus(notional);
  m.tradeCount = m.tradeCount + 1;
  m.feesLpUsdc = m.feesLpUsdc.plus(p.lpFeeUsdc);
  m.feesInsuranceUsdc = m.feesInsuranceUsdc.plus(p.insuranceFeeUsdc);
  m.feesBurnUsdc = m.feesBurnUsdc.plus(p.burnFeeUsdc);
  m.burnReserveUsdc = m.burnReserveUsdc.plus(p.burnFeeUsdc);
  m.fundingSettledUsdc = m.fundingSettledUsdc.plus(p.fundingUsdc);
  m.save();

  const pos = getPosition(event.address, p.account, event);
  pos.sizeCh = p.sizeCh;
  pos.openNotionalUsdc = p.openNotionalUsdc;
  pos.fundingUsdc = pos.fundingUsdc.plus(p.fundingUsdc);
  // A trade settles the account's funding to the current index (pending funding included).
  pos.pendingFundingUsdc = ZERO;
  pos.fundingSnapshotWad = p.fundingIndexWad;
  pos.feesUsdc = pos.feesUsdc.plus(fees);
  pos.volumeCh = pos.volumeCh.plus(absDelta);
  pos.tradeCount = pos.tradeCount + 1;
  pos.save();

  const t = new PerpTrade(eventId(event));
  t.market = m.id;
  t.account = p.account;
  t.sizeDeltaCh = p.sizeDeltaCh;
  t.fillPriceWad = p.fillPriceWad;
  t.indexPriceWad = p.indexPriceWad;
  t.notionalUsdc = notional;
  t.sizeCh = p.sizeCh;
  t.openNotionalUsdc = p.openNotionalUsdc;
  t.fundingUsdc = p.fundingUsdc;
  t.lpFeeUsdc = p.lpFeeUsdc;
  t.insuranceFeeUsdc = p.insuranceFeeUsdc;
  t.burnFeeUsdc = p.burnFeeUsdc;
  t.fundingIndexWad = p.fundingIndexWad;
  t.fundingRateWad = p.fundingRateWad;
  t.longOiCh = p.longOiCh;
  t.shortOiCh = p.shortOiCh;
  stamp(t, event);
  t.save();

  const f = funding(event, m, "trade", p.fundingIndexWad, p.fundingRateWad);
  f.indexPriceWad = p.indexPriceWad;
  f.save();
  aggregate(m, before, event, absDelta, notional, 1, 0, fees);
}

export function handleFundingSettled(event: FundingSettled): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.fundingSettledUsdc = m.fundingSettledUsdc.plus(p.fundingUsdc);
  // settleFunding accrues the index to now; the event carries the index, not the rate (see fundingRateAsOf).
  m.fundingIndexWad = p.fundingIndexWad;
  m.lastFundingTime = event.block.timestamp;
  m.save();
  const pos = getPosition(event.address, p.account, event);
  pos.fundingUsdc = pos.fundingUsdc.plus(p.fundingUsdc);
  pos.pendingFundingUsdc = ZERO;
  pos.fundingSnapshotWad = p.fundingIndexWad;
  pos.save();
  const s = new PerpFundingSettlement(eventId(event));
  s.market = m.id;
  s.account = p.account;
  s.fundingUsdc = p.fundingUsdc;
  s.fundingIndexWad = p.fundingIndexWad;
  stamp(s, event);
  s.save();
}

export function handleFundingPoked(event: FundingPoked): void {
  const p = event.params;
  const m = getMarket(event.address);
  const before = new Before(m);
  m.fundingIndexWad = p.fundingIndexWad;
  m.fundingRateWad = p.fundingRateWad;
  m.lastFundingTime = event.block.timestamp;
  m.fundingRateAsOf = event.block.timestamp;
  m.lastIndexPriceWad = p.indexPriceWad;
  m.keeperBountiesUsdc = m.keeperBountiesUsdc.plus(p.bountyUsdc);
  m.save();
  const f = funding(event, m, "poke", p.fundingIndexWad, p.fundingRateWad);
  f.indexPriceWad = p.indexPriceWad;
  f.keeper = p.keeper;
  f.bountyUsdc = p.bountyUsdc;
  f.save();
  aggregate(m, before, event, ZERO, ZERO, 0, 0, ZERO);
}

export function handlePerpLiquidated(event: PerpLiquidated): void {
  const p = event.params;
  const m = getMarket(event.address);
  const before = new Before(m);
  const absDelta = p.sizeDeltaCh.abs();
  m.fundingIndexWad = p.fundingIndexWad;
  m.fundingRateWad = p.fundingRateWad;
  m.lastFundingTime = event.block.timestamp;
  m.fundingRateAsOf = event.block.timestamp;
  m.lastIndexPriceWad = p.priceWad;
  m.longOiCh = p.longOiCh;
  m.shortOiCh = p.shortOiCh;
  m.liquidationCount = m.liquidationCount + 1;
  m.liquidatedCh = m.liquidatedCh.plus(absDelta);
  m.save();
  const pos = getPosition(event.address, p.account, event);
  if (p.sizeCh.isZero() || pos.sizeCh.isZero()) pos.openNotionalUsdc = ZERO;
  else pos.openNotionalUsdc = pos.openNotionalUsdc.times(p.sizeCh.abs()).div(pos.sizeCh.abs());
  pos.sizeCh = p.sizeCh;
  pos.pendingFundingUsdc = p.pendingFundingUsdc;
  pos.fundingSnapshotWad = p.fundingIndexWad;
  pos.liquidatedCh = pos.liquidatedCh.plus(absDelta);
  pos.save();
  const l = new PerpLiquidation(eventId(event));
  l.market = m.id;
  l.account = p.account;
  l.sizeDeltaCh = p.sizeDeltaCh;
  l.priceWad = p.priceWad;
  l.sizeCh = p.sizeCh;
  l.pendingFundingUsdc = p.pendingFundingUsdc;
  l.longOiCh = p.longOiCh;
  l.shortOiCh = p.shortOiCh;
  stamp(l, event);
  l.save();
  const f = funding(event, m, "liquidation", p.fundingIndexWad, p.fundingRateWad);
  f.indexPriceWad = p.priceWad;
  f.save();
  aggregate(m, before, event, ZERO, ZERO, 0, 1, ZERO);
}

export function handlePerpParamsSet(event: PerpParamsSet): void {
  const x = event.params.params;
  const m = getMarket(event.address);
  m.skewScaleCh = x.skewScaleCh;
  m.maxFundingVelocityWad = x.maxFundingVelocityWad;
  m.maxFundingRateWad = x.maxFundingRateWad;
  m.makerFeeBps = x.makerFeeBps;
  m.takerFeeBps = x.takerFeeBps;
  m.maxOpenInterestCh = x.maxOpenInterestCh;
  m.maxPositionCh = x.maxPositionCh;
  m.insuranceShareBps = x.insuranceShareBps;
  m.burnShareBps = x.burnShareBps;
  m.lpReserveBps = x.lpReserveBps;
  m.minTradeCh = x.minTradeCh;
  m.pokeBountyUsdc = x.pokeBountyUsdc;
  m.pokeIntervalSec = x.pokeIntervalSec;
  m.minOrderDelaySec = x.minOrderDelaySec;
  m.maxOrderDelaySec = x.maxOrderDelaySec;
  m.executionFeeUsdc = x.executionFeeUsdc;
  m.save();
}

/** One order step (lib/orders): the market's counters, saved, and the order's event entity with the common fields. */
function orderEvent(
  event: ethereum.Event,
  kind: string,
  account: Address,
  fee: BigInt,
  pending: BigInt,
): PerpOrderEvent {
  const m = getMarket(event.address);
  const e = new PerpOrderEvent(eventId(event));
  e.market = event.address;
  orderStep(m, e, event, kind, account, fee, pending);
  m.save();
  return e;
}

export function handleOrderCommitted(event: OrderCommitted): void {
  const p = event.params;
  getOrCreateAccount(p.account, event.block);
  const e = orderEvent(event, "committed", p.account, p.feeUsdc, p.pendingOrders);
  e.sizeDeltaCh = p.sizeDeltaCh;
  e.acceptablePriceWad = p.acceptablePriceWad;
  e.closeAll = p.closeAll;
  e.priceTime = p.priceTime;
  e.expiresAt = p.expiresAt;
  e.marginUsdc = p.marginUsdc;
  e.save();
}

/** The executor's (canceller's) fee is a keeper credit like the poke bounty (PerpMarket._creditExecutor), unless the
 *  market's packed credit (uint40) would overflow: then it was paid into the caller's collateral instead. */
function creditExecutor(market: Address, feeUsdc: BigInt): void {
  if (feeUsdc.isZero()) return;
  const m = getMarket(market);
  const owedAfter = m.keeperBountiesUsdc.minus(m.keeperClaimedUsdc).plus(feeUsdc);
  if (owedAfter.gt(BigInt.fromString("1099511627775"))) return;
  m.keeperBountiesUsdc = m.keeperBountiesUsdc.plus(feeUsdc);
  m.save();
}

export function handleOrderExecuted(event: OrderExecuted): void {
  const p = event.params;
  creditExecutor(event.address, p.feeUsdc);
  const e = orderEvent(event, "executed", p.account, p.feeUsdc, p.pendingOrders);
  e.by = p.executor;
  e.roundId = p.roundId;
  e.priceWad = p.priceWad;
  e.save();
}

export function handleOrderCancelled(event: OrderCancelled): void {
  const p = event.params;
  creditExecutor(event.address, p.feeUsdc);
  const e = orderEvent(event, "cancelled", p.account, p.feeUsdc, p.pendingOrders);
  e.by = p.by;
  e.reason = p.reason;
  e.save();
}

export function handleBurnSinkSet(event: BurnSinkSet): void {
  const m = getMarket(event.address);
  // initialize() starts the funding clock (lastTime = now) and emits BurnSinkSet: the first one dates it.
  if (m.lastFundingTime.isZero()) {
    m.lastFundingTime = event.block.timestamp;
    m.fundingRateAsOf = event.block.timestamp;
  }
  m.burnSink = event.params.burnSink;
  m.save();
}

export function handleBurnReserveFlushed(event: BurnReserveFlushed): void {
  const m = getMarket(event.address);
  m.burnReserveUsdc = m.burnReserveUsdc.minus(event.params.amountUsdc);
  m.burnFlushedUsdc = m.burnFlushedUsdc.plus(event.params.amountUsdc);
  m.save();
}

export function handleKeeperBountyClaimed(event: KeeperBountyClaimed): void {
  const m = getMarket(event.address);
  m.keeperClaimedUsdc = m.keeperClaimedUsdc.plus(event.params.amountUsdc);
  m.save();
}

export function handleVaultCapitalMoved(event: VaultCapitalMoved): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.poolUsdc = p.poolUsdc;
  m.vaultEquityUsdc = p.vaultEquityUsdc;
  m.vaultNetFundedUsdc = m.vaultNetFundedUsdc.plus(p.amountUsdc);
  m.save();
}
