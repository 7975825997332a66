// ClearingHouse: margin accounts, positions per market (open interest from the size post-states), market PnL
// pools, settlements, liquidation bounties, fee flushes and the waterfall steps (DeficitAbsorbed, LIQ-03).
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  AccountSettled,
  DeficitAbsorbed,
  DeficitUnabsorbed,
  FeesFlushed,
  LiquidationBountyPaid,
  MarginDeposited,
  MarginWithdrawn,
  MarketPoolChanged,
  MarketRegistered,
  ModulesSet,
  PositionDeleveraged,
  PositionLiquidated,
  PositionModified,
  TokenCollateralDeposited,
  TokenCollateralSeized,
  TokenCollateralWithdrawn,
  UncoveredCollateralChanged,
} from "../../generated/ClearingHouse/ClearingHouse";
import {
  AdlStep,
  ClearingEvent,
  ClearingMarket,
  DeficitStep,
  LiquidationDraft,
  Position,
  PositionChange,
  TokenCollateral,
  TokenCollateralEvent,
} from "../../generated/schema";
import { initPosition, initTokenCollateral, loadOrInitLiquidationDraft } from "../../generated/defaults";
import { Series } from "../lib/buckets";
import {
  accountDay,
  configChange,
  getMarginAccount,
  getMarket,
  negative,
  positive,
  setCollateral,
} from "../lib/clearing";
import { eventId, stamp, ZERO } from "../lib/common";
import { WAD_WAD_TO_USDC } from "../lib/markets";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

const LAYERS = ["account", "guarantor", "insurance", "socialised", "adl"];

function clearingEvent(
  event: ethereum.Event,
  kind: string,
  account: Bytes | null,
  market: Bytes | null,
): ClearingEvent {
  const e = new ClearingEvent(eventId(event));
  e.kind = kind;
  e.account = account;
  e.market = market;
  e.amountUsdc = ZERO;
  stamp(e, event);
  return e;
}

function getPosition(account: Bytes, market: Bytes, event: ethereum.Event): Position {
  const id = account.concat(market);
  let p = Position.load(id);
  if (p == null) {
    p = initPosition(id);
    p.marginAccount = account;
    p.market = market;
  }
  p.updatedAt = event.block.timestamp;
  return p;
}

export function handleMarginDeposited(event: MarginDeposited): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  setCollateral(a, p.collateralUsdc, event);
  a.depositedUsdc = a.depositedUsdc.plus(p.amountUsdc);
  a.save();
  accountDay(a, event, ZERO, ZERO, ZERO, 0, 0);
  const e = clearingEvent(event, "deposit", p.account, null);
  e.amountUsdc = p.amountUsdc;
  e.collateralUsdc = p.collateralUsdc;
  e.save();
}

export function handleMarginWithdrawn(event: MarginWithdrawn): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  setCollateral(a, p.collateralUsdc, event);
  a.withdrawnUsdc = a.withdrawnUsdc.plus(p.amountUsdc);
  a.save();
  accountDay(a, event, ZERO, ZERO, ZERO, 0, 0);
  const e = clearingEvent(event, "withdraw", p.account, null);
  e.counterparty = p.to;
  e.amountUsdc = p.amountUsdc;
  e.collateralUsdc = p.collateralUsdc;
  e.save();
}

export function handleAccountSettled(event: AccountSettled): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  setCollateral(a, p.collateralUsdc, event);
  a.save();
  const m = getMarket(p.market);
  m.poolUsdc = p.marketPoolUsdc;
  m.save();
  accountDay(a, event, ZERO, ZERO, p.amountUsdc, 0, 0);
  marketDay(m, event, m.longOpenInterestCh.plus(m.shortOpenInterestCh), ZERO, 0, ZERO, ZERO, p.amountUsdc, ZERO, ZERO);
  const e = clearingEvent(event, "settled", p.account, p.market);
  e.amountUsdc = p.amountUsdc;
  e.collateralUsdc = p.collateralUsdc;
  e.marketPoolUsdc = p.marketPoolUsdc;
  e.save();
}

