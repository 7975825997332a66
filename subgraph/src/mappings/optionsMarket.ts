// OptionsMarket: series, positions, options written / bought / sold / closed / transferred / exercised into futures,
// settlement prices (fixed, corrected) and settlements, fees and keeper bounties; hourly and daily volume, premium,
// fees and open interest. Series open interest comes from the events' post-state (OptionsWritten, OptionsClosed);
// the market's is their Σ (new − old per series).
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  FeeRecipientSet,
  FeesAccrued,
  FeesWithdrawn,
  FuturesExercised,
  FuturesMarketSet,
  KeeperPaid,
  ListingBondReleased,
  LongTransferred,
  MarginedBooked,
  MarginedClosed,
  MarginedLiquidated,
  MarginedSettled,
  MarginedWritten,
  MinNonceRaised,
  OfferCancelled,
  OfferFilled,
  OptionsClosed,
  OptionsWritten,
  ParamsSet,
  PositionSettled,
  PositionUpdated,
  SeriesDelisted,
  SeriesListed,
  SettlementPriceCorrected,
  SettlementModuleSet,
  SettlementPriceFixed,
  SettlementProgressed,
} from "../../generated/OptionsMarket/OptionsMarket";
import {
  OptionEvent,
  OptionMaker,
  OptionOffer,
  OptionPosition,
  OptionSeries,
  OptionsMarketState,
  OptionTrade,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { Series } from "../lib/buckets";
import { notionalUsdc, seriesKey, seriesPosition } from "../lib/markets";
import {
  initOptionMaker,
  initOptionOffer,
  initOptionPosition,
  initOptionSeries,
  loadOrInitOptionsMarketState,
} from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

function getMarket(address: Address): OptionsMarketState {
  return loadOrInitOptionsMarketState(address);
}

function loadSeries(event: ethereum.Event, seriesId: BigInt): OptionSeries | null {
  return OptionSeries.load(seriesKey(event.address, seriesId));
}

function getPosition(s: OptionSeries, account: Address, event: ethereum.Event): OptionPosition {
  return changetype<OptionPosition>(seriesPosition("OptionPosition", s.id, account, event));
}

/** OptionsDayData / OptionsHourData */
const SERIES = new Series("OptionsDayData", "OptionsHourData", "date", "date", "market");

class Flow {
  written: BigInt = ZERO;
  volume: BigInt = ZERO;
  premium: BigInt = ZERO;
  fees: BigInt = ZERO;
  trades: i32 = 0;
  exercised: BigInt = ZERO;
  payout: BigInt = ZERO;
}

function aggregate(m: OptionsMarketState, event: ethereum.Event, f: Flow): void {
  const buckets = SERIES.open(m.id, event);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.set("openInterestCh", m.openInterestCh);
    b.add("writtenCh", f.written).add("volumeCh", f.volume).add("premiumUsdc", f.premium).add("feesUsdc", f.fees);
    b.add("exercisedCh", f.exercised).add("payoutUsdc", f.payout).count("tradeCount", f.trades);
    b.save();
  }
}

function setOpenInterest(m: OptionsMarketState, s: OptionSeries, oi: BigInt): void {
  m.openInterestCh = m.openInterestCh.minus(s.openInterestCh).plus(oi);
  s.openInterestCh = oi;
}

function lifecycle(event: ethereum.Event, s: OptionSeries, kind: string): OptionEvent {
  const e = new OptionEvent(eventId(event));
  e.series = s.id;
  e.kind = kind;
  stamp(e, event);
  return e;
}

export function handleSeriesListed(event: SeriesListed): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.seriesCount = m.seriesCount + 1;
  m.liveSeries = p.liveSeries.toI32();
  m.save();
  const s = initOptionSeries(seriesKey(event.address, p.seriesId));
  s.market = m.id;
  s.seriesId = p.seriesId;
  s.kind = p.kind == 0 ? "Call" : "Put";
  s.onFutures = p.onFutures;
  s.futuresSeriesId = p.futuresSeriesId;
  s.expiry = p.expiry;
  s.strikeWad = p.strikeWad;
  s.capWad = p.capWad;
  s.listedBy = p.listedBy;
  s.status = "Trading";
  s.save();
}

