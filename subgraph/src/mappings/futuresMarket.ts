// FuturesMarket: series, trades and positions, delivery elections and escrow, proofs demanded, settlement prices
// (proposed, disputed, final), deliveries (failed = delivered < assigned, slashed) and receipts, position
// settlements, keeper bounties and vault flows; hourly and daily open interest, volume, fees and deliveries.
// Market open interest = Σ series open interest, kept from each series' post-state (new − old).
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  BountiesClaimed,
  BountyCredited,
  DeliveryElected,
  DeliveryEscrowChanged,
  DeliveryModuleSet,
  DeliveryOrdersSet,
  DeliveryShortMadeWhole,
  DeliverySlashReceived,
  DeliveryProofDemanded,
  DeliveryClaimTaken,
  DeliveryForfeited,
  DeliveryReceived,
  DeliverySettled,
  FuturesMinNonceRaised,
  FuturesOrderFilled,
  FuturesOrdersMatched,
  FuturesSignedOrderCancelled,
  FuturesTraded,
  KeeperListingMonthsSet,
  OrderCancelled,
  OrderCommitted,
  OrderExecuted,
  ParamsSet,
  PositionReduced,
  PositionRolled,
  PositionSettled,
  SeriesListed,
  SeriesOiCapSet,
  SettlementPriceDisputed,
  SettlementPriceFinalised,
  SettlementPriceProposed,
  SettlementTwap,
  SettlementFallback,
  VaultFlow,
  VaultSet,
} from "../../generated/FuturesMarket/FuturesMarket";
import {
  FuturesDelivery,
  FuturesDeliveryReceipt,
  FuturesEvent,
  FuturesMarketState,
  FuturesOrderEvent,
  FuturesPosition,
  FuturesReduction,
  FuturesSeries,
  FuturesSettlementPrice,
  FuturesTrade,
} from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { orderStep } from "../lib/orders";
import { Series } from "../lib/buckets";
import { notionalUsdc, seriesKey, seriesPosition } from "../lib/markets";
import { initFuturesPosition, initFuturesSeries, loadOrInitFuturesMarketState } from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

const TENORS = ["Daily", "Weekly", "Monthly", "Quarterly", "Custom"];
const REASONS = ["Liquidation", "UnprovenShort", "Flatten"];

function getMarket(address: Address): FuturesMarketState {
  return loadOrInitFuturesMarketState(address);
}

function loadSeries(event: ethereum.Event, seriesId: BigInt): FuturesSeries | null {
  return FuturesSeries.load(seriesKey(event.address, seriesId));
}

function getPosition(s: FuturesSeries, account: Address, event: ethereum.Event): FuturesPosition {
  return changetype<FuturesPosition>(seriesPosition("FuturesPosition", s.id, account, event));
}

/**
 * Mirrors the contract's `Position.open` and the series' `openPositions` (FuturesBase._openRecord /
 * _closeRecordIfEmpty): a record opens when its size becomes non-zero and, before expiry, closes once it has no
 * size, escrow or election; after expiry only settlement closes it. `mayClose` where the contract runs the close check.
 */
function syncOpen(s: FuturesSeries, pos: FuturesPosition, event: ethereum.Event, mayClose: boolean): void {
  if (!pos.open && !pos.sizeCh.isZero()) {
    pos.open = true;
    s.openPositions = s.openPositions + 1;
  } else if (
    mayClose &&
    pos.open &&
    pos.sizeCh.isZero() &&
    pos.escrowCh.isZero() &&
    pos.electedCh.isZero() &&
    event.block.timestamp.lt(s.expiry)
  ) {
    pos.open = false;
    s.openPositions = s.openPositions - 1;
  }
}

/** FuturesDayData / FuturesHourData */
const SERIES = new Series("FuturesDayData", "FuturesHourData", "date", "date", "market");

