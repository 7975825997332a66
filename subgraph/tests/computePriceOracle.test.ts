// Mapping tests of the ComputePriceOracle data source (matchstick-as API; events from generated/factories/ComputePriceOracle.ts).
import { Address, BigInt } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  OracleBoundsSet,
  OracleFeedSet,
  OraclePricePinned,
  OracleSequencerFeedSet,
  OracleSpotSourceSet,
} from "../generated/ComputePriceOracle/ComputePriceOracle";
import {
  handleOracleBoundsSet,
  handleOracleFeedSet,
  handleOraclePricePinned,
  handleOracleSequencerFeedSet,
  handleOracleSpotSourceSet,
} from "../src/mappings/computePriceOracle";
import { BOB, CAROL, lastEventId, T0, wad } from "./helpers";
import { ComputePriceOracleEvents } from "../generated/factories/ComputePriceOracle";

const ORACLE = Address.fromString("0x0000000000000000000000000000000000000a1e");
const FEED = Address.fromString("0x000000000000000000000000000000000000feed");
const HOUSE = Address.fromString("0x000000000000000000000000000000000000c1ea");

function u(n: i64): BigInt {
  return BigInt.fromI64(n);
}

describe("ComputePriceOracle", () => {
  beforeEach(() => {
    clearStore();
  });

  test("feed, bounds, sequencer, spot source and pinned prices", () => {
    const id = ORACLE.toHexString();
    handleOracleFeedSet(
      new ComputePriceOracleEvents(ORACLE).OracleFeedSet(T0, FEED, u(3600), 8),
    );
    handleOracleBoundsSet(
      new ComputePriceOracleEvents(ORACLE).OracleBoundsSet(T0, wad(1), wad(1000)),
    );
    handleOracleSequencerFeedSet(
      new ComputePriceOracleEvents(ORACLE).OracleSequencerFeedSet(T0, BOB, u(3600)),
    );
    const s = new ComputePriceOracleEvents(ORACLE).OracleSpotSourceSet(T0, CAROL, u(1800), 500);
    handleOracleSpotSourceSet(s);
    handleOraclePricePinned(
      new ComputePriceOracleEvents(ORACLE).OraclePricePinned(T0 + 60, wad(10), HOUSE),
    );
    assert.fieldEquals("OracleConfig", id, "feed", FEED.toHexString());
    assert.fieldEquals("OracleConfig", id, "heartbeatSec", "3600");
    assert.fieldEquals("OracleConfig", id, "decimals", "8");
    assert.fieldEquals("OracleConfig", id, "maxPriceWad", wad(1000).toString());
    assert.fieldEquals("OracleConfig", id, "sequencerFeed", BOB.toHexString());
    assert.fieldEquals("OracleConfig", id, "spotSource", CAROL.toHexString());
    assert.fieldEquals("OracleConfig", id, "maxDeviationBps", "500");
    assert.fieldEquals("OracleConfig", id, "lastPriceWad", wad(10).toString());
    assert.fieldEquals("OracleConfig", id, "pinCount", "1");
    assert.fieldEquals("OracleConfigChange", lastEventId(s), "values", "[1800, 500]");
    assert.entityCount("OracleConfigChange", 4);
    assert.entityCount("OraclePricePin", 1);
  });
});