export function handlePositionUpdated(event: PositionUpdated): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const pos = getPosition(s, p.account, event);
  pos.longCh = p.longCh;
  pos.shortCh = p.shortCh;
  pos.collateralUsdc = p.collateralUsdc;
  pos.save();
}

/**
 * What writing `sizeCh` options does (OptionsWritten, MarginedWritten): the open interest from the event's post-state,
 * the written size on the market, series and writer's position, and the lifecycle event. Each handler adds its own
 * fields, then save() stores all four and the day/hour written volume.
 */
class Writing {
  m: OptionsMarketState;
  pos: OptionPosition;
  e: OptionEvent;

  constructor(
    event: ethereum.Event,
    public s: OptionSeries,
    writer: Address,
    public sizeCh: BigInt,
    openInterestCh: BigInt,
    kind: string,
  ) {
    this.m = getMarket(event.address);
    setOpenInterest(this.m, s, openInterestCh);
    this.m.writtenCh = this.m.writtenCh.plus(sizeCh);
    s.writtenCh = s.writtenCh.plus(sizeCh);
    this.pos = getPosition(s, writer, event);
    this.pos.writtenCh = this.pos.writtenCh.plus(sizeCh);
    this.e = lifecycle(event, s, kind);
    this.e.account = writer;
    this.e.sizeCh = sizeCh;
  }

  save(event: ethereum.Event): void {
    this.m.save();
    this.s.save();
    this.pos.save();
    this.e.save();
    const f = new Flow();
    f.written = this.sizeCh;
    aggregate(this.m, event, f);
  }
}

export function handleOptionsWritten(event: OptionsWritten): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const w = new Writing(event, s, p.writer, p.sizeCh, p.openInterestCh, "written");
  s.postedUsdc = p.postedUsdc;
  w.e.amountUsdc = p.collateralUsdc;
  w.save(event);
}

export function handleOptionsClosed(event: OptionsClosed): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  setOpenInterest(m, s, p.openInterestCh);
  m.save();
  s.closedCh = s.closedCh.plus(p.sizeCh);
  s.releasedUsdc = p.seriesReleasedUsdc;
  s.save();
  const pos = getPosition(s, p.account, event);
  pos.releasedUsdc = pos.releasedUsdc.plus(p.releasedUsdc);
  pos.save();
  const e = lifecycle(event, s, "closed");
  e.account = p.account;
  e.sizeCh = p.sizeCh;
  e.releasedUsdc = p.releasedUsdc;
  e.save();
  aggregate(m, event, new Flow());
}

export function handleLongTransferred(event: LongTransferred): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const e = lifecycle(event, s, "transferred");
  e.account = p.from;
  e.counterparty = p.to;
  e.sizeCh = p.sizeCh;
  e.save();
}

function getOffer(hash: Bytes, maker: Bytes, isBuy: boolean): OptionOffer {
  let o = OptionOffer.load(hash);
  if (o == null) {
    o = initOptionOffer(hash);
    o.maker = maker;
    o.isBuy = isBuy;
  }
  return o;
}

