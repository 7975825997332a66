// Mapping tests of the ProviderRegistry data source (matchstick-as API; events from generated/factories/ProviderRegistry.ts).
// One scenario, replayed before each test, with every number worked by hand in the comments.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  DrawCandidateListed,
  RedemptionReleased,
  StakeLocked,
  StakeReleased,
  TaskOutcomeRecorded,
  UnbondRequested,
  Withdrawn,
} from "../generated/ProviderRegistry/ProviderRegistry";
import {
  handleDrawCandidateListed,
  handleRedemptionReleased,
  handleReputationChanged,
  handleStakeLocked,
  handleStakeReleased,
  handleTaskOutcomeRecorded,
  handleUnbondRequested,
  handleWithdrawn,
} from "../src/mappings/providerRegistry";
import { ALICE, BOB, DAY, HOUR, lastEventId, T0, wad } from "./helpers";
import { ProviderRegistryEvents } from "../generated/factories/ProviderRegistry";
import { REGISTRY, STATS, P, milli, minted, assigned, scenario } from "./providerScenario";

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
      new ProviderRegistryEvents(REGISTRY).UnbondRequested(
        t,
        ALICE,
        wad(989),
        wad(9000),
        wad(989),
        BigInt.fromI64(t + 7 * DAY),
        1,
      ),
    );
    assert.fieldEquals("Provider", P, "unbondingDps", wad(989).toString());
    assert.fieldEquals("Provider", P, "unbondReadyAt", (t + 7 * DAY).toString());
    assert.fieldEquals("ComputeStats", STATS, "totalUnbondingDps", wad(989).toString());
    const w = new ProviderRegistryEvents(REGISTRY).Withdrawn(t + 7 * DAY, ALICE, wad(989), wad(9000));
    handleWithdrawn(w);
    assert.fieldEquals("StakeChange", lastEventId(w), "kind", "withdraw");
    assert.fieldEquals("Provider", P, "unbondingDps", "0");
    assert.fieldEquals("ComputeStats", STATS, "totalUnbondingDps", "0");
    assert.fieldEquals("ComputeStats", STATS, "totalStakedDps", wad(9000).toString());
  });

  test("task outcomes feed reputation", () => {
    const e = new ProviderRegistryEvents(REGISTRY).TaskOutcomeRecorded(
      T0 + 2 * DAY,
      ALICE,
      true,
      BigInt.fromI32(4),
      BigInt.fromI32(1),
    );
    handleTaskOutcomeRecorded(e);
    assert.fieldEquals("Provider", P, "completed", "4");
    assert.fieldEquals("TaskOutcome", lastEventId(e), "completedCount", "4");
  });

  test("reputation changes store the points and factor after", () => {
    assert.fieldEquals("Provider", P, "repPct", "100");
    assert.fieldEquals("Provider", P, "reputationPoints", "0");
    handleReputationChanged(
      new ProviderRegistryEvents(REGISTRY).ReputationChanged(
        T0 + 2 * DAY,
        ALICE,
        BigInt.fromI32(3),
        BigInt.fromI32(103),
      ),
    );
    assert.fieldEquals("Provider", P, "reputationPoints", "3");
    assert.fieldEquals("Provider", P, "repPct", "103");
    assert.fieldEquals("Provider", P, "reputationUpdatedAt", (T0 + 2 * DAY).toString());
    // later: 0 points, one slash → factor 100 + 0 − 10 = 90
    handleReputationChanged(
      new ProviderRegistryEvents(REGISTRY).ReputationChanged(
        T0 + 3 * DAY,
        ALICE,
        BigInt.fromI32(0),
        BigInt.fromI32(90),
      ),
    );
    assert.fieldEquals("Provider", P, "reputationPoints", "0");
    assert.fieldEquals("Provider", P, "repPct", "90");
  });

  test("earnings: deliveries confirmed and failed, compensation, slashes, task outcomes, per day", () => {
    const e = ALICE.toHexString();
    assert.fieldEquals("ProviderEarnings", e, "deliveriesConfirmed", "1");
    assert.fieldEquals("ProviderEarnings", e, "deliveredCh", wad(20).toString());
    assert.fieldEquals("ProviderEarnings", e, "deliveriesFailed", "1");
    assert.fieldEquals("ProviderEarnings", e, "failedCh", wad(10).toString());
    assert.fieldEquals("ProviderEarnings", e, "compensationPaidDps", wad(11).toString());
    // the two registry slashes: 11 (the failed delivery's compensation) + 2 000
    assert.fieldEquals("ProviderEarnings", e, "slashCount", "2");
    assert.fieldEquals("ProviderEarnings", e, "slashedDps", wad(2011).toString());
    handleTaskOutcomeRecorded(
      new ProviderRegistryEvents(REGISTRY).TaskOutcomeRecorded(
        T0 + 2 * DAY,
        ALICE,
        true,
        BigInt.fromI32(1),
        BigInt.fromI32(1),
      ),
    );
    assert.fieldEquals("ProviderEarnings", e, "tasksCompleted", "1");
    // the failure day holds the failed delivery and both slashes; the first day the confirmed delivery
    const day1 = ALICE.concatI32(<i32>((T0 + HOUR + 7900 + DAY + 1) / DAY)).toHexString();
    assert.fieldEquals("ProviderEarningsDayData", day1, "deliveriesFailed", "1");
    assert.fieldEquals("ProviderEarningsDayData", day1, "slashedDps", wad(2011).toString());
    const day0 = ALICE.concatI32(<i32>((T0 + HOUR) / DAY)).toHexString();
    assert.fieldEquals("ProviderEarningsDayData", day0, "deliveriesConfirmed", "1");
  });
});

