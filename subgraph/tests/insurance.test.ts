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
  OracleBoundsSet,
  OracleFeedSet,
  OraclePricePinned,
  OracleSequencerFeedSet,
  OracleSpotSourceSet,
} from "../generated/ComputePriceOracle/ComputePriceOracle";
import {
  handleInsuranceBadDebtCovered,
  handleInsuranceCooldownSet,
  handleInsuranceFeesDeposited,
  handleInsuranceGuarantorRequirementSet,
  handleInsuranceSharesReset,
  handleInsuranceStaked,
  handleInsuranceSurplusSwept,
  handleInsuranceWithdrawCancelled,
  handleInsuranceWithdrawn,
  handleInsuranceWithdrawRequested,
} from "../src/mappings/insuranceFund";
import {
  handleOracleBoundsSet,
  handleOracleFeedSet,
  handleOraclePricePinned,
  handleOracleSequencerFeedSet,
  handleOracleSpotSourceSet,
} from "../src/mappings/computePriceOracle";
import { addressParam, ALICE, BOB, CAROL, DAY, HOUR, lastEventId, mockEvent, T0, uintParam, wad } from "./helpers";

const FUND = Address.fromString("0x000000000000000000000000000000000000f00d");
const ORACLE = Address.fromString("0x0000000000000000000000000000000000000a1e");
const FEED = Address.fromString("0x000000000000000000000000000000000000feed");
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
    changetype<InsuranceStaked>(
      mockEvent(FUND, ts, [
        addressParam("staker", staker),
        addressParam("payer", staker),
        uintParam("amountUsdc", amount),
        uintParam("shares", shares),
        uintParam("stakerShares", stakerShares),
        uintParam("totalShares", total),
        uintParam("totalAssetsUsdc", assets),
      ]),
    ),
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
  const e = changetype<InsuranceBadDebtCovered>(
    mockEvent(FUND, ts, [
      addressParam("recipient", HOUSE),
      uintParam("requestedUsdc", requested),
      uintParam("coveredUsdc", cov),
      uintParam("uncoveredUsdc", unc),
      uintParam("totalAssetsUsdc", assets),
      uintParam("totalShares", shares),
    ]),
  );
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
      changetype<InsuranceFeesDeposited>(
        mockEvent(FUND, T0 + HOUR + 20, [
          addressParam("from", HOUSE),
          uintParam("amountUsdc", usdc(150)),
          uintParam("totalAssetsUsdc", usdc(1650)),
          uintParam("totalShares", sh(1500)),
        ]),
      ),
    );
    const req = changetype<InsuranceWithdrawRequested>(
      mockEvent(FUND, T0 + 2 * HOUR, [
        addressParam("staker", ALICE),
        uintParam("shares", sh(400)),
        uintParam("readyAt", u(T0 + 2 * HOUR + 7 * DAY)),
        uintParam("expiresAt", u(T0 + 2 * HOUR + 9 * DAY)),
      ]),
    );
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
      changetype<InsuranceWithdrawn>(
        mockEvent(FUND, T0 + 7 * DAY + 3 * HOUR, [
          addressParam("staker", ALICE),
          addressParam("receiver", CAROL),
          uintParam("shares", sh(300)),
          uintParam("amountUsdc", usdc(330)),
          uintParam("stakerShares", sh(700)),
          uintParam("requestShares", sh(100)),
          uintParam("totalShares", sh(1200)),
          uintParam("totalAssetsUsdc", usdc(1320)),
        ]),
      ),
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
      changetype<InsuranceWithdrawRequested>(
        mockEvent(FUND, T0 + 1, [
          addressParam("staker", ALICE),
          uintParam("shares", sh(50)),
          uintParam("readyAt", u(T0 + DAY)),
          uintParam("expiresAt", u(T0 + 2 * DAY)),
        ]),
      ),
    );
    handleInsuranceWithdrawCancelled(
      changetype<InsuranceWithdrawCancelled>(mockEvent(FUND, T0 + 2, [addressParam("staker", ALICE)])),
    );
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "requestShares", "0");
    assert.fieldEquals("InsuranceStaker", ALICE.toHexString(), "requestReadyAt", "0");

    handleInsuranceSharesReset(
      changetype<InsuranceSharesReset>(
        mockEvent(FUND, T0 + 3, [
          uintParam("shareEpoch", u(1)),
          uintParam("cancelledShares", sh(100)),
          uintParam("residualAssetsUsdc", u(0)),
        ]),
      ),
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
      changetype<InsuranceGuarantorRequirementSet>(
        mockEvent(FUND, T0 + 4, [
          addressParam("guarantor", BOB),
          uintParam("requiredUsdc", usdc(5000)),
          uintParam("stakeUsdc", u(0)),
        ]),
      ),
    );
    assert.fieldEquals("InsuranceStaker", BOB.toHexString(), "requiredUsdc", usdc(5000).toString());
    handleInsuranceCooldownSet(
      changetype<InsuranceCooldownSet>(
        mockEvent(FUND, T0 + 5, [uintParam("cooldownSec", u(7 * DAY)), uintParam("windowSec", u(2 * DAY))]),
      ),
    );
    assert.fieldEquals("InsuranceFundState", id, "cooldownSec", u(7 * DAY).toString());
    handleInsuranceSurplusSwept(
      changetype<InsuranceSurplusSwept>(
        mockEvent(FUND, T0 + 6, [addressParam("to", CAROL), uintParam("amountUsdc", usdc(3))]),
      ),
    );
    assert.fieldEquals("InsuranceFundState", id, "sweptUsdc", usdc(3).toString());
    assert.fieldEquals("InsuranceFundState", id, "totalAssetsUsdc", "0");
    assert.fieldEquals("InsuranceFundDayData", fundBucket((T0 as i64) / DAY), "sweptUsdc", usdc(3).toString());
  });
});

describe("ComputePriceOracle", () => {
  beforeEach(() => {
    clearStore();
  });

  test("feed, bounds, sequencer, spot source and pinned prices", () => {
    const id = ORACLE.toHexString();
    handleOracleFeedSet(
      changetype<OracleFeedSet>(
        mockEvent(ORACLE, T0, [
          addressParam("feed", FEED),
          uintParam("heartbeatSec", u(3600)),
          uintParam("decimals", u(8)),
        ]),
      ),
    );
    handleOracleBoundsSet(
      changetype<OracleBoundsSet>(
        mockEvent(ORACLE, T0, [uintParam("minPriceWad", wad(1)), uintParam("maxPriceWad", wad(1000))]),
      ),
    );
    handleOracleSequencerFeedSet(
      changetype<OracleSequencerFeedSet>(
        mockEvent(ORACLE, T0, [addressParam("feed", BOB), uintParam("gracePeriodSec", u(3600))]),
      ),
    );
    const s = changetype<OracleSpotSourceSet>(
      mockEvent(ORACLE, T0, [
        addressParam("source", CAROL),
        uintParam("windowSec", u(1800)),
        uintParam("maxDeviationBps", u(500)),
      ]),
    );
    handleOracleSpotSourceSet(s);
    handleOraclePricePinned(
      changetype<OraclePricePinned>(
        mockEvent(ORACLE, T0 + 60, [uintParam("priceWad", wad(10)), addressParam("pinnedBy", HOUSE)]),
      ),
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