function aggregate(
  m: FuturesMarketState,
  event: ethereum.Event,
  volumeCh: BigInt,
  volumeUsdc: BigInt,
  fees: BigInt,
  trades: i32,
  deliveredCh: BigInt,
  failed: i32,
): void {
  const oi = m.longOiCh.plus(m.shortOiCh);
  const buckets = SERIES.open(m.id, event);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    b.set("longOiCh", m.longOiCh).set("shortOiCh", m.shortOiCh).range("openInterestHighCh", "", oi, oi);
    b.add("volumeCh", volumeCh).add("volumeUsdc", volumeUsdc).add("feesUsdc", fees).add("deliveredCh", deliveredCh);
    b.count("tradeCount", trades).count("failedDeliveries", failed);
    b.save();
  }
}

/** Sets a series' open interest from an event's post-state and moves the market's Σ by the difference. */
function setOpenInterest(m: FuturesMarketState, s: FuturesSeries, longOi: BigInt, shortOi: BigInt): void {
  m.longOiCh = m.longOiCh.minus(s.longOiCh).plus(longOi);
  m.shortOiCh = m.shortOiCh.minus(s.shortOiCh).plus(shortOi);
  s.longOiCh = longOi;
  s.shortOiCh = shortOi;
}

function other(event: ethereum.Event, kind: string, s: FuturesSeries | null, account: Bytes | null): FuturesEvent {
  const e = new FuturesEvent(eventId(event));
  e.kind = kind;
  if (s !== null) e.series = s.id;
  if (account !== null) e.account = account;
  stamp(e, event);
  return e;
}

export function handleSeriesListed(event: SeriesListed): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.seriesCount = m.seriesCount + 1;
  m.liveSeries = p.liveSeries.toI32();
  m.save();
  const s = initFuturesSeries(seriesKey(event.address, p.seriesId));
  s.market = m.id;
  s.seriesId = p.seriesId;
  s.tenor = p.tenor < TENORS.length ? TENORS[p.tenor] : "Unknown";
  s.expiry = p.expiry;
  s.electionCutoff = p.electionCutoff;
  s.lister = p.lister;
  s.status = "Trading";
  s.oiCapCh = p.oiCapCh;
  s.save();
}

export function handleFuturesTraded(event: FuturesTraded): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  const absDelta = p.sizeDeltaCh.abs();
  const notional = notionalUsdc(absDelta, p.priceWad);
  setOpenInterest(m, s, p.longOiCh, p.shortOiCh);
  m.volumeCh = m.volumeCh.plus(absDelta);
  m.volumeUsdc = m.volumeUsdc.plus(notional);
  m.feesUsdc = m.feesUsdc.plus(p.feeUsdc);
  m.tradeCount = m.tradeCount + 1;
  m.save();
  const pos = getPosition(s, p.account, event);
  pos.sizeCh = p.sizeCh;
  pos.entryPriceWad = p.entryPriceWad;
  pos.tradeCount = pos.tradeCount + 1;
  pos.feesUsdc = pos.feesUsdc.plus(p.feeUsdc);
  syncOpen(s, pos, event, true);
  pos.save();
  s.volumeCh = s.volumeCh.plus(absDelta);
  s.volumeUsdc = s.volumeUsdc.plus(notional);
  s.feesUsdc = s.feesUsdc.plus(p.feeUsdc);
  s.tradeCount = s.tradeCount + 1;
  s.lastPriceWad = p.priceWad;
  s.save();
  const t = new FuturesTrade(eventId(event));
  t.series = s.id;
  t.account = p.account;
  t.sizeDeltaCh = p.sizeDeltaCh;
  t.priceWad = p.priceWad;
  t.indexPriceWad = p.indexPriceWad;
  t.notionalUsdc = notional;
  t.feeUsdc = p.feeUsdc;
  t.sizeCh = p.sizeCh;
  t.entryPriceWad = p.entryPriceWad;
  t.longOiCh = p.longOiCh;
  t.shortOiCh = p.shortOiCh;
  stamp(t, event);
  t.save();
  aggregate(m, event, absDelta, notional, p.feeUsdc, 1, ZERO, 0);
}

