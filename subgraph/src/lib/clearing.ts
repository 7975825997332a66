// Shared clearing-layer helpers: margin accounts, guarantors, markets, configuration changes.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
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
