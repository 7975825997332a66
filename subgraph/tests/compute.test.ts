// Compute-layer mappings (ComputeStandard, ProviderRegistry, ProviderMatcher), matchstick-as API. One scenario,
// replayed before each test, with every number worked by hand in the comments.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { GradeThresholdsSet, ReferencePublished } from "../generated/ComputeStandard/ComputeStandard";
import {
  Attested,
  CHBoughtBack,
  DeliveryConfirmed,
  DeliveryFailed,
  DrawCandidateListed,
  Heartbeat,
  ParamsSet,
  ProviderCHMinted,
  ProviderRegistered,
  RedemptionAssigned,
  RedemptionReleased,
  Slashed,
  StakeLocked,
  StakeReleased,
  Staked,
  TaskOutcomeRecorded,
  TierThresholdsSet,
  UnbondRequested,
  Withdrawn,
} from "../generated/ProviderRegistry/ProviderRegistry";
import { LimitsSet, WeightsSet } from "../generated/ProviderMatcher/ProviderMatcher";
import { handleGradeThresholdsSet, handleReferencePublished } from "../src/mappings/computeStandard";
import {
  handleAttested,
  handleCHBoughtBack,
  handleDeliveryConfirmed,
  handleDeliveryFailed,
  handleDrawCandidateListed,
  handleHeartbeat,
  handleParamsSet,
  handleProviderCHMinted,
  handleProviderRegistered,
  handleRedemptionAssigned,
  handleRedemptionReleased,
  handleSlashed,
  handleStakeLocked,
  handleStakeReleased,
  handleStaked,
  handleTaskOutcomeRecorded,
  handleTierThresholdsSet,
  handleUnbondRequested,
  handleWithdrawn,
} from "../src/mappings/providerRegistry";
import { handleLimitsSet, handleWeightsSet } from "../src/mappings/providerMatcher";
import {
  addressParam,
  ALICE,
  BOB,
  boolParam,
  bytesParam,
  CAROL,
  DAY,
  HOUR,
  i32Param,
  lastEventId,
  mockEvent,
  stringParam,
  T0,
  uintParam,
  wad,
} from "./helpers";

const STANDARD = Address.fromString("0x0000000000000000000000000000000000005d01");
const REGISTRY = Address.fromString("0x0000000000000000000000000000000000005d02");
const MATCHER = Address.fromString("0x0000000000000000000000000000000000005d03");
const STATS = Bytes.fromUTF8("compute").toHexString();
const GRADES = Bytes.fromUTF8("grades").toHexString();
const P = ALICE.toHexString();

/** x / 1000 WAD */
function milli(x: i64): BigInt {
  return BigInt.fromI64(x).times(BigInt.fromI64(1_000_000_000_000_000));
}
function u(x: i64): ethereum.Value {
  return ethereum.Value.fromUnsignedBigInt(BigInt.fromI64(x));
}
function uv(x: BigInt): ethereum.Value {
  return ethereum.Value.fromUnsignedBigInt(x);
}
function tuple(values: Array<ethereum.Value>): ethereum.Value {
  return ethereum.Value.fromTuple(changetype<ethereum.Tuple>(values));
}

function thresholds(perfA: BigInt, ts: i64): void {
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
    changetype<GradeThresholdsSet>(mockEvent(STANDARD, ts, [new ethereum.EventParam("thresholds", t)])),
  );
}

function reference(version: i32, ts: i64): void {
  const weights: Array<BigInt> = [milli(500), milli(300), milli(200)];
  handleReferencePublished(
    changetype<ReferencePublished>(
      mockEvent(STANDARD, ts, [
        i32Param("workloadClass", 1),
        i32Param("version", version),
        uintParam("refPflopsWad", milli(312)),
        new ethereum.EventParam("weightsWad", ethereum.Value.fromUnsignedBigIntArray(weights)),
        stringParam("name", "ML training"),
        bytesParam("specHash", Bytes.fromHexString("0x" + "11".repeat(32))),
      ]),
    ),
  );
}