export function handlePositionReduced(event: PositionReduced): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  const pos = getPosition(s, p.account, event);
  if (p.reason == 2) {
    // Flatten: the open interest moves by the delta on the side the position held. Besides the flattened legs
    // settling a leg whose close fails emits a marker for that leg (FuturesDelivery._closeAtSettlement) just before
    // its PositionSettled, carrying the series' open interest after the whole settlement: applying the delta here
    // and letting PositionSettled remove only the size still indexed keeps both cases exact.
    const closed = p.sizeDeltaCh.abs();
    if (pos.sizeCh.gt(ZERO)) setOpenInterest(m, s, s.longOiCh.minus(closed), s.shortOiCh);
    else if (pos.sizeCh.lt(ZERO)) setOpenInterest(m, s, s.longOiCh, s.shortOiCh.minus(closed));
    pos.sizeCh = pos.sizeCh.plus(p.sizeDeltaCh);
  } else {
    setOpenInterest(m, s, p.longOiCh, p.shortOiCh);
    pos.sizeCh = p.sizeCh;
  }
  pos.electedCh = p.electedCh;
  pos.reducedCh = pos.reducedCh.plus(p.sizeDeltaCh.abs());
  syncOpen(s, pos, event, true);
  pos.save();
  m.save();
  s.save();
  const r = new FuturesReduction(eventId(event));
  r.series = s.id;
  r.account = p.account;
  r.reason = p.reason < REASONS.length ? REASONS[p.reason] : "Unknown";
  r.sizeDeltaCh = p.sizeDeltaCh;
  r.priceWad = p.priceWad;
  r.sizeCh = p.sizeCh;
  r.electedCh = p.electedCh;
  stamp(r, event);
  r.save();
  aggregate(m, event, ZERO, ZERO, ZERO, 0, ZERO, 0);
}

export function handleDeliveryElected(event: DeliveryElected): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.electedCh = p.seriesElectedCh;
  s.save();
  const pos = getPosition(s, p.account, event);
  pos.electedCh = p.electedCh;
  pos.save();
  const e = other(event, "elected", s, p.account);
  e.value = p.electedCh;
  e.amount = p.seriesElectedCh;
  e.save();
}

export function handleDeliveryEscrowChanged(event: DeliveryEscrowChanged): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const pos = getPosition(s, p.account, event);
  pos.escrowCh = p.escrowCh;
  syncOpen(s, pos, event, true);
  pos.save();
  s.save();
  const e = other(event, "escrow", s, p.account);
  e.amount = p.deltaCh;
  e.value = p.escrowCh;
  e.save();
}

export function handleDeliveryProofDemanded(event: DeliveryProofDemanded): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const pos = getPosition(s, p.account, event);
  pos.proofRequiredCh = p.requiredCh;
  pos.proofDeadline = p.deadline;
  pos.guarantor = p.guarantor;
  pos.save();
  const e = other(event, "proofDemanded", s, p.account);
  e.counterparty = p.guarantor;
  e.amount = p.requiredCh;
  e.value = p.deadline;
  e.save();
}

function priceStep(event: ethereum.Event, s: FuturesSeries, kind: string, price: BigInt): FuturesSettlementPrice {
  const x = new FuturesSettlementPrice(eventId(event));
  x.series = s.id;
  x.kind = kind;
  x.priceWad = price;
  stamp(x, event);
  return x;
}

export function handleSettlementPriceProposed(event: SettlementPriceProposed): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  m.liveSeries = p.liveSeries.toI32();
  m.save();
  s.status = "Proposed";
  s.proposedPriceWad = p.priceWad;
  s.finalAt = p.finalAt;
  s.assignableShortCh = p.assignableShortCh;
  s.save();
  const x = priceStep(event, s, "proposed", p.priceWad);
  x.by = p.keeper;
  x.bountyUsdc = p.bountyUsdc;
  x.finalAt = p.finalAt;
  x.save();
}

