// ProviderEarnings and ProviderEarningsDayData: each earning or loss of a provider is added to its row and to its day
// by the handler of the event that causes it (Emission, TaskRegistry, StreamTasks, ProviderRegistry). One call adds
// one amount (BigInt field) or one count (Int field) to both.
import { BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { ProviderEarnings } from "../../generated/schema";
import { initProviderEarnings } from "../../generated/defaults";
import { Series } from "./buckets";
import { getOrCreateAccount } from "./common";

const DAYS = new Series("ProviderEarningsDayData", "", "date", "", "earnings");

function row(provider: Bytes, event: ethereum.Event): ProviderEarnings {
  let e = ProviderEarnings.load(provider);
  if (e == null) {
    e = initProviderEarnings(provider);
    e.account = getOrCreateAccount(provider, event.block).id;
  }
  e.updatedAt = event.block.timestamp;
  return e;
}

/** Adds `amount` to `field` of the provider's earnings and of its day. */
export function earn(provider: Bytes, field: string, amount: BigInt, event: ethereum.Event): void {
  const e = row(provider, event);
  e.setBigInt(field, e.getBigInt(field).plus(amount));
  e.save();
  const d = DAYS.open(provider, event)[0];
  d.add(field, amount).save();
}

/** Adds `n` to the count `field` (and `amountField` += amount when given: "" for none). */
export function count(provider: Bytes, field: string, amountField: string, amount: BigInt, event: ethereum.Event): void {
  const e = row(provider, event);
  e.setI32(field, e.getI32(field) + 1);
  if (amountField.length > 0) e.setBigInt(amountField, e.getBigInt(amountField).plus(amount));
  e.save();
  const d = DAYS.open(provider, event)[0];
  d.count(field, 1);
  if (amountField.length > 0) d.add(amountField, amount);
  d.save();
}

/** "CH" | "USDC" | "DPS" -> the field name prefix + currency suffix ("executorPaid" + "Usdc") */
export function perCurrency(prefix: string, currency: string): string {
  return prefix + (currency == "CH" ? "Ch" : currency == "USDC" ? "Usdc" : "Dps");
}