function genesis(ts: i64): void {
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
  handleParamsSet(changetype<ParamsSet>(mockEvent(REGISTRY, ts, [new ethereum.EventParam("params", params)])));
  const tiers: Array<BigInt> = [wad(1000), wad(10000), wad(50000), wad(250000)];
  handleTierThresholdsSet(
    changetype<TierThresholdsSet>(
      mockEvent(REGISTRY, ts, [
        new ethereum.EventParam("thresholdsDps", ethereum.Value.fromUnsignedBigIntArray(tiers)),
      ]),
    ),
  );
  reference(1, ts);
}

function register(provider: Address, index: i32, ts: i64): void {
  handleProviderRegistered(
    changetype<ProviderRegistered>(
      mockEvent(REGISTRY, ts, [
        addressParam("provider", provider),
        uintParam("index", BigInt.fromI32(index)),
        i32Param("region", 3),
        uintParam("workloadMask", BigInt.fromI32(6)),
        bytesParam("hardwareHash", Bytes.fromHexString("0x" + "22".repeat(32))),
        stringParam("hardwareUri", "ipfs://hw"),
      ]),
    ),
  );
}

function staked(provider: Address, amount: BigInt, after: BigInt, tier: i32, ts: i64): void {
  handleStaked(
    changetype<Staked>(
      mockEvent(REGISTRY, ts, [
        addressParam("provider", provider),
        uintParam("amount", amount),
        uintParam("stakedDps", after),
        i32Param("tier", tier),
      ]),
    ),
  );
}

function attested(provider: Address, nonce: i32, chPerHour: BigInt, whPerCh: BigInt, capacity: BigInt, ts: i64): void {
  const rating = tuple([ethereum.Value.fromI32(1), uv(milli(500)), uv(chPerHour), uv(whPerCh)]);
  handleAttested(
    changetype<Attested>(
      mockEvent(REGISTRY, ts, [
        addressParam("provider", provider),
        addressParam("attester", CAROL),
        i32Param("workloadClass", 1),
        uintParam("nonce", BigInt.fromI32(nonce)),
        new ethereum.EventParam("rating", rating),
        uintParam("capacityPflopsWad", capacity),
        uintParam("expiresAt", BigInt.fromI64(ts + 30 * DAY)),
      ]),
    ),
  );
}

function heartbeat(provider: Address, sample: BigInt, up: i64, tracked: i64, uptime: BigInt, ts: i64): void {
  handleHeartbeat(
    changetype<Heartbeat>(
      mockEvent(REGISTRY, ts, [
        addressParam("provider", provider),
        uintParam("samplePflopsWad", sample),
        uintParam("upSeconds", BigInt.fromI64(up)),
        uintParam("trackedSeconds", BigInt.fromI64(tracked)),
        uintParam("uptimeWad", uptime),
      ]),
    ),
  );
}

function minted(provider: Address, amount: BigInt, liability: BigInt, ts: i64): void {
  handleProviderCHMinted(
    changetype<ProviderCHMinted>(
      mockEvent(REGISTRY, ts, [
        addressParam("provider", provider),
        addressParam("to", BOB),
        uintParam("amount", amount),
        uintParam("liabilityCh", liability),
      ]),
    ),
  );
}

function assigned(id: i32, provider: Address, amount: BigInt, assignedCh: BigInt, open: i32, ts: i64): void {
  handleRedemptionAssigned(
    changetype<RedemptionAssigned>(
      mockEvent(REGISTRY, ts, [
        uintParam("assignmentId", BigInt.fromI32(id)),
        addressParam("provider", provider),
        uintParam("chAmount", amount),
        uintParam("deadline", BigInt.fromI64(ts + DAY)),
        uintParam("assignedCh", assignedCh),
        uintParam("openAssignments", BigInt.fromI32(open)),
      ]),
    ),
  );
}

function slashed(provider: Address, amount: BigInt, stakedAfter: BigInt, count: i32, ts: i64): void {
  const fee = amount.div(BigInt.fromI32(10));
  handleSlashed(
    changetype<Slashed>(
      mockEvent(REGISTRY, ts, [
        addressParam("provider", provider),
        addressParam("by", CAROL),
        uintParam("slashedDps", amount),
        addressParam("finder", BOB),
        uintParam("finderFeeDps", fee),
        uintParam("burnedDps", amount.minus(fee)),
        uintParam("stakedDps", stakedAfter),
        uintParam("unbondingDps", BigInt.zero()),
        uintParam("slashCount", BigInt.fromI32(count)),
        bytesParam("reason", Bytes.fromHexString("0x" + "33".repeat(32))),
      ]),
    ),
  );
}

