// Mapping tests of the ClearingHouse data source (matchstick-as API; events from generated/factories/ClearingHouse.ts):
// margin, positions and open interest, the PnL snapshots, the per-account and per-market days, the waterfall steps.
// (The guarantor side is in guarantorPool.test.ts, the liquidation as a whole in liquidationEngine.test.ts.)
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import { DeficitAbsorbed } from "../generated/ClearingHouse/ClearingHouse";
import {
  handleAccountSettled,
  handleDeficitAbsorbed,
  handleDeficitUnabsorbed,
  handleLiquidationBountyPaid,
  handleMarginDeposited,
  handleMarginWithdrawn,
  handleMarketRegistered,
  handlePositionDeleveraged,
  handlePositionLiquidated,
  handlePositionModified,
  handleTokenCollateralDeposited,
  handleTokenCollateralSeized,
  handleTokenCollateralWithdrawn,
  handleUncoveredCollateralChanged,
} from "../src/mappings/clearingHouse";
import { ALICE, BOB, CAROL, DAY, lastEventId, T0, wad } from "./helpers";
import { ClearingHouseEvents } from "../generated/factories/ClearingHouse";
import { adlStepAliceBob } from "./clearing-fixtures";

const HOUSE = Address.fromString("0x000000000000000000000000000000000000c1ea");
const MARKET = Address.fromString("0x000000000000000000000000000000000000aa01");
const CH_TOKEN = Address.fromString("0x000000000000000000000000000000000000c400");

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
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
    new ClearingHouseEvents(HOUSE).PositionModified(
      T0 + 100,
      account,
      MARKET,
      delta,
      price,
      size,
      notional,
      pnl,
      fee,
      collateral,
    ),
  );
}

function deficit(layer: i32, amount: BigInt, remaining: BigInt): DeficitAbsorbed {
  const e = new ClearingHouseEvents(HOUSE).DeficitAbsorbed(T0 + 500, ALICE, layer, amount, remaining, MARKET);
  handleDeficitAbsorbed(e);
  return e;
}

