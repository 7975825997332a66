// PerpMarket: delayed orders (committed, executed, cancelled), trades, positions, funding (every index update),
// liquidations the vault took over, fee split, burn reserve, keeper bounties and vault capital; hourly and daily open
// interest, volume, fees and funding-rate candles.
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import {
  BurnReserveFlushed,
  BurnSinkSet,
  FeaturePauseSet,
  FundingPoked,
  FundingSettled,
  KeeperBountyClaimed,
  OrderCancelled,
  OrderCommitted,
  OrderExecuted,
  PerpLiquidated,
  PerpParamsSet,
  PerpTraded,
  Upgraded,
  VaultCapitalMoved,
} from "../../generated/PerpMarket/PerpMarket";
import {
  FundingUpdate,
  PerpFundingSettlement,
  PerpLiquidation,
  PerpMarket,
  PerpMarketDayData,
  PerpMarketHourData,
  PerpOrderEvent,
  PerpPosition,
  PerpTrade,
} from "../../generated/schema";
import {
  eventId,
  getOrCreateAccount,
  recordFeaturePause,
  recordUpgrade,
  SECONDS_PER_DAY,
  SECONDS_PER_HOUR,
  ZERO,
} from "../lib/common";
import { notionalUsdc } from "../lib/markets";

const NAME = "PerpMarket";

function getMarket(address: Address): PerpMarket {
  let m = PerpMarket.load(address);
  if (m == null) {
    m = new PerpMarket(address);
    m.fundingIndexWad = ZERO;
    m.fundingRateWad = ZERO;
    m.lastFundingTime = ZERO;
    m.fundingRateAsOf = ZERO;
    m.lastIndexPriceWad = ZERO;
    m.lastFillPriceWad = ZERO;
    m.longOiCh = ZERO;
    m.shortOiCh = ZERO;
    m.volumeCh = ZERO;
    m.volumeUsdc = ZERO;
    m.tradeCount = 0;
    m.liquidationCount = 0;
    m.liquidatedCh = ZERO;
    m.feesLpUsdc = ZERO;
    m.feesInsuranceUsdc = ZERO;
    m.feesBurnUsdc = ZERO;
    m.burnReserveUsdc = ZERO;
    m.burnFlushedUsdc = ZERO;
    m.keeperBountiesUsdc = ZERO;
    m.keeperClaimedUsdc = ZERO;
    m.fundingSettledUsdc = ZERO;
    m.poolUsdc = ZERO;
    m.vaultEquityUsdc = ZERO;
    m.vaultNetFundedUsdc = ZERO;
    m.skewScaleCh = ZERO;
    m.maxFundingVelocityWad = ZERO;
    m.maxFundingRateWad = ZERO;
    m.makerFeeBps = 0;
    m.takerFeeBps = 0;
    m.maxOpenInterestCh = ZERO;
    m.maxPositionCh = ZERO;
    m.insuranceShareBps = 0;
    m.burnShareBps = 0;
    m.lpReserveBps = 0;
    m.minTradeCh = ZERO;
    m.pokeBountyUsdc = ZERO;
    m.pokeIntervalSec = ZERO;
    m.minOrderDelaySec = 0;
    m.maxOrderDelaySec = ZERO;
    m.executionFeeUsdc = ZERO;
    m.pendingOrders = 0;
    m.orderFeesHeldUsdc = ZERO;
    m.ordersCommitted = 0;
    m.ordersExecuted = 0;
    m.ordersCancelled = 0;
    m.executionFeesPaidUsdc = ZERO;
  }
  return m;
}

function getPosition(market: Address, account: Address, event: ethereum.Event): PerpPosition {
  const id = market.concat(account);
  let p = PerpPosition.load(id);
  if (p == null) {
    p = new PerpPosition(id);
    p.market = market;
    p.account = getOrCreateAccount(account, event.block).id;
    p.sizeCh = ZERO;
    p.openNotionalUsdc = ZERO;
    p.fundingUsdc = ZERO;
    p.pendingFundingUsdc = ZERO;
    p.fundingSnapshotWad = ZERO;
    p.feesUsdc = ZERO;
    p.volumeCh = ZERO;
    p.tradeCount = 0;
    p.liquidatedCh = ZERO;
  }
  p.updatedAt = event.block.timestamp;
  return p;
}