/**
 * Day 0 (T0 + 1 h ...): ALICE registers, stakes 12 000 DPS (tier 2), is attested (1.6 CH/h → A, 400 Wh/CH → X,
 * 2 PFLOPS), beats twice (uptime 1.0 → R1, then 0.98 → R3), mints 100 + 50 CH, buys back 30 (liability 120),
 * delivers a 20 CH redemption (liability 100, minted 150 = 100 + 20 + 30), fails a 10 CH one (11 DPS compensation
 * slashed: stake 11 989), is slashed 2 000 DPS (stake 9 989 → tier 1). Day 1: thresholds raise perf A to 2.0 (→ B).
 */
function scenario(): void {
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
    changetype<CHBoughtBack>(
      mockEvent(REGISTRY, t + 7600, [
        addressParam("provider", ALICE),
        uintParam("amount", wad(30)),
        uintParam("liabilityCh", wad(120)),
        uintParam("boughtBackCh", wad(30)),
      ]),
    ),
  );
  assigned(1, ALICE, wad(20), wad(20), 1, t + 7700);
  handleDeliveryConfirmed(
    changetype<DeliveryConfirmed>(
      mockEvent(REGISTRY, t + 7800, [
        uintParam("assignmentId", BigInt.fromI32(1)),
        addressParam("provider", ALICE),
        uintParam("chAmount", wad(20)),
        uintParam("liabilityCh", wad(100)),
        uintParam("deliveredCh", wad(20)),
      ]),
    ),
  );
  assigned(2, ALICE, wad(10), wad(10), 1, t + 7900);
  handleDeliveryFailed(
    changetype<DeliveryFailed>(
      mockEvent(REGISTRY, t + 7900 + DAY + 1, [
        uintParam("assignmentId", BigInt.fromI32(2)),
        addressParam("provider", ALICE),
        addressParam("recipient", CAROL),
        uintParam("chAmount", wad(10)),
        uintParam("indexPriceWad", wad(1)),
        uintParam("compensationUsdWad", wad(11)),
        uintParam("compensationDps", wad(11)),
        uintParam("failedCount", BigInt.fromI32(1)),
      ]),
    ),
  );
  slashed(ALICE, wad(11), wad(11989), 1, t + 7900 + DAY + 1);
  slashed(ALICE, wad(2000), wad(9989), 2, t + 7900 + DAY + 2);
}