export function handleSettlementPriceDisputed(event: SettlementPriceDisputed): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.proposedPriceWad = p.newPriceWad;
  s.disputeCount = s.disputeCount + 1;
  s.save();
  const x = priceStep(event, s, "disputed", p.newPriceWad);
  x.oldPriceWad = p.oldPriceWad;
  x.by = p.by;
  x.save();
}

export function handleSettlementPriceFinalised(event: SettlementPriceFinalised): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.status = "Final";
  s.settlementPriceWad = p.priceWad;
  s.electedCh = p.electedCh;
  s.assignableShortCh = p.assignableShortCh;
  s.deliverableCh = p.deliverableCh;
  s.shortFractionWad = p.shortFractionWad;
  s.deliveryDeadline = p.deliveryDeadline;
  s.save();
  const x = priceStep(event, s, "finalised", p.priceWad);
  x.by = p.keeper;
  x.bountyUsdc = p.bountyUsdc;
  x.deliverableCh = p.deliverableCh;
  x.shortFractionWad = p.shortFractionWad;
  x.deliveryDeadline = p.deliveryDeadline;
  x.save();
}

export function handleDeliverySettled(event: DeliverySettled): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  const failed = p.deliveredCh.lt(p.assignedCh);
  s.deliveredCh = s.deliveredCh.plus(p.deliveredCh);
  s.slashedUsdc = s.slashedUsdc.plus(p.slashedUsdc);
  if (failed) s.failedDeliveries = s.failedDeliveries + 1;
  s.save();
  m.deliveredCh = m.deliveredCh.plus(p.deliveredCh);
  m.slashedUsdc = m.slashedUsdc.plus(p.slashedUsdc);
  if (failed) m.failedDeliveries = m.failedDeliveries + 1;
  m.save();
  const pos = getPosition(s, p.account, event);
  pos.assignedCh = p.assignedCh;
  pos.deliveredCh = p.deliveredCh;
  pos.deliveryPaidUsdc = p.paidUsdc;
  pos.slashedUsdc = p.slashedUsdc;
  pos.save();
  const x = new FuturesDelivery(eventId(event));
  x.series = s.id;
  x.account = p.account;
  x.assignedCh = p.assignedCh;
  x.deliveredCh = p.deliveredCh;
  x.paidUsdc = p.paidUsdc;
  x.slashedUsdc = p.slashedUsdc;
  x.collateralUsdc = p.collateralUsdc;
  x.failed = failed;
  stamp(x, event);
  x.save();
  aggregate(m, event, ZERO, ZERO, ZERO, 0, p.deliveredCh, failed ? 1 : 0);
}

export function handleDeliveryReceived(event: DeliveryReceived): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.receivedCh = s.receivedCh.plus(p.receivedCh);
  s.compensatedUsdc = s.compensatedUsdc.plus(p.compensationUsdc);
  s.cashSettledCh = s.cashSettledCh.plus(p.cashSettledCh);
  s.save();
  const pos = getPosition(s, p.account, event);
  pos.receivedCh = p.receivedCh;
  pos.receivedPaidUsdc = p.paidUsdc;
  pos.compensationUsdc = p.compensationUsdc;
  pos.cashSettledCh = p.cashSettledCh;
  // issue 19 lazy hand-over: with a DeliveryOrders set, the CH received stays in the market as the long's claim (its
  // settled record's escrow) until its delivery order opens (DeliveryClaimTaken); without one it went to the long
  const orders = getMarket(event.address).deliveryOrders;
  if (orders !== null && orders.notEqual(Address.zero())) pos.escrowCh = p.receivedCh;
  pos.save();
  const x = new FuturesDeliveryReceipt(eventId(event));
  x.series = s.id;
  x.account = p.account;
  x.electedCh = p.electedCh;
  x.receivedCh = p.receivedCh;
  x.paidUsdc = p.paidUsdc;
  x.compensationUsdc = p.compensationUsdc;
  x.cashSettledCh = p.cashSettledCh;
  stamp(x, event);
  x.save();
}

