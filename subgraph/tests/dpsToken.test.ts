// Mapping tests of the DPSToken data source (matchstick-as API; events from generated/factories/DPSToken.ts).
import { BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  DelegateChanged,
  DelegateVotesChanged,
  DPSBurned,
  DPSEmitted,
  FeaturePauseSet,
} from "../generated/DPSToken/DPSToken";
import {
  handleDelegateChanged,
  handleDelegateVotesChanged,
  handleDPSBurned,
  handleDPSEmitted,
  handleFeaturePauseSet,
  handleTransfer as handleDPSTransfer,
} from "../src/mappings/dpsToken";
import { ALICE, BOB, bucket, DAY, DPS, HOUR, key, lastEventId, T0, wad, ZERO_ADDRESS, asDataSource } from "./helpers";
import { Address } from "@graphprotocol/graph-ts";
import { DPSTokenEvents } from "../generated/factories/DPSToken";

function dpsTransfer(from: Address, to: Address, value: BigInt, ts: i64): void {
  handleDPSTransfer(
    new DPSTokenEvents(DPS).Transfer(ts, from, to, value),
  );
}

/** DPSToken.mint: Transfer(0, to) then DPSEmitted, as the contract emits them. */
function dpsEmit(to: Address, amount: BigInt, totalEmitted: BigInt, totalSupply: BigInt, ts: i64): DPSEmitted {
  dpsTransfer(ZERO_ADDRESS, to, amount, ts);
  const e = new DPSTokenEvents(DPS).DPSEmitted(ts, to, amount, totalEmitted, totalSupply);
  handleDPSEmitted(e);
  return e;
}

/** DPSToken.burn: Transfer(from, 0) then DPSBurned. */
function dpsBurn(from: Address, amount: BigInt, totalBurned: BigInt, totalSupply: BigInt, ts: i64): DPSBurned {
  dpsTransfer(from, ZERO_ADDRESS, amount, ts);
  const e = new DPSTokenEvents(DPS).DPSBurned(ts, from, amount, totalBurned, totalSupply);
  handleDPSBurned(e);
  return e;
}

