// Mapping tests of the InsuranceFund data source (matchstick-as API; events from generated/factories/InsuranceFund.ts).
import { Address, BigInt } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  InsuranceBadDebtCovered,
  InsuranceCooldownSet,
  InsuranceFeesDeposited,
  InsuranceGuarantorRequirementSet,
  InsuranceSharesReset,
  InsuranceStaked,
  InsuranceSurplusSwept,
  InsuranceWithdrawCancelled,
  InsuranceWithdrawn,
  InsuranceWithdrawRequested,
} from "../generated/InsuranceFund/InsuranceFund";
import {
  handleInsuranceBadDebtCovered,
  handleInsuranceCooldownSet,
  handleInsuranceFeesDeposited,
  handleInsuranceGuarantorPoolSet,
  handleInsuranceGuarantorRequirementSet,
  handleInsuranceSharesReset,
  handleInsuranceStaked,
  handleInsuranceSurplusSwept,
  handleInsuranceWithdrawCancelled,
  handleInsuranceWithdrawn,
  handleInsuranceWithdrawRequested,
} from "../src/mappings/insuranceFund";
import { ALICE, BOB, CAROL, DAY, HOUR, lastEventId, T0 } from "./helpers";
import { InsuranceFundEvents } from "../generated/factories/InsuranceFund";

const FUND = Address.fromString("0x000000000000000000000000000000000000f00d");
const HOUSE = Address.fromString("0x000000000000000000000000000000000000c1ea");

function u(n: i64): BigInt {
  return BigInt.fromI64(n);
}
/** n USDC (6 decimals) */
function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}
/** shares use a 1e6 offset: 1 USDC = 1e12 shares at par */
function sh(n: i64): BigInt {
  return BigInt.fromI64(n).times(BigInt.fromI64(1000000000000));
}
function fundBucket(n: i64): string {
  return FUND.concatI32(<i32>n).toHexString();
}

function staked(
  staker: Address,
  amount: BigInt,
  shares: BigInt,
  stakerShares: BigInt,
  total: BigInt,
  assets: BigInt,
  ts: i64,
): void {
  handleInsuranceStaked(
    new InsuranceFundEvents(FUND).InsuranceStaked(ts, staker, staker, amount, shares, stakerShares, total, assets),
  );
}

function covered(
  requested: BigInt,
  cov: BigInt,
  unc: BigInt,
  assets: BigInt,
  shares: BigInt,
  ts: i64,
): InsuranceBadDebtCovered {
  const e = new InsuranceFundEvents(FUND).InsuranceBadDebtCovered(ts, HOUSE, requested, cov, unc, assets, shares);
  handleInsuranceBadDebtCovered(e);
  return e;
}