/** A long's CH not paid for at settlement went to the vault: it left the delivery pot like the CH received. */
export function handleDeliveryForfeited(event: DeliveryForfeited): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.receivedCh = s.receivedCh.plus(p.forfeitedCh);
  s.forfeitedCh = s.forfeitedCh.plus(p.forfeitedCh);
  s.save();
  const e = other(event, "forfeited", s, p.account);
  e.amount = p.forfeitedCh;
  e.value = p.uncollectedUsdc;
  e.counterparty = p.vault;
  e.save();
}

/** An electing long's delivery claim left the market when its delivery order opened (issue 19: the lazy hand-over). */
export function handleDeliveryClaimTaken(event: DeliveryClaimTaken): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const pos = getPosition(s, p.account, event);
  pos.claimTakenCh = pos.claimTakenCh.plus(p.chAmount);
  pos.escrowCh = ZERO;
  pos.save();
  const e = other(event, "claimTaken", s, p.account);
  e.amount = p.chAmount;
  e.counterparty = p.to;
  e.save();
}

export function handlePositionSettled(event: PositionSettled): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  const m = getMarket(event.address);
  // A settled position leaves the series' open interest (the event carries the size closed, not the OI after):
  // the size still indexed, which a Flatten marker may already have removed (handlePositionReduced).
  const pos = getPosition(s, p.account, event);
  const size = pos.sizeCh;
  if (size.gt(ZERO)) setOpenInterest(m, s, s.longOiCh.minus(size), s.shortOiCh);
  else if (size.lt(ZERO)) setOpenInterest(m, s, s.longOiCh, s.shortOiCh.minus(size.neg()));
  m.save();
  s.openPositions = p.openPositions.toI32();
  s.settledPositions = s.settledPositions + 1;
  if (s.openPositions == 0) s.status = "Settled";
  s.save();
  pos.sizeCh = ZERO;
  pos.electedCh = ZERO;
  pos.escrowCh = ZERO;
  pos.realisedPnlUsdc = pos.realisedPnlUsdc.plus(p.realisedPnlUsdc);
  pos.settled = true;
  pos.open = false;
  pos.save();
  const e = other(event, "positionSettled", s, p.account);
  e.counterparty = p.keeper;
  e.amount = p.realisedPnlUsdc;
  e.value = p.openPositions;
  e.save();
  aggregate(m, event, ZERO, ZERO, ZERO, 0, ZERO, 0);
}

export function handleBountyCredited(event: BountyCredited): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.bountiesCreditedUsdc = m.bountiesCreditedUsdc.plus(p.amountUsdc);
  m.save();
  const e = other(event, "bounty", null, p.keeper);
  e.amount = p.amountUsdc;
  e.value = p.owedUsdc;
  e.save();
}

export function handleBountiesClaimed(event: BountiesClaimed): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.bountiesClaimedUsdc = m.bountiesClaimedUsdc.plus(p.amountUsdc);
  m.save();
  const e = other(event, "bountiesClaimed", null, p.keeper);
  e.counterparty = p.to;
  e.amount = p.amountUsdc;
  e.save();
}

export function handleVaultFlow(event: VaultFlow): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.vaultNetFlowUsdc = m.vaultNetFlowUsdc.plus(p.amountUsdc);
  m.save();
  const e = other(event, "vaultFlow", null, p.vault);
  e.amount = p.amountUsdc;
  e.save();
}

export function handleSeriesOiCapSet(event: SeriesOiCapSet): void {
  const s = loadSeries(event, event.params.seriesId);
  if (s == null) return;
  s.oiCapCh = event.params.oiCapCh;
  s.save();
  const e = other(event, "oiCap", s, null);
  e.value = event.params.oiCapCh;
  e.save();
}