describe("DPSToken", () => {
  beforeEach(() => {
    clearStore();
  });

  test("genesis mint, emission, transfer and burn keep supply, emitted, burned and genesis consistent", () => {
    // genesis: 1,000 DPS to ALICE at initialize (a Transfer without DPSEmitted)
    dpsTransfer(ZERO_ADDRESS, ALICE, wad(1000), T0);
    // emission: 50 to BOB, then 30 to BOB  → totalEmitted 80, supply 1,080
    dpsEmit(BOB, wad(50), wad(50), wad(1050), T0 + 10);
    const second = dpsEmit(BOB, wad(30), wad(80), wad(1080), T0 + 20);
    // ALICE → BOB 100; BOB burns 20 → supply 1,060
    dpsTransfer(ALICE, BOB, wad(100), T0 + 30);
    dpsBurn(BOB, wad(20), wad(20), wad(1060), T0 + 40);

    const token = DPS.toHexString();
    assert.fieldEquals("Token", token, "symbol", "DPS");
    assert.fieldEquals("Token", token, "totalSupply", wad(1060).toString());
    assert.fieldEquals("Token", token, "totalMinted", wad(1080).toString());
    assert.fieldEquals("Token", token, "totalEmitted", wad(80).toString());
    assert.fieldEquals("Token", token, "totalBurned", wad(20).toString());
    assert.fieldEquals("Token", token, "genesisSupply", wad(1000).toString());
    assert.fieldEquals("Token", token, "holderCount", "2");
    assert.fieldEquals("Token", token, "transferCount", "5");
    assert.fieldEquals("TokenBalance", key(DPS, ALICE), "balance", wad(900).toString());
    assert.fieldEquals("TokenBalance", key(DPS, BOB), "balance", wad(160).toString());

    const emission = lastEventId(second);
    assert.fieldEquals("DPSEmission", emission, "amount", wad(30).toString());
    assert.fieldEquals("DPSEmission", emission, "totalEmitted", wad(80).toString());
    assert.fieldEquals("DPSEmission", emission, "to", BOB.toHexString());
    assert.entityCount("DPSEmission", 2);
    assert.entityCount("DPSBurn", 1);
    assert.entityCount("TokenTransfer", 5);
  });

  test("daily and hourly aggregates split at UTC boundaries", () => {
    dpsTransfer(ZERO_ADDRESS, ALICE, wad(1000), T0 + 5);
    dpsEmit(BOB, wad(10), wad(10), wad(1010), T0 + HOUR + 1); // next hour, same day
    dpsEmit(BOB, wad(7), wad(17), wad(1017), T0 + DAY + 1); // next day
    dpsBurn(BOB, wad(3), wad(3), wad(1014), T0 + DAY + 2);
    dpsTransfer(ALICE, BOB, wad(5), T0 + DAY + 3);

    const day0 = bucket(DPS, T0 / DAY);
    const day1 = bucket(DPS, T0 / DAY + 1);
    assert.fieldEquals("TokenDayData", day0, "date", T0.toString());
    assert.fieldEquals("TokenDayData", day0, "minted", wad(1010).toString());
    assert.fieldEquals("TokenDayData", day0, "emitted", wad(10).toString());
    assert.fieldEquals("TokenDayData", day0, "totalSupply", wad(1010).toString());
    assert.fieldEquals("TokenDayData", day0, "supplyLow", wad(1000).toString());
    assert.fieldEquals("TokenDayData", day1, "minted", wad(7).toString());
    assert.fieldEquals("TokenDayData", day1, "emitted", wad(7).toString());
    assert.fieldEquals("TokenDayData", day1, "burned", wad(3).toString());
    assert.fieldEquals("TokenDayData", day1, "transferVolume", wad(5).toString());
    assert.fieldEquals("TokenDayData", day1, "transferCount", "1");
    assert.fieldEquals("TokenDayData", day1, "supplyHigh", wad(1017).toString());
    assert.fieldEquals("TokenDayData", day1, "totalSupply", wad(1014).toString());
    assert.entityCount("TokenDayData", 2);
    assert.entityCount("TokenHourData", 3);
    assert.fieldEquals("TokenHourData", bucket(DPS, T0 / HOUR + 1), "emitted", wad(10).toString());
  });

  test("delegation sets the delegate and the delegate's votes", () => {
    dpsTransfer(ZERO_ADDRESS, ALICE, wad(40), T0);
    handleDelegateChanged(
      new DPSTokenEvents(DPS).DelegateChanged(T0 + 1, ALICE, ZERO_ADDRESS, BOB),
    );
    handleDelegateVotesChanged(
      new DPSTokenEvents(DPS).DelegateVotesChanged(T0 + 1, BOB, BigInt.zero(), wad(40)),
    );
    assert.fieldEquals("Account", ALICE.toHexString(), "dpsDelegate", BOB.toHexString());
    assert.fieldEquals("Account", BOB.toHexString(), "dpsVotes", wad(40).toString());
    assert.entityCount("DelegateChange", 1);
    assert.entityCount("DelegateVotesChange", 1);
  });

  test("feature pause state follows FeaturePauseSet", () => {
    const feature = Bytes.fromHexString("0x" + "11".repeat(32));
    asDataSource("DPSToken", DPS);
    handleFeaturePauseSet(
      new DPSTokenEvents(DPS).FeaturePauseSet(T0, feature, true, ALICE),
    );
    assert.fieldEquals("FeaturePause", key(DPS, feature), "paused", "true");
    handleFeaturePauseSet(
      new DPSTokenEvents(DPS).FeaturePauseSet(T0 + 5, feature, false, BOB),
    );
    assert.fieldEquals("FeaturePause", key(DPS, feature), "paused", "false");
    assert.fieldEquals("FeaturePause", key(DPS, feature), "updatedBy", BOB.toHexString());
    assert.fieldEquals("ChxContract", DPS.toHexString(), "name", "DPSToken");
    assert.entityCount("FeaturePauseEvent", 2);
  });
});
