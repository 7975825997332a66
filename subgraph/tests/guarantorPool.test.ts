// Mapping tests of the GuarantorPool data source (matchstick-as API; events from generated/factories/GuarantorPool.ts).
import { Address, BigInt } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  handleCapitalDeposited,
  handleCustomerAdmitted,
  handleGuarantorConfigured,
  handleLossCovered,
} from "../src/mappings/guarantorPool";
import { ALICE, CAROL, T0 } from "./helpers";
import { GuarantorPoolEvents } from "../generated/factories/GuarantorPool";

const POOL = Address.fromString("0x0000000000000000000000000000000000006001");
const GUARANTOR = Address.fromString("0x0000000000000000000000000000000000009a01");

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}

describe("GuarantorPool", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a guarantor: configuration, capital and its shareholder, a customer, a loss it covers", () => {
    const pool = new GuarantorPoolEvents(POOL);
    handleGuarantorConfigured(pool.GuarantorConfigured(T0, GUARANTOR, true, usdc(1000)));
    handleCapitalDeposited(pool.CapitalDeposited(T0, GUARANTOR, CAROL, usdc(5000), usdc(5000), usdc(5000), usdc(5000)));
    handleCustomerAdmitted(pool.CustomerAdmitted(T0 + 1, ALICE, GUARANTOR, usdc(800)));
    const g = GUARANTOR.toHexString();
    assert.fieldEquals("Guarantor", g, "open", "true");
    assert.fieldEquals("Guarantor", g, "capitalUsdc", usdc(5000).toString());
    assert.fieldEquals("Guarantor", g, "customerCount", "1");
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "guarantor", g);
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "limitUsdc", usdc(800).toString());
    assert.fieldEquals("GuarantorShareholder", GUARANTOR.concat(CAROL).toHexString(), "shares", usdc(5000).toString());
    // a 30 USDC deficit of Alice: the guarantor pays 20 of it out of its capital
    handleLossCovered(pool.LossCovered(T0 + 500, GUARANTOR, ALICE, usdc(30), usdc(20), usdc(4980)));
    assert.fieldEquals("Guarantor", g, "capitalUsdc", usdc(4980).toString());
    assert.fieldEquals("Guarantor", g, "lossesAskedUsdc", usdc(30).toString());
    assert.fieldEquals("Guarantor", g, "lossesPaidUsdc", usdc(20).toString());
  });
});
