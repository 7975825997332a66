// Shared clearing-layer helpers: margin accounts, guarantors, markets, configuration changes.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { Series } from "./buckets";
import { ClearingConfigChange, ClearingMarket, Guarantor, MarginAccount } from "../../generated/schema";
import { eventId, getOrCreateAccount, stamp, ZERO } from "./common";
import { initGuarantor, initMarginAccount, loadOrInitClearingMarket } from "../../generated/defaults";

export function getMarginAccount(address: Bytes, event: ethereum.Event): MarginAccount {
  let a = MarginAccount.load(address);
  if (a == null) {
    a = initMarginAccount(address);
    a.account = getOrCreateAccount(address, event.block).id;
  }
  a.updatedAt = event.block.timestamp;
  return a;
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

