// Mapping tests of the PerpMarket data source (matchstick-as API; events from generated/factories/PerpMarket.ts).
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  BurnSinkSet,
  FundingPoked,
  PerpLiquidated,
  PerpTraded,
  VaultCapitalMoved,
} from "../generated/PerpMarket/PerpMarket";
import {
  handleBurnSinkSet,
  handleFundingPoked,
  handleOrderCancelled,
  handleOrderCommitted,
  handleOrderExecuted,
  handlePerpLiquidated,
  handlePerpTraded,
  handleVaultCapitalMoved,
} from "../src/mappings/perpMarket";
import { ALICE, BOB, CAROL, DAY, HOUR, T0, wad } from "./helpers";
import { PerpMarketEvents } from "../generated/factories/PerpMarket";

const PERP = Address.fromString("0x000000000000000000000000000000000000fe49");
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

function perpTrade(
  account: Address,
  delta: BigInt,
  fill: BigInt,
  size: BigInt,
  notional: BigInt,
  rate: BigInt,
  longOi: BigInt,
  shortOi: BigInt,
  ts: i64,
): void {
  handlePerpTraded(
    new PerpMarketEvents(PERP).PerpTraded(ts, account, delta, fill, wad(10), size, notional, BigInt.zero(), n(60000), n(30000), n(10000), wad(1), rate, longOi, shortOi),
  );
}

describe("PerpMarket", () => {
  beforeEach(() => {
    clearStore();
  });

  test("trades, funding candles, a liquidation the vault takes over, vault capital", () => {
    // initialize() emits BurnSinkSet and starts the funding clock
    handleBurnSinkSet(new PerpMarketEvents(PERP).BurnSinkSet(T0, CAROL));
    assert.fieldEquals("PerpMarket", PERP.toHexString(), "lastFundingTime", BigInt.fromI64(T0).toString());
    // Alice buys 10 CH at 10.05 (notional 100.5 USDC, fee 0.1 split 0.06/0.03/0.01), Bob sells 4 at 10
    perpTrade(
      ALICE,
      wad(10),
      wad(1005).div(n(100)),
      wad(10),
      usdc(100).plus(n(500000)),
      wad(1).div(n(100)),
      wad(10),
      BigInt.zero(),
      T0 + 10,
    );
    perpTrade(BOB, wad(-4), wad(10), wad(-4), usdc(-40), wad(3).div(n(100)), wad(10), wad(4), T0 + 20);
    const m = PERP.toHexString();
    assert.fieldEquals("PerpMarket", m, "volumeCh", wad(14).toString());
    assert.fieldEquals("PerpMarket", m, "volumeUsdc", usdc(140).plus(n(500000)).toString());
    assert.fieldEquals("PerpMarket", m, "feesLpUsdc", "120000");
    assert.fieldEquals("PerpMarket", m, "burnReserveUsdc", "20000");
    assert.fieldEquals("PerpMarket", m, "longOiCh", wad(10).toString());
    assert.fieldEquals("PerpMarket", m, "shortOiCh", wad(4).toString());
    // a keeper poke an hour later: rate −0.02 / day
    handleFundingPoked(
      new PerpMarketEvents(PERP).FundingPoked(T0 + HOUR + 5, KEEPER, wad(2), wad(-2).div(n(100)), wad(9), n(500000)),
    );
    const h0 = bucket(PERP, T0, HOUR);
    const h1 = bucket(PERP, T0 + HOUR, HOUR);
    const d0 = bucket(PERP, T0, DAY);
    assert.fieldEquals("PerpMarketHourData", h0, "fundingRateOpenWad", "0");
    assert.fieldEquals("PerpMarketHourData", h0, "fundingRateHighWad", wad(3).div(n(100)).toString());
    assert.fieldEquals("PerpMarketHourData", h0, "fundingRateCloseWad", wad(3).div(n(100)).toString());
    assert.fieldEquals("PerpMarketHourData", h1, "fundingRateOpenWad", wad(3).div(n(100)).toString());
    assert.fieldEquals("PerpMarketHourData", h1, "fundingRateLowWad", wad(-2).div(n(100)).toString());
    assert.fieldEquals("PerpMarketDayData", d0, "openInterestHighCh", wad(14).toString());
    assert.fieldEquals("PerpMarketDayData", d0, "tradeCount", "2");
    assert.fieldEquals("PerpMarketDayData", d0, "feesUsdc", "200000");
    assert.fieldEquals("PerpMarket", m, "keeperBountiesUsdc", "500000");
    // Alice liquidated by 6 CH at 9: 4 CH left, cost basis pro rata 100.5 × 4/10 = 40.2
    handlePerpLiquidated(
      new PerpMarketEvents(PERP).PerpLiquidated(T0 + 2 * HOUR, ALICE, wad(-6), wad(9), wad(4), n(70000), wad(2), wad(-2).div(n(100)), wad(4), wad(4)),
    );
    const pos = PERP.concat(ALICE).toHexString();
    assert.fieldEquals("PerpPosition", pos, "sizeCh", wad(4).toString());
    assert.fieldEquals("PerpPosition", pos, "openNotionalUsdc", "40200000");
    assert.fieldEquals("PerpPosition", pos, "pendingFundingUsdc", "70000");
    assert.fieldEquals("PerpMarket", m, "liquidationCount", "1");
    assert.fieldEquals("PerpMarket", m, "longOiCh", wad(4).toString());
    assert.entityCount("FundingUpdate", 4);
    handleVaultCapitalMoved(
      new PerpMarketEvents(PERP).VaultCapitalMoved(T0 + 3 * HOUR, usdc(1000), usdc(1050), usdc(1030)),
    );
    assert.fieldEquals("PerpMarket", m, "poolUsdc", usdc(1050).toString());
    assert.fieldEquals("PerpMarket", m, "vaultNetFundedUsdc", usdc(1000).toString());
  });

  test("delayed orders: committed, executed, cancelled; pending count, fees held and paid", () => {
    const ev = new PerpMarketEvents(PERP);
    for (let i = 0; i < 2; i++) {
      handleOrderCommitted(
        ev.OrderCommitted(T0 + i, i == 0 ? ALICE : BOB, i == 0 ? wad(10) : wad(-4), wad(11), false, BigInt.fromI64(T0 + i + 30), BigInt.fromI64(T0 + i + 300), n(500000), usdc(10), n(i + 1)),
      );
    }
    const m = PERP.toHexString();
    assert.fieldEquals("PerpMarket", m, "pendingOrders", "2");
    assert.fieldEquals("PerpMarket", m, "orderFeesHeldUsdc", "1000000");
    handleOrderExecuted(ev.OrderExecuted(T0 + 31, ALICE, KEEPER, n(7), wad(10), n(500000), n(1)));
    handleOrderCancelled(ev.OrderCancelled(T0 + 302, BOB, KEEPER, n(500000), Bytes.fromHexString("0x12345678"), BigInt.zero()));
    assert.fieldEquals("PerpMarket", m, "pendingOrders", "0");
    assert.fieldEquals("PerpMarket", m, "orderFeesHeldUsdc", "0");
    assert.fieldEquals("PerpMarket", m, "ordersCommitted", "2");
    assert.fieldEquals("PerpMarket", m, "ordersExecuted", "1");
    assert.fieldEquals("PerpMarket", m, "ordersCancelled", "1");
    assert.fieldEquals("PerpMarket", m, "executionFeesPaidUsdc", "1000000");
    assert.entityCount("PerpOrderEvent", 4);
  });
});