export function handleParamsSet(event: ParamsSet): void {
  const x = event.params.params;
  const m = getMarket(event.address);
  m.feeBps = x.feeBps;
  m.penaltyBps = x.penaltyBps;
  m.maxPremiumBps = x.maxPremiumBps;
  m.maxCorrectionBps = x.maxCorrectionBps;
  m.vaultReserveBps = x.vaultReserveBps;
  m.maxLiveSeries = x.maxLiveSeries;
  m.electionCutoffSec = x.electionCutoffSec;
  m.disputeWindowSec = x.disputeWindowSec;
  m.deliveryWindowSec = x.deliveryWindowSec;
  m.proofWindowSec = x.proofWindowSec;
  m.minListingLeadSec = x.minListingLeadSec;
  m.keeperBountyUsdc = x.keeperBountyUsdc;
  m.skewScaleCh = x.skewScaleCh;
  m.premiumHorizonSec = x.premiumHorizonSec;
  m.defaultOiCapCh = x.defaultOiCapCh;
  m.minOrderDelaySec = x.minOrderDelaySec;
  m.maxOrderDelaySec = x.maxOrderDelaySec;
  m.executionFeeUsdc = x.executionFeeUsdc;
  m.save();
}

// ───────────── two-step orders (OrderCommitted / OrderExecuted / OrderCancelled) ─────────────

/** One order step (lib/orders): the market's counters, saved, and the order's event entity with the common fields. */
function orderEvent(
  event: ethereum.Event,
  kind: string,
  seriesId: BigInt,
  account: Address,
  fee: BigInt,
  pending: BigInt,
): FuturesOrderEvent {
  const m = getMarket(event.address);
  const e = new FuturesOrderEvent(eventId(event));
  e.series = seriesKey(event.address, seriesId);
  orderStep(m, e, event, kind, account, fee, pending);
  m.save();
  return e;
}

export function handleOrderCommitted(event: OrderCommitted): void {
  const p = event.params;
  getOrCreateAccount(p.account, event.block);
  const e = orderEvent(event, "committed", p.seriesId, p.account, p.feeUsdc, p.pendingOrders);
  e.sizeDeltaCh = p.sizeDeltaCh;
  e.limitPriceWad = p.limitPriceWad;
  e.closeAll = p.closeAll;
  e.priceTime = p.priceTime;
  e.expiresAt = p.expiresAt;
  e.marginUsdc = p.marginUsdc;
  e.save();
}

export function handleOrderExecuted(event: OrderExecuted): void {
  const p = event.params;
  const e = orderEvent(event, "executed", p.seriesId, p.account, p.feeUsdc, p.pendingOrders);
  e.by = p.executor;
  e.roundId = p.roundId;
  e.indexPriceWad = p.indexPriceWad;
  e.save();
}

export function handleOrderCancelled(event: OrderCancelled): void {
  const p = event.params;
  const e = orderEvent(event, "cancelled", p.seriesId, p.account, p.feeUsdc, p.pendingOrders);
  e.by = p.by;
  e.reason = p.reason;
  e.save();
}

export function handleVaultSet(event: VaultSet): void {
  const m = getMarket(event.address);
  m.vault = event.params.vault;
  m.save();
}

export function handleDeliveryModuleSet(event: DeliveryModuleSet): void {
  const m = getMarket(event.address);
  m.deliveryModule = event.params.module;
  m.save();
}

/** `roll`: both legs are indexed by their FuturesTraded; this records the roll itself (series = the one rolled from,
 *  amount = the signed size moved, value = the series rolled into). */
export function handlePositionRolled(event: PositionRolled): void {
  const p = event.params;
  const s = loadSeries(event, p.fromSeriesId);
  const e = other(event, "roll", s, p.account);
  e.amount = p.sizeDeltaCh;
  e.value = p.toSeriesId;
  e.save();
}

/** Governance set how many monthly expiries ahead the keeper checker keeps listed (value = months). */
export function handleKeeperListingMonthsSet(event: KeeperListingMonthsSet): void {
  const e = other(event, "keeperListingMonths", null, null);
  e.value = event.params.months;
  e.save();
}