describe("ProviderRegistry", () => {
  beforeEach(() => {
    clearStore();
    scenario();
  });

  test("registration, stake, tier and attestation with grades", () => {
    assert.fieldEquals("Provider", P, "index", "0");
    assert.fieldEquals("Provider", P, "region", "3");
    assert.fieldEquals("Provider", P, "workloadMask", "6");
    // 12 000 - 11 - 2 000 = 9 989 DPS: 1 000 ≤ 9 989 < 10 000 → tier 1
    assert.fieldEquals("Provider", P, "stakedDps", wad(9989).toString());
    assert.fieldEquals("Provider", P, "tier", "1");
    assert.fieldEquals("Provider", P, "attestationNonce", "1");
    assert.fieldEquals("Provider", P, "chPerHourWad", milli(1600).toString());
    assert.fieldEquals("Provider", P, "capacityPflopsWad", wad(2).toString());
    assert.fieldEquals("Provider", P, "standardVersion", "1");
    assert.fieldEquals("Provider", P, "performanceGrade", "A"); // 1.6 ≥ 1.5
    assert.fieldEquals("Provider", P, "energyGrade", "X"); // 400 ≤ 500
    assert.fieldEquals("ComputeStats", STATS, "totalAttestedCapacityPflopsWad", wad(2).toString());
    assert.fieldEquals("ComputeStats", STATS, "providerCount", "1");
    assert.entityCount("ProviderList", 1);
    assert.fieldEquals("ComputeStats", STATS, "minStakeDps", wad(1000).toString());
  });

  test("heartbeats: latest state on the provider, every beat immutable, reliability grade", () => {
    assert.entityCount("ProviderHeartbeat", 3);
    assert.fieldEquals("Provider", P, "heartbeatCount", "3");
    assert.fieldEquals("Provider", P, "upSeconds", "7056");
    assert.fieldEquals("Provider", P, "trackedSeconds", "7200");
    assert.fieldEquals("Provider", P, "uptimeWad", milli(980).toString());
    assert.fieldEquals("Provider", P, "reliabilityGrade", "R3"); // 0.95 ≤ 0.98 < 0.99
    assert.fieldEquals("Provider", P, "lastSamplePflopsWad", milli(2000).toString());
    assert.fieldEquals("Provider", P, "lastHeartbeat", (T0 + HOUR + 7320).toString());
    // one day: 1.5 + 1.8 + 2.0 = 5.3 PFLOPS of samples over 3 beats
    const day = Bytes.fromUTF8("compute")
      .concatI32(<i32>(T0 / DAY))
      .toHexString();
    assert.fieldEquals("ComputeDayData", day, "heartbeatCount", "3");
    assert.fieldEquals("ComputeDayData", day, "capacitySampleSumPflopsWad", milli(5300).toString());
  });

  test("CH liability: mint, buy-back, delivery; Σ liabilities; day aggregate", () => {
    // liability 150 - 30 - 20 = 100; minted 150 = 100 + 20 delivered + 30 bought back (TSK-04)
    assert.fieldEquals("Provider", P, "liabilityCh", wad(100).toString());
    assert.fieldEquals("Provider", P, "mintedCh", wad(150).toString());
    assert.fieldEquals("Provider", P, "deliveredCh", wad(20).toString());
    assert.fieldEquals("Provider", P, "boughtBackCh", wad(30).toString());
    assert.fieldEquals("ComputeStats", STATS, "totalLiabilityCh", wad(100).toString());
    assert.fieldEquals("ComputeStats", STATS, "totalMintedCh", wad(150).toString());
    const day = Bytes.fromUTF8("compute")
      .concatI32(<i32>(T0 / DAY))
      .toHexString();
    assert.fieldEquals("ComputeDayData", day, "chMinted", wad(150).toString());
    assert.fieldEquals("ComputeDayData", day, "chBoughtBack", wad(30).toString());
    assert.fieldEquals("ComputeDayData", day, "chDelivered", wad(20).toString());
    assert.fieldEquals("ComputeDayData", day, "liabilityHigh", wad(150).toString());
    assert.fieldEquals("ComputeDayData", day, "liabilityLow", "0");
    assert.fieldEquals("ComputeDayData", day, "liabilityCh", wad(100).toString());
    // the hour of the two mints (T0 + 3 h: t + 7400 and t + 7500 with t = T0 + 1 h)
    const hour = Bytes.fromUTF8("compute")
      .concatI32(<i32>((T0 + 3 * HOUR) / HOUR))
      .toHexString();
    assert.fieldEquals("ComputeHourData", hour, "chMinted", wad(150).toString());
    assert.fieldEquals(
      "ProviderDayData",
      ALICE.concatI32(<i32>(T0 / DAY)).toHexString(),
      "chMinted",
      wad(150).toString(),
    );
  });

  test("redemptions: reservation released on delivery and failure; compensation and slash", () => {
    assert.fieldEquals("RedemptionAssignment", Bytes.fromI32(1).toHexString(), "status", "delivered");
    assert.fieldEquals("RedemptionAssignment", Bytes.fromI32(2).toHexString(), "status", "failed");
    assert.fieldEquals("RedemptionAssignment", Bytes.fromI32(2).toHexString(), "compensationDps", wad(11).toString());
    assert.fieldEquals("Provider", P, "assignedCh", "0");
    assert.fieldEquals("Provider", P, "openAssignments", "0");
    assert.fieldEquals("Provider", P, "failed", "1");
    assert.fieldEquals("Provider", P, "slashCount", "2");
    assert.fieldEquals("Provider", P, "slashedDps", wad(2011).toString());
    assert.fieldEquals("Provider", P, "compensationPaidDps", wad(11).toString());
    assert.fieldEquals("ComputeStats", STATS, "totalSlashedDps", wad(2011).toString());
    assert.fieldEquals("ComputeStats", STATS, "totalStakedDps", wad(9989).toString());
    assert.entityCount("RedemptionEvent", 4);
    assert.entityCount("Slash", 2);
  });

  test("unbond and withdraw move stake to unbonding and out", () => {
    const t = T0 + 3 * DAY;
    handleUnbondRequested(
      changetype<UnbondRequested>(
        mockEvent(REGISTRY, t, [
          addressParam("provider", ALICE),
          uintParam("amount", wad(989)),
          uintParam("stakedDps", wad(9000)),
          uintParam("unbondingDps", wad(989)),
          uintParam("readyAt", BigInt.fromI64(t + 7 * DAY)),
          i32Param("tier", 1),
        ]),
      ),
    );
    assert.fieldEquals("Provider", P, "unbondingDps", wad(989).toString());
    assert.fieldEquals("Provider", P, "unbondReadyAt", (t + 7 * DAY).toString());
    assert.fieldEquals("ComputeStats", STATS, "totalUnbondingDps", wad(989).toString());
    const w = changetype<Withdrawn>(
      mockEvent(REGISTRY, t + 7 * DAY, [
        addressParam("provider", ALICE),
        uintParam("amount", wad(989)),
        uintParam("stakedDps", wad(9000)),
      ]),
    );
    handleWithdrawn(w);
    assert.fieldEquals("StakeChange", lastEventId(w), "kind", "withdraw");
    assert.fieldEquals("Provider", P, "unbondingDps", "0");
    assert.fieldEquals("ComputeStats", STATS, "totalUnbondingDps", "0");
    assert.fieldEquals("ComputeStats", STATS, "totalStakedDps", wad(9000).toString());
  });

  test("task outcomes feed reputation", () => {
    const e = changetype<TaskOutcomeRecorded>(
      mockEvent(REGISTRY, T0 + 2 * DAY, [
        addressParam("provider", ALICE),
        boolParam("completed", true),
        uintParam("completedCount", BigInt.fromI32(4)),
        uintParam("failedCount", BigInt.fromI32(1)),
      ]),
    );
    handleTaskOutcomeRecorded(e);
    assert.fieldEquals("Provider", P, "completed", "4");
    assert.fieldEquals("TaskOutcome", lastEventId(e), "completedCount", "4");
  });
});

