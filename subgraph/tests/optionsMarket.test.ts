// Mapping tests of the OptionsMarket data source (matchstick-as API; events from generated/factories/OptionsMarket.ts).
import { Address, BigInt, Bytes } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
import {
  FeesAccrued,
  FuturesExercised,
  MinNonceRaised,
  OfferFilled,
  OptionsWritten,
  SettlementPriceFixed,
  SettlementProgressed,
} from "../generated/OptionsMarket/OptionsMarket";
import {
  handleFeesAccrued,
  handleFuturesExercised,
  handleMarginedBooked,
  handleMarginedClosed,
  handleMarginedLiquidated,
  handleMarginedSettled,
  handleMarginedWritten,
  handleMinNonceRaised,
  handleOfferFilled,
  handleOptionsWritten,
  handlePositionSettled as handleOptionsPositionSettled,
  handleSeriesDelisted,
  handleSeriesListed as handleOptionsSeriesListed,
  handleSettlementPriceFixed,
  handleSettlementProgressed,
} from "../src/mappings/optionsMarket";
import { ALICE, BOB, CAROL, DAY, HOUR, T0, wad } from "./helpers";
import { OptionsMarketEvents } from "../generated/factories/OptionsMarket";

const OPT = Address.fromString("0x0000000000000000000000000000000000000975");
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