export function handleMarketPoolChanged(event: MarketPoolChanged): void {
  const p = event.params;
  const m = getMarket(p.market);
  m.poolUsdc = p.marketPoolUsdc;
  m.save();
  marketDay(m, event, m.longOpenInterestCh.plus(m.shortOpenInterestCh), ZERO, 0, ZERO, ZERO, ZERO, ZERO, ZERO);
  const e = clearingEvent(event, "marketPool", null, p.market);
  e.amountUsdc = p.amountUsdc;
  e.marketPoolUsdc = p.marketPoolUsdc;
  e.save();
}

export function handleLiquidationBountyPaid(event: LiquidationBountyPaid): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  setCollateral(a, p.collateralUsdc, event);
  a.save();
  accountDay(a, event, ZERO, ZERO, ZERO, 0, 0);
  const e = clearingEvent(event, "bounty", p.account, null);
  e.counterparty = p.keeper;
  e.amountUsdc = p.bountyUsdc;
  e.collateralUsdc = p.collateralUsdc;
  e.save();
}

export function handleFeesFlushed(event: FeesFlushed): void {
  const e = clearingEvent(event, "feesFlushed", null, null);
  e.counterparty = event.params.insuranceFund;
  e.amountUsdc = event.params.amountUsdc;
  e.save();
}

export function handleMarketRegistered(event: MarketRegistered): void {
  const m = getMarket(event.params.market);
  m.registered = true;
  m.save();
  configChange(event, "marketRegistered", event.params.market, [], []);
}

export function handleModulesSet(event: ModulesSet): void {
  const p = event.params;
  configChange(
    event,
    "modules",
    null,
    [p.oracle, p.riskEngine, p.guarantorPool, p.insuranceFund, p.liquidationEngine],
    [],
  );
}

/** An account's and a market's daily PnL / activity buckets. */
const MARKET_DAYS = new Series("ClearingMarketDayData", "", "date", "", "market");

/** Closes the market's day at its state; the flows add to the day (oiBefore: open interest before the event). */
function marketDay(
  m: ClearingMarket,
  event: ethereum.Event,
  oiBefore: BigInt,
  volume: BigInt,
  trades: i32,
  fees: BigInt,
  realised: BigInt,
  settled: BigInt,
  liquidated: BigInt,
  socialised: BigInt,
): void {
  const b = MARKET_DAYS.open(m.id, event)[0];
  b.add("volumeCh", volume).count("tradeCount", trades).add("feesUsdc", fees).add("realisedPnlUsdc", realised);
  b.add("settledUsdc", settled).add("liquidatedCh", liquidated).add("socialisedUsdc", socialised);
  const oi = m.longOpenInterestCh.plus(m.shortOpenInterestCh);
  b.set("longOpenInterestCh", m.longOpenInterestCh).set("shortOpenInterestCh", m.shortOpenInterestCh);
  b.range("openInterestHighCh", "", oiBefore, oi).set("poolUsdc", m.poolUsdc).save();
}

/** The liquidation being assembled in this transaction (AccountLiquidated, last in the transaction, takes it). */
export function liquidationDraft(account: Bytes, event: ethereum.Event): LiquidationDraft {
  return loadOrInitLiquidationDraft(account.concat(event.transaction.hash));
}

/**
 * A trade (PositionModified) or a liquidation (PositionLiquidated) of one position: the account's, the market's and
 * the position's post-state, the PnL snapshot and the day buckets. `openNotional` null: the event does not carry it
 * (a liquidation keeps the cost basis pro rata to the size left, rounded toward zero).
 */
