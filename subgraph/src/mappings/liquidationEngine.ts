// LiquidationEngine: account liquidations (attributed to the account's guarantor at the time) and parameters.
import {
  AccountLiquidated,
  AdlRoundExecuted,
  AdlRoundOpened,
  LiquidationParamsSet,
} from "../../generated/LiquidationEngine/LiquidationEngine";
import { store } from "@graphprotocol/graph-ts";
import { AdlClaim, Liquidation, LiquidationDraft } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "../lib/common";
import { accountDay, configChange, getMarginAccount, setCollateral } from "../lib/clearing";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

export function handleAccountLiquidated(event: AccountLiquidated): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  // the account's collateral after the whole liquidation (token sale, close, bounty, waterfall): the last word of
  // the transaction, whatever the ClearingHouse events before it carried
  setCollateral(a, p.collateralUsdc, event);
  a.liquidationCount = a.liquidationCount + 1;
  a.save();
  accountDay(a, event, ZERO, ZERO, ZERO, 0, 1);
  getOrCreateAccount(p.keeper, event.block);
  const l = new Liquidation(eventId(event));
  l.marginAccount = a.id;
  l.account = p.account;
  l.guarantor = a.guarantor;
  l.keeper = p.keeper;
  l.fractionWad = p.fractionWad;
  l.priceWad = p.priceWad;
  l.bountyUsdc = p.bountyUsdc;
  l.collateralUsdc = p.collateralUsdc;
  l.positionsLeft = p.positionsLeft;
  // the ClearingHouse events of this transaction (they precede AccountLiquidated) gathered the amounts
  const id = p.account.concat(event.transaction.hash);
  const d = LiquidationDraft.load(id);
  l.positionsClosed = d == null ? 0 : d.positionsClosed;
  l.closedCh = d == null ? ZERO : d.closedCh;
  l.realisedPnlUsdc = d == null ? ZERO : d.realisedPnlUsdc;
  l.guarantorUsdc = d == null ? ZERO : d.guarantorUsdc;
  l.insuranceUsdc = d == null ? ZERO : d.insuranceUsdc;
  l.socialisedUsdc = d == null ? ZERO : d.socialisedUsdc;
  l.deficitUsdc = l.guarantorUsdc.plus(l.insuranceUsdc).plus(l.socialisedUsdc);
  if (d != null) store.remove("LiquidationDraft", id.toHexString());
  stamp(l, event);
  l.save();
}

export function handleLiquidationParamsSet(event: LiquidationParamsSet): void {
  const p = event.params;
  configChange(event, "liquidationParams", null, [], [p.bountyBps, p.maxBountyUsdc, p.dustNotionalUsdc]);
}

/** An ADL round opens (the first after a default, or the next while a deficit is left): the claim's post-state. */
export function handleAdlRoundOpened(event: AdlRoundOpened): void {
  const p = event.params;
  let c = AdlClaim.load(p.bankrupt);
  if (c == null) {
    c = new AdlClaim(p.bankrupt);
    c.rounds = 0;
    c.steps = 0;
    c.recoveredUsdc = ZERO;
  }
  c.market = p.market;
  c.bankruptLong = p.bankruptLong;
  c.deficitUsdc = p.deficitUsdc;
  c.sizeCh = p.sizeCh;
  c.perChWad = p.perChWad;
  c.windowEndsSec = p.windowEndsSec;
  c.rounds = c.rounds + 1;
  c.closed = false;
  c.updatedAt = event.block.timestamp;
  c.save();
}

/** A round executed: steps and recovery add up; `closed` when the claim ended (a new round re-opens it otherwise). */
export function handleAdlRoundExecuted(event: AdlRoundExecuted): void {
  const p = event.params;
  const c = AdlClaim.load(p.bankrupt);
  if (c == null) return;
  c.steps = c.steps + p.steps.toI32();
  c.recoveredUsdc = c.recoveredUsdc.plus(p.recoveredUsdc);
  c.sizeCh = p.sizeLeftCh;
  c.closed = p.closed;
  c.updatedAt = event.block.timestamp;
  c.save();
}
