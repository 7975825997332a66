// Mapping tests of the LiquidationEngine data source (matchstick-as API; events from
// generated/factories/LiquidationEngine.ts). A liquidation transaction emits, in order, the ClearingHouse's
// PositionLiquidated for each position, the waterfall's DeficitAbsorbed steps, then AccountLiquidated: the
// Liquidation entity takes the amounts of the events of its own transaction.
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  handleAccountSettled,
  handleDeficitAbsorbed,
  handleDeficitUnabsorbed,
  handleMarginDeposited,
  handlePositionLiquidated,
  handlePositionModified,
} from "../src/mappings/clearingHouse";
import { handleCustomerAdmitted, handleGuarantorConfigured } from "../src/mappings/guarantorPool";
import {
  handleAccountLiquidated,
  handleAdlRoundExecuted,
  handleAdlRoundOpened,
} from "../src/mappings/liquidationEngine";
import { ALICE, BOB, inTx, lastEventId, T0, wad } from "./helpers";
import { ClearingHouseEvents } from "../generated/factories/ClearingHouse";
import { adlStepAliceBob } from "./clearing-fixtures";
import { GuarantorPoolEvents } from "../generated/factories/GuarantorPool";
import { LiquidationEngineEvents } from "../generated/factories/LiquidationEngine";

const HOUSE = Address.fromString("0x000000000000000000000000000000000000c1ea");
const POOL = Address.fromString("0x0000000000000000000000000000000000006001");
const LIQ = Address.fromString("0x0000000000000000000000000000000000001100");
const MARKET = Address.fromString("0x000000000000000000000000000000000000aa01");
const OTHER = Address.fromString("0x000000000000000000000000000000000000aa02");
const GUARANTOR = Address.fromString("0x0000000000000000000000000000000000009a01");
const KEEPER = Address.fromString("0x000000000000000000000000000000000000cee9");
const TX1 = "0x" + "01".repeat(32);
const TX2 = "0x" + "02".repeat(32);

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}

