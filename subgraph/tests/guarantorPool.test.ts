// Mapping tests of the GuarantorPool data source (matchstick-as API; events from generated/factories/GuarantorPool.ts).
import { Address, BigInt } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  handleBackstopParamsSet,
  handleCapitalDeposited,
  handleCapitalNoticeSet,
  handleCapitalWithdrawalCancelled,
  handleCapitalWithdrawalRequested,
  handleCapitalWithdrawn,
  handleCustomerAdmitted,
  handleCustomerLeft,
  handleDpsSlashedByRule,
  handleDpsStakeChanged,
  handleExposureChanged,
  handleGuarantorConfigured,
  handleGuarantorSharesReset,
  handleGuarantorShortfallCleared,
  handleGuarantorShortfallFlagged,
  handleIncomeAccrued,
  handleIncomeFunded,
  handleIncomeVesting,
  handleLossCovered,
  handlePoolParamsSet,
} from "../src/mappings/guarantorPool";
import { ALICE, BOB, CAROL, T0 } from "./helpers";
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

  test("backstops: requirement shortfall, rule slashes, fee income and its vesting (issue 20)", () => {
    const pool = new GuarantorPoolEvents(POOL);
    const sink = Address.fromString("0x0000000000000000000000000000000000005111");
    const fund = Address.fromString("0x0000000000000000000000000000000000005001");
    const bps = (n: i32): BigInt => BigInt.fromI32(n);
    handleBackstopParamsSet(
      pool.BackstopParamsSet(
        T0,
        fund,
        BigInt.fromString("50000000000000000"),
        bps(86400),
        bps(500),
        sink,
        bps(2000),
        bps(86400),
      ),
    );
    assert.entityCount("ClearingConfigChange", 1);
    handleGuarantorConfigured(pool.GuarantorConfigured(T0, GUARANTOR, true, usdc(1000)));
    const dps = BigInt.fromString("1000000000000000000000");
    const slashed = BigInt.fromString("50000000000000000000");
    handleDpsStakeChanged(pool.DpsStakeChanged(T0, GUARANTOR, dps, dps));
    handleGuarantorShortfallFlagged(
      pool.GuarantorShortfallFlagged(T0 + 1, GUARANTOR, usdc(25), usdc(10), BigInt.fromI64(T0 + 86401)),
    );
    handleDpsSlashedByRule(
      pool.DpsSlashedByRule(T0 + 86401, GUARANTOR, 2, usdc(15), slashed, sink, dps.minus(slashed)),
    );
    handleGuarantorShortfallCleared(pool.GuarantorShortfallCleared(T0 + 86402, GUARANTOR, usdc(25), usdc(25)));
    const g = GUARANTOR.toHexString();
    assert.fieldEquals("Guarantor", g, "dpsStaked", dps.minus(slashed).toString());
    assert.fieldEquals("Guarantor", g, "slashedDps", slashed.toString());
    handleIncomeAccrued(pool.IncomeAccrued(T0 + 2, GUARANTOR, ALICE, usdc(2), usdc(2)));
    handleIncomeFunded(pool.IncomeFunded(T0 + 3, usdc(2), usdc(2), usdc(0)));
    handleIncomeVesting(pool.IncomeVesting(T0 + 4, GUARANTOR, usdc(2), BigInt.fromI64(T0 + 86404)));
    assert.entityCount("ClearingConfigChange", 2);
    // configured, stake, flagged, slashed, cleared, accrued, vesting
    assert.entityCount("GuarantorEvent", 7);
  });

  test("withdrawal notices (CLR-02): notice parameters, a notice, its cancellation, a second notice redeemed", () => {
    const pool = new GuarantorPoolEvents(POOL);
    const day: i64 = 86400;
    handleCapitalNoticeSet(pool.CapitalNoticeSet(T0, BigInt.fromI64(3 * day), BigInt.fromI64(2 * day)));
    handlePoolParamsSet(pool.PoolParamsSet(T0, BigInt.fromI32(100), BigInt.fromString("10000000000000000000")));
    assert.entityCount("ClearingConfigChange", 2);
    handleGuarantorConfigured(pool.GuarantorConfigured(T0, GUARANTOR, true, usdc(1000)));
    handleCapitalDeposited(pool.CapitalDeposited(T0, GUARANTOR, CAROL, usdc(5000), usdc(5000), usdc(5000), usdc(5000)));
    const readyAt = BigInt.fromI64(T0 + 1 + 3 * day);
    const expiresAt = BigInt.fromI64(T0 + 1 + 5 * day);
    handleCapitalWithdrawalRequested(
      pool.CapitalWithdrawalRequested(T0 + 1, GUARANTOR, CAROL, usdc(2000), readyAt, expiresAt),
    );
    handleCapitalWithdrawalCancelled(pool.CapitalWithdrawalCancelled(T0 + 2, GUARANTOR, CAROL));
    handleCapitalWithdrawalRequested(
      pool.CapitalWithdrawalRequested(T0 + 3, GUARANTOR, CAROL, usdc(1000), readyAt, expiresAt),
    );
    // redeemed inside the window at the share price of then (a loss during the notice is borne: 990 for 1,000 shares)
    handleCapitalWithdrawn(
      pool.CapitalWithdrawn(T0 + 3 + 3 * day, GUARANTOR, CAROL, usdc(990), usdc(1000), usdc(3960), usdc(4000)),
    );
    const g = GUARANTOR.toHexString();
    const holder = GUARANTOR.concat(CAROL).toHexString();
    assert.fieldEquals("Guarantor", g, "capitalUsdc", usdc(3960).toString());
    assert.fieldEquals("Guarantor", g, "totalShares", usdc(4000).toString());
    assert.fieldEquals("GuarantorShareholder", holder, "shares", usdc(4000).toString());
    assert.fieldEquals("GuarantorShareholder", holder, "withdrawnUsdc", usdc(990).toString());
    // configured, deposited, requested, cancelled, requested, withdrawn
    assert.entityCount("GuarantorEvent", 6);
  });

  test("a wipe-out resets every holder's shares; a customer leaving takes its exposure off the guarantor", () => {
    const pool = new GuarantorPoolEvents(POOL);
    handleGuarantorConfigured(pool.GuarantorConfigured(T0, GUARANTOR, true, usdc(1000)));
    handleCapitalDeposited(pool.CapitalDeposited(T0, GUARANTOR, CAROL, usdc(100), usdc(100), usdc(100), usdc(100)));
    handleCapitalDeposited(pool.CapitalDeposited(T0, GUARANTOR, BOB, usdc(50), usdc(50), usdc(150), usdc(150)));
    handleCustomerAdmitted(pool.CustomerAdmitted(T0 + 1, ALICE, GUARANTOR, usdc(800)));
    handleExposureChanged(pool.ExposureChanged(T0 + 2, ALICE, GUARANTOR, usdc(600), usdc(600)));
    const g = GUARANTOR.toHexString();
    assert.fieldEquals("Guarantor", g, "exposureUsdc", usdc(600).toString());
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "exposureUsdc", usdc(600).toString());
    handleLossCovered(pool.LossCovered(T0 + 3, GUARANTOR, ALICE, usdc(400), usdc(150), usdc(0)));
    handleGuarantorSharesReset(pool.GuarantorSharesReset(T0 + 3, GUARANTOR, BigInt.fromI32(1), usdc(150), usdc(0)));
    assert.fieldEquals("Guarantor", g, "totalShares", "0");
    assert.fieldEquals("Guarantor", g, "shareEpoch", "1");
    assert.fieldEquals("Guarantor", g, "sharesResets", "1");
    assert.fieldEquals("GuarantorShareholder", GUARANTOR.concat(CAROL).toHexString(), "shares", "0");
    assert.fieldEquals("GuarantorShareholder", GUARANTOR.concat(BOB).toHexString(), "shares", "0");
    handleExposureChanged(pool.ExposureChanged(T0 + 4, ALICE, GUARANTOR, usdc(0), usdc(0)));
    handleCustomerLeft(pool.CustomerLeft(T0 + 5, ALICE, GUARANTOR));
    assert.fieldEquals("Guarantor", g, "customerCount", "0");
    assert.fieldEquals("Guarantor", g, "exposureUsdc", "0");
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "limitUsdc", "0");
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "exposureUsdc", "0");
  });
});
