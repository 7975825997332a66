import { Address, BigInt, ethereum } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  DeficitAbsorbed,
  MarginDeposited,
  MarketRegistered,
  PositionLiquidated,
  PositionModified,
} from "../generated/ClearingHouse/ClearingHouse";
import {
  CapitalDeposited,
  CustomerAdmitted,
  GuarantorConfigured,
  LossCovered,
} from "../generated/GuarantorPool/GuarantorPool";
import { VolatilityUpdated } from "../generated/RiskEngine/RiskEngine";
import { AccountLiquidated } from "../generated/LiquidationEngine/LiquidationEngine";
import {
  handleDeficitAbsorbed,
  handleMarginDeposited,
  handleMarketRegistered,
  handlePositionLiquidated,
  handlePositionModified,
} from "../src/mappings/clearingHouse";
import {
  handleCapitalDeposited,
  handleCustomerAdmitted,
  handleGuarantorConfigured,
  handleLossCovered,
} from "../src/mappings/guarantorPool";
import { handleVolatilityUpdated } from "../src/mappings/riskEngine";
import { handleAccountLiquidated } from "../src/mappings/liquidationEngine";
import { addressParam, ALICE, BOB, boolParam, CAROL, lastEventId, mockEvent, T0, uintParam, wad } from "./helpers";

const HOUSE = Address.fromString("0x000000000000000000000000000000000000c1ea");
const POOL = Address.fromString("0x0000000000000000000000000000000000006001");
const RISK = Address.fromString("0x0000000000000000000000000000000000000815");
const LIQ = Address.fromString("0x0000000000000000000000000000000000001100");
const MARKET = Address.fromString("0x000000000000000000000000000000000000aa01");
const GUARANTOR = Address.fromString("0x0000000000000000000000000000000000009a01");
const KEEPER = Address.fromString("0x000000000000000000000000000000000000cee9");

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}
function intParam(name: string, v: BigInt): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromSignedBigInt(v));
}

function modified(
  account: Address,
  delta: BigInt,
  price: BigInt,
  size: BigInt,
  notional: BigInt,
  pnl: BigInt,
  fee: BigInt,
  collateral: BigInt,
): void {
  handlePositionModified(
    changetype<PositionModified>(
      mockEvent(HOUSE, T0 + 100, [
        addressParam("account", account),
        addressParam("market", MARKET),
        intParam("sizeDeltaCh", delta),
        uintParam("tradePriceWad", price),
        intParam("sizeCh", size),
        intParam("openNotionalUsdc", notional),
        intParam("realisedPnlUsdc", pnl),
        uintParam("feeUsdc", fee),
        intParam("collateralUsdc", collateral),
      ]),
    ),
  );
}

function deficit(layer: i32, amount: BigInt, remaining: BigInt): DeficitAbsorbed {
  const e = changetype<DeficitAbsorbed>(
    mockEvent(HOUSE, T0 + 500, [
      addressParam("account", ALICE),
      uintParam("layer", BigInt.fromI32(layer)),
      uintParam("amountUsdc", amount),
      uintParam("remainingDeficitUsdc", remaining),
      addressParam("market", MARKET),
    ]),
  );
  handleDeficitAbsorbed(e);
  return e;
}