describe("LiquidationEngine", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a liquidation carries its positions and every waterfall layer's amount; drafts do not outlive it", () => {
    const house = new ClearingHouseEvents(HOUSE);
    handleGuarantorConfigured(new GuarantorPoolEvents(POOL).GuarantorConfigured(T0, GUARANTOR, true, usdc(1000)));
    handleCustomerAdmitted(new GuarantorPoolEvents(POOL).CustomerAdmitted(T0, ALICE, GUARANTOR, usdc(800)));
    // transaction 1: two positions closed (−40 and −25 USDC), a 30 USDC deficit: guarantor 20, insurance 6, socialised 4
    handlePositionLiquidated(
      inTx(house.PositionLiquidated(T0 + 400, ALICE, MARKET, wad(-5), wad(2), usdc(-40), wad(5), usdc(20)), TX1),
    );
    handlePositionLiquidated(
      inTx(house.PositionLiquidated(T0 + 400, ALICE, OTHER, wad(3), wad(4), usdc(-25), BigInt.zero(), usdc(-30)), TX1),
    );
    handleDeficitAbsorbed(inTx(house.DeficitAbsorbed(T0 + 400, ALICE, 1, usdc(20), usdc(10), Address.zero()), TX1));
    handleDeficitAbsorbed(inTx(house.DeficitAbsorbed(T0 + 400, ALICE, 2, usdc(6), usdc(4), Address.zero()), TX1));
    handleDeficitAbsorbed(inTx(house.DeficitAbsorbed(T0 + 400, ALICE, 3, usdc(4), BigInt.zero(), MARKET), TX1));
    // another account's position liquidated in another transaction: not part of Alice's liquidation
    handlePositionLiquidated(
      inTx(house.PositionLiquidated(T0 + 400, BOB, MARKET, wad(-1), wad(2), usdc(-3), wad(1), usdc(5)), TX2),
    );
    assert.entityCount("LiquidationDraft", 2);
    const l = inTx(
      new LiquidationEngineEvents(LIQ).AccountLiquidated(
        T0 + 400,
        ALICE,
        KEEPER,
        wad(1),
        wad(2),
        usdc(1),
        BigInt.zero(),
        BigInt.zero(),
      ),
      TX1,
    );
    handleAccountLiquidated(l);
    const id = lastEventId(l);
    assert.fieldEquals("Liquidation", id, "guarantor", GUARANTOR.toHexString());
    assert.fieldEquals("Liquidation", id, "positionsClosed", "2");
    assert.fieldEquals("Liquidation", id, "closedCh", wad(8).toString());
    assert.fieldEquals("Liquidation", id, "realisedPnlUsdc", usdc(-65).toString());
    assert.fieldEquals("Liquidation", id, "guarantorUsdc", usdc(20).toString());
    assert.fieldEquals("Liquidation", id, "insuranceUsdc", usdc(6).toString());
    assert.fieldEquals("Liquidation", id, "socialisedUsdc", usdc(4).toString());
    assert.fieldEquals("Liquidation", id, "deficitUsdc", usdc(30).toString());
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "liquidationCount", "1");
    // Alice's draft is consumed; Bob's (no AccountLiquidated yet) remains
    assert.notInStore("LiquidationDraft", ALICE.concat(Bytes.fromHexString(TX1)).toHexString());
    assert.entityCount("LiquidationDraft", 1);
  });

  test("auto-deleveraging: a claim's rounds and steps, the candidate's position and both collaterals follow the events", () => {
    const house = new ClearingHouseEvents(HOUSE);
    const le = new LiquidationEngineEvents(LIQ);
    // Bob is short 30 at 10; Alice (long) defaults: 50 USDC left after the insurance fund, over 50 CH
    handlePositionModified(
      house.PositionModified(
        T0 + 100,
        BOB,
        MARKET,
        wad(-30),
        wad(10),
        wad(-30),
        usdc(-300),
        BigInt.zero(),
        BigInt.zero(),
        usdc(60),
      ),
    );
    handleAdlRoundOpened(
      le.AdlRoundOpened(T0 + 400, ALICE, MARKET, true, usdc(50), wad(50), usdc(1), BigInt.fromI64(T0 + 700)),
    );
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "rounds", "1");
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "bankruptLong", "true");
    // the step: Bob buys back 30 at 5 (profit 150), gives up 30 to Alice, 0.75 to the keeper
    adlStepAliceBob(house, MARKET, T0 + 800);
    handleAdlRoundExecuted(
      le.AdlRoundExecuted(T0 + 800, ALICE, KEEPER, BigInt.fromI32(1), usdc(30), usdc(20), wad(20), false),
    );
    assert.entityCount("AdlStep", 1);
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "steps", "1");
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "recoveredUsdc", usdc(30).toString());
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "sizeCh", wad(20).toString());
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "closed", "false");
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "collateralUsdc", usdc(-20).toString());
    assert.fieldEquals("MarginAccount", BOB.toHexString(), "collateralUsdc", "179250000");
    assert.fieldEquals("Position", BOB.concat(MARKET).toHexString(), "sizeCh", "0");
    // the next round, then the claim closes
    handleAdlRoundOpened(
      le.AdlRoundOpened(T0 + 800, ALICE, MARKET, true, usdc(20), wad(20), usdc(1), BigInt.fromI64(T0 + 1100)),
    );
    handleAdlRoundExecuted(
      le.AdlRoundExecuted(T0 + 1200, ALICE, KEEPER, BigInt.fromI32(1), usdc(20), BigInt.zero(), BigInt.zero(), true),
    );
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "rounds", "2");
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "closed", "true");
    assert.fieldEquals("AdlClaim", ALICE.toHexString(), "recoveredUsdc", usdc(50).toString());
  });

  test("uncovered collateral: AccountLiquidated's post-state is the last word of a liquidation transaction", () => {
    const house = new ClearingHouseEvents(HOUSE);
    const stats = Bytes.fromUTF8("clearing").toHexString();
    handleMarginDeposited(house.MarginDeposited(T0, ALICE, usdc(100), usdc(100)));
    // The close takes the perp position at −110 (running collateral −10), then a scenario market's hook settles +4
    // for what it closed: ClearingHouse.settle emits the stored collateral + 4 = 104, a write the close undoes and
    // keeps in its running total instead (−6). No bounty (nothing left); the guarantor pays 2 of the 6.
    handlePositionLiquidated(
      inTx(
        house.PositionLiquidated(T0 + 400, ALICE, MARKET, wad(-10), wad(2), usdc(-110), BigInt.zero(), usdc(-10)),
        TX1,
      ),
    );
    assert.fieldEquals("ClearingStats", stats, "uncoveredCollateralUsdc", usdc(10).toString());
    handleAccountSettled(inTx(house.AccountSettled(T0 + 400, ALICE, OTHER, usdc(4), usdc(104), usdc(-4)), TX1));
    handleDeficitAbsorbed(inTx(house.DeficitAbsorbed(T0 + 400, ALICE, 1, usdc(2), usdc(4), Address.zero()), TX1));
    handleDeficitUnabsorbed(inTx(house.DeficitUnabsorbed(T0 + 400, ALICE, usdc(4), usdc(-4)), TX1));
    handleAccountLiquidated(
      inTx(
        new LiquidationEngineEvents(LIQ).AccountLiquidated(
          T0 + 400,
          ALICE,
          KEEPER,
          wad(1),
          wad(2),
          BigInt.zero(),
          usdc(-4),
          BigInt.zero(),
        ),
        TX1,
      ),
    );
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "collateralUsdc", usdc(-4).toString());
    assert.fieldEquals("ClearingStats", stats, "uncoveredCollateralUsdc", usdc(4).toString());
    assert.fieldEquals("ClearingStats", stats, "accountsInDeficit", "1");
    // without a DeficitUnabsorbed (a full cover) AccountLiquidated alone sets it: Bob's close ends at −3, the fund
    // pays 3, the engine reports 0
    handlePositionLiquidated(
      inTx(house.PositionLiquidated(T0 + 500, BOB, MARKET, wad(-1), wad(2), usdc(-3), BigInt.zero(), usdc(-3)), TX2),
    );
    assert.fieldEquals("ClearingStats", stats, "accountsInDeficit", "2");
    handleAccountLiquidated(
      inTx(
        new LiquidationEngineEvents(LIQ).AccountLiquidated(
          T0 + 500,
          BOB,
          KEEPER,
          wad(1),
          wad(2),
          BigInt.zero(),
          BigInt.zero(),
          BigInt.zero(),
        ),
        TX2,
      ),
    );
    assert.fieldEquals("ClearingStats", stats, "uncoveredCollateralUsdc", usdc(4).toString());
    assert.fieldEquals("ClearingStats", stats, "accountsInDeficit", "1");
  });
});