describe("ProviderRegistry: issue 17 events", () => {
  beforeEach(() => {
    clearStore();
    scenario();
  });

  test("duty locks follow StakeLocked / StakeReleased; the draw index; a released redemption", () => {
    const lock = (ev: string, amount: BigInt, after: BigInt, ts: i64): void => {
      const params = [
        addressParam("provider", ALICE),
        addressParam("by", BOB),
        uintParam("amountDps", amount),
        uintParam("lockedDps", after),
      ];
      if (ev == "lock") handleStakeLocked(changetype<StakeLocked>(mockEvent(REGISTRY, ts, params)));
      else handleStakeReleased(changetype<StakeReleased>(mockEvent(REGISTRY, ts, params)));
    };
    assert.fieldEquals("Provider", P, "dutyLockedDps", "0");
    lock("lock", wad(100), wad(100), T0 + 3 * DAY);
    lock("lock", wad(100), wad(200), T0 + 3 * DAY + 1);
    assert.fieldEquals("Provider", P, "dutyLockedDps", wad(200).toString());
    lock("release", wad(100), wad(100), T0 + 3 * DAY + 2);
    assert.fieldEquals("Provider", P, "dutyLockedDps", wad(100).toString());
    handleDrawCandidateListed(
      changetype<DrawCandidateListed>(
        mockEvent(REGISTRY, T0 + 3 * DAY + 3, [addressParam("provider", ALICE), uintParam("index", BigInt.fromI32(4))]),
      ),
    );
    assert.fieldEquals("Provider", P, "drawIndex", "4");
    // assignment 3 (5 CH) opened, then released with no penalty: reservation back to 0, liability unchanged
    assigned(3, ALICE, wad(5), wad(5), 1, T0 + 3 * DAY + 4);
    handleRedemptionReleased(
      changetype<RedemptionReleased>(
        mockEvent(REGISTRY, T0 + 3 * DAY + 5, [
          uintParam("assignmentId", BigInt.fromI32(3)),
          addressParam("provider", ALICE),
          uintParam("chAmount", wad(5)),
          uintParam("assignedCh", BigInt.zero()),
          uintParam("openAssignments", BigInt.zero()),
        ]),
      ),
    );
    assert.fieldEquals("RedemptionAssignment", Bytes.fromI32(3).toHexString(), "status", "released");
    assert.fieldEquals("Provider", P, "assignedCh", "0");
    assert.fieldEquals("Provider", P, "openAssignments", "0");
    assert.fieldEquals("Provider", P, "liabilityCh", wad(100).toString());
  });
});