export function handleOfferFilled(event: OfferFilled): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  const premium = notionalUsdc(p.sizeCh, p.premiumWad);
  const o = getOffer(p.offerHash, p.maker, p.isBuy);
  o.series = s.id;
  o.filledCh = p.filledAfterCh;
  o.fillCount = o.fillCount + 1;
  o.updatedAt = event.block.timestamp;
  o.save();
  const buyer = p.isBuy ? p.maker : p.taker;
  const seller = p.isBuy ? p.taker : p.maker;
  const b = getPosition(s, buyer, event);
  b.boughtCh = b.boughtCh.plus(p.sizeCh);
  b.premiumPaidUsdc = b.premiumPaidUsdc.plus(p.buyerPaidUsdc);
  b.save();
  const sl = getPosition(s, seller, event);
  sl.soldCh = sl.soldCh.plus(p.sizeCh);
  sl.premiumReceivedUsdc = sl.premiumReceivedUsdc.plus(p.sellerReceivedUsdc);
  sl.save();
  s.volumeCh = s.volumeCh.plus(p.sizeCh);
  s.premiumUsdc = s.premiumUsdc.plus(premium);
  s.tradeCount = s.tradeCount + 1;
  s.lastPremiumWad = p.premiumWad;
  s.save();
  m.volumeCh = m.volumeCh.plus(p.sizeCh);
  m.premiumUsdc = m.premiumUsdc.plus(premium);
  m.tradeCount = m.tradeCount + 1;
  m.save();
  const t = new OptionTrade(eventId(event));
  t.offer = o.id;
  t.series = s.id;
  t.maker = p.maker;
  t.taker = p.taker;
  t.buyer = buyer;
  t.seller = seller;
  t.sizeCh = p.sizeCh;
  t.premiumWad = p.premiumWad;
  t.buyerPaidUsdc = p.buyerPaidUsdc;
  t.sellerReceivedUsdc = p.sellerReceivedUsdc;
  t.feesUsdc = p.feesUsdc;
  t.filledAfterCh = p.filledAfterCh;
  stamp(t, event);
  t.save();
  const f = new Flow();
  f.volume = p.sizeCh;
  f.premium = premium;
  f.fees = p.feesUsdc;
  f.trades = 1;
  aggregate(m, event, f);
}

export function handleOfferCancelled(event: OfferCancelled): void {
  const p = event.params;
  const o = getOffer(p.offerHash, p.maker, false);
  o.filledCh = p.filledCh;
  o.cancelled = true;
  o.updatedAt = event.block.timestamp;
  o.save();
}

export function handleListingBondReleased(event: ListingBondReleased): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.listingBondUsdc = p.bondUsdc;
  s.listingBondRefunded = p.refunded;
  s.save();
}

export function handleSeriesDelisted(event: SeriesDelisted): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  m.liveSeries = p.liveSeries.toI32();
  // the bounty comes out of the forfeited listing bond (the rest arrives as FeesAccrued)
  m.keeperPaidUsdc = m.keeperPaidUsdc.plus(p.bountyUsdc);
  m.save();
  s.status = "Delisted";
  s.save();
  const e = lifecycle(event, s, "delisted");
  e.account = p.caller;
  e.bountyUsdc = p.bountyUsdc;
  e.save();
}

export function handleSettlementPriceFixed(event: SettlementPriceFixed): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  m.liveSeries = p.liveSeries.toI32();
  // the fixer's bounty comes out of the pending fee income (OptionsSettlement._fix; no FeesAccrued for it)
  m.pendingFeesUsdc = m.pendingFeesUsdc.minus(p.bountyUsdc);
  m.keeperPaidUsdc = m.keeperPaidUsdc.plus(p.bountyUsdc);
  m.save();
  s.status = "Fixed";
  s.settlementPriceWad = p.priceWad;
  s.payoffPerChWad = p.payoffPerChWad;
  s.disputeEndsAt = p.disputeEndsAt;
  s.save();
  const e = lifecycle(event, s, "priceFixed");
  e.account = p.fixedBy;
  e.priceWad = p.priceWad;
  e.payoffPerChWad = p.payoffPerChWad;
  e.bountyUsdc = p.bountyUsdc;
  e.save();
}

export function handleSettlementPriceCorrected(event: SettlementPriceCorrected): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.settlementPriceWad = p.newPriceWad;
  s.payoffPerChWad = p.payoffPerChWad;
  s.disputeEndsAt = p.disputeEndsAt;
  s.corrections = s.corrections + 1;
  s.save();
  const e = lifecycle(event, s, "priceCorrected");
  e.account = p.correctedBy;
  e.priceWad = p.newPriceWad;
  e.payoffPerChWad = p.payoffPerChWad;
  e.save();
}