function day(m: PerpMarket, event: ethereum.Event): PerpMarketDayData {
  const n = event.block.timestamp.toI32() / SECONDS_PER_DAY;
  const id = m.id.concatI32(n);
  let d = PerpMarketDayData.load(id);
  if (d == null) {
    d = new PerpMarketDayData(id);
    d.market = m.id;
    d.date = n * SECONDS_PER_DAY;
    d.volumeCh = ZERO;
    d.volumeUsdc = ZERO;
    d.tradeCount = 0;
    d.liquidationCount = 0;
    d.feesUsdc = ZERO;
    d.fundingRateOpenWad = m.fundingRateWad;
    d.fundingRateHighWad = m.fundingRateWad;
    d.fundingRateLowWad = m.fundingRateWad;
    d.fundingRateCloseWad = m.fundingRateWad;
    d.fundingIndexWad = m.fundingIndexWad;
    d.indexPriceWad = m.lastIndexPriceWad;
    d.longOiCh = m.longOiCh;
    d.shortOiCh = m.shortOiCh;
    d.openInterestHighCh = m.longOiCh.plus(m.shortOiCh);
  }
  return d;
}

function hour(m: PerpMarket, event: ethereum.Event): PerpMarketHourData {
  const n = event.block.timestamp.toI32() / SECONDS_PER_HOUR;
  const id = m.id.concatI32(n);
  let h = PerpMarketHourData.load(id);
  if (h == null) {
    h = new PerpMarketHourData(id);
    h.market = m.id;
    h.date = n * SECONDS_PER_HOUR;
    h.volumeCh = ZERO;
    h.volumeUsdc = ZERO;
    h.tradeCount = 0;
    h.liquidationCount = 0;
    h.feesUsdc = ZERO;
    h.fundingRateOpenWad = m.fundingRateWad;
    h.fundingRateHighWad = m.fundingRateWad;
    h.fundingRateLowWad = m.fundingRateWad;
    h.fundingRateCloseWad = m.fundingRateWad;
    h.fundingIndexWad = m.fundingIndexWad;
    h.indexPriceWad = m.lastIndexPriceWad;
    h.longOiCh = m.longOiCh;
    h.shortOiCh = m.shortOiCh;
    h.openInterestHighCh = m.longOiCh.plus(m.shortOiCh);
  }
  return h;
}

/**
 * Rolls the market's post-state into its day and hour buckets: volume, trades, liquidations and fees given, open
 * interest and the funding rate / index / index price as they stand after the event.
 */
function aggregate(
  m: PerpMarket,
  event: ethereum.Event,
  volumeCh: BigInt,
  volumeUsdc: BigInt,
  trades: i32,
  liquidations: i32,
  feesUsdc: BigInt,
): void {
  const oi = m.longOiCh.plus(m.shortOiCh);
  const rate = m.fundingRateWad;
  const d = day(m, event);
  d.longOiCh = m.longOiCh;
  d.shortOiCh = m.shortOiCh;
  if (oi.gt(d.openInterestHighCh)) d.openInterestHighCh = oi;
  d.volumeCh = d.volumeCh.plus(volumeCh);
  d.volumeUsdc = d.volumeUsdc.plus(volumeUsdc);
  d.tradeCount = d.tradeCount + trades;
  d.liquidationCount = d.liquidationCount + liquidations;
  d.feesUsdc = d.feesUsdc.plus(feesUsdc);
  if (rate.gt(d.fundingRateHighWad)) d.fundingRateHighWad = rate;
  if (rate.lt(d.fundingRateLowWad)) d.fundingRateLowWad = rate;
  d.fundingRateCloseWad = rate;
  d.fundingIndexWad = m.fundingIndexWad;
  d.indexPriceWad = m.lastIndexPriceWad;
  d.save();
  const h = hour(m, event);
  h.longOiCh = m.longOiCh;
  h.shortOiCh = m.shortOiCh;
  if (oi.gt(h.openInterestHighCh)) h.openInterestHighCh = oi;
  h.volumeCh = h.volumeCh.plus(volumeCh);
  h.volumeUsdc = h.volumeUsdc.plus(volumeUsdc);
  h.tradeCount = h.tradeCount + trades;
  h.liquidationCount = h.liquidationCount + liquidations;
  h.feesUsdc = h.feesUsdc.plus(feesUsdc);
  if (rate.gt(h.fundingRateHighWad)) h.fundingRateHighWad = rate;
  if (rate.lt(h.fundingRateLowWad)) h.fundingRateLowWad = rate;
  h.fundingRateCloseWad = rate;
  h.fundingIndexWad = m.fundingIndexWad;
  h.indexPriceWad = m.lastIndexPriceWad;
  h.save();
}

function funding(event: ethereum.Event, m: PerpMarket, kind: string, index: BigInt, rate: BigInt): FundingUpdate {
  const f = new FundingUpdate(eventId(event));
  f.market = m.id;
  f.kind = kind;
  f.fundingIndexWad = index;
  f.fundingRateWad = rate;
  f.blockNumber = event.block.number;
  f.timestamp = event.block.timestamp;
  f.transactionHash = event.transaction.hash;
  f.logIndex = event.logIndex;
  return f;
}

