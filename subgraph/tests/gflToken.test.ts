// Mapping tests of the GFLToken data source (matchstick-as API; events from generated/factories/GFLToken.ts).
import { BigInt } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { GFLRebalanced } from "../generated/GFLToken/GFLToken";
import { handleGFLRebalanced, handleTransfer as handleGFLTransfer } from "../src/mappings/gflToken";
import { BOB, GFL, key, lastEventId, T0, wad, ZERO_ADDRESS } from "./helpers";
import { GFLTokenEvents } from "../generated/factories/GFLToken";

describe("GFLToken", () => {
  beforeEach(() => {
    clearStore();
  });

  test("rebalancing records old/new balance and the total", () => {
    handleGFLTransfer(
      new GFLTokenEvents(GFL).Transfer(T0, ZERO_ADDRESS, BOB, wad(12)),
    );
    const e = new GFLTokenEvents(GFL).GFLRebalanced(T0, BOB, BigInt.zero(), wad(12), wad(12));
    handleGFLRebalanced(e);
    handleGFLTransfer(
      new GFLTokenEvents(GFL).Transfer(T0 + 1, BOB, ZERO_ADDRESS, wad(2)),
    );
    const e2 = new GFLTokenEvents(GFL).GFLRebalanced(T0 + 1, BOB, wad(12), wad(10), wad(10));
    handleGFLRebalanced(e2);
    assert.fieldEquals("GFLRebalance", lastEventId(e), "delta", wad(12).toString());
    assert.fieldEquals("GFLRebalance", lastEventId(e2), "delta", wad(-2).toString());
    assert.fieldEquals("Token", GFL.toHexString(), "totalSupply", wad(10).toString());
    assert.fieldEquals("TokenBalance", key(GFL, BOB), "balance", wad(10).toString());
    assert.fieldEquals("Token", GFL.toHexString(), "holderCount", "1");
  });
});
