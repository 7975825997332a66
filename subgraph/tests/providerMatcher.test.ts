// Mapping tests of the ProviderMatcher data source (matchstick-as API; events from generated/factories/ProviderMatcher.ts).
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { LimitsSet, WeightsSet } from "../generated/ProviderMatcher/ProviderMatcher";
import { handleLimitsSet, handleWeightsSet } from "../src/mappings/providerMatcher";
import { lastEventId, T0, wad } from "./helpers";
import { ProviderMatcherEvents } from "../generated/factories/ProviderMatcher";

const MATCHER = Address.fromString("0x0000000000000000000000000000000000005d03");

function tuple(values: Array<ethereum.Value>): ethereum.Tuple {
  return changetype<ethereum.Tuple>(values);
}

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
    handleWeightsSet(new ProviderMatcherEvents(MATCHER).WeightsSet(T0, w));
    const l = new ProviderMatcherEvents(MATCHER).LimitsSet(T0, wad(50000), BigInt.fromI32(100), BigInt.fromI32(32));
    handleLimitsSet(l);
    const id = MATCHER.toHexString();
    assert.fieldEquals("MatcherConfig", id, "priceBps", "2000");
    assert.fieldEquals("MatcherConfig", id, "maxPick", "32");
    assert.fieldEquals("ComputeConfigChange", lastEventId(l), "kind", "matcherLimits");
  });
});
