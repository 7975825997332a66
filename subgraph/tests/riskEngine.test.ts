// Mapping tests of the RiskEngine data source (matchstick-as API; events from generated/factories/RiskEngine.ts).
import { Address, BigInt } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { VolatilityUpdated } from "../generated/RiskEngine/RiskEngine";
import { handleVolatilityUpdated } from "../src/mappings/riskEngine";
import { BOB, T0, wad } from "./helpers";
import { RiskEngineEvents } from "../generated/factories/RiskEngine";

const RISK = Address.fromString("0x0000000000000000000000000000000000000815");

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}

describe("RiskEngine", () => {
  beforeEach(() => {
    clearStore();
  });

  test("volatility updates", () => {
    handleVolatilityUpdated(
      new RiskEngineEvents(RISK).VolatilityUpdated(T0, BOB, wad(10), wad(0), BigInt.fromI32(4000), BigInt.fromI32(63), usdc(1)),
    );
    assert.fieldEquals("VolatilityState", RISK.toHexString(), "sigmaWad", "63");
    assert.fieldEquals("VolatilityState", RISK.toHexString(), "updateCount", "1");
    assert.entityCount("VolatilityUpdate", 1);
  });
});