function changePosition(
  event: ethereum.Event,
  account: Bytes,
  market: Bytes,
  sizeDelta: BigInt,
  price: BigInt,
  sizeAfter: BigInt,
  openNotional: BigInt | null,
  realised: BigInt,
  fee: BigInt,
  collateral: BigInt,
  liquidation: boolean,
): void {
  const a = getMarginAccount(account, event);
  const m = getMarket(market);
  const pos = getPosition(account, market, event);
  const oiBefore = m.longOpenInterestCh.plus(m.shortOpenInterestCh);
  m.longOpenInterestCh = m.longOpenInterestCh.minus(positive(pos.sizeCh)).plus(positive(sizeAfter));
  m.shortOpenInterestCh = m.shortOpenInterestCh.minus(negative(pos.sizeCh)).plus(negative(sizeAfter));
  m.volumeCh = m.volumeCh.plus(sizeDelta.abs());
  m.feesUsdc = m.feesUsdc.plus(fee);
  if (liquidation) m.liquidatedCh = m.liquidatedCh.plus(sizeDelta.abs());
  else m.tradeCount = m.tradeCount + 1;
  // The market's PnL pool is the counterparty of realised PnL (ClearingHouse: pool −= pnl).
  m.poolUsdc = m.poolUsdc.minus(realised);
  m.save();

  if (openNotional !== null) pos.openNotionalUsdc = openNotional;
  else if (sizeAfter.isZero() || pos.sizeCh.isZero()) pos.openNotionalUsdc = ZERO;
  else pos.openNotionalUsdc = pos.openNotionalUsdc.times(sizeAfter.abs()).div(pos.sizeCh.abs());
  pos.sizeCh = sizeAfter;
  pos.realisedPnlUsdc = pos.realisedPnlUsdc.plus(realised);
  pos.feesUsdc = pos.feesUsdc.plus(fee);
  if (liquidation) pos.liquidatedCh = pos.liquidatedCh.plus(sizeDelta.abs());
  else pos.tradeCount = pos.tradeCount + 1;
  const unrealisedBefore = pos.unrealisedPnlUsdc;
  pos.markPriceWad = price;
  pos.unrealisedPnlUsdc = sizeAfter.times(price).div(WAD_WAD_TO_USDC).minus(pos.openNotionalUsdc);
  pos.save();

  setCollateral(a, collateral, event);
  a.feesUsdc = a.feesUsdc.plus(fee);
  a.realisedPnlUsdc = a.realisedPnlUsdc.plus(realised);
  a.unrealisedPnlUsdc = a.unrealisedPnlUsdc.minus(unrealisedBefore).plus(pos.unrealisedPnlUsdc);
  a.save();

  const c = new PositionChange(eventId(event));
  c.position = pos.id;
  c.account = account;
  c.market = market;
  c.liquidation = liquidation;
  c.sizeDeltaCh = sizeDelta;
  c.priceWad = price;
  c.sizeCh = sizeAfter;
  c.openNotionalUsdc = openNotional;
  c.realisedPnlUsdc = realised;
  c.positionRealisedPnlUsdc = pos.realisedPnlUsdc;
  c.unrealisedPnlUsdc = pos.unrealisedPnlUsdc;
  c.accountRealisedPnlUsdc = a.realisedPnlUsdc;
  c.accountUnrealisedPnlUsdc = a.unrealisedPnlUsdc;
  c.feeUsdc = fee;
  c.collateralUsdc = collateral;
  stamp(c, event);
  c.save();

  accountDay(a, event, realised, fee, ZERO, liquidation ? 0 : 1, 0);
  marketDay(
    m,
    event,
    oiBefore,
    sizeDelta.abs(),
    liquidation ? 0 : 1,
    fee,
    realised,
    ZERO,
    liquidation ? sizeDelta.abs() : ZERO,
    ZERO,
  );
  if (liquidation) {
    const d = liquidationDraft(account, event);
    d.positionsClosed = d.positionsClosed + 1;
    d.closedCh = d.closedCh.plus(sizeDelta.abs());
    d.realisedPnlUsdc = d.realisedPnlUsdc.plus(realised);
    d.save();
  }
}

export function handlePositionModified(event: PositionModified): void {
  const p = event.params;
  changePosition(
    event,
    p.account,
    p.market,
    p.sizeDeltaCh,
    p.tradePriceWad,
    p.sizeCh,
    p.openNotionalUsdc,
    p.realisedPnlUsdc,
    p.feeUsdc,
    p.collateralUsdc,
    false,
  );
}

