// Mapping tests of the RiskEngine data source (matchstick-as API; events from generated/factories/RiskEngine.ts).
import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { VolatilityUpdated } from "../generated/RiskEngine/RiskEngine";
import {
  handleMarketVolatilityUpdated,
  handleMarketVolParamsSet,
  handleTenorMarginSet,
  handleTenorVolatilityUpdated,
  handleTenorVolParamsSet,
  handleVolatilityUpdated,
} from "../src/mappings/riskEngine";
import { ALICE, BOB, lastEventId, T0, wad } from "./helpers";
import { RiskEngineEvents } from "../generated/factories/RiskEngine";

const RISK = Address.fromString("0x0000000000000000000000000000000000000815");
const MARKET = Address.fromString("0x0000000000000000000000000000000000000f07");

function tuple(values: Array<ethereum.Value>): ethereum.Tuple {
  return changetype<ethereum.Tuple>(values);
}

function milliWad(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000000000000);
}

/** MarketVolParams(λ, floor σ 0.02, stale σ 0.08, staleAfterSec). */
function params(lambdaMilli: i64, staleAfter: i32): ethereum.Tuple {
  return tuple([
    ethereum.Value.fromUnsignedBigInt(milliWad(lambdaMilli)),
    ethereum.Value.fromUnsignedBigInt(milliWad(20)),
    ethereum.Value.fromUnsignedBigInt(milliWad(80)),
    ethereum.Value.fromUnsignedBigInt(BigInt.fromI32(staleAfter)),
  ]);
}

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}