export function handlePositionSettled(event: PositionSettled): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  m.payoutUsdc = m.payoutUsdc.plus(p.payoutUsdc);
  // the account's shorts leave the open interest (OptionsSettlement._settleAccount)
  setOpenInterest(m, s, s.openInterestCh.minus(p.shortCh));
  m.save();
  s.paidUsdc = p.seriesPaidUsdc;
  s.releasedUsdc = p.seriesReleasedUsdc;
  s.settledPositions = s.settledPositions + 1;
  s.save();
  const pos = getPosition(s, p.account, event);
  pos.payoutUsdc = pos.payoutUsdc.plus(p.payoutUsdc);
  pos.releasedUsdc = pos.releasedUsdc.plus(p.releasedUsdc);
  pos.settled = true;
  pos.save();
  const e = lifecycle(event, s, "settled");
  e.account = p.account;
  e.sizeCh = p.longCh.plus(p.shortCh);
  e.amountUsdc = p.payoutUsdc;
  e.releasedUsdc = p.releasedUsdc;
  e.bountyUsdc = p.bountyUsdc;
  e.save();
  const f = new Flow();
  f.payout = p.payoutUsdc;
  aggregate(m, event, f);
}

export function handleFuturesExercised(event: FuturesExercised): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  m.exercisedCh = m.exercisedCh.plus(p.sizeCh);
  m.payoutUsdc = m.payoutUsdc.plus(p.payoutUsdc);
  // each holder–writer pair takes its size out of the open interest (OptionsSettlement._exerciseFutures)
  setOpenInterest(m, s, s.openInterestCh.minus(p.sizeCh));
  m.save();
  s.exercisedCh = s.exercisedCh.plus(p.sizeCh);
  s.paidUsdc = p.seriesPaidUsdc;
  s.releasedUsdc = p.seriesReleasedUsdc;
  s.save();
  const h = getPosition(s, p.holder, event);
  h.exercisedCh = h.exercisedCh.plus(p.sizeCh);
  h.payoutUsdc = h.payoutUsdc.plus(p.payoutUsdc);
  h.save();
  const w = getPosition(s, p.writer, event);
  w.releasedUsdc = w.releasedUsdc.plus(p.releasedUsdc);
  w.save();
  const e = lifecycle(event, s, "exercised");
  e.account = p.holder;
  e.counterparty = p.writer;
  e.sizeCh = p.sizeCh;
  e.openedFutures = p.openedFutures;
  e.amountUsdc = p.payoutUsdc;
  e.releasedUsdc = p.releasedUsdc;
  e.save();
  const f = new Flow();
  f.exercised = p.sizeCh;
  f.payout = p.payoutUsdc;
  aggregate(m, event, f);
}

export function handleSettlementProgressed(event: SettlementProgressed): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.settlementCursor = p.cursor;
  s.accountCount = p.accountCount;
  if (p.settled) {
    s.status = "Settled";
    // A settled series holds no open interest any more (already 0 from the settlements; kept as a guard).
    const m = getMarket(event.address);
    setOpenInterest(m, s, ZERO);
    m.save();
    aggregate(m, event, new Flow());
  }
  s.save();
}

export function handleKeeperPaid(event: KeeperPaid): void {
  const m = getMarket(event.address);
  m.keeperPaidUsdc = m.keeperPaidUsdc.plus(event.params.bountyUsdc);
  m.save();
}

export function handleFeesAccrued(event: FeesAccrued): void {
  const m = getMarket(event.address);
  m.feesAccruedUsdc = m.feesAccruedUsdc.plus(event.params.amountUsdc);
  m.pendingFeesUsdc = event.params.feesUsdc;
  m.save();
}

export function handleFeesWithdrawn(event: FeesWithdrawn): void {
  const m = getMarket(event.address);
  m.feesWithdrawnUsdc = m.feesWithdrawnUsdc.plus(event.params.amountUsdc);
  m.pendingFeesUsdc = m.pendingFeesUsdc.minus(event.params.amountUsdc);
  m.save();
}