describe("ComputeStandard", () => {
  beforeEach(() => {
    clearStore();
    scenario();
  });

  test("new thresholds re-grade every provider", () => {
    thresholds(wad(2), T0 + 2 * DAY);
    assert.fieldEquals("GradeThresholds", GRADES, "perfAWad", wad(2).toString());
    assert.fieldEquals("Provider", P, "performanceGrade", "B"); // 1.1 ≤ 1.6 < 2.0
    assert.entityCount("GradeThresholdsChange", 2);
  });

  test("a new reference version supersedes the previous one", () => {
    reference(2, T0 + 2 * DAY);
    assert.fieldEquals("WorkloadClass", Bytes.fromI32(1).toHexString(), "latestVersion", "2");
    assert.fieldEquals("ReferenceSystem", Bytes.fromI32((1 << 16) | 1).toHexString(), "superseded", "true");
    assert.fieldEquals("ReferenceSystem", Bytes.fromI32((1 << 16) | 2).toHexString(), "superseded", "false");
    assert.fieldEquals(
      "ReferenceSystem",
      Bytes.fromI32((1 << 16) | 2).toHexString(),
      "refPflopsWad",
      milli(312).toString(),
    );
  });

  test("tier thresholds re-tier every provider", () => {
    const tiers: Array<BigInt> = [wad(100), wad(5000), wad(9000), wad(20000)];
    handleTierThresholdsSet(
      changetype<TierThresholdsSet>(
        mockEvent(REGISTRY, T0 + 2 * DAY, [
          new ethereum.EventParam("thresholdsDps", ethereum.Value.fromUnsignedBigIntArray(tiers)),
        ]),
      ),
    );
    assert.fieldEquals("Provider", P, "tier", "3"); // 9 000 ≤ 9 989 < 20 000
  });
});

describe("ProviderMatcher", () => {
  beforeEach(() => {
    clearStore();
  });

  test("weights and limits", () => {
    const w = tuple([
      ethereum.Value.fromI32(1500),
      ethereum.Value.fromI32(2000),
      ethereum.Value.fromI32(1500),
      ethereum.Value.fromI32(1500),
      ethereum.Value.fromI32(1000),
      ethereum.Value.fromI32(1000),
      ethereum.Value.fromI32(500),
      ethereum.Value.fromI32(1000),
    ]);
    handleWeightsSet(changetype<WeightsSet>(mockEvent(MATCHER, T0, [new ethereum.EventParam("weights", w)])));
    const l = changetype<LimitsSet>(
      mockEvent(MATCHER, T0, [
        uintParam("stakeNormDps", wad(50000)),
        uintParam("maxPage", BigInt.fromI32(100)),
        uintParam("maxPick", BigInt.fromI32(32)),
      ]),
    );
    handleLimitsSet(l);
    const id = MATCHER.toHexString();
    assert.fieldEquals("MatcherConfig", id, "priceBps", "2000");
    assert.fieldEquals("MatcherConfig", id, "maxPick", "32");
    assert.fieldEquals("ComputeConfigChange", lastEventId(l), "kind", "matcherLimits");
  });
});
