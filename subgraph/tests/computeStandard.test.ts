// Mapping tests of the ComputeStandard data source (matchstick-as API; events from generated/factories/ComputeStandard.ts).
// One scenario, replayed before each test, with every number worked by hand in the comments.
import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { Staked, TierThresholdsSet } from "../generated/ProviderRegistry/ProviderRegistry";
import { handleTierThresholdsSet } from "../src/mappings/providerRegistry";
import { ALICE, DAY, HOUR, T0, wad } from "./helpers";
import { ProviderRegistryEvents } from "../generated/factories/ProviderRegistry";
import { REGISTRY, STATS, P, milli, thresholds, reference, staked, attested, scenario } from "./providerScenario";

const GRADES = Bytes.fromUTF8("grades").toHexString();

describe("ComputeStandard", () => {
  beforeEach(() => {
    clearStore();
    scenario();
  });

  test("new thresholds do not rewrite the providers; the next attestation is graded under them", () => {
    thresholds(wad(2), T0 + 2 * DAY);
    assert.fieldEquals("GradeThresholds", GRADES, "perfAWad", wad(2).toString());
    assert.entityCount("GradeThresholdsChange", 2);
    // no handler loops over the providers: the stored grade is the one of the last attestation (1.6 ≥ 1.5 then)
    assert.fieldEquals("Provider", P, "performanceGrade", "A");
    assert.fieldEquals("Provider", P, "gradedAt", BigInt.fromI64(T0 + HOUR + 60).toString());
    // the provider's next attestation is graded under the thresholds in force: 1.1 ≤ 1.6 < 2.0
    attested(ALICE, 1, milli(1600), wad(400), wad(2), T0 + 3 * DAY);
    assert.fieldEquals("Provider", P, "performanceGrade", "B");
    assert.fieldEquals("Provider", P, "gradedAt", BigInt.fromI64(T0 + 3 * DAY).toString());
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

  test("tier thresholds do not re-tier the providers; the next stake event carries the tier", () => {
    const tiers: Array<BigInt> = [wad(100), wad(5000), wad(9000), wad(20000)];
    handleTierThresholdsSet(new ProviderRegistryEvents(REGISTRY).TierThresholdsSet(T0 + 2 * DAY, tiers));
    assert.fieldEquals("ComputeStats", STATS, "tierThresholdsUpdatedAt", BigInt.fromI64(T0 + 2 * DAY).toString());
    assert.fieldEquals("Provider", P, "tier", "1"); // as of its last stake event
    // the registry's Staked event carries the tier under the new thresholds (9 000 ≤ 10 989 < 20 000)
    staked(ALICE, wad(1000), wad(10989), 3, T0 + 3 * DAY);
    assert.fieldEquals("Provider", P, "tier", "3");
    assert.fieldEquals("Provider", P, "tieredAt", BigInt.fromI64(T0 + 3 * DAY).toString());
  });
});