/** PositionLiquidated carries no open notional: the position keeps it pro rata to the size left (rounded down). */
export function handlePositionLiquidated(event: PositionLiquidated): void {
  const p = event.params;
  changePosition(
    event,
    p.account,
    p.market,
    p.sizeDeltaCh,
    p.priceWad,
    p.sizeCh,
    null,
    p.realisedPnlUsdc,
    ZERO,
    p.collateralUsdc,
    true,
  );
}

/**
 * An auto-deleveraging step (docs/clearing.md): the candidate's position is reduced at the index like a trade (its
 * size and collateral post-states), the bankrupt's collateral rises by the haircut; the step is kept as an AdlStep.
 * The DeficitAbsorbed(layer = Adl) of the same step records the waterfall side.
 */
export function handlePositionDeleveraged(event: PositionDeleveraged): void {
  const p = event.params;
  changePosition(
    event,
    p.candidate,
    p.market,
    p.deltaCh,
    p.priceWad,
    p.candidateSizeCh,
    null,
    p.realisedPnlUsdc,
    ZERO,
    p.candidateCollateralUsdc,
    false,
  );
  const b = getMarginAccount(p.bankrupt, event);
  setCollateral(b, p.bankruptCollateralUsdc, event);
  b.save();
  accountDay(b, event, ZERO, ZERO, ZERO, 0, 0);
  const s = new AdlStep(eventId(event));
  s.bankrupt = p.bankrupt;
  s.candidate = p.candidate;
  s.market = p.market;
  s.deltaCh = p.deltaCh;
  s.priceWad = p.priceWad;
  s.realisedPnlUsdc = p.realisedPnlUsdc;
  s.haircutUsdc = p.haircutUsdc;
  s.bountyUsdc = p.bountyUsdc;
  s.candidateSizeCh = p.candidateSizeCh;
  s.candidateCollateralUsdc = p.candidateCollateralUsdc;
  s.bankruptCollateralUsdc = p.bankruptCollateralUsdc;
  stamp(s, event);
  s.save();
}

/**
 * A waterfall step. The guarantor's and the insurance fund's payments (layers 1, 2: ClearingHouse.absorbDeficit) add
 * to the account's collateral: absorbDeficit writes old + Σ payments and emits the post-state only while a deficit is
 * left (DeficitUnabsorbed, after these steps), so a full cover is booked from the amounts here. An ADL step (layer 4)
 * follows its PositionDeleveraged, which already carried the bankrupt's collateral after the haircut.
 */
export function handleDeficitAbsorbed(event: DeficitAbsorbed): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  a.deficitUsdc = a.deficitUsdc.plus(p.amountUsdc);
  const pays = p.layer == 1 || p.layer == 2;
  if (pays) setCollateral(a, a.collateralUsdc.plus(p.amountUsdc), event);
  a.save();
  if (pays) accountDay(a, event, ZERO, ZERO, ZERO, 0, 0);
  const s = new DeficitStep(eventId(event));
  s.marginAccount = a.id;
  s.account = p.account;
  s.guarantor = a.guarantor;
  s.layer = p.layer;
  s.layerName = p.layer < LAYERS.length ? LAYERS[p.layer] : "unknown";
  s.amountUsdc = p.amountUsdc;
  s.remainingDeficitUsdc = p.remainingDeficitUsdc;
  if (p.layer == 3) {
    s.market = p.market;
    const m = getMarket(p.market);
    const oi = m.longOpenInterestCh.plus(m.shortOpenInterestCh);
    m.socialisedUsdc = m.socialisedUsdc.plus(p.amountUsdc);
    // A socialised loss is paid out of the last market's PnL pool.
    m.poolUsdc = m.poolUsdc.minus(p.amountUsdc);
    m.save();
    marketDay(m, event, oi, ZERO, 0, ZERO, ZERO, ZERO, ZERO, p.amountUsdc);
  }
  stamp(s, event);
  s.save();
  // an ADL step (layer 4) comes from executeAdl, not from a liquidation: no Liquidation will consume a draft
  if (p.layer == 4) return;
  const d = liquidationDraft(p.account, event);
  if (p.layer == 1) d.guarantorUsdc = d.guarantorUsdc.plus(p.amountUsdc);
  else if (p.layer == 2) d.insuranceUsdc = d.insuranceUsdc.plus(p.amountUsdc);
  else if (p.layer == 3) d.socialisedUsdc = d.socialisedUsdc.plus(p.amountUsdc);
  d.save();
}

