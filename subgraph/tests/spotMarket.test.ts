// Mapping tests of the SpotMarket data source (matchstick-as API; events from generated/factories/SpotMarket.ts).
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  Cancelled,
  DealSettled,
  FeesAccrued,
  FeesDistributed,
  OrderFilled,
  OrdersMatched,
  SeatStaked,
  SeatUnstakeRequested,
  SeatWithdrawn,
  TwapUpdated,
} from "../generated/SpotMarket/SpotMarket";
import {
  handleCancelled,
  handleDealSettled,
  handleFeesAccrued,
  handleFeesDistributed,
  handleOrderFilled,
  handleOrdersMatched,
  handleSeatStaked,
  handleSeatUnstakeRequested,
  handleSeatWithdrawn,
  handleTwapUpdated,
} from "../src/mappings/spotMarket";
import { ALICE, BOB, CAROL, DAY, HOUR, T0, wad } from "./helpers";
import { SpotMarketEvents } from "../generated/factories/SpotMarket";

const SPOT = Address.fromString("0x0000000000000000000000000000000000005907");
const BUY = Bytes.fromHexString("0x" + "11".repeat(32));
const SELL = Bytes.fromHexString("0x" + "22".repeat(32));
const ASK = Bytes.fromHexString("0x" + "33".repeat(32));

function fill(
  hash: Bytes,
  maker: Address,
  cp: Address,
  amount: BigInt,
  price: BigInt,
  filled: BigInt,
  remaining: BigInt,
  ts: i64,
): void {
  handleOrderFilled(
    new SpotMarketEvents(SPOT).OrderFilled(ts, hash, maker, cp, amount, price, filled, remaining, BigInt.fromI32(1000), BigInt.zero()),
  );
}
function candle(n: i64): string {
  return SPOT.concatI32(<i32>n).toHexString();
}

describe("SpotMarket", () => {
  beforeEach(() => {
    clearStore();
  });

  test("fills, a match counted once, an OTC deal, TWAP and day/hour candles", () => {
    // taker fill of Carol's ask: 4 CH at 10
    fill(ASK, CAROL, BOB, wad(4), wad(10), wad(4), wad(6), T0 + 10);
    // a match of 2 CH: buy at 12, sell at 11 (two fills, one match)
    fill(BUY, ALICE, BOB, wad(2), wad(12), wad(2), BigInt.zero(), T0 + HOUR + 5);
    fill(SELL, BOB, ALICE, wad(2), wad(11), wad(2), wad(3), T0 + HOUR + 5);
    handleOrdersMatched(
      new SpotMarketEvents(SPOT).OrdersMatched(T0 + HOUR + 5, BUY, SELL, CAROL, wad(2), BigInt.fromI32(2000000), wad(23).div(BigInt.fromI32(2))),
    );
    handleTwapUpdated(
      new SpotMarketEvents(SPOT).TwapUpdated(T0 + HOUR + 5, wad(23).div(BigInt.fromI32(2)), wad(1000), BigInt.fromI64(T0 + HOUR + 5), BigInt.fromI32(1), BigInt.fromI32(2)),
    );
    handleDealSettled(
      new SpotMarketEvents(SPOT).DealSettled(T0 + DAY + 1, Bytes.fromHexString("0x" + "44".repeat(32)), CAROL, ALICE, wad(100), wad(9), BigInt.fromI64(900450000), BigInt.fromI64(899550000)),
    );
    handleCancelled(
      new SpotMarketEvents(SPOT).Cancelled(T0 + DAY + 2, ASK, CAROL, BigInt.fromI32(7), wad(4)),
    );
    const s = SPOT.toHexString();
    assert.fieldEquals("SpotMarketState", s, "volumeCh", wad(6).toString());
    assert.fieldEquals("SpotMarketState", s, "tradeCount", "2");
    assert.fieldEquals("SpotMarketState", s, "otcVolumeCh", wad(100).toString());
    assert.fieldEquals("SpotMarketState", s, "twapPriceWad", wad(23).div(BigInt.fromI32(2)).toString());
    assert.fieldEquals("SpotOrder", ASK.toHexString(), "remainingCh", wad(6).toString());
    assert.fieldEquals("SpotOrder", ASK.toHexString(), "cancelled", "true");
    const d0 = candle(T0 / DAY);
    assert.fieldEquals("SpotCandleDay", d0, "openPriceWad", wad(10).toString());
    assert.fieldEquals("SpotCandleDay", d0, "highPriceWad", wad(12).toString());
    assert.fieldEquals("SpotCandleDay", d0, "lowPriceWad", wad(10).toString());
    assert.fieldEquals("SpotCandleDay", d0, "closePriceWad", wad(11).toString());
    assert.fieldEquals("SpotCandleDay", d0, "volumeCh", wad(6).toString());
    assert.fieldEquals("SpotCandleDay", d0, "tradeCount", "2");
    const h1 = candle(T0 / HOUR + 1);
    assert.fieldEquals("SpotCandleHour", h1, "volumeCh", wad(2).toString());
    assert.fieldEquals("SpotCandleHour", h1, "tradeCount", "1");
    const d1 = candle(T0 / DAY + 1);
    assert.fieldEquals("SpotCandleDay", d1, "otcVolumeCh", wad(100).toString());
    assert.fieldEquals("SpotCandleDay", d1, "closePriceWad", wad(9).toString());
    assert.entityCount("SpotFill", 3);
    assert.entityCount("SpotMatch", 1);
  });

  test("seats and fees", () => {
    handleSeatStaked(
      new SpotMarketEvents(SPOT).SeatStaked(T0, ALICE, wad(1000), wad(1000), BigInt.fromI32(1000)),
    );
    handleSeatUnstakeRequested(
      new SpotMarketEvents(SPOT).SeatUnstakeRequested(T0 + 1, ALICE, wad(400), wad(600), wad(400), BigInt.fromI64(T0 + 1 + 7 * DAY), BigInt.fromI32(500)),
    );
    handleSeatWithdrawn(
      new SpotMarketEvents(SPOT).SeatWithdrawn(T0 + 8 * DAY, ALICE, wad(400)),
    );
    const a = ALICE.toHexString();
    assert.fieldEquals("SpotTrader", a, "seatStakedDps", wad(600).toString());
    assert.fieldEquals("SpotTrader", a, "seatPendingDps", "0");
    assert.fieldEquals("SpotTrader", a, "seatWithdrawnDps", wad(400).toString());
    assert.fieldEquals("SpotTrader", a, "discountBps", "500");
    handleFeesAccrued(
      new SpotMarketEvents(SPOT).FeesAccrued(T0, BigInt.fromI32(3000), BigInt.fromI32(3000)),
    );
    handleFeesDistributed(
      new SpotMarketEvents(SPOT).FeesDistributed(T0, BigInt.fromI32(600), BigInt.fromI32(2400)),
    );
    const s = SPOT.toHexString();
    assert.fieldEquals("SpotMarketState", s, "feesAccruedUsdc", "3000");
    assert.fieldEquals("SpotMarketState", s, "pendingFeesUsdc", "0");
    assert.fieldEquals("SpotMarketState", s, "feesToInsuranceUsdc", "600");
  });
});
