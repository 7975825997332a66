// ClearingHouse: margin accounts, positions per market (open interest from the size post-states), market PnL
// pools, settlements, liquidation bounties, fee flushes and the waterfall steps (DeficitAbsorbed, LIQ-03).
import { Bytes, ethereum } from "@graphprotocol/graph-ts";
import {
  AccountSettled,
  DeficitAbsorbed,
  FeesFlushed,
  LiquidationBountyPaid,
  MarginDeposited,
  MarginWithdrawn,
  MarketPoolChanged,
  MarketRegistered,
  ModulesSet,
  PositionLiquidated,
  PositionModified,
} from "../../generated/ClearingHouse/ClearingHouse";
import { ClearingEvent, DeficitStep, Position, PositionChange } from "../../generated/schema";
import { eventId, stamp, ZERO } from "../lib/common";
import { configChange, getMarginAccount, getMarket, negative, positive } from "../lib/clearing";
import { initPosition } from "../../generated/defaults";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

const LAYERS = ["account", "guarantor", "insurance", "socialised"];

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
  a.collateralUsdc = p.collateralUsdc;
  a.depositedUsdc = a.depositedUsdc.plus(p.amountUsdc);
  a.save();
  const e = clearingEvent(event, "deposit", p.account, null);
  e.amountUsdc = p.amountUsdc;
  e.collateralUsdc = p.collateralUsdc;
  e.save();
}

export function handleMarginWithdrawn(event: MarginWithdrawn): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  a.collateralUsdc = p.collateralUsdc;
  a.withdrawnUsdc = a.withdrawnUsdc.plus(p.amountUsdc);
  a.save();
  const e = clearingEvent(event, "withdraw", p.account, null);
  e.counterparty = p.to;
  e.amountUsdc = p.amountUsdc;
  e.collateralUsdc = p.collateralUsdc;
  e.save();
}

export function handleAccountSettled(event: AccountSettled): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  a.collateralUsdc = p.collateralUsdc;
  a.save();
  const m = getMarket(p.market);
  m.poolUsdc = p.marketPoolUsdc;
  m.save();
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
  const e = clearingEvent(event, "marketPool", null, p.market);
  e.amountUsdc = p.amountUsdc;
  e.marketPoolUsdc = p.marketPoolUsdc;
  e.save();
}

export function handleLiquidationBountyPaid(event: LiquidationBountyPaid): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  a.collateralUsdc = p.collateralUsdc;
  a.save();
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

export function handlePositionModified(event: PositionModified): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  a.collateralUsdc = p.collateralUsdc;
  a.feesUsdc = a.feesUsdc.plus(p.feeUsdc);
  a.realisedPnlUsdc = a.realisedPnlUsdc.plus(p.realisedPnlUsdc);
  a.save();
  const m = getMarket(p.market);
  const pos = getPosition(p.account, p.market, event);
  m.longOpenInterestCh = m.longOpenInterestCh.minus(positive(pos.sizeCh)).plus(positive(p.sizeCh));
  m.shortOpenInterestCh = m.shortOpenInterestCh.minus(negative(pos.sizeCh)).plus(negative(p.sizeCh));
  m.volumeCh = m.volumeCh.plus(p.sizeDeltaCh.abs());
  m.feesUsdc = m.feesUsdc.plus(p.feeUsdc);
  m.tradeCount = m.tradeCount + 1;
  // The market's PnL pool is the counterparty of realised PnL (ClearingHouse: pool −= pnl).
  m.poolUsdc = m.poolUsdc.minus(p.realisedPnlUsdc);
  m.save();
  pos.sizeCh = p.sizeCh;
  pos.openNotionalUsdc = p.openNotionalUsdc;
  pos.realisedPnlUsdc = pos.realisedPnlUsdc.plus(p.realisedPnlUsdc);
  pos.feesUsdc = pos.feesUsdc.plus(p.feeUsdc);
  pos.tradeCount = pos.tradeCount + 1;
  pos.save();
  const c = new PositionChange(eventId(event));
  c.position = pos.id;
  c.account = p.account;
  c.market = p.market;
  c.liquidation = false;
  c.sizeDeltaCh = p.sizeDeltaCh;
  c.priceWad = p.tradePriceWad;
  c.sizeCh = p.sizeCh;
  c.openNotionalUsdc = p.openNotionalUsdc;
  c.realisedPnlUsdc = p.realisedPnlUsdc;
  c.feeUsdc = p.feeUsdc;
  c.collateralUsdc = p.collateralUsdc;
  stamp(c, event);
  c.save();
}

/** PositionLiquidated carries no open notional: the position keeps it pro rata to the size left (rounded down). */
export function handlePositionLiquidated(event: PositionLiquidated): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  a.collateralUsdc = p.collateralUsdc;
  a.realisedPnlUsdc = a.realisedPnlUsdc.plus(p.realisedPnlUsdc);
  a.save();
  const m = getMarket(p.market);
  const pos = getPosition(p.account, p.market, event);
  m.longOpenInterestCh = m.longOpenInterestCh.minus(positive(pos.sizeCh)).plus(positive(p.sizeCh));
  m.shortOpenInterestCh = m.shortOpenInterestCh.minus(negative(pos.sizeCh)).plus(negative(p.sizeCh));
  m.volumeCh = m.volumeCh.plus(p.sizeDeltaCh.abs());
  m.liquidatedCh = m.liquidatedCh.plus(p.sizeDeltaCh.abs());
  m.poolUsdc = m.poolUsdc.minus(p.realisedPnlUsdc);
  m.save();
  if (p.sizeCh.isZero() || pos.sizeCh.isZero()) pos.openNotionalUsdc = ZERO;
  else pos.openNotionalUsdc = pos.openNotionalUsdc.times(p.sizeCh.abs()).div(pos.sizeCh.abs());
  pos.sizeCh = p.sizeCh;
  pos.realisedPnlUsdc = pos.realisedPnlUsdc.plus(p.realisedPnlUsdc);
  pos.liquidatedCh = pos.liquidatedCh.plus(p.sizeDeltaCh.abs());
  pos.save();
  const c = new PositionChange(eventId(event));
  c.position = pos.id;
  c.account = p.account;
  c.market = p.market;
  c.liquidation = true;
  c.sizeDeltaCh = p.sizeDeltaCh;
  c.priceWad = p.priceWad;
  c.sizeCh = p.sizeCh;
  c.realisedPnlUsdc = p.realisedPnlUsdc;
  c.feeUsdc = ZERO;
  c.collateralUsdc = p.collateralUsdc;
  stamp(c, event);
  c.save();
}

export function handleDeficitAbsorbed(event: DeficitAbsorbed): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  a.deficitUsdc = a.deficitUsdc.plus(p.amountUsdc);
  a.save();
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
    m.socialisedUsdc = m.socialisedUsdc.plus(p.amountUsdc);
    // A socialised loss is paid out of the last market's PnL pool.
    m.poolUsdc = m.poolUsdc.minus(p.amountUsdc);
    m.save();
  }
  stamp(s, event);
  s.save();
}