export function handlePerpTraded(event: PerpTraded): void {
  const p = event.params;
  const m = getMarket(event.address);
  // Opening the day/hour buckets before the post-state lands keeps their open funding rate the previous close.
  day(m, event).save();
  hour(m, event).save();
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
  t.blockNumber = event.block.number;
  t.timestamp = event.block.timestamp;
  t.transactionHash = event.transaction.hash;
  t.logIndex = event.logIndex;
  t.save();

  const f = funding(event, m, "trade", p.fundingIndexWad, p.fundingRateWad);
  f.indexPriceWad = p.indexPriceWad;
  f.save();
  aggregate(m, event, absDelta, notional, 1, 0, fees);
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
  s.blockNumber = event.block.number;
  s.timestamp = event.block.timestamp;
  s.transactionHash = event.transaction.hash;
  s.logIndex = event.logIndex;
  s.save();
}

export function handleFundingPoked(event: FundingPoked): void {
  const p = event.params;
  const m = getMarket(event.address);
  day(m, event).save();
  hour(m, event).save();
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
  aggregate(m, event, ZERO, ZERO, 0, 0, ZERO);
}

export function handlePerpLiquidated(event: PerpLiquidated): void {
  const p = event.params;
  const m = getMarket(event.address);
  day(m, event).save();
  hour(m, event).save();
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
  l.blockNumber = event.block.number;
  l.timestamp = event.block.timestamp;
  l.transactionHash = event.transaction.hash;
  l.logIndex = event.logIndex;
  l.save();
  const f = funding(event, m, "liquidation", p.fundingIndexWad, p.fundingRateWad);
  f.indexPriceWad = p.priceWad;
  f.save();
  aggregate(m, event, ZERO, ZERO, 0, 1, ZERO);
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

/** The order's event entity with the common fields (the handler adds its own and saves it once: immutable). */
function orderEvent(
  event: ethereum.Event,
  kind: string,
  account: Address,
  feeUsdc: BigInt,
  pending: BigInt,
): PerpOrderEvent {
  const e = new PerpOrderEvent(eventId(event));
  e.market = event.address;
  e.kind = kind;
  e.account = account;
  e.feeUsdc = feeUsdc;
  e.pendingOrders = pending.toI32();
  e.blockNumber = event.block.number;
  e.timestamp = event.block.timestamp;
  e.transactionHash = event.transaction.hash;
  e.logIndex = event.logIndex;
  return e;
}

export function handleOrderCommitted(event: OrderCommitted): void {
  const p = event.params;
  getOrCreateAccount(p.account, event.block);
  const m = getMarket(event.address);
  m.pendingOrders = p.pendingOrders.toI32();
  m.orderFeesHeldUsdc = m.orderFeesHeldUsdc.plus(p.feeUsdc);
  m.ordersCommitted = m.ordersCommitted + 1;
  m.save();
  const e = orderEvent(event, "committed", p.account, p.feeUsdc, p.pendingOrders);
  e.sizeDeltaCh = p.sizeDeltaCh;
  e.acceptablePriceWad = p.acceptablePriceWad;
  e.closeAll = p.closeAll;
  e.priceTime = p.priceTime;
  e.expiresAt = p.expiresAt;
  e.marginUsdc = p.marginUsdc;
  e.save();
}

export function handleOrderExecuted(event: OrderExecuted): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.pendingOrders = p.pendingOrders.toI32();
  m.orderFeesHeldUsdc = m.orderFeesHeldUsdc.minus(p.feeUsdc);
  m.ordersExecuted = m.ordersExecuted + 1;
  m.executionFeesPaidUsdc = m.executionFeesPaidUsdc.plus(p.feeUsdc);
  m.save();
  const e = orderEvent(event, "executed", p.account, p.feeUsdc, p.pendingOrders);
  e.by = p.executor;
  e.roundId = p.roundId;
  e.priceWad = p.priceWad;
  e.save();
}

export function handleOrderCancelled(event: OrderCancelled): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.pendingOrders = p.pendingOrders.toI32();
  m.orderFeesHeldUsdc = m.orderFeesHeldUsdc.minus(p.feeUsdc);
  m.ordersCancelled = m.ordersCancelled + 1;
  m.executionFeesPaidUsdc = m.executionFeesPaidUsdc.plus(p.feeUsdc);
  m.save();
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

export function handleFeaturePauseSet(event: FeaturePauseSet): void {
  recordFeaturePause(event, NAME, event.params.feature, event.params.paused, event.params.by);
}

export function handleUpgraded(event: Upgraded): void {
  recordUpgrade(event, NAME, event.params.implementation);
}
