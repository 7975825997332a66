// Delayed two-step orders, kept alike by PerpMarket and FuturesMarket (OrderCommitted / OrderExecuted /
// OrderCancelled): the market's order counters and the order event's common fields. The two markets and their order
// event entities are different types with the same field names, so these work on Entity by field name (as
// lib/buckets does); each handler creates its typed entities, adds its own fields and saves them.
import { Address, BigInt, Entity, ethereum } from "@graphprotocol/graph-ts";
import { stamp } from "./common";

/**
 * One order step (`kind`: committed / executed / cancelled) on the market: pending orders from the event's
 * post-state; a committed order's execution fee is held, an executed or cancelled one's leaves what is held as paid;
 * orders<Kind> counts the step. The caller saves the market.
 */
function bookOrderStep(m: Entity, kind: string, pending: BigInt, feeUsdc: BigInt): void {
  const countField =
    kind == "committed" ? "ordersCommitted" : kind == "executed" ? "ordersExecuted" : "ordersCancelled";
  m.setI32("pendingOrders", pending.toI32());
  m.setI32(countField, m.getI32(countField) + 1);
  const held = m.getBigInt("orderFeesHeldUsdc");
  if (kind == "committed") {
    m.setBigInt("orderFeesHeldUsdc", held.plus(feeUsdc));
    return;
  }
  m.setBigInt("orderFeesHeldUsdc", held.minus(feeUsdc));
  m.setBigInt("executionFeesPaidUsdc", m.getBigInt("executionFeesPaidUsdc").plus(feeUsdc));
}

/**
 * One order step: bookOrderStep on the market `m` and the common fields of its order event `e` (the caller saves the
 * market; the handler adds the event's own fields and saves it once: immutable).
 */
export function orderStep(
  m: Entity,
  e: Entity,
  event: ethereum.Event,
  kind: string,
  account: Address,
  feeUsdc: BigInt,
  pending: BigInt,
): void {
  bookOrderStep(m, kind, pending, feeUsdc);
  e.setString("kind", kind);
  e.setBytes("account", account);
  e.setBigInt("feeUsdc", feeUsdc);
  e.setI32("pendingOrders", pending.toI32());
  stamp(e, event);
}
