// Event builders for the mapping tests (matchstick-as API: runs under `graph test` and under
// subgraph/test-runner). Every event gets a fresh log index so immutable event ids never collide.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { newMockEvent } from "matchstick-as/assembly/index";

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

let nextLogIndex: i32 = 0;

/** A mock event from `address` at `timestamp`, with a unique transaction hash + log index. */
export function mockEvent(address: Address, timestamp: i64, params: Array<ethereum.EventParam>): ethereum.Event {
  const e = newMockEvent();
  nextLogIndex++;
  e.address = address;
  e.logIndex = BigInt.fromI32(nextLogIndex);
  e.transactionLogIndex = BigInt.fromI32(nextLogIndex);
  e.transaction.hash = Bytes.fromHexString("0x" + "ab".repeat(28)).concatI32(nextLogIndex);
  e.block.timestamp = BigInt.fromI64(timestamp);
  e.block.number = BigInt.fromI64(1000 + (timestamp - T0) / 12);
  e.parameters = params;
  return e;
}

/** The id of the immutable entity `mockEvent` produced last (tx hash ++ log index), as a hex string. */
export function lastEventId(e: ethereum.Event): string {
  return e.transaction.hash.concatI32(e.logIndex.toI32()).toHexString();
}

export function addressParam(name: string, v: Address): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromAddress(v));
}
export function uintParam(name: string, v: BigInt): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromUnsignedBigInt(v));
}
export function boolParam(name: string, v: boolean): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromBoolean(v));
}
export function bytesParam(name: string, v: Bytes): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromFixedBytes(v));
}
export function dynBytesParam(name: string, v: Bytes): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromBytes(v));
}
export function stringParam(name: string, v: string): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromString(v));
}
export function i32Param(name: string, v: i32): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromI32(v));
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
