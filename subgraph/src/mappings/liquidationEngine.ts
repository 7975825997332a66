// LiquidationEngine: account liquidations (attributed to the account's guarantor at the time) and parameters.
import {
  AccountLiquidated,
  LiquidationParamsSet,
} from "../../generated/LiquidationEngine/LiquidationEngine";
import { Liquidation } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp } from "../lib/common";
import { configChange, getMarginAccount } from "../lib/clearing";
export { handleFeaturePauseSet, handleUpgraded } from "./module";

export function handleAccountLiquidated(event: AccountLiquidated): void {
  const p = event.params;
  const a = getMarginAccount(p.account, event);
  a.collateralUsdc = p.collateralUsdc;
  a.liquidationCount = a.liquidationCount + 1;
  a.save();
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
  stamp(l, event);
  l.save();
}

export function handleLiquidationParamsSet(event: LiquidationParamsSet): void {
  const p = event.params;
  configChange(event, "liquidationParams", null, [], [p.bountyBps, p.maxBountyUsdc, p.dustNotionalUsdc]);
}
