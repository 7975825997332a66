// SpotMarket: orders and fills, matches, OTC deals, cancels, seats, TWAP, fees and CH price candles.
// Candles take each fill's price (the order's own price: what its maker paid or received); a match emits two fills
// and one OrdersMatched, which takes one trade and its amount back out of the volume (a match counts once).
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  Cancelled,
  DealSettled,
  FeeRecipientsSet,
  FeesAccrued,
  FeesDistributed,
  FeesSet,
  MinNonceRaised,
  OrderFilled,
  OrdersMatched,
  SeatStaked,
  SeatTiersSet,
  SeatUnstakeRequested,
  SeatWithdrawn,
  TwapParamsSet,
  TwapUpdated,
  UnstakeDelaySet,
} from "../../generated/SpotMarket/SpotMarket";
import {
  SpotCancel,
  SpotConfigChange,
  SpotDeal,
  SpotFill,
  SpotMarketState,
  SpotMatch,
  SpotOrder,
  SpotTrader,
  SpotTwapObservation,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { Bucket, Series } from "../lib/buckets";
import { initSpotOrder, initSpotTrader, loadOrInitSpotMarketState } from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function getState(address: Address): SpotMarketState {
  return loadOrInitSpotMarketState(address);
}

function getOrder(hash: Bytes, maker: Bytes, price: BigInt): SpotOrder {
  let o = SpotOrder.load(hash);
  if (o == null) {
    o = initSpotOrder(hash);
    o.maker = maker;
    o.priceWad = price;
  }
  return o;
}

function getTrader(address: Bytes, event: ethereum.Event): SpotTrader {
  let t = SpotTrader.load(address);
  if (t == null) {
    t = initSpotTrader(address);
    t.account = getOrCreateAccount(address, event.block).id;
  }
  t.updatedAt = event.block.timestamp;
  return t;
}

function config(event: ethereum.Event, kind: string, addresses: Bytes[], values: BigInt[], values2: BigInt[]): void {
  const e = new SpotConfigChange(eventId(event));
  e.kind = kind;
  e.addresses = addresses;
  e.values = values;
  e.values2 = values2;
  e.blockNumber = event.block.number;
  e.timestamp = event.block.timestamp;
  e.transactionHash = event.transaction.hash;
  e.save();
}

/** SpotCandleDay / SpotCandleHour: a candle opens at the price of the first event in it. */
const SERIES = new Series("SpotCandleDay", "SpotCandleHour", "date", "date", "market");

function candles(event: ethereum.Event, price: BigInt): Bucket[] {
  const buckets = SERIES.open(event.address, event);
  for (let i = 0; i < buckets.length; i++) if (buckets[i].fresh) buckets[i].candle("*PriceWad", price, price);
  return buckets;
}

/** A price print (fill or deal) with `volume` added to the order-book (otc = false) or OTC volume. */
function print(event: ethereum.Event, price: BigInt, volume: BigInt, trades: i32, otc: boolean): void {
  const buckets = candles(event, price);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.candle("*PriceWad", price, price).add(otc ? "otcVolumeCh" : "volumeCh", volume).count("tradeCount", trades);
    b.save();
  }
}

export function handleOrderFilled(event: OrderFilled): void {
  const p = event.params;
  const o = getOrder(p.orderHash, p.maker, p.priceWad);
  o.filledCh = p.filledAfterCh;
  o.remainingCh = p.remainingCh;
  o.makerFeesUsdc = o.makerFeesUsdc.plus(p.makerFeeUsdc);
  o.fillCount = o.fillCount + 1;
  o.updatedAt = event.block.timestamp;
  o.save();
  getOrCreateAccount(p.maker, event.block);
  getOrCreateAccount(p.counterparty, event.block);
  const f = new SpotFill(eventId(event));
  f.order = o.id;
  f.maker = p.maker;
  f.counterparty = p.counterparty;
  f.amountCh = p.amountCh;
  f.priceWad = p.priceWad;
  f.filledAfterCh = p.filledAfterCh;
  f.remainingCh = p.remainingCh;
  f.makerFeeUsdc = p.makerFeeUsdc;
  f.counterpartyFeeUsdc = p.counterpartyFeeUsdc;
  stamp(f, event);
  f.save();
  const s = getState(event.address);
  s.volumeCh = s.volumeCh.plus(p.amountCh);
  s.tradeCount = s.tradeCount + 1;
  s.lastPriceWad = p.priceWad;
  s.save();
  print(event, p.priceWad, p.amountCh, 1, false);
}

export function handleOrdersMatched(event: OrdersMatched): void {
  const p = event.params;
  const m = new SpotMatch(eventId(event));
  m.buyOrder = p.buyHash;
  m.sellOrder = p.sellHash;
  m.matcher = p.matcher;
  m.amountCh = p.amountCh;
  m.spreadUsdc = p.spreadUsdc;
  m.midPriceWad = p.twapPriceWad;
  stamp(m, event);
  m.save();
  // the two fills counted the match twice
  const s = getState(event.address);
  s.volumeCh = s.volumeCh.minus(p.amountCh);
  s.tradeCount = s.tradeCount - 1;
  s.save();
  const buckets = candles(event, p.twapPriceWad);
  for (let i = 0; i < buckets.length; i++) {
    buckets[i].add("volumeCh", p.amountCh.neg()).count("tradeCount", -1);
    buckets[i].save();
  }
}

