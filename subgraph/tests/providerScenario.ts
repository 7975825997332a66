// The ProviderRegistry + ComputeStandard scenario the two data sources' mapping tests replay before each test
// (matchstick-as API; events from generated/factories/*), with the event builders they share. Every number is
// worked by hand in scenario()'s comment.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { handleGradeThresholdsSet, handleReferencePublished } from "../src/mappings/computeStandard";
import {
  handleAttested,
  handleCHBoughtBack,
  handleDeliveryConfirmed,
  handleDeliveryFailed,
  handleHeartbeat,
  handleParamsSet,
  handleProviderCHMinted,
  handleProviderRegistered,
  handleRedemptionAssigned,
  handleSlashed,
  handleStaked,
  handleTierThresholdsSet,
} from "../src/mappings/providerRegistry";
import { ALICE, BOB, CAROL, DAY, HOUR, T0, wad } from "./helpers";
import { ComputeStandardEvents } from "../generated/factories/ComputeStandard";
import { ProviderRegistryEvents } from "../generated/factories/ProviderRegistry";

export const STANDARD = Address.fromString("0x0000000000000000000000000000000000005d01");
export const REGISTRY = Address.fromString("0x0000000000000000000000000000000000005d02");
export const STATS = Bytes.fromUTF8("compute").toHexString();
export const P = ALICE.toHexString();

/** x / 1000 WAD */
export function milli(x: i64): BigInt {
  return BigInt.fromI64(x).times(BigInt.fromI64(1_000_000_000_000_000));
}
export function u(x: i64): ethereum.Value {
  return ethereum.Value.fromUnsignedBigInt(BigInt.fromI64(x));
}
export function uv(x: BigInt): ethereum.Value {
  return ethereum.Value.fromUnsignedBigInt(x);
}
export function tuple(values: Array<ethereum.Value>): ethereum.Tuple {
  return changetype<ethereum.Tuple>(values);
}

export function thresholds(perfA: BigInt, ts: i64): void {
  const t = tuple([
    uv(perfA),
    uv(milli(1100)),
    uv(milli(900)),
    uv(milli(999)),
    uv(milli(990)),
    uv(milli(950)),
    uv(wad(500)),
    uv(wad(1000)),
  ]);
  handleGradeThresholdsSet(
    new ComputeStandardEvents(STANDARD).GradeThresholdsSet(ts, t),
  );
}

export function reference(version: i32, ts: i64): void {
  const weights: Array<BigInt> = [milli(500), milli(300), milli(200)];
  handleReferencePublished(
    new ComputeStandardEvents(STANDARD).ReferencePublished(ts, 1, version, milli(312), weights, "ML training", Bytes.fromHexString("0x" + "11".repeat(32))),
  );
}

export function genesis(ts: i64): void {
  thresholds(milli(1500), ts);
  const params = tuple([
    uv(wad(1000)),
    uv(milli(500)),
    u(30 * DAY),
    u(7 * DAY),
    u(30 * DAY),
    u(HOUR),
    u(30 * DAY),
    ethereum.Value.fromI32(1000),
    ethereum.Value.fromI32(1000),
    uv(wad(1)),
  ]);
  handleParamsSet(new ProviderRegistryEvents(REGISTRY).ParamsSet(ts, params));
  const tiers: Array<BigInt> = [wad(1000), wad(10000), wad(50000), wad(250000)];
  handleTierThresholdsSet(
    new ProviderRegistryEvents(REGISTRY).TierThresholdsSet(ts, tiers),
  );
  reference(1, ts);
}

export function register(provider: Address, index: i32, ts: i64): void {
  handleProviderRegistered(
    new ProviderRegistryEvents(REGISTRY).ProviderRegistered(ts, provider, BigInt.fromI32(index), 3, BigInt.fromI32(6), Bytes.fromHexString("0x" + "22".repeat(32)), "ipfs://hw"),
  );
}

export function staked(provider: Address, amount: BigInt, after: BigInt, tier: i32, ts: i64): void {
  handleStaked(
    new ProviderRegistryEvents(REGISTRY).Staked(ts, provider, amount, after, tier),
  );
}