describe("InsuranceFund", () => {
  beforeEach(() => {
    clearStore();
  });

  test("stake, fees, request, withdraw, bad debt: state, staker, events and day/hour OHLC of assets", () => {
    staked(ALICE, usdc(1000), sh(1000), sh(1000), sh(1000), usdc(1000), T0 + 10);
    staked(BOB, usdc(500), sh(500), sh(500), sh(1500), usdc(1500), T0 + HOUR + 10);
    handleInsuranceFeesDeposited(
      new InsuranceFundEvents(FUND).InsuranceFeesDeposited(T0 + HOUR + 20, HOUSE, usdc(150), usdc(1650), sh(1500)),
    );
    const req = new InsuranceFundEvents(FUND).InsuranceWithdrawRequested(T0 + 2 * HOUR, ALICE, sh(400), u(T0 + 2 * HOUR + 7 * DAY), u(T0 + 2 * HOUR + 9 * DAY));
    handleInsuranceWithdrawRequested(req);
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "requestShares", sh(400).toString());
    assert.fieldEquals(
      "InsuranceFundEvent",
      lastEventId(req),
      "values",
      "[" + u(T0 + 2 * HOUR + 7 * DAY).toString() + ", " + u(T0 + 2 * HOUR + 9 * DAY).toString() + "]",
    );

    // 400 shares of 1500 over 1650 USDC = 440 USDC; 100 shares left in the request
    handleInsuranceWithdrawn(
      new InsuranceFundEvents(FUND).InsuranceWithdrawn(T0 + 7 * DAY + 3 * HOUR, ALICE, CAROL, sh(300), usdc(330), sh(700), sh(100), sh(1200), usdc(1320)),
    );
    const c = covered(usdc(200), usdc(200), u(0), usdc(1120), sh(1200), T0 + 7 * DAY + 3 * HOUR + 5);
    assert.fieldEquals("InsuranceFundEvent", lastEventId(c), "kind", "badDebtCovered");
    assert.fieldEquals("InsuranceFundEvent", lastEventId(c), "amountUsdc", usdc(200).toString());

    const id = FUND.toHexString();
    assert.fieldEquals("InsuranceFundState", id, "totalAssetsUsdc", usdc(1120).toString());
    assert.fieldEquals("InsuranceFundState", id, "totalShares", sh(1200).toString());
    assert.fieldEquals("InsuranceFundState", id, "stakedUsdc", usdc(1500).toString());
    assert.fieldEquals("InsuranceFundState", id, "feesUsdc", usdc(150).toString());
    assert.fieldEquals("InsuranceFundState", id, "withdrawnUsdc", usdc(330).toString());
    assert.fieldEquals("InsuranceFundState", id, "badDebtCoveredUsdc", usdc(200).toString());
    assert.fieldEquals("InsuranceFundState", id, "stakeCount", "2");
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "shares", sh(700).toString());
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "requestShares", sh(100).toString());
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "withdrawnUsdc", usdc(330).toString());
    assert.fieldEquals("InsuranceStaker", BOB.toHexString(), "shares", sh(500).toString());
    // share price vs par: (assets + 1) · 1e24 / (shares + 1e6) — 1 650 USDC over 1 500 shares, then 1 120 over 1 200
    assert.fieldEquals("InsuranceFundState", id, "sharePriceWad", "933333333388888888");

    // day 0: open 0, high 1650, low 0, close 1650; day 7: open 1650, low 1120, close 1120
    const d0 = fundBucket((T0 as i64) / DAY);
    assert.fieldEquals("InsuranceFundDayData", d0, "openAssetsUsdc", "0");
    assert.fieldEquals("InsuranceFundDayData", d0, "highAssetsUsdc", usdc(1650).toString());
    assert.fieldEquals("InsuranceFundDayData", d0, "closeAssetsUsdc", usdc(1650).toString());
    assert.fieldEquals("InsuranceFundDayData", d0, "stakedUsdc", usdc(1500).toString());
    const d7 = fundBucket((T0 as i64) / DAY + 7);
    assert.fieldEquals("InsuranceFundDayData", d7, "openAssetsUsdc", usdc(1650).toString());
    assert.fieldEquals("InsuranceFundDayData", d7, "highAssetsUsdc", usdc(1650).toString());
    assert.fieldEquals("InsuranceFundDayData", d7, "lowAssetsUsdc", usdc(1120).toString());
    assert.fieldEquals("InsuranceFundDayData", d7, "closeAssetsUsdc", usdc(1120).toString());
    assert.fieldEquals("InsuranceFundDayData", d7, "badDebtCoveredUsdc", usdc(200).toString());
    assert.fieldEquals("InsuranceFundDayData", d0, "sharePriceOpenWad", "1000000000000000000"); // par: an empty fund
    assert.fieldEquals("InsuranceFundDayData", d0, "sharePriceCloseWad", "1099999999933333333");
    assert.fieldEquals("InsuranceFundDayData", d7, "sharePriceOpenWad", "1099999999933333333");
    assert.fieldEquals("InsuranceFundDayData", d7, "sharePriceCloseWad", "933333333388888888");
    const h1 = fundBucket((T0 as i64) / HOUR + 1);
    assert.fieldEquals("InsuranceFundHourData", h1, "openAssetsUsdc", usdc(1000).toString());
    assert.fieldEquals("InsuranceFundHourData", h1, "closeAssetsUsdc", usdc(1650).toString());
    assert.fieldEquals("InsuranceFundHourData", h1, "feesUsdc", usdc(150).toString());
    assert.entityCount("InsuranceFundHourData", 3); // hours 0, 1 and 7d+3h: a request moves no assets
    assert.entityCount("InsuranceFundEvent", 6);
  });

  test("a wipe-out loss resets the share epoch; cancel, requirement, cooldown and sweep", () => {
    staked(ALICE, usdc(100), sh(100), sh(100), sh(100), usdc(100), T0);
    handleInsuranceWithdrawRequested(
      new InsuranceFundEvents(FUND).InsuranceWithdrawRequested(T0 + 1, ALICE, sh(50), u(T0 + DAY), u(T0 + 2 * DAY)),
    );
    handleInsuranceWithdrawCancelled(
      new InsuranceFundEvents(FUND).InsuranceWithdrawCancelled(T0 + 2, ALICE),
    );
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "requestShares", "0");
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "requestReadyAt", "0");

    handleInsuranceSharesReset(
      new InsuranceFundEvents(FUND).InsuranceSharesReset(T0 + 3, u(1), sh(100), u(0)),
    );
    covered(usdc(300), usdc(100), usdc(200), u(0), u(0), T0 + 3);
    const id = FUND.toHexString();
    assert.fieldEquals("InsuranceFundState", id, "shareEpoch", "1");
    assert.fieldEquals("InsuranceFundState", id, "totalShares", "0");
    assert.fieldEquals("InsuranceFundState", id, "totalAssetsUsdc", "0");
    assert.fieldEquals("InsuranceFundState", id, "badDebtRequestedUsdc", usdc(300).toString());
    assert.fieldEquals("InsuranceFundState", id, "badDebtUncoveredUsdc", usdc(200).toString());
    assert.fieldEquals("InsuranceFundState", id, "sharesResets", "1");
    // Alice's row keeps epoch 0: her 100 shares read as zero against the fund's epoch 1
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "shareEpoch", "0");

    handleInsuranceGuarantorRequirementSet(
      new InsuranceFundEvents(FUND).InsuranceGuarantorRequirementSet(T0 + 4, BOB, usdc(5000), u(0)),
    );
    assert.fieldEquals("InsuranceStaker", BOB.toHexString(), "requiredUsdc", usdc(5000).toString());
    // the GuarantorPool whose exposure-based requirements the withdrawal floor reads (issue 20)
    const poolSet = new InsuranceFundEvents(FUND).InsuranceGuarantorPoolSet(T0 + 4, CAROL);
    handleInsuranceGuarantorPoolSet(poolSet);
    assert.fieldEquals("InsuranceFundEvent", lastEventId(poolSet), "kind", "guarantorPoolSet");
    assert.fieldEquals("InsuranceFundEvent", lastEventId(poolSet), "account", CAROL.toHexString());
    handleInsuranceCooldownSet(
      new InsuranceFundEvents(FUND).InsuranceCooldownSet(T0 + 5, u(7 * DAY), u(2 * DAY)),
    );
    assert.fieldEquals("InsuranceFundState", id, "cooldownSec", u(7 * DAY).toString());
    handleInsuranceSurplusSwept(
      new InsuranceFundEvents(FUND).InsuranceSurplusSwept(T0 + 6, CAROL, usdc(3)),
    );
    assert.fieldEquals("InsuranceFundState", id, "sweptUsdc", usdc(3).toString());
    assert.fieldEquals("InsuranceFundState", id, "totalAssetsUsdc", "0");
    assert.fieldEquals("InsuranceFundDayData", fundBucket((T0 as i64) / DAY), "sweptUsdc", usdc(3).toString());
  });
});