describe("ClearingHouse", () => {
  beforeEach(() => {
    clearStore();
  });

  test("positions and open interest, a liquidation of a position, waterfall steps and the pool", () => {
    handleMarketRegistered(new ClearingHouseEvents(HOUSE).MarketRegistered(T0, MARKET));
    handleMarginDeposited(new ClearingHouseEvents(HOUSE).MarginDeposited(T0 + 2, ALICE, usdc(100), usdc(100)));
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
      new ClearingHouseEvents(HOUSE).PositionLiquidated(
        T0 + 400,
        ALICE,
        MARKET,
        wad(-5),
        wad(2),
        usdc(-40),
        wad(5),
        usdc(60).minus(BigInt.fromI32(100000)),
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

    // 30 USDC deficit: guarantor pays 20, insurance 6, socialised 4
    const g = deficit(1, usdc(20), usdc(10));
    deficit(2, usdc(6), usdc(4));
    const s = deficit(3, usdc(4), BigInt.zero());
    assert.fieldEquals("DeficitStep", lastEventId(g), "layerName", "guarantor");
    assert.fieldEquals("DeficitStep", lastEventId(s), "layerName", "socialised");
    assert.fieldEquals("DeficitStep", lastEventId(s), "market", m);
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "deficitUsdc", usdc(30).toString());
    assert.fieldEquals("ClearingMarket", m, "socialisedUsdc", usdc(4).toString());
    // the socialised 4 USDC are paid out of the pool: 40 − 4
    assert.fieldEquals("ClearingMarket", m, "poolUsdc", usdc(36).toString());
    assert.entityCount("PositionChange", 3);
    assert.entityCount("DeficitStep", 3);
  });

  test("PnL snapshots: realised and unrealised after each change, the account's totals and days", () => {
    handleMarginDeposited(new ClearingHouseEvents(HOUSE).MarginDeposited(T0, ALICE, usdc(100), usdc(100)));
    // long 10 at 10: cost basis 100, marked at 10 → unrealised 0
    modified(ALICE, wad(10), wad(10), wad(10), usdc(100), BigInt.zero(), BigInt.zero(), usdc(100));
    const pos = ALICE.concat(MARKET).toHexString();
    assert.fieldEquals("Position", pos, "unrealisedPnlUsdc", "0");
    // sell 4 at 12: realises 4 × (12 − 10) = 8, 6 left at cost 60 marked at 12 → unrealised 72 − 60 = 12
    handlePositionModified(
      new ClearingHouseEvents(HOUSE).PositionModified(
        T0 + DAY,
        ALICE,
        MARKET,
        wad(-4),
        wad(12),
        wad(6),
        usdc(60),
        usdc(8),
        BigInt.zero(),
        usdc(108),
      ),
    );
    assert.fieldEquals("Position", pos, "markPriceWad", wad(12).toString());
    assert.fieldEquals("Position", pos, "unrealisedPnlUsdc", usdc(12).toString());
    assert.fieldEquals("Position", pos, "realisedPnlUsdc", usdc(8).toString());
    const a = ALICE.toHexString();
    assert.fieldEquals("MarginAccount", a, "realisedPnlUsdc", usdc(8).toString());
    assert.fieldEquals("MarginAccount", a, "unrealisedPnlUsdc", usdc(12).toString());
    // funding credited: the day's settlements, the collateral at the close
    handleAccountSettled(
      new ClearingHouseEvents(HOUSE).AccountSettled(T0 + DAY + 5, ALICE, MARKET, usdc(-3), usdc(105), usdc(3)),
    );
    const day1 = ALICE.concatI32(<i32>((T0 + DAY) / DAY)).toHexString();
    assert.fieldEquals("MarginAccountDayData", day1, "realisedPnlUsdc", usdc(8).toString());
    assert.fieldEquals("MarginAccountDayData", day1, "settledUsdc", usdc(-3).toString());
    assert.fieldEquals("MarginAccountDayData", day1, "collateralUsdc", usdc(105).toString());
    assert.fieldEquals("MarginAccountDayData", day1, "unrealisedPnlUsdc", usdc(12).toString());
    const mday = MARKET.concatI32(<i32>((T0 + DAY) / DAY)).toHexString();
    assert.fieldEquals("ClearingMarketDayData", mday, "volumeCh", wad(4).toString());
    assert.fieldEquals("ClearingMarketDayData", mday, "realisedPnlUsdc", usdc(8).toString());
    assert.fieldEquals("ClearingMarketDayData", mday, "settledUsdc", usdc(-3).toString());
    assert.fieldEquals("ClearingMarketDayData", mday, "openInterestHighCh", wad(10).toString());
    assert.fieldEquals("ClearingMarketDayData", mday, "longOpenInterestCh", wad(6).toString());
    assert.entityCount("MarginAccountDayData", 2);
  });

  test("token collateral: deposits, a withdrawal and a liquidation sale follow the recorded balance", () => {
    const house = new ClearingHouseEvents(HOUSE);
    handleTokenCollateralDeposited(house.TokenCollateralDeposited(T0, ALICE, CH_TOKEN, wad(20), wad(20), wad(20)));
    handleTokenCollateralWithdrawn(
      house.TokenCollateralWithdrawn(T0 + 1, ALICE, BOB, CH_TOKEN, wad(5), wad(15), wad(15)),
    );
    const id = ALICE.concat(CH_TOKEN).toHexString();
    assert.fieldEquals("TokenCollateral", id, "balance", wad(15).toString());
    assert.fieldEquals("TokenCollateral", id, "deposited", wad(20).toString());
    assert.fieldEquals("TokenCollateral", id, "withdrawn", wad(5).toString());
    // the liquidator (Bob) buys the 15 CH at 6 × (1 − 12 %) = 79.2 USDC, credited to Alice's collateral
    const seized = house.TokenCollateralSeized(
      T0 + 2,
      ALICE,
      BOB,
      CH_TOKEN,
      wad(15),
      BigInt.fromI64(79200000),
      usdc(89),
    );
    handleTokenCollateralSeized(seized);
    assert.fieldEquals("TokenCollateral", id, "balance", "0");
    assert.fieldEquals("TokenCollateral", id, "seized", wad(15).toString());
    assert.fieldEquals("TokenCollateral", id, "seizedProceedsUsdc", "79200000");
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "collateralUsdc", usdc(89).toString());
    assert.fieldEquals("TokenCollateralEvent", lastEventId(seized), "kind", "seized");
    assert.fieldEquals("TokenCollateralEvent", lastEventId(seized), "counterparty", BOB.toHexString());
    assert.entityCount("TokenCollateralEvent", 3);
  });
});

// ClearingStats: Σ max(0, −collateral) over the margin accounts, booked old → new on every event that carries an
// account's collateral after a write, as ClearingStorage.bookUncovered books ClearingHouse.uncoveredCollateralUsdc().
const STATS = Bytes.fromUTF8("clearing").toHexString();

function uncovered(total: BigInt, accounts: i32): void {
  assert.fieldEquals("ClearingStats", STATS, "uncoveredCollateralUsdc", total.toString());
  assert.fieldEquals("ClearingStats", STATS, "accountsInDeficit", accounts.toString());
}