describe("RiskEngine", () => {
  beforeEach(() => {
    clearStore();
  });

  test("volatility updates", () => {
    handleVolatilityUpdated(
      new RiskEngineEvents(RISK).VolatilityUpdated(
        T0,
        BOB,
        wad(10),
        wad(0),
        BigInt.fromI32(4000),
        BigInt.fromI32(63),
        usdc(1),
      ),
    );
    assert.fieldEquals("VolatilityState", RISK.toHexString(), "sigmaWad", "63");
    assert.fieldEquals("VolatilityState", RISK.toHexString(), "updateCount", "1");
    assert.entityCount("VolatilityUpdate", 1);
  });

  test("per-market volatility: model, updates (post-state), model reset keeps the state", () => {
    const id = MARKET.toHexString();
    const set = new RiskEngineEvents(RISK).MarketVolParamsSet(T0, MARKET, params(940, 7200));
    handleMarketVolParamsSet(set);
    assert.fieldEquals("MarketVolatility", id, "lambdaWad", milliWad(940).toString());
    assert.fieldEquals("MarketVolatility", id, "floorSigmaWad", milliWad(20).toString());
    assert.fieldEquals("MarketVolatility", id, "staleSigmaWad", milliWad(80).toString());
    assert.fieldEquals("MarketVolatility", id, "staleAfterSec", "7200");
    assert.fieldEquals("MarketVolatility", id, "updateCount", "0");
    assert.fieldEquals("ClearingConfigChange", lastEventId(set), "kind", "marketVolParams");
    // first read only records the reference price; the second folds a 2 % return in
    handleMarketVolatilityUpdated(
      new RiskEngineEvents(RISK).MarketVolatilityUpdated(
        T0 + 3600,
        MARKET,
        BOB,
        wad(10),
        BigInt.zero(),
        BigInt.zero(),
        BigInt.zero(),
        BigInt.zero(),
        usdc(1),
      ),
    );
    const u = new RiskEngineEvents(RISK).MarketVolatilityUpdated(
      T0 + 7200,
      MARKET,
      ALICE,
      milliWad(10200),
      milliWad(20),
      BigInt.fromI32(3600),
      BigInt.fromString("24000000000000"),
      milliWad(5),
      usdc(2),
    );
    handleMarketVolatilityUpdated(u);
    assert.fieldEquals("MarketVolatility", id, "priceWad", milliWad(10200).toString());
    assert.fieldEquals("MarketVolatility", id, "returnWad", milliWad(20).toString());
    assert.fieldEquals("MarketVolatility", id, "elapsedSec", "3600");
    assert.fieldEquals("MarketVolatility", id, "varianceWad", "24000000000000");
    assert.fieldEquals("MarketVolatility", id, "sigmaWad", milliWad(5).toString());
    assert.fieldEquals("MarketVolatility", id, "updateCount", "2");
    assert.fieldEquals("MarketVolatility", id, "bountiesUsdc", usdc(3).toString());
    assert.fieldEquals("MarketVolatility", id, "lastKeeper", ALICE.toHexString());
    assert.fieldEquals("MarketVolatility", id, "updatedAt", (T0 + 7200).toString());
    // the index σ is a different entity, untouched
    assert.notInStore("VolatilityState", RISK.toHexString());
    // setting the model again keeps the variance and σ
    handleMarketVolParamsSet(new RiskEngineEvents(RISK).MarketVolParamsSet(T0 + 8000, MARKET, params(970, 3600)));
    assert.fieldEquals("MarketVolatility", id, "lambdaWad", milliWad(970).toString());
    assert.fieldEquals("MarketVolatility", id, "varianceWad", "24000000000000");
    assert.fieldEquals("MarketVolatility", id, "updateCount", "2");
  });

  test("tenor buckets: one entity per market and bucket, updates (post-state), a zero model deactivates", () => {
    const id = MARKET.concatI32(1).toHexString();
    handleTenorVolParamsSet(
      new RiskEngineEvents(RISK).TenorVolParamsSet(T0, MARKET, BigInt.fromI32(1), params(940, 7200)),
    );
    assert.fieldEquals("TenorVolatility", id, "bucket", "1");
    assert.fieldEquals("TenorVolatility", id, "active", "true");
    assert.fieldEquals("TenorVolatility", id, "lambdaWad", milliWad(940).toString());
    handleTenorVolatilityUpdated(
      new RiskEngineEvents(RISK).TenorVolatilityUpdated(
        T0 + 3600,
        MARKET,
        BigInt.fromI32(1),
        BOB,
        milliWad(10200),
        milliWad(20),
        BigInt.fromI32(3600),
        BigInt.fromString("24000000000000"),
        milliWad(5),
        usdc(2),
      ),
    );
    assert.fieldEquals("TenorVolatility", id, "sigmaWad", milliWad(5).toString());
    assert.fieldEquals("TenorVolatility", id, "updateCount", "1");
    assert.fieldEquals("TenorVolatility", id, "bountiesUsdc", usdc(2).toString());
    assert.fieldEquals("TenorVolatility", id, "lastKeeper", BOB.toHexString());
    // the market's own model is a different entity, untouched; another bucket is another entity
    assert.notInStore("MarketVolatility", MARKET.toHexString());
    assert.entityCount("TenorVolatility", 1);
    handleTenorVolParamsSet(
      new RiskEngineEvents(RISK).TenorVolParamsSet(T0 + 9000, MARKET, BigInt.fromI32(1), params(0, 0)),
    );
    assert.fieldEquals("TenorVolatility", id, "active", "false");
    assert.fieldEquals("TenorVolatility", id, "sigmaWad", milliWad(5).toString());
  });

  test("per-tenor margin: the switch lands on the market's σ entity with its time, and as a config change", () => {
    const id = MARKET.toHexString();
    const on = new RiskEngineEvents(RISK).TenorMarginSet(T0, MARKET, true);
    handleTenorMarginSet(on);
    assert.fieldEquals("MarketVolatility", id, "tenorMargin", "true");
    assert.fieldEquals("MarketVolatility", id, "tenorMarginSetAt", T0.toString());
    assert.fieldEquals("MarketVolatility", id, "updateCount", "0");
    assert.fieldEquals("ClearingConfigChange", lastEventId(on), "kind", "tenorMargin");
    assert.fieldEquals("ClearingConfigChange", lastEventId(on), "values", "[1]");
    const off = new RiskEngineEvents(RISK).TenorMarginSet(T0 + 60, MARKET, false);
    handleTenorMarginSet(off);
    assert.fieldEquals("MarketVolatility", id, "tenorMargin", "false");
    assert.fieldEquals("MarketVolatility", id, "tenorMarginSetAt", (T0 + 60).toString());
    assert.fieldEquals("ClearingConfigChange", lastEventId(off), "values", "[0]");
  });
});
