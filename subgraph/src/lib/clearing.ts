// Shared clearing-layer helpers: margin accounts, guarantors, markets, configuration changes.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { Series } from "./buckets";
import { ClearingConfigChange, ClearingMarket, Guarantor, MarginAccount } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "./common";
import {
  initGuarantor,
  initMarginAccount,
  loadOrInitClearingMarket,
  loadOrInitClearingStats,
} from "../../generated/defaults";

/** ClearingStats' id: one row for the clearing layer (written by the ClearingHouse and LiquidationEngine sources). */
export const CLEARING_ID = Bytes.fromUTF8("clearing");

export function getMarginAccount(address: Bytes, event: ethereum.Event): MarginAccount {
  let a = MarginAccount.load(address);
  if (a == null) {
    a = initMarginAccount(address);
    a.account = getOrCreateAccount(address, event.block).id;
  }
  a.updatedAt = event.block.timestamp;
  return a;
}

/**
 * Sets the account's USDC collateral to `collateral` (the post-state an event carries) and books the change into
 * ClearingStats as the ClearingHouse books it (ClearingStorage.bookUncovered): uncovered += max(0, −new) − max(0, −old),
 * and the count of accounts below zero. Neither side negative (every solvent account): ClearingStats is not touched.
 * Every write of MarginAccount.collateralUsdc goes through here, so the total is Σ max(0, −collateralUsdc).
 */
export function setCollateral(a: MarginAccount, collateral: BigInt, event: ethereum.Event): void {
  const before = a.collateralUsdc;
  a.collateralUsdc = collateral;
  const wasNegative = before.lt(ZERO);
  const isNegative = collateral.lt(ZERO);
  if (!wasNegative && !isNegative) return;
  const s = loadOrInitClearingStats(CLEARING_ID);
  s.uncoveredCollateralUsdc = s.uncoveredCollateralUsdc.minus(negative(before)).plus(negative(collateral));
  if (wasNegative != isNegative) s.accountsInDeficit = s.accountsInDeficit + (isNegative ? 1 : -1);
  s.updatedAt = event.block.timestamp;
  s.save();
}

export function getGuarantor(address: Bytes, event: ethereum.Event): Guarantor {
  let g = Guarantor.load(address);
  if (g == null) {
    g = initGuarantor(address);
    g.account = getOrCreateAccount(address, event.block).id;
  }
  return g;
}

export function getMarket(address: Bytes): ClearingMarket {
  return loadOrInitClearingMarket(address);
}

export function configChange(
  event: ethereum.Event,
  kind: string,
  target: Bytes | null,
  addresses: Bytes[],
  values: BigInt[],
): void {
  const e = new ClearingConfigChange(eventId(event));
  e.contract = event.address;
  e.kind = kind;
  e.target = target;
  e.addresses = addresses;
  e.values = values;
  stamp(e, event);
  e.save();
}

/** max(x, 0) */
export function positive(x: BigInt): BigInt {
  return x.gt(ZERO) ? x : ZERO;
}
/** max(-x, 0) */
export function negative(x: BigInt): BigInt {
  return x.lt(ZERO) ? x.neg() : ZERO;
}

/** MarginAccountDayData (daily): an account's PnL, fees and settlements per day, closed at its state. */
const ACCOUNT_DAYS = new Series("MarginAccountDayData", "", "date", "", "marginAccount");

/** Closes the account's day at its state; `realised`, `fees`, `settled`, `trades`, `liquidations` add to the day. */
export function accountDay(
  a: MarginAccount,
  event: ethereum.Event,
  realised: BigInt,
  fees: BigInt,
  settled: BigInt,
  trades: i32,
  liquidations: i32,
): void {
  const b = ACCOUNT_DAYS.open(a.id, event)[0];
  b.add("realisedPnlUsdc", realised).add("feesUsdc", fees).add("settledUsdc", settled);
  b.count("tradeCount", trades).count("liquidationCount", liquidations);
  b.set("realisedPnlTotalUsdc", a.realisedPnlUsdc).set("unrealisedPnlUsdc", a.unrealisedPnlUsdc);
  b.set("collateralUsdc", a.collateralUsdc).save();
}