export function attested(provider: Address, nonce: i32, chPerHour: BigInt, whPerCh: BigInt, capacity: BigInt, ts: i64): void {
  const rating = tuple([ethereum.Value.fromI32(1), uv(milli(500)), uv(chPerHour), uv(whPerCh)]);
  handleAttested(
    new ProviderRegistryEvents(REGISTRY).Attested(ts, provider, CAROL, 1, BigInt.fromI32(nonce), rating, capacity, BigInt.fromI64(ts + 30 * DAY)),
  );
}

export function heartbeat(provider: Address, sample: BigInt, up: i64, tracked: i64, uptime: BigInt, ts: i64): void {
  handleHeartbeat(
    new ProviderRegistryEvents(REGISTRY).Heartbeat(ts, provider, sample, BigInt.fromI64(up), BigInt.fromI64(tracked), uptime),
  );
}

export function minted(provider: Address, amount: BigInt, liability: BigInt, ts: i64): void {
  handleProviderCHMinted(
    new ProviderRegistryEvents(REGISTRY).ProviderCHMinted(ts, provider, BOB, amount, liability),
  );
}

export function assigned(id: i32, provider: Address, amount: BigInt, assignedCh: BigInt, open: i32, ts: i64): void {
  handleRedemptionAssigned(
    new ProviderRegistryEvents(REGISTRY).RedemptionAssigned(ts, BigInt.fromI32(id), provider, amount, BigInt.fromI64(ts + DAY), assignedCh, BigInt.fromI32(open)),
  );
}

export function slashed(provider: Address, amount: BigInt, stakedAfter: BigInt, count: i32, ts: i64): void {
  const fee = amount.div(BigInt.fromI32(10));
  handleSlashed(
    new ProviderRegistryEvents(REGISTRY).Slashed(ts, provider, CAROL, amount, BOB, fee, amount.minus(fee), stakedAfter, BigInt.zero(), BigInt.fromI32(count), Bytes.fromHexString("0x" + "33".repeat(32))),
  );
}

/**
 * Day 0 (T0 + 1 h ...): ALICE registers, stakes 12 000 DPS (tier 2), is attested (1.6 CH/h → A, 400 Wh/CH → X,
 * 2 PFLOPS), beats twice (uptime 1.0 → R1, then 0.98 → R3), mints 100 + 50 CH, buys back 30 (liability 120),
 * delivers a 20 CH redemption (liability 100, minted 150 = 100 + 20 + 30), fails a 10 CH one (11 DPS compensation
 * slashed: stake 11 989), is slashed 2 000 DPS (stake 9 989 → tier 1). Day 1: thresholds raise perf A to 2.0 (→ B).
 */
export function scenario(): void {
  const t = T0 + HOUR;
  genesis(T0);
  register(ALICE, 0, t);
  staked(ALICE, wad(12000), wad(12000), 2, t);
  attested(ALICE, 0, milli(1600), wad(400), wad(2), t + 60);
  heartbeat(ALICE, milli(1500), 0, 0, BigInt.zero(), t + 120);
  heartbeat(ALICE, milli(1800), 3600, 3600, wad(1), t + 3720);
  heartbeat(ALICE, milli(2000), 7056, 7200, milli(980), t + 7320);
  minted(ALICE, wad(100), wad(100), t + 7400);
  minted(ALICE, wad(50), wad(150), t + 7500);
  handleCHBoughtBack(
    new ProviderRegistryEvents(REGISTRY).CHBoughtBack(t + 7600, ALICE, wad(30), wad(120), wad(30)),
  );
  assigned(1, ALICE, wad(20), wad(20), 1, t + 7700);
  handleDeliveryConfirmed(
    new ProviderRegistryEvents(REGISTRY).DeliveryConfirmed(t + 7800, BigInt.fromI32(1), ALICE, wad(20), wad(100), wad(20)),
  );
  assigned(2, ALICE, wad(10), wad(10), 1, t + 7900);
  handleDeliveryFailed(
    new ProviderRegistryEvents(REGISTRY).DeliveryFailed(t + 7900 + DAY + 1, BigInt.fromI32(2), ALICE, CAROL, wad(10), wad(1), wad(11), wad(11), BigInt.fromI32(1)),
  );
  slashed(ALICE, wad(11), wad(11989), 1, t + 7900 + DAY + 1);
  slashed(ALICE, wad(2000), wad(9989), 2, t + 7900 + DAY + 2);
}