function collateralOf(account: Address, amount: BigInt): void {
  assert.fieldEquals("MarginAccount", account.toHexString(), "collateralUsdc", amount.toString());
}

/** A losing trade of `account` that leaves its collateral at `collateral` (the post-state PositionModified carries). */
function lossTo(account: Address, collateral: BigInt): void {
  modified(account, wad(-10), wad(10), BigInt.zero(), BigInt.zero(), usdc(-100), BigInt.zero(), collateral);
}

describe("ClearingHouse uncovered collateral (ClearingStats)", () => {
  beforeEach(() => {
    clearStore();
  });

  test("solvent accounts never touch the total", () => {
    const house = new ClearingHouseEvents(HOUSE);
    handleMarginDeposited(house.MarginDeposited(T0, ALICE, usdc(100), usdc(100)));
    lossTo(ALICE, usdc(10));
    handleMarginWithdrawn(house.MarginWithdrawn(T0 + 200, ALICE, BOB, usdc(10), BigInt.zero()));
    collateralOf(ALICE, BigInt.zero());
    assert.notInStore("ClearingStats", STATS);
  });

  test("below zero raises the total, further below raises it more, deposits lower it in part then in full", () => {
    const house = new ClearingHouseEvents(HOUSE);
    handleMarginDeposited(house.MarginDeposited(T0, ALICE, usdc(100), usdc(100)));
    // a losing close takes Alice from 100 to −30: 30 USDC no USDC backs
    lossTo(ALICE, usdc(-30));
    collateralOf(ALICE, usdc(-30));
    uncovered(usdc(30), 1);
    // funding owed on top: −30 → −45 (negative to more negative: +15, still one account)
    handleAccountSettled(house.AccountSettled(T0 + 300, ALICE, MARKET, usdc(-15), usdc(-45), usdc(145)));
    uncovered(usdc(45), 1);
    // a deposit covers 20 of it: −45 → −25
    handleMarginDeposited(house.MarginDeposited(T0 + 400, ALICE, usdc(20), usdc(-25)));
    uncovered(usdc(25), 1);
    // and the rest and more: −25 → 15
    handleMarginDeposited(house.MarginDeposited(T0 + 500, ALICE, usdc(40), usdc(15)));
    collateralOf(ALICE, usdc(15));
    uncovered(BigInt.zero(), 0);
    assert.fieldEquals("ClearingStats", STATS, "updatedAt", (T0 + 500).toString());
    // the day closes at the collateral after
    assert.fieldEquals(
      "MarginAccountDayData",
      ALICE.concatI32(<i32>(T0 / DAY)).toHexString(),
      "collateralUsdc",
      usdc(15).toString(),
    );
  });

  test("the chain's UncoveredCollateralChanged is kept as history beside the rebuilt total", () => {
    const house = new ClearingHouseEvents(HOUSE);
    lossTo(ALICE, usdc(-30));
    // the ClearingHouse reports the same total in the transaction (bookUncovered emits before the account's event)
    const reported = house.UncoveredCollateralChanged(T0 + 300, usdc(30));
    handleUncoveredCollateralChanged(reported);
    const id = lastEventId(reported);
    assert.fieldEquals("ClearingEvent", id, "kind", "uncoveredChanged");
    assert.fieldEquals("ClearingEvent", id, "amountUsdc", usdc(30).toString());
    // the report does not book into the rebuilt total a second time
    uncovered(usdc(30), 1);
    handleMarginDeposited(house.MarginDeposited(T0 + 400, ALICE, usdc(30), BigInt.zero()));
    const cleared = house.UncoveredCollateralChanged(T0 + 400, BigInt.zero());
    handleUncoveredCollateralChanged(cleared);
    assert.fieldEquals("ClearingEvent", lastEventId(cleared), "amountUsdc", "0");
    uncovered(BigInt.zero(), 0);
  });

  test("two accounts add up; each one's cover lowers only its own part", () => {
    const house = new ClearingHouseEvents(HOUSE);
    lossTo(ALICE, usdc(-30));
    // Bob's liquidation close leaves −12 (no bounty: nothing left to pay it from)
    handlePositionLiquidated(
      house.PositionLiquidated(T0 + 400, BOB, MARKET, wad(-5), wad(2), usdc(-40), BigInt.zero(), usdc(-12)),
    );
    uncovered(usdc(42), 2);
    // Carol stays solvent: her bounty-paying liquidation does not touch the total
    handleLiquidationBountyPaid(house.LiquidationBountyPaid(T0 + 450, CAROL, BOB, usdc(1), usdc(9)));
    uncovered(usdc(42), 2);
    handleMarginDeposited(house.MarginDeposited(T0 + 500, ALICE, usdc(50), usdc(20)));
    uncovered(usdc(12), 1);
    // Bob's funding credit brings him to zero exactly: zero is not a deficit
    handleAccountSettled(house.AccountSettled(T0 + 600, BOB, MARKET, usdc(12), BigInt.zero(), usdc(28)));
    collateralOf(BOB, BigInt.zero());
    uncovered(BigInt.zero(), 0);
  });

  test("waterfall: the guarantor's and the fund's payments lower it, DeficitUnabsorbed carries what is left", () => {
    const house = new ClearingHouseEvents(HOUSE);
    lossTo(ALICE, usdc(-30));
    // absorbDeficit: guarantor 20 of 30, the fund has nothing; 10 stays on the account
    deficit(1, usdc(20), usdc(10));
    collateralOf(ALICE, usdc(-10));
    uncovered(usdc(10), 1);
    const left = house.DeficitUnabsorbed(T0 + 500, ALICE, usdc(10), usdc(-10));
    handleDeficitUnabsorbed(left);
    collateralOf(ALICE, usdc(-10));
    uncovered(usdc(10), 1);
    assert.fieldEquals("ClearingEvent", lastEventId(left), "kind", "deficitUnabsorbed");
    assert.fieldEquals("ClearingEvent", lastEventId(left), "amountUsdc", usdc(10).toString());
    assert.fieldEquals("ClearingEvent", lastEventId(left), "collateralUsdc", usdc(-10).toString());
    // a later retry (executeAdl's waterfall first): the refilled fund pays the 10 in full. absorbDeficit emits no
    // post-state then (no DeficitUnabsorbed): the payment itself brings the account to zero
    deficit(2, usdc(10), BigInt.zero());
    collateralOf(ALICE, BigInt.zero());
    uncovered(BigInt.zero(), 0);
    assert.fieldEquals("MarginAccount", ALICE.toHexString(), "deficitUsdc", usdc(30).toString());
  });

  test("ADL: the bankrupt's part falls by the haircut; the ADL step's DeficitAbsorbed does not count it twice", () => {
    const house = new ClearingHouseEvents(HOUSE);
    lossTo(ALICE, usdc(-50));
    modified(BOB, wad(-30), wad(10), wad(-30), usdc(-300), BigInt.zero(), BigInt.zero(), usdc(60));
    uncovered(usdc(50), 1);
    // Bob buys back 30 at 5 (profit 150): 30 to Alice (−50 → −20), 0.75 to the keeper; Bob 60 + 150 − 30.75
    adlStepAliceBob(house, MARKET, T0 + 800);
    collateralOf(ALICE, usdc(-20));
    collateralOf(BOB, BigInt.fromI64(179250000));
    uncovered(usdc(20), 1);
    // a second step covers the rest
    handlePositionDeleveraged(
      house.PositionDeleveraged(
        T0 + 900,
        ALICE,
        CAROL,
        MARKET,
        wad(10),
        wad(5),
        usdc(50),
        usdc(20),
        BigInt.zero(),
        BigInt.zero(),
        usdc(30),
        BigInt.zero(),
      ),
    );
    handleDeficitAbsorbed(house.DeficitAbsorbed(T0 + 900, ALICE, 4, usdc(20), BigInt.zero(), MARKET));
    uncovered(BigInt.zero(), 0);
  });

  test("a token sale pays the deficit token by token", () => {
    const house = new ClearingHouseEvents(HOUSE);
    const OTHER_TOKEN = Address.fromString("0x000000000000000000000000000000000000c401");
    handleTokenCollateralDeposited(house.TokenCollateralDeposited(T0, ALICE, CH_TOKEN, wad(10), wad(10), wad(10)));
    handleTokenCollateralDeposited(house.TokenCollateralDeposited(T0, ALICE, OTHER_TOKEN, wad(5), wad(5), wad(5)));
    lossTo(ALICE, usdc(-50));
    // the first token sells for 30: −50 → −20; the second for 25: −20 → 5
    handleTokenCollateralSeized(
      house.TokenCollateralSeized(T0 + 500, ALICE, BOB, CH_TOKEN, wad(10), usdc(30), usdc(-20)),
    );
    uncovered(usdc(20), 1);
    handleTokenCollateralSeized(
      house.TokenCollateralSeized(T0 + 500, ALICE, BOB, OTHER_TOKEN, wad(5), usdc(25), usdc(5)),
    );
    collateralOf(ALICE, usdc(5));
    uncovered(BigInt.zero(), 0);
  });
});
