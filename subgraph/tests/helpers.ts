// Constants and arithmetic shared by the mapping tests (matchstick-as API: runs under `graph test` and under
// tools/graph-host). Events come from the factories generated from each data source's ABI
// (generated/factories/<DataSource>.ts, written by `npm run subgraph:build`): `new DPSTokenEvents(DPS).Transfer(ts,
// from, to, value)` gives every event a fresh transaction hash and log index.
import { Address, BigInt, Bytes, DataSourceContext, ethereum } from "@graphprotocol/graph-ts";
import { dataSourceMock } from "matchstick-as/assembly/index";
import { eventIdOf } from "../generated/factories/_mock";

export const DPS = Address.fromString("0x00000000000000000000000000000000000d0d05");
export const CH = Address.fromString("0x00000000000000000000000000000000000000c4");
export const GFL = Address.fromString("0x00000000000000000000000000000000000006f1");
export const MANAGER = Address.fromString("0x00000000000000000000000000000000000a11ce");
export const GOVERNOR = Address.fromString("0x0000000000000000000000000000000000009000");
export const TIMELOCK = Address.fromString("0x0000000000000000000000000000000000007100");
export const ZERO_ADDRESS = Address.zero();
export const ALICE = Address.fromString("0x000000000000000000000000000000000000a11a");
export const BOB = Address.fromString("0x0000000000000000000000000000000000000b0b");
export const CAROL = Address.fromString("0x000000000000000000000000000000000000ca01");

export const DAY: i64 = 86400;
export const HOUR: i64 = 3600;
/** 2026-01-01T00:00:00Z, a day boundary */
export const T0: i64 = 1767225600;

/** The id of the immutable entity an event produced (tx hash ++ log index), as a hex string. */
export function lastEventId(e: ethereum.Event): string {
  return eventIdOf(e);
}

/** n * 1e18 */
export function wad(n: i32): BigInt {
  return BigInt.fromI32(n).times(BigInt.fromI32(10).pow(18));
}

/** Hex id of a Bytes key built as a ++ b. */
export function key(a: Bytes, b: Bytes): string {
  return a.concat(b).toHexString();
}

/** Hex id of token ++ bucket (day or hour number). */
export function bucket(token: Address, bucketNumber: i64): string {
  return token.concatI32(<i32>bucketNumber).toHexString();
}

/** Runs the next handlers as data source `name` at `address` (the manifest puts the name into the context). */
export function asDataSource(name: string, address: Address): void {
  const ctx = new DataSourceContext();
  ctx.setString("name", name);
  dataSourceMock.setAddressAndContext(address.toHexString(), ctx);
}

/** `e` as part of transaction `hash` (events of one transaction share it; the factories give each its own). */
export function inTx<T extends ethereum.Event>(e: T, hash: string): T {
  e.transaction.hash = Bytes.fromHexString(hash);
  return e;
}