export function handleParamsSet(event: ParamsSet): void {
  const x = event.params.params;
  const m = getMarket(event.address);
  m.makerFeeBps = x.makerFeeBps;
  m.takerFeeBps = x.takerFeeBps;
  m.disputeWindowSec = x.disputeWindowSec;
  m.expiryGridSec = x.expiryGridSec;
  m.expiryOffsetSec = x.expiryOffsetSec;
  m.minTimeToExpirySec = x.minTimeToExpirySec;
  m.maxHorizonSec = x.maxHorizonSec;
  m.maxStrikeDeviationBps = x.maxStrikeDeviationBps;
  m.callCapBps = x.callCapBps;
  m.maxLiveSeries = x.maxLiveSeries;
  m.bountyUsdc = x.bountyUsdc;
  m.strikeStepWad = x.strikeStepWad;
  m.maxCorrectionBps = x.maxCorrectionBps;
  m.listingBondPerDayUsdc = x.listingBondPerDayUsdc;
  m.save();
}

export function handleFuturesMarketSet(event: FuturesMarketSet): void {
  const m = getMarket(event.address);
  m.futuresMarket = event.params.futuresMarket;
  m.save();
}

export function handleFeeRecipientSet(event: FeeRecipientSet): void {
  const m = getMarket(event.address);
  m.feeRecipient = event.params.feeRecipient;
  m.save();
}

export function handleMinNonceRaised(event: MinNonceRaised): void {
  let x = OptionMaker.load(event.params.maker);
  if (x == null) {
    x = initOptionMaker(event.params.maker);
    x.market = getMarket(event.address).id;
  }
  x.minNonce = event.params.minNonce;
  x.minNonceRaises = x.minNonceRaises + 1;
  x.updatedAt = event.block.timestamp;
  x.save();
}

export function handleSettlementModuleSet(event: SettlementModuleSet): void {
  const m = getMarket(event.address);
  m.settlementModule = event.params.module;
  m.save();
}

// ---------------------------------------------------------------- margined writing (issue 20 item 3)

export function handleMarginedWritten(event: MarginedWritten): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const w = new Writing(event, s, p.writer, p.sizeCh, p.openInterestCh, "writtenMargined");
  w.m.marginedWrittenCh = w.m.marginedWrittenCh.plus(p.sizeCh);
  s.marginedOpenCh = p.seriesMarginedCh;
  w.pos.marginedShortCh = p.marginedShortCh;
  w.save(event);
}

export function handleMarginedClosed(event: MarginedClosed): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.marginedOpenCh = p.seriesMarginedCh;
  s.save();
  const pos = getPosition(s, p.account, event);
  pos.marginedShortCh = p.marginedShortCh;
  pos.save();
}

export function handleMarginedLiquidated(event: MarginedLiquidated): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const pos = getPosition(s, p.account, event);
  pos.marginedShortCh = ZERO;
  pos.prepaidCh = p.prepaidCh;
  pos.prepaidUsdc = p.prepaidUsdc;
  pos.save();
  const e = lifecycle(event, s, "marginedLiquidated");
  e.account = p.account;
  e.sizeCh = p.sizeCh;
  e.amountUsdc = p.valueUsdc;
  e.save();
}

export function handleMarginedBooked(event: MarginedBooked): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.marginedDueUsdc = p.dueUsdc;
  s.save();
  const e = lifecycle(event, s, "marginedBooked");
  e.sizeCh = p.openCh;
  e.amountUsdc = p.dueUsdc;
  e.save();
}

export function handleMarginedSettled(event: MarginedSettled): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  // the account's margined and prepaid shorts leave the open interest (OptionsMargin.settle)
  setOpenInterest(m, s, s.openInterestCh.minus(p.shortCh));
  m.save();
  s.marginedOpenCh = p.seriesMarginedCh;
  s.save();
  const pos = getPosition(s, p.account, event);
  pos.marginedShortCh = ZERO;
  pos.prepaidCh = ZERO;
  pos.prepaidUsdc = ZERO;
  pos.settled = true;
  pos.save();
  const e = lifecycle(event, s, "marginedSettled");
  e.account = p.account;
  e.sizeCh = p.shortCh;
  e.amountUsdc = p.obligationUsdc;
  e.releasedUsdc = p.cashUsdc.gt(ZERO) ? p.cashUsdc : ZERO;
  e.save();
  aggregate(m, event, new Flow());
}