/** What the waterfall could not absorb stays on the account as negative collateral (its post-state). */
export function handleDeficitUnabsorbed(event: DeficitUnabsorbed): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  setCollateral(a, p.collateralUsdc, event);
  a.save();
  accountDay(a, event, ZERO, ZERO, ZERO, 0, 0);
  const e = clearingEvent(event, "deficitUnabsorbed", p.account, null);
  e.amountUsdc = p.amountUsdc;
  e.collateralUsdc = p.collateralUsdc;
  e.save();
}

/**
 * The chain's own figure of Σ max(0, −collateral) after a change (round 47): one ClearingEvent per change
 * (kind "uncoveredChanged", amountUsdc = the total after), the history analysts chart. ClearingStats keeps the total
 * rebuilt from the accounts' post-states; OPS-03 checks that the two and `uncoveredCollateralUsdc()` agree.
 */
export function handleUncoveredCollateralChanged(event: UncoveredCollateralChanged): void {
  const e = clearingEvent(event, "uncoveredChanged", null, null);
  e.amountUsdc = event.params.uncoveredCollateralUsdc;
  e.save();
}

// ───────────── token collateral (IClearingHouseCollateral) ─────────────

function getTokenCollateral(account: Bytes, token: Bytes, event: ethereum.Event): TokenCollateral {
  const id = account.concat(token);
  let t = TokenCollateral.load(id);
  if (t == null) {
    t = initTokenCollateral(id);
    t.account = account;
    t.token = token;
  }
  t.updatedAt = event.block.timestamp;
  return t;
}

function tokenEvent(event: ethereum.Event, kind: string, account: Bytes, token: Bytes): TokenCollateralEvent {
  const e = new TokenCollateralEvent(eventId(event));
  e.kind = kind;
  e.account = account;
  e.token = token;
  e.amount = ZERO;
  e.balance = ZERO;
  e.proceedsUsdc = ZERO;
  stamp(e, event);
  return e;
}

export function handleTokenCollateralDeposited(event: TokenCollateralDeposited): void {
  const p = event.params;
  const t = getTokenCollateral(p.account, p.token, event);
  t.balance = p.balance;
  t.deposited = t.deposited.plus(p.amount);
  t.save();
  const e = tokenEvent(event, "deposit", p.account, p.token);
  e.amount = p.amount;
  e.balance = p.balance;
  e.totalDeposited = p.totalDeposited;
  e.save();
}

export function handleTokenCollateralWithdrawn(event: TokenCollateralWithdrawn): void {
  const p = event.params;
  const t = getTokenCollateral(p.account, p.token, event);
  t.balance = p.balance;
  t.withdrawn = t.withdrawn.plus(p.amount);
  t.save();
  const e = tokenEvent(event, "withdraw", p.account, p.token);
  e.counterparty = p.to;
  e.amount = p.amount;
  e.balance = p.balance;
  e.totalDeposited = p.totalDeposited;
  e.save();
}

export function handleTokenCollateralSeized(event: TokenCollateralSeized): void {
  const p = event.params;
  const t = getTokenCollateral(p.account, p.token, event);
  t.balance = ZERO;
  t.seized = t.seized.plus(p.amount);
  t.seizedProceedsUsdc = t.seizedProceedsUsdc.plus(p.proceedsUsdc);
  t.save();
  const a = getMarginAccount(p.account, event);
  setCollateral(a, p.collateralUsdc, event);
  a.save();
  const e = tokenEvent(event, "seized", p.account, p.token);
  e.counterparty = p.to;
  e.amount = p.amount;
  e.proceedsUsdc = p.proceedsUsdc;
  e.collateralUsdc = p.collateralUsdc;
  e.save();
}