describe("Clearing", () => {
  beforeEach(() => {
    clearStore();
  });

  test("guarantor, customer, positions and open interest, liquidation and waterfall steps", () => {
    handleMarketRegistered(changetype<MarketRegistered>(mockEvent(HOUSE, T0, [addressParam("market", MARKET)])));
    handleGuarantorConfigured(
      changetype<GuarantorConfigured>(
        mockEvent(POOL, T0, [
          addressParam("guarantor", GUARANTOR),
          boolParam("open", true),
          uintParam("defaultLimitUsdc", usdc(1000)),
        ]),
      ),
    );
    handleCapitalDeposited(
      changetype<CapitalDeposited>(
        mockEvent(POOL, T0, [
          addressParam("guarantor", GUARANTOR),
          addressParam("depositor", CAROL),
          uintParam("amountUsdc", usdc(5000)),
          uintParam("shares", usdc(5000)),
          uintParam("capitalUsdc", usdc(5000)),
          uintParam("totalShares", usdc(5000)),
        ]),
      ),
    );
    handleCustomerAdmitted(
      changetype<CustomerAdmitted>(
        mockEvent(POOL, T0 + 1, [
          addressParam("account", ALICE),
          addressParam("guarantor", GUARANTOR),
          uintParam("limitUsdc", usdc(800)),
        ]),
      ),
    );
    handleMarginDeposited(
      changetype<MarginDeposited>(
        mockEvent(HOUSE, T0 + 2, [
          addressParam("account", ALICE),
          uintParam("amountUsdc", usdc(100)),
          intParam("collateralUsdc", usdc(100)),
        ]),
      ),
    );
    // Alice long 10 CH at 10 USDC (fee 0.1), Bob short 10 CH
    modified(
      ALICE,
      wad(10),
      wad(10),
      wad(10),
      usdc(100),
      BigInt.zero(),
      BigInt.fromI32(100000),
      usdc(100).minus(BigInt.fromI32(100000)),
    );
    modified(BOB, wad(-10), wad(10), wad(-10), usdc(-100), BigInt.zero(), BigInt.fromI32(100000), usdc(50));
    const m = MARKET.toHexString();
    assert.fieldEquals("ClearingMarket", m, "registered", "true");
    assert.fieldEquals("ClearingMarket", m, "longOpenInterestCh", wad(10).toString());
    assert.fieldEquals("ClearingMarket", m, "shortOpenInterestCh", wad(10).toString());
    assert.fieldEquals("ClearingMarket", m, "volumeCh", wad(20).toString());
    assert.fieldEquals("ClearingMarket", m, "feesUsdc", "200000");

    // price falls to 2: Alice's position is liquidated by half (5 CH at 2 USDC: −40 USDC realised)
    handlePositionLiquidated(
      changetype<PositionLiquidated>(
        mockEvent(HOUSE, T0 + 400, [
          addressParam("account", ALICE),
          addressParam("market", MARKET),
          intParam("sizeDeltaCh", wad(-5)),
          uintParam("priceWad", wad(2)),
          intParam("realisedPnlUsdc", usdc(-40)),
          intParam("sizeCh", wad(5)),
          intParam("collateralUsdc", usdc(60).minus(BigInt.fromI32(100000))),
        ]),
      ),
    );
    const pos = ALICE.concat(MARKET).toHexString();
    assert.fieldEquals("Position", pos, "sizeCh", wad(5).toString());
    assert.fieldEquals("Position", pos, "openNotionalUsdc", usdc(50).toString());
    assert.fieldEquals("Position", pos, "liquidatedCh", wad(5).toString());
    assert.fieldEquals("ClearingMarket", m, "longOpenInterestCh", wad(5).toString());
    assert.fieldEquals("ClearingMarket", m, "liquidatedCh", wad(5).toString());
    // the pool is the counterparty of realised PnL: Alice's −40 USDC goes into it
    assert.fieldEquals("ClearingMarket", m, "poolUsdc", usdc(40).toString());

    const liq = changetype<AccountLiquidated>(
      mockEvent(LIQ, T0 + 400, [
        addressParam("account", ALICE),
        addressParam("keeper", KEEPER),
        uintParam("fractionWad", wad(1).div(BigInt.fromI32(2))),
        uintParam("priceWad", wad(2)),
        uintParam("bountyUsdc", usdc(1)),
        intParam("collateralUsdc", usdc(-30)),
        uintParam("positionsLeft", BigInt.fromI32(1)),
      ]),
    );
    handleAccountLiquidated(liq);
    assert.fieldEquals("Liquidation", lastEventId(liq), "guarantor", GUARANTOR.toHexString());
    assert.fieldEquals("Liquidation", lastEventId(liq), "bountyUsdc", usdc(1).toString());
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "liquidationCount", "1");
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "collateralUsdc", usdc(-30).toString());

    // 30 USDC deficit: guarantor pays 20, insurance 6, socialised 4
    handleLossCovered(
      changetype<LossCovered>(
        mockEvent(POOL, T0 + 500, [
          addressParam("guarantor", GUARANTOR),
          addressParam("account", ALICE),
          uintParam("askedUsdc", usdc(30)),
          uintParam("paidUsdc", usdc(20)),
          uintParam("capitalUsdc", usdc(4980)),
        ]),
      ),
    );
    const g = deficit(1, usdc(20), usdc(10));
    deficit(2, usdc(6), usdc(4));
    const s = deficit(3, usdc(4), BigInt.zero());
    assert.fieldEquals("DeficitStep", lastEventId(g), "layerName", "guarantor");
    assert.fieldEquals("DeficitStep", lastEventId(g), "guarantor", GUARANTOR.toHexString());
    assert.fieldEquals("DeficitStep", lastEventId(s), "layerName", "socialised");
    assert.fieldEquals("DeficitStep", lastEventId(s), "market", m);
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "deficitUsdc", usdc(30).toString());
    assert.fieldEquals("ClearingMarket", m, "socialisedUsdc", usdc(4).toString());
    // the socialised 4 USDC are paid out of the pool: 40 − 4
    assert.fieldEquals("ClearingMarket", m, "poolUsdc", usdc(36).toString());
    const gid = GUARANTOR.toHexString();
    assert.fieldEquals("Guarantor", gid, "capitalUsdc", usdc(4980).toString());
    assert.fieldEquals("Guarantor", gid, "lossesPaidUsdc", usdc(20).toString());
    assert.fieldEquals("Guarantor", gid, "customerCount", "1");
    assert.fieldEquals("GuarantorShareholder", GUARANTOR.concat(CAROL).toHexString(), "shares", usdc(5000).toString());
    assert.entityCount("PositionChange", 3);
    assert.entityCount("DeficitStep", 3);
  });

  test("volatility updates", () => {
    handleVolatilityUpdated(
      changetype<VolatilityUpdated>(
        mockEvent(RISK, T0, [
          addressParam("keeper", BOB),
          uintParam("priceWad", wad(10)),
          uintParam("returnWad", wad(0)),
          uintParam("varianceWad", BigInt.fromI32(4000)),
          uintParam("sigmaWad", BigInt.fromI32(63)),
          uintParam("bountyUsdc", usdc(1)),
        ]),
      ),
    );
    assert.fieldEquals("VolatilityState", RISK.toHexString(), "sigmaWad", "63");
    assert.fieldEquals("VolatilityState", RISK.toHexString(), "updateCount", "1");
    assert.entityCount("VolatilityUpdate", 1);
  });
});