export function handleDealSettled(event: DealSettled): void {
  const p = event.params;
  getOrCreateAccount(p.seller, event.block);
  getOrCreateAccount(p.buyer, event.block);
  const d = new SpotDeal(eventId(event));
  d.dealHash = p.dealHash;
  d.seller = p.seller;
  d.buyer = p.buyer;
  d.amountCh = p.amountCh;
  d.priceWad = p.priceWad;
  d.buyerPaidUsdc = p.buyerPaidUsdc;
  d.sellerReceivedUsdc = p.sellerReceivedUsdc;
  stamp(d, event);
  d.save();
  const s = getState(event.address);
  s.otcVolumeCh = s.otcVolumeCh.plus(p.amountCh);
  s.dealCount = s.dealCount + 1;
  s.save();
  print(event, p.priceWad, p.amountCh, 0, true);
}

export function handleCancelled(event: Cancelled): void {
  const p = event.params;
  const o = SpotOrder.load(p.hash);
  if (o != null) {
    o.cancelled = true;
    o.updatedAt = event.block.timestamp;
    o.save();
  }
  const c = new SpotCancel(eventId(event));
  c.hash = p.hash;
  c.by = p.by;
  c.nonce = p.nonce;
  c.filledCh = p.filledCh;
  c.blockNumber = event.block.number;
  c.timestamp = event.block.timestamp;
  c.transactionHash = event.transaction.hash;
  c.save();
}

export function handleMinNonceRaised(event: MinNonceRaised): void {
  const p = event.params;
  const t = getTrader(p.account, event);
  t.minNonce = p.minNonce;
  t.save();
  const c = new SpotCancel(eventId(event));
  c.by = p.account;
  c.nonce = p.minNonce;
  c.filledCh = ZERO;
  c.blockNumber = event.block.number;
  c.timestamp = event.block.timestamp;
  c.transactionHash = event.transaction.hash;
  c.save();
}

export function handleSeatStaked(event: SeatStaked): void {
  const p = event.params;
  const t = getTrader(p.account, event);
  t.seatStakedDps = p.stakedAfterDps;
  t.discountBps = p.discountBps;
  t.save();
}

export function handleSeatUnstakeRequested(event: SeatUnstakeRequested): void {
  const p = event.params;
  const t = getTrader(p.account, event);
  t.seatStakedDps = p.stakedAfterDps;
  t.seatPendingDps = p.pendingAfterDps;
  t.seatUnlockAt = p.unlockAt;
  t.discountBps = p.discountBps;
  t.save();
}

export function handleSeatWithdrawn(event: SeatWithdrawn): void {
  const p = event.params;
  const t = getTrader(p.account, event);
  t.seatPendingDps = t.seatPendingDps.minus(p.amountDps);
  t.seatWithdrawnDps = t.seatWithdrawnDps.plus(p.amountDps);
  t.save();
}

export function handleTwapUpdated(event: TwapUpdated): void {
  const p = event.params;
  const s = getState(event.address);
  s.twapPriceWad = p.priceWad;
  s.twapObservationCount = p.observationCount;
  s.save();
  const o = new SpotTwapObservation(eventId(event));
  o.priceWad = p.priceWad;
  o.priceCumulative = p.priceCumulative;
  o.observedAt = p.timestamp;
  o.observationIndex = p.observationIndex;
  o.observationCount = p.observationCount;
  o.blockNumber = event.block.number;
  o.transactionHash = event.transaction.hash;
  o.save();
  const buckets = candles(event, p.priceWad);
  for (let i = 0; i < buckets.length; i++) {
    buckets[i].set("twapPriceWad", p.priceWad);
    buckets[i].save();
  }
}

export function handleFeesAccrued(event: FeesAccrued): void {
  const s = getState(event.address);
  s.feesAccruedUsdc = s.feesAccruedUsdc.plus(event.params.amountUsdc);
  s.pendingFeesUsdc = event.params.pendingAfterUsdc;
  s.save();
}

export function handleFeesDistributed(event: FeesDistributed): void {
  const s = getState(event.address);
  s.feesToInsuranceUsdc = s.feesToInsuranceUsdc.plus(event.params.insuranceUsdc);
  s.feesToTreasuryUsdc = s.feesToTreasuryUsdc.plus(event.params.treasuryUsdc);
  s.pendingFeesUsdc = ZERO;
  s.save();
}

export function handleFeesSet(event: FeesSet): void {
  const p = event.params;
  const s = getState(event.address);
  s.makerFeeBps = p.makerFeeBps;
  s.takerFeeBps = p.takerFeeBps;
  s.insuranceShareBps = p.insuranceShareBps;
  s.save();
  config(event, "fees", [], [p.makerFeeBps, p.takerFeeBps, p.insuranceShareBps], []);
}

export function handleFeeRecipientsSet(event: FeeRecipientsSet): void {
  const p = event.params;
  const s = getState(event.address);
  s.treasury = p.treasury;
  s.insuranceFund = p.insuranceFund;
  s.save();
  config(event, "feeRecipients", [p.treasury, p.insuranceFund], [], []);
}

export function handleSeatTiersSet(event: SeatTiersSet): void {
  config(event, "seatTiers", [], event.params.minStakeDps, event.params.discountBps);
}

export function handleUnstakeDelaySet(event: UnstakeDelaySet): void {
  const s = getState(event.address);
  s.unstakeDelaySec = event.params.unstakeDelaySec;
  s.save();
  config(event, "unstakeDelay", [], [event.params.unstakeDelaySec], []);
}

export function handleTwapParamsSet(event: TwapParamsSet): void {
  const p = event.params;
  const s = getState(event.address);
  s.twapIntervalSec = p.observationIntervalSec;
  s.twapMinAmountCh = p.minAmountCh;
  s.save();
  config(event, "twapParams", [], [p.observationIntervalSec, p.minAmountCh], []);
}