describe("ProviderRegistry: issue 17 events", () => {
  beforeEach(() => {
    clearStore();
    scenario();
  });

  test("duty locks follow StakeLocked / StakeReleased; the draw index; a released redemption", () => {
    const ev = new ProviderRegistryEvents(REGISTRY);
    assert.fieldEquals("Provider", P, "dutyLockedDps", "0");
    handleStakeLocked(changetype<StakeLocked>(ev.StakeLocked(T0 + 3 * DAY, ALICE, BOB, wad(100), wad(100))));
    handleStakeLocked(changetype<StakeLocked>(ev.StakeLocked(T0 + 3 * DAY + 1, ALICE, BOB, wad(100), wad(200))));
    assert.fieldEquals("Provider", P, "dutyLockedDps", wad(200).toString());
    handleStakeReleased(changetype<StakeReleased>(ev.StakeReleased(T0 + 3 * DAY + 2, ALICE, BOB, wad(100), wad(100))));
    assert.fieldEquals("Provider", P, "dutyLockedDps", wad(100).toString());
    handleDrawCandidateListed(ev.DrawCandidateListed(T0 + 3 * DAY + 3, ALICE, BigInt.fromI32(4)));
    assert.fieldEquals("Provider", P, "drawIndex", "4");
    // assignment 3 (5 CH) opened, then released with no penalty: reservation back to 0, liability unchanged
    assigned(3, ALICE, wad(5), wad(5), 1, T0 + 3 * DAY + 4);
    handleRedemptionReleased(
      ev.RedemptionReleased(T0 + 3 * DAY + 5, BigInt.fromI32(3), ALICE, wad(5), BigInt.zero(), BigInt.zero()),
    );
    assert.fieldEquals("RedemptionAssignment", Bytes.fromI32(3).toHexString(), "status", "released");
    assert.fieldEquals("Provider", P, "assignedCh", "0");
    assert.fieldEquals("Provider", P, "openAssignments", "0");
    assert.fieldEquals("Provider", P, "liabilityCh", wad(100).toString());
  });
});
