// Mapping tests of the CHToken data source (matchstick-as API; events from generated/factories/CHToken.ts).
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { CHBurned, CHMinted } from "../generated/CHToken/CHToken";
import { handleCHBurned, handleCHMinted, handleTransfer as handleCHTransfer } from "../src/mappings/chToken";
import { ALICE, bucket, CH, DAY, key, T0, wad, ZERO_ADDRESS } from "./helpers";
import { CHTokenEvents } from "../generated/factories/CHToken";

describe("CHToken", () => {
  beforeEach(() => {
    clearStore();
  });

  test("outstanding CH follows mints and burns", () => {
    handleCHTransfer(
      new CHTokenEvents(CH).Transfer(T0, ZERO_ADDRESS, ALICE, wad(8)),
    );
    handleCHMinted(
      new CHTokenEvents(CH).CHMinted(T0, ALICE, wad(8), wad(8)),
    );
    handleCHTransfer(
      new CHTokenEvents(CH).Transfer(T0 + 60, ALICE, ZERO_ADDRESS, wad(3)),
    );
    handleCHBurned(
      new CHTokenEvents(CH).CHBurned(T0 + 60, ALICE, wad(3), wad(5)),
    );
    assert.fieldEquals("Token", CH.toHexString(), "symbol", "CH");
    assert.fieldEquals("Token", CH.toHexString(), "totalSupply", wad(5).toString());
    assert.fieldEquals("Token", CH.toHexString(), "totalBurned", wad(3).toString());
    assert.fieldEquals("Token", CH.toHexString(), "totalEmitted", "0");
    assert.fieldEquals("TokenBalance", key(CH, ALICE), "balance", wad(5).toString());
    assert.fieldEquals("TokenDayData", bucket(CH, T0 / DAY), "supplyHigh", wad(8).toString());
    assert.entityCount("CHMint", 1);
    assert.entityCount("CHBurn", 1);
  });
});