describe("OptionsMarket", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a call series: written, bought, price fixed, settled; a futures option exercised", () => {
    handleOptionsSeriesListed(
      new OptionsMarketEvents(OPT).SeriesListed(T0, n(1), 0, false, BigInt.zero(), BigInt.fromI64(T0 + 7 * DAY), wad(10), wad(5), CAROL, n(1)),
    );
    // Carol writes 20 calls (collateral 20 × 5 = 100 USDC)
    handleOptionsWritten(
      new OptionsMarketEvents(OPT).OptionsWritten(T0 + 10, n(1), CAROL, wad(20), usdc(100), wad(20), usdc(100)),
    );
    // Alice buys 12 from Carol's sell offer at 0.5 premium: 6 USDC premium
    handleOfferFilled(
      new OptionsMarketEvents(OPT).OfferFilled(T0 + 20, Bytes.fromHexString("0x" + "0f".repeat(32)), CAROL, ALICE, n(1), false, wad(12), wad(1).div(n(2)), n(6030000), n(5970000), n(60000), wad(12)),
    );
    const s = OPT.concatI32(1).toHexString();
    assert.fieldEquals("OptionSeries", s, "kind", "Call");
    assert.fieldEquals("OptionSeries", s, "openInterestCh", wad(20).toString());
    assert.fieldEquals("OptionSeries", s, "premiumUsdc", usdc(6).toString());
    assert.fieldEquals("OptionPosition", OPT.concatI32(1).concat(ALICE).toHexString(), "boughtCh", wad(12).toString());
    assert.fieldEquals(
      "OptionPosition",
      OPT.concatI32(1).concat(CAROL).toHexString(),
      "premiumReceivedUsdc",
      "5970000",
    );
    assert.fieldEquals("OptionOffer", "0x" + "0f".repeat(32), "filledCh", wad(12).toString());
    // index 12 at expiry: payoff min(12 − 10, 5) = 2 per CH; Alice is paid 24
    handleSettlementPriceFixed(
      new OptionsMarketEvents(OPT).SettlementPriceFixed(T0 + 7 * DAY, n(1), wad(12), wad(2), KEEPER, BigInt.fromI64(T0 + 8 * DAY), n(500000), BigInt.zero()),
    );
    handleOptionsPositionSettled(
      new OptionsMarketEvents(OPT).PositionSettled(T0 + 8 * DAY + 1, n(1), ALICE, wad(12), BigInt.zero(), usdc(24), BigInt.zero(), BigInt.zero(), usdc(24), BigInt.zero()),
    );
    handleSettlementProgressed(
      new OptionsMarketEvents(OPT).SettlementProgressed(T0 + 8 * DAY + 2, n(1), n(2), BigInt.zero(), n(2), true),
    );
    assert.fieldEquals("OptionSeries", s, "status", "Settled");
    assert.fieldEquals("OptionSeries", s, "paidUsdc", usdc(24).toString());
    assert.fieldEquals("OptionSeries", s, "openInterestCh", "0");
    assert.fieldEquals("OptionsMarketState", OPT.toHexString(), "openInterestCh", "0");
    assert.fieldEquals("OptionsMarketState", OPT.toHexString(), "payoutUsdc", usdc(24).toString());
    assert.fieldEquals("OptionsDayData", bucket(OPT, T0, DAY), "premiumUsdc", usdc(6).toString());
    assert.fieldEquals("OptionsDayData", bucket(OPT, T0, DAY), "writtenCh", wad(20).toString());
    assert.fieldEquals("OptionsDayData", bucket(OPT, T0 + 8 * DAY, DAY), "payoutUsdc", usdc(24).toString());

    // a futures call exercised into a futures position (no cash payout)
    handleFuturesExercised(
      new OptionsMarketEvents(OPT).FuturesExercised(T0 + 8 * DAY + 3, n(1), BOB, CAROL, wad(3), true, BigInt.zero(), usdc(15), usdc(24), usdc(15)),
    );
    assert.fieldEquals("OptionSeries", s, "exercisedCh", wad(3).toString());
    assert.fieldEquals(
      "OptionPosition",
      OPT.concatI32(1).concat(CAROL).toHexString(),
      "releasedUsdc",
      usdc(15).toString(),
    );
    assert.entityCount("OptionEvent", 4);
  });
  test("settlements take the shorts out of the open interest; the fixer's bounty leaves the pending fees; nonce floors", () => {
    handleOptionsSeriesListed(
      new OptionsMarketEvents(OPT).SeriesListed(T0, n(1), 1, false, BigInt.zero(), BigInt.fromI64(T0 + 7 * DAY), wad(12), wad(12), CAROL, n(1)),
    );
    handleOptionsWritten(
      new OptionsMarketEvents(OPT).OptionsWritten(T0 + 10, n(1), CAROL, wad(10), usdc(120), wad(10), usdc(120)),
    );
    handleOfferFilled(
      new OptionsMarketEvents(OPT).OfferFilled(T0 + 20, Bytes.fromHexString("0x" + "0e".repeat(32)), CAROL, ALICE, n(1), false, wad(10), wad(1), n(10030000), n(9990000), n(40000), wad(10)),
    );
    const m = OPT.toHexString();
    // fees accrue 0.04; the fixer takes 0.04 of them (bounty = min(0.5, fees))
    handleFeesAccrued(
      new OptionsMarketEvents(OPT).FeesAccrued(T0 + 20, n(40000), n(40000)),
    );
    handleSettlementPriceFixed(
      new OptionsMarketEvents(OPT).SettlementPriceFixed(T0 + 7 * DAY, n(1), wad(10), wad(2), KEEPER, BigInt.fromI64(T0 + 7 * DAY + HOUR), n(40000), BigInt.zero()),
    );
    assert.fieldEquals("OptionsMarketState", m, "pendingFeesUsdc", "0");
    assert.fieldEquals("OptionsMarketState", m, "keeperPaidUsdc", "40000");
    // Alice (long only) settles first: no short, the open interest stays; then Carol's 10 shorts leave it
    handleOptionsPositionSettled(
      new OptionsMarketEvents(OPT).PositionSettled(T0 + 8 * DAY, n(1), ALICE, wad(10), BigInt.zero(), usdc(20), BigInt.zero(), BigInt.zero(), usdc(20), BigInt.zero()),
    );
    const s = OPT.concatI32(1).toHexString();
    assert.fieldEquals("OptionSeries", s, "openInterestCh", wad(10).toString());
    handleOptionsPositionSettled(
      new OptionsMarketEvents(OPT).PositionSettled(T0 + 8 * DAY + 1, n(1), CAROL, BigInt.zero(), wad(10), BigInt.zero(), usdc(100), n(500000), usdc(20), usdc(100)),
    );
    assert.fieldEquals("OptionSeries", s, "openInterestCh", "0");
    assert.fieldEquals("OptionsMarketState", m, "openInterestCh", "0");
    assert.fieldEquals("OptionsMarketState", m, "payoutUsdc", usdc(20).toString());
    handleMinNonceRaised(
      new OptionsMarketEvents(OPT).MinNonceRaised(T0 + 9 * DAY, BOB, n(5)),
    );
    assert.fieldEquals("OptionMaker", BOB.toHexString(), "minNonce", "5");
    assert.fieldEquals("OptionMaker", BOB.toHexString(), "minNonceRaises", "1");
  });

  test("an unused permissionless listing is delisted: live count, keeper bounty, status", () => {
    const ev = new OptionsMarketEvents(OPT);
    handleOptionsSeriesListed(ev.SeriesListed(T0, n(3), 1, false, BigInt.zero(), BigInt.fromI64(T0 + 89 * DAY), wad(6), wad(6), BOB, n(5)));
    handleSeriesDelisted(ev.SeriesDelisted(T0 + DAY + 1, n(3), KEEPER, usdc(45), n(500000), n(4)));
    const s = OPT.concatI32(3).toHexString();
    assert.fieldEquals("OptionSeries", s, "status", "Delisted");
    assert.fieldEquals("OptionsMarketState", OPT.toHexString(), "liveSeries", "4");
    assert.fieldEquals("OptionsMarketState", OPT.toHexString(), "keeperPaidUsdc", "500000");
    assert.entityCount("OptionEvent", 1);
  });

  test("margined writing: an uncapped call written margined, closed in part, the writer liquidated, booked, settled", () => {
    const ev = new OptionsMarketEvents(OPT);
    const uncapped = BigInt.fromString("340282366920938463463374607431768211455");
    handleOptionsSeriesListed(
      ev.SeriesListed(T0, n(4), 0, false, BigInt.zero(), BigInt.fromI64(T0 + 7 * DAY), wad(10), uncapped, CAROL, n(1)),
    );
    // Carol writes 100 margined calls (no collateral), closes 20 against her longs
    handleMarginedWritten(ev.MarginedWritten(T0 + 10, n(4), CAROL, wad(100), wad(100), wad(100), wad(100)));
    const s = OPT.concatI32(4).toHexString();
    const pos = OPT.concatI32(4).concat(CAROL).toHexString();
    assert.fieldEquals("OptionSeries", s, "openInterestCh", wad(100).toString());
    assert.fieldEquals("OptionSeries", s, "marginedOpenCh", wad(100).toString());
    assert.fieldEquals("OptionsMarketState", OPT.toHexString(), "marginedWrittenCh", wad(100).toString());
    assert.fieldEquals("OptionPosition", pos, "marginedShortCh", wad(100).toString());
    assert.fieldEquals("OptionPosition", pos, "collateralUsdc", "0");
    handleMarginedClosed(ev.MarginedClosed(T0 + 20, n(4), CAROL, wad(20), wad(80), wad(80)));
    assert.fieldEquals("OptionPosition", pos, "marginedShortCh", wad(80).toString());
    assert.fieldEquals("OptionSeries", s, "marginedOpenCh", wad(80).toString());
    // the index triples: the liquidation prepays the 80 shorts at 20 per CH
    handleMarginedLiquidated(ev.MarginedLiquidated(T0 + 30, n(4), CAROL, wad(80), usdc(1600), wad(80), usdc(1600)));
    assert.fieldEquals("OptionPosition", pos, "marginedShortCh", "0");
    assert.fieldEquals("OptionPosition", pos, "prepaidCh", wad(80).toString());
    assert.fieldEquals("OptionPosition", pos, "prepaidUsdc", usdc(1600).toString());
    // final at 30: the holders' claim 1,600 is booked; Carol's prepaid covers it exactly
    handleMarginedBooked(ev.MarginedBooked(T0 + 8 * DAY, n(4), wad(80), usdc(1600)));
    assert.fieldEquals("OptionSeries", s, "marginedDueUsdc", usdc(1600).toString());
    handleMarginedSettled(
      ev.MarginedSettled(T0 + 8 * DAY + 1, n(4), CAROL, wad(80), usdc(1600), usdc(1600), BigInt.zero(), BigInt.zero()),
    );
    assert.fieldEquals("OptionPosition", pos, "prepaidCh", "0");
    assert.fieldEquals("OptionPosition", pos, "settled", "true");
    assert.fieldEquals("OptionSeries", s, "marginedOpenCh", "0");
    assert.fieldEquals("OptionSeries", s, "openInterestCh", wad(20).toString());
    assert.entityCount("OptionEvent", 4);
  });
});
