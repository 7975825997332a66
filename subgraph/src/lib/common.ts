// Helpers every mapping uses: event ids, accounts, contracts, per-feature pauses, upgrades.
// No eth_call anywhere: every value comes from the event (CHX events carry their post-state).
import { Address, BigInt, Bytes, Entity, ethereum } from "@graphprotocol/graph-ts";
import { Account, ChxContract, ContractUpgrade, FeaturePause, FeaturePauseEvent } from "../../generated/schema";
import { initAccount, initChxContract, initFeaturePause } from "../../generated/defaults";

export const ZERO = BigInt.zero();
export const ONE = BigInt.fromI32(1);
export const ZERO_ADDRESS = Address.zero();
export const SECONDS_PER_DAY = 86400;
export const SECONDS_PER_HOUR = 3600;

/** Id of an immutable event entity: transaction hash ++ log index (4 bytes little-endian, graph-ts concatI32). */
export function eventId(event: ethereum.Event): Bytes {
  return event.transaction.hash.concatI32(event.logIndex.toI32());
}

/** The provenance every event entity carries: block number, timestamp, transaction hash, log index. */
export function stamp(e: Entity, event: ethereum.Event): void {
  e.setBigInt("blockNumber", event.block.number);
  e.setBigInt("timestamp", event.block.timestamp);
  e.setBytes("transactionHash", event.transaction.hash);
  e.setBigInt("logIndex", event.logIndex);
}

/** 8 bytes big-endian of a uint64 (AccessManager role ids in RoleMember ids). */
export function u64Bytes(value: BigInt): Bytes {
  const out = new Bytes(8);
  let v = value.toU64();
  for (let i = 7; i >= 0; i--) {
    out[i] = <u8>(v & 0xff);
    v = v >> 8;
  }
  return out;
}

export function getOrCreateAccount(address: Bytes, block: ethereum.Block): Account {
  let account = Account.load(address);
  if (account == null) {
    account = initAccount(address);
    account.firstSeenBlock = block.number;
    account.save();
  }
  return account;
}

/** The CHX contract that emitted `event`, created on first sight with its deployment name. */
export function getOrCreateContract(address: Address, name: string): ChxContract {
  let c = ChxContract.load(address);
  if (c == null) {
    c = initChxContract(address);
    c.name = name;
    c.save();
  }
  return c;
}

/** FeaturePauseSet(feature, paused, by) of any ChxUpgradeable contract. */
export function recordFeaturePause(
  event: ethereum.Event,
  name: string,
  feature: Bytes,
  paused: boolean,
  by: Address,
): void {
  const contract = getOrCreateContract(event.address, name);
  const e = new FeaturePauseEvent(eventId(event));
  e.contract = contract.id;
  e.feature = feature;
  e.paused = paused;
  e.by = by;
  stamp(e, event);
  e.save();

  const id = contract.id.concat(feature);
  let state = FeaturePause.load(id);
  if (state == null) {
    state = initFeaturePause(id);
    state.contract = contract.id;
    state.feature = feature;
  }
  state.paused = paused;
  state.updatedBy = by;
  state.updatedAt = event.block.timestamp;
  state.updatedAtBlock = event.block.number;
  state.save();
}

/** ERC-1967 Upgraded(implementation): the deployment (first) and every later upgrade. */
export function recordUpgrade(event: ethereum.Event, name: string, implementation: Address): void {
  const contract = getOrCreateContract(event.address, name);
  contract.implementation = implementation;
  contract.upgradeCount = contract.upgradeCount + 1;
  contract.save();
  const e = new ContractUpgrade(eventId(event));
  e.contract = contract.id;
  e.implementation = implementation;
  stamp(e, event);
  e.save();
}
