// Mapping tests of the FuturesMarket data source (matchstick-as API; events from generated/factories/FuturesMarket.ts).
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  DeliveryElected,
  DeliveryForfeited,
  DeliveryReceived,
  DeliverySettled,
  FuturesTraded,
  DeliveryEscrowChanged,
  PositionReduced,
  SettlementPriceFinalised,
  SettlementPriceProposed,
} from "../generated/FuturesMarket/FuturesMarket";
import {
  handleDeliveryElected,
  handleDeliveryOrdersSet,
  handleDeliveryShortMadeWhole,
  handleDeliverySlashReceived,
  handleDeliveryClaimTaken,
  handleDeliveryForfeited,
  handleDeliveryReceived,
  handleDeliverySettled,
  handleFuturesMinNonceRaised,
  handleFuturesOrderFilled,
  handleFuturesOrdersMatched,
  handleFuturesSignedOrderCancelled,
  handleFuturesTraded,
  handleDeliveryEscrowChanged,
  handleKeeperListingMonthsSet,
  handleOrderCancelled,
  handleOrderCommitted,
  handleOrderExecuted,
  handlePositionReduced,
  handlePositionRolled,
  handlePositionSettled as handleFuturesPositionSettled,
  handleSeriesListed as handleFuturesSeriesListed,
  handleSettlementPriceFinalised,
  handleSettlementPriceProposed,
  handleSettlementTwap,
  handleSettlementFallback,
} from "../src/mappings/futuresMarket";
import { ALICE, BOB, CAROL, DAY, lastEventId, T0, wad } from "./helpers";
import { FuturesMarketEvents } from "../generated/factories/FuturesMarket";
import { seriesKey } from "../src/lib/markets";

const FUT = Address.fromString("0x000000000000000000000000000000000000f075");
const KEEPER = Address.fromString("0x000000000000000000000000000000000000cee9");

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}
function n(x: i32): BigInt {
  return BigInt.fromI32(x);
}
function bucket(market: Address, ts: i64, size: i64): string {
  return market.concatI32(<i32>(ts / size)).toHexString();
}

function futTrade(account: Address, delta: BigInt, size: BigInt, longOi: BigInt, shortOi: BigInt, ts: i64): void {
  handleFuturesTraded(
    new FuturesMarketEvents(FUT).FuturesTraded(
      ts,
      n(1),
      account,
      delta,
      wad(11),
      wad(10),
      n(110000),
      size,
      wad(11),
      longOi,
      shortOi,
    ),
  );
}