export function handleDeliveryOrdersSet(event: DeliveryOrdersSet): void {
  const m = getMarket(event.address);
  m.deliveryOrders = event.params.deliveryOrders;
  m.save();
}

/** Issue 19: a failing short's penalty, in the make-whole order (slash value, margin, uncovered → waterfall). */
export function handleDeliveryShortMadeWhole(event: DeliveryShortMadeWhole): void {
  const p = event.params;
  const m = getMarket(event.address);
  m.slashDpsToLongs = m.slashDpsToLongs.plus(p.slashDps);
  m.penaltyFromSlashUsdc = m.penaltyFromSlashUsdc.plus(p.fromSlashUsdc);
  m.penaltyUncoveredUsdc = m.penaltyUncoveredUsdc.plus(p.uncoveredUsdc);
  m.save();
}

export function handleDeliverySlashReceived(event: DeliverySlashReceived): void {
  const m = getMarket(event.address);
  m.slashDpsPaid = m.slashDpsPaid.plus(event.params.dps);
  m.save();
}

/**
 * A signed (trader-against-trader) order fill (issue 19): the series' curve point (price, index, time) and a
 * `signedFill` event (account = maker, counterparty = taker, amount = the maker's Δ, value = price). Each leg's
 * position and volume come with its FuturesTraded.
 */
export function handleFuturesOrderFilled(event: FuturesOrderFilled): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s !== null) {
    s.curvePriceWad = p.priceWad;
    s.curveIndexWad = p.indexWad;
    s.curveTradedAt = event.block.timestamp;
    s.signedFillCount = s.signedFillCount + 1;
    s.save();
  }
  const e = other(event, "signedFill", s, p.maker);
  e.counterparty = p.taker;
  e.amount = p.makerDeltaCh;
  e.value = p.priceWad;
  e.save();
}

/** A maker cancelled a signed order (amount = what it had filled). */
export function handleFuturesSignedOrderCancelled(event: FuturesSignedOrderCancelled): void {
  const e = other(event, "signedOrderCancelled", null, event.params.maker);
  e.amount = event.params.filledCh;
  e.save();
}

/** A maker raised its minimum nonce (value = the new minimum): its older signed orders are void. */
export function handleFuturesMinNonceRaised(event: FuturesMinNonceRaised): void {
  const e = other(event, "minNonceRaised", null, event.params.maker);
  e.value = event.params.minNonce;
  e.save();
}

/**
 * Two signed orders matched by a third party (issue 19, `matchOrders`): each order's FuturesOrderFilled came first
 * (each at its own price); the series' curve point is the midpoint, and an `ordersMatched` event records the matcher
 * (account), the buy's maker is not known here (counterparty unset), amount = size, value = the spread credited.
 */
export function handleFuturesOrdersMatched(event: FuturesOrdersMatched): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s !== null) {
    s.curvePriceWad = p.midPriceWad;
    s.curveTradedAt = event.block.timestamp;
    s.matchCount = s.matchCount + 1;
    s.save();
  }
  const e = other(event, "ordersMatched", s, p.matcher);
  e.amount = p.sizeCh;
  e.value = p.spreadUsdc;
  e.save();
}

/** The settlement price's index TWAP (issue 19): its window, first feed round and round count on the series. */
export function handleSettlementTwap(event: SettlementTwap): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.settlementTwapWad = p.twapWad;
  s.twapWindowStart = p.windowStart;
  s.twapFirstRoundId = p.firstRoundId;
  s.twapRounds = p.rounds.toI32();
  s.save();
}

/** The stale-window fallback (issue 19): the price came from the first round after expiry, not from a TWAP. */
export function handleSettlementFallback(event: SettlementFallback): void {
  const p = event.params;
  const s = loadSeries(event, p.seriesId);
  if (s == null) return;
  s.fallbackStaleRoundId = p.staleRoundId;
  s.fallbackRoundId = p.roundId;
  s.save();
}