describe("FuturesMarket", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a series from listing to delivery: trades, election, settlement price, a failed delivery, settlement", () => {
    handleFuturesSeriesListed(
      new FuturesMarketEvents(FUT).SeriesListed(
        T0,
        n(1),
        BigInt.fromI64(T0 + 7 * DAY),
        BigInt.fromI64(T0 + 6 * DAY),
        1,
        wad(1000),
        CAROL,
        n(1),
      ),
    );
    futTrade(ALICE, wad(10), wad(10), wad(10), BigInt.zero(), T0 + 10);
    futTrade(BOB, wad(-6), wad(-6), wad(10), wad(6), T0 + 20);
    const s = FUT.concatI32(1).toHexString();
    assert.fieldEquals("FuturesSeries", s, "tenor", "Weekly");
    assert.fieldEquals("FuturesSeries", s, "volumeUsdc", usdc(176).toString());
    assert.fieldEquals("FuturesMarketState", FUT.toHexString(), "longOiCh", wad(10).toString());
    assert.fieldEquals("FuturesMarketState", FUT.toHexString(), "shortOiCh", wad(6).toString());
    handleDeliveryElected(new FuturesMarketEvents(FUT).DeliveryElected(T0 + DAY, n(1), ALICE, wad(8), wad(8)));
    handleSettlementPriceProposed(
      new FuturesMarketEvents(FUT).SettlementPriceProposed(
        T0 + 7 * DAY,
        n(1),
        wad(12),
        BigInt.fromI64(T0 + 8 * DAY),
        wad(6),
        KEEPER,
        n(1000000),
        BigInt.zero(),
      ),
    );
    assert.fieldEquals("FuturesSeries", s, "status", "Proposed");
    // deliverable = min(8 elected, 6 short) = 6; each short delivers all its size (fraction 1)
    handleSettlementPriceFinalised(
      new FuturesMarketEvents(FUT).SettlementPriceFinalised(
        T0 + 8 * DAY,
        n(1),
        wad(12),
        wad(8),
        wad(6),
        wad(6),
        wad(1),
        BigInt.fromI64(T0 + 9 * DAY),
        KEEPER,
        n(1000000),
      ),
    );
    // Bob delivers 4 of 6: paid 4 × 12 = 48, charged the penalty 2 × 12 × 10 % = 2.4
    handleDeliverySettled(
      new FuturesMarketEvents(FUT).DeliverySettled(
        T0 + 9 * DAY,
        n(1),
        BOB,
        wad(6),
        wad(4),
        usdc(48),
        n(2400000),
        usdc(100),
      ),
    );
    handleDeliveryReceived(
      new FuturesMarketEvents(FUT).DeliveryReceived(
        T0 + 9 * DAY,
        n(1),
        ALICE,
        wad(8),
        wad(3),
        usdc(36),
        n(2400000),
        wad(2),
      ),
    );
    // Alice could pay for 3 of the 4 CH delivered: the 4th went to the vault (MKT-08)
    handleDeliveryForfeited(
      new FuturesMarketEvents(FUT).DeliveryForfeited(T0 + 9 * DAY, n(1), ALICE, wad(1), usdc(12), CAROL),
    );
    handleFuturesPositionSettled(
      new FuturesMarketEvents(FUT).PositionSettled(
        T0 + 9 * DAY + 1,
        n(1),
        ALICE,
        wad(10),
        wad(12),
        usdc(10),
        KEEPER,
        BigInt.zero(),
        n(1),
      ),
    );
    assert.fieldEquals("FuturesSeries", s, "status", "Final");
    assert.fieldEquals("FuturesSeries", s, "failedDeliveries", "1");
    assert.fieldEquals("FuturesSeries", s, "deliveredCh", wad(4).toString());
    assert.fieldEquals("FuturesSeries", s, "slashedUsdc", "2400000");
    assert.fieldEquals("FuturesSeries", s, "receivedCh", wad(4).toString()); // = delivered (MKT-05)
    assert.fieldEquals("FuturesSeries", s, "forfeitedCh", wad(1).toString());
    assert.entityCount("FuturesEvent", 3); // elected, forfeited, positionSettled
    assert.fieldEquals("FuturesSeries", s, "cashSettledCh", wad(2).toString());
    assert.fieldEquals("FuturesSeries", s, "longOiCh", "0");
    assert.fieldEquals("FuturesSeries", s, "openPositions", "1");
    assert.fieldEquals("FuturesPosition", FUT.concatI32(1).concat(BOB).toHexString(), "deliveredCh", wad(4).toString());
    assert.fieldEquals("FuturesPosition", FUT.concatI32(1).concat(ALICE).toHexString(), "settled", "true");
    assert.fieldEquals("FuturesMarketState", FUT.toHexString(), "longOiCh", "0");
    assert.fieldEquals("FuturesDayData", bucket(FUT, T0 + 9 * DAY, DAY), "failedDeliveries", "1");
    assert.fieldEquals("FuturesDayData", bucket(FUT, T0, DAY), "feesUsdc", "220000");
    assert.entityCount("FuturesSettlementPrice", 2);
  });

  test("open records follow the contract; a failed settlement close's Flatten marker does not count twice", () => {
    handleFuturesSeriesListed(
      new FuturesMarketEvents(FUT).SeriesListed(
        T0,
        n(1),
        BigInt.fromI64(T0 + 7 * DAY),
        BigInt.fromI64(T0 + 6 * DAY),
        4,
        wad(1000),
        CAROL,
        n(1),
      ),
    );
    const s = FUT.concatI32(1).toHexString();
    futTrade(ALICE, wad(10), wad(10), wad(10), BigInt.zero(), T0 + 10);
    futTrade(BOB, wad(-4), wad(-4), wad(10), wad(4), T0 + 20);
    // Bob escrows CH, closes his short (the escrow comes back first), and his record closes empty before expiry
    handleDeliveryEscrowChanged(new FuturesMarketEvents(FUT).DeliveryEscrowChanged(T0 + 30, n(1), BOB, wad(4), wad(4)));
    assert.fieldEquals("FuturesSeries", s, "openPositions", "2");
    handleDeliveryEscrowChanged(
      new FuturesMarketEvents(FUT).DeliveryEscrowChanged(T0 + 40, n(1), BOB, wad(-4), BigInt.zero()),
    );
    futTrade(BOB, wad(4), BigInt.zero(), wad(10), BigInt.zero(), T0 + 40);
    assert.fieldEquals("FuturesSeries", s, "openPositions", "1");
    assert.fieldEquals("FuturesPosition", FUT.concatI32(1).concat(BOB).toHexString(), "open", "false");
    // reopening counts again
    futTrade(BOB, wad(-2), wad(-2), wad(10), wad(2), T0 + 50);
    assert.fieldEquals("FuturesSeries", s, "openPositions", "2");
    // at settlement Alice's close fails (a calendar spread): her other legs are flattened elsewhere, then this
    // leg's marker carries an all-zero post-state, then PositionSettled with the size closed
    handlePositionReduced(
      new FuturesMarketEvents(FUT).PositionReduced(
        T0 + 9 * DAY,
        n(1),
        ALICE,
        wad(-10),
        wad(12),
        BigInt.zero(),
        BigInt.zero(),
        BigInt.zero(),
        BigInt.zero(),
        2,
      ),
    );
    assert.fieldEquals("FuturesSeries", s, "longOiCh", "0");
    assert.fieldEquals("FuturesSeries", s, "shortOiCh", wad(2).toString());
    handleFuturesPositionSettled(
      new FuturesMarketEvents(FUT).PositionSettled(
        T0 + 9 * DAY,
        n(1),
        ALICE,
        wad(10),
        wad(12),
        usdc(10),
        ALICE,
        BigInt.zero(),
        n(1),
      ),
    );
    assert.fieldEquals("FuturesSeries", s, "longOiCh", "0");
    assert.fieldEquals("FuturesSeries", s, "shortOiCh", wad(2).toString());
    assert.fieldEquals("FuturesMarketState", FUT.toHexString(), "longOiCh", "0");
    assert.fieldEquals("FuturesMarketState", FUT.toHexString(), "shortOiCh", wad(2).toString());
    assert.fieldEquals("FuturesSeries", s, "openPositions", "1");
    assert.fieldEquals("FuturesPosition", FUT.concatI32(1).concat(ALICE).toHexString(), "open", "false");
    assert.entityCount("FuturesReduction", 1);
  });

  test("two-step orders: committed on two series, executed, cancelled; pending count, fees held and paid", () => {
    const ev = new FuturesMarketEvents(FUT);
    for (let i = 0; i < 2; i++) {
      handleOrderCommitted(
        ev.OrderCommitted(
          T0 + i,
          n(i + 1),
          i == 0 ? ALICE : BOB,
          i == 0 ? wad(10) : wad(-4),
          wad(11),
          i == 1,
          BigInt.fromI64(T0 + i + 30),
          BigInt.fromI64(T0 + i + 300),
          n(500000),
          usdc(10),
          n(i + 1),
        ),
      );
    }
    const m = FUT.toHexString();
    assert.fieldEquals("FuturesMarketState", m, "pendingOrders", "2");
    assert.fieldEquals("FuturesMarketState", m, "orderFeesHeldUsdc", "1000000");
    handleOrderExecuted(ev.OrderExecuted(T0 + 31, n(1), ALICE, KEEPER, n(7), wad(10), n(500000), n(1)));
    handleOrderCancelled(
      ev.OrderCancelled(T0 + 302, n(2), BOB, KEEPER, n(500000), Bytes.fromHexString("0x12345678"), BigInt.zero()),
    );
    assert.fieldEquals("FuturesMarketState", m, "pendingOrders", "0");
    assert.fieldEquals("FuturesMarketState", m, "orderFeesHeldUsdc", "0");
    assert.fieldEquals("FuturesMarketState", m, "ordersCommitted", "2");
    assert.fieldEquals("FuturesMarketState", m, "ordersExecuted", "1");
    assert.fieldEquals("FuturesMarketState", m, "ordersCancelled", "1");
    assert.fieldEquals("FuturesMarketState", m, "executionFeesPaidUsdc", "1000000");
    assert.entityCount("FuturesOrderEvent", 4);
  });
  test("a roll is recorded on the series rolled from (its legs by FuturesTraded); keeper listing months", () => {
    handleFuturesSeriesListed(
      new FuturesMarketEvents(FUT).SeriesListed(
        T0,
        n(1),
        BigInt.fromI64(T0 + 7 * DAY),
        BigInt.fromI64(T0 + 6 * DAY),
        2,
        wad(1000),
        CAROL,
        n(1),
      ),
    );
    handlePositionRolled(
      new FuturesMarketEvents(FUT).PositionRolled(
        T0 + 10,
        ALICE,
        n(1),
        n(2),
        wad(-3),
        wad(10),
        wad(11),
        n(33000),
        wad(-1),
        wad(-3),
      ),
    );
    handleKeeperListingMonthsSet(new FuturesMarketEvents(FUT).KeeperListingMonthsSet(T0 + 20, n(12)));
    assert.entityCount("FuturesEvent", 2);
  });

  test("lazy hand-over (issue 19): an electing long's CH stays as its claim (escrow) until its order opens", () => {
    handleFuturesSeriesListed(
      new FuturesMarketEvents(FUT).SeriesListed(
        T0,
        n(1),
        BigInt.fromI64(T0 + 7 * DAY),
        BigInt.fromI64(T0 + 6 * DAY),
        2,
        wad(1000),
        CAROL,
        n(1),
      ),
    );
    const orders = Address.fromString("0x000000000000000000000000000000000000de11");
    handleDeliveryOrdersSet(new FuturesMarketEvents(FUT).DeliveryOrdersSet(T0, orders));
    handleDeliveryReceived(
      new FuturesMarketEvents(FUT).DeliveryReceived(T0 + 8 * DAY, n(1), ALICE, wad(3), wad(3), usdc(36), n(0), n(0)),
    );
    const alicePos = FUT.concatI32(1).concat(ALICE).toHexString();
    assert.fieldEquals("FuturesPosition", alicePos, "escrowCh", wad(3).toString());
    assert.fieldEquals("FuturesPosition", alicePos, "claimTakenCh", "0");
    const taken = new FuturesMarketEvents(FUT).DeliveryClaimTaken(T0 + 9 * DAY, n(1), ALICE, orders, wad(3));
    handleDeliveryClaimTaken(taken);
    assert.fieldEquals("FuturesPosition", alicePos, "escrowCh", "0");
    assert.fieldEquals("FuturesPosition", alicePos, "claimTakenCh", wad(3).toString());
    assert.fieldEquals("FuturesPosition", alicePos, "receivedCh", wad(3).toString());
    assert.fieldEquals("FuturesEvent", lastEventId(taken), "kind", "claimTaken");
    assert.entityCount("FuturesEvent", 1);
  });

  test("the DeliveryOrders contract of the market (issue 19: electing longs receive delivery orders there)", () => {
    const orders = Address.fromString("0x000000000000000000000000000000000000de11");
    handleDeliveryOrdersSet(new FuturesMarketEvents(FUT).DeliveryOrdersSet(T0, orders));
    assert.fieldEquals("FuturesMarketState", FUT.toHexString(), "deliveryOrders", orders.toHexString());
  });

  test("a failing short's slash makes the longs whole first (issue 19: slash, margin, waterfall)", () => {
    const m = FUT.toHexString();
    handleDeliveryShortMadeWhole(
      new FuturesMarketEvents(FUT).DeliveryShortMadeWhole(
        T0,
        n(1),
        BOB,
        usdc(100),
        wad(45),
        usdc(90),
        usdc(6),
        usdc(4),
        wad(45),
      ),
    );
    assert.fieldEquals("FuturesMarketState", m, "slashDpsToLongs", wad(45).toString());
    assert.fieldEquals("FuturesMarketState", m, "penaltyFromSlashUsdc", "90000000");
    assert.fieldEquals("FuturesMarketState", m, "penaltyUncoveredUsdc", "4000000");
    handleDeliverySlashReceived(new FuturesMarketEvents(FUT).DeliverySlashReceived(T0, n(1), BOB, wad(45), n(0)));
    assert.fieldEquals("FuturesMarketState", m, "slashDpsPaid", wad(45).toString());
  });

  test("a signed-order fill sets the series' curve point (issue 19); cancels and nonce raises are logged", () => {
    handleFuturesSeriesListed(
      new FuturesMarketEvents(FUT).SeriesListed(
        T0,
        n(1),
        BigInt.fromI64(T0 + 7 * DAY),
        BigInt.fromI64(T0 + 6 * DAY),
        2,
        wad(1000),
        CAROL,
        n(1),
      ),
    );
    const digest = Bytes.fromHexString("0x" + "ab".repeat(32));
    handleFuturesOrderFilled(
      new FuturesMarketEvents(FUT).FuturesOrderFilled(
        T0 + 5,
        digest,
        n(1),
        ALICE,
        BOB,
        wad(3),
        wad(11),
        wad(10),
        wad(3),
        wad(7),
      ),
    );
    const sid = seriesKey(FUT, n(1)).toHexString();
    assert.fieldEquals("FuturesSeries", sid, "curvePriceWad", wad(11).toString());
    assert.fieldEquals("FuturesSeries", sid, "curveIndexWad", wad(10).toString());
    assert.fieldEquals("FuturesSeries", sid, "curveTradedAt", (T0 + 5).toString());
    assert.fieldEquals("FuturesSeries", sid, "signedFillCount", "1");
    handleFuturesSignedOrderCancelled(
      new FuturesMarketEvents(FUT).FuturesSignedOrderCancelled(T0 + 6, digest, ALICE, n(1), wad(3)),
    );
    handleFuturesMinNonceRaised(new FuturesMarketEvents(FUT).FuturesMinNonceRaised(T0 + 7, ALICE, n(2)));
    assert.entityCount("FuturesEvent", 3);
    // matchOrders: the curve point is the midpoint, the matcher's spread is logged
    const other = Bytes.fromHexString("0x" + "cd".repeat(32));
    handleFuturesOrdersMatched(
      new FuturesMarketEvents(FUT).FuturesOrdersMatched(T0 + 8, digest, other, n(1), KEEPER, wad(2), usdc(1), wad(12)),
    );
    assert.fieldEquals("FuturesSeries", sid, "curvePriceWad", wad(12).toString());
    assert.fieldEquals("FuturesSeries", sid, "matchCount", "1");
    assert.entityCount("FuturesEvent", 4);
    // the settlement TWAP is kept on the series
    handleSettlementTwap(
      new FuturesMarketEvents(FUT).SettlementTwap(
        T0 + 9,
        n(1),
        BigInt.fromI64(T0),
        BigInt.fromI64(T0 + 3600),
        n(7),
        n(3),
        wad(11),
      ),
    );
    assert.fieldEquals("FuturesSeries", sid, "settlementTwapWad", wad(11).toString());
    assert.fieldEquals("FuturesSeries", sid, "twapFirstRoundId", "7");
    assert.fieldEquals("FuturesSeries", sid, "twapRounds", "3");
    // a stale window fixed by the fallback rule names its rounds on the series
    handleSettlementFallback(
      new FuturesMarketEvents(FUT).SettlementFallback(T0 + 10, n(1), n(6), BigInt.fromI64(T0 - 1), n(8), wad(12)),
    );
    assert.fieldEquals("FuturesSeries", sid, "fallbackStaleRoundId", "6");
    assert.fieldEquals("FuturesSeries", sid, "fallbackRoundId", "8");
  });
});
