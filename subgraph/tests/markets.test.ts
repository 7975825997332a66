import { Address, BigInt, Bytes, ethereum } from "@graphprotocol/graph-ts";
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
  handlePerpLiquidated,
  handlePerpTraded,
  handleVaultCapitalMoved,
} from "../src/mappings/perpMarket";
import {
  CapitalAllocated,
  Deposit,
  Transfer,
  VaultStateUpdated,
  Withdraw,
} from "../generated/LiquidityVault/LiquidityVault";
import {
  handleCapitalAllocated,
  handleDeposit,
  handleTransfer,
  handleVaultStateUpdated,
  handleWithdraw,
} from "../src/mappings/liquidityVault";
import {
  DeliveryElected,
  DeliveryForfeited,
  DeliveryReceived,
  DeliverySettled,
  FuturesTraded,
  DeliveryEscrowChanged,
  PositionReduced,
  PositionSettled as FuturesPositionSettled,
  SeriesListed as FuturesSeriesListed,
  SettlementPriceFinalised,
  SettlementPriceProposed,
} from "../generated/FuturesMarket/FuturesMarket";
import {
  handleDeliveryElected,
  handleDeliveryForfeited,
  handleDeliveryReceived,
  handleDeliverySettled,
  handleFuturesTraded,
  handleDeliveryEscrowChanged,
  handlePositionReduced,
  handlePositionSettled as handleFuturesPositionSettled,
  handleSeriesListed as handleFuturesSeriesListed,
  handleSettlementPriceFinalised,
  handleSettlementPriceProposed,
} from "../src/mappings/futuresMarket";
import {
  FeesAccrued,
  FuturesExercised,
  MinNonceRaised,
  OfferFilled,
  OptionsWritten,
  PositionSettled as OptionsPositionSettled,
  SeriesListed as OptionsSeriesListed,
  SettlementPriceFixed,
  SettlementProgressed,
} from "../generated/OptionsMarket/OptionsMarket";
import {
  handleFeesAccrued,
  handleFuturesExercised,
  handleMinNonceRaised,
  handleOfferFilled,
  handleOptionsWritten,
  handlePositionSettled as handleOptionsPositionSettled,
  handleSeriesListed as handleOptionsSeriesListed,
  handleSettlementPriceFixed,
  handleSettlementProgressed,
} from "../src/mappings/optionsMarket";
import {
  addressParam,
  ALICE,
  BOB,
  boolParam,
  bytesParam,
  CAROL,
  DAY,
  HOUR,
  i32Param,
  mockEvent,
  T0,
  uintParam,
  wad,
  ZERO_ADDRESS,
} from "./helpers";

const PERP = Address.fromString("0x000000000000000000000000000000000000fe49");
const VAULT = Address.fromString("0x000000000000000000000000000000000000fa17");
const FUT = Address.fromString("0x000000000000000000000000000000000000f075");
const OPT = Address.fromString("0x0000000000000000000000000000000000000975");
const KEEPER = Address.fromString("0x000000000000000000000000000000000000cee9");

function intParam(name: string, v: BigInt): ethereum.EventParam {
  return new ethereum.EventParam(name, ethereum.Value.fromSignedBigInt(v));
}
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
    changetype<PerpTraded>(
      mockEvent(PERP, ts, [
        addressParam("account", account),
        intParam("sizeDeltaCh", delta),
        uintParam("fillPriceWad", fill),
        uintParam("indexPriceWad", wad(10)),
        intParam("sizeCh", size),
        intParam("openNotionalUsdc", notional),
        intParam("fundingUsdc", BigInt.zero()),
        uintParam("lpFeeUsdc", n(60000)),
        uintParam("insuranceFeeUsdc", n(30000)),
        uintParam("burnFeeUsdc", n(10000)),
        intParam("fundingIndexWad", wad(1)),
        intParam("fundingRateWad", rate),
        uintParam("longOiCh", longOi),
        uintParam("shortOiCh", shortOi),
      ]),
    ),
  );
}

describe("PerpMarket and LiquidityVault", () => {
  beforeEach(() => {
    clearStore();
  });

  test("trades, funding candles, a liquidation the vault takes over, vault capital", () => {
    // initialize() emits BurnSinkSet and starts the funding clock
    handleBurnSinkSet(changetype<BurnSinkSet>(mockEvent(PERP, T0, [addressParam("burnSink", CAROL)])));
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
      changetype<FundingPoked>(
        mockEvent(PERP, T0 + HOUR + 5, [
          addressParam("keeper", KEEPER),
          intParam("fundingIndexWad", wad(2)),
          intParam("fundingRateWad", wad(-2).div(n(100))),
          uintParam("indexPriceWad", wad(9)),
          uintParam("bountyUsdc", n(500000)),
        ]),
      ),
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
      changetype<PerpLiquidated>(
        mockEvent(PERP, T0 + 2 * HOUR, [
          addressParam("account", ALICE),
          intParam("sizeDeltaCh", wad(-6)),
          uintParam("priceWad", wad(9)),
          intParam("sizeCh", wad(4)),
          intParam("pendingFundingUsdc", n(70000)),
          intParam("fundingIndexWad", wad(2)),
          intParam("fundingRateWad", wad(-2).div(n(100))),
          uintParam("longOiCh", wad(4)),
          uintParam("shortOiCh", wad(4)),
        ]),
      ),
    );
    const pos = PERP.concat(ALICE).toHexString();
    assert.fieldEquals("PerpPosition", pos, "sizeCh", wad(4).toString());
    assert.fieldEquals("PerpPosition", pos, "openNotionalUsdc", "40200000");
    assert.fieldEquals("PerpPosition", pos, "pendingFundingUsdc", "70000");
    assert.fieldEquals("PerpMarket", m, "liquidationCount", "1");
    assert.fieldEquals("PerpMarket", m, "longOiCh", wad(4).toString());
    assert.entityCount("FundingUpdate", 4);
    handleVaultCapitalMoved(
      changetype<VaultCapitalMoved>(
        mockEvent(PERP, T0 + 3 * HOUR, [
          intParam("amountUsdc", usdc(1000)),
          intParam("poolUsdc", usdc(1050)),
          intParam("vaultEquityUsdc", usdc(1030)),
        ]),
      ),
    );
    assert.fieldEquals("PerpMarket", m, "poolUsdc", usdc(1050).toString());
    assert.fieldEquals("PerpMarket", m, "vaultNetFundedUsdc", usdc(1000).toString());
  });

  test("vault deposits, share transfers, withdrawals, allocation and share-price candles", () => {
    // Alice deposits 1000 USDC for 1000e12 shares (12 decimals), gives 250e12 to Bob, withdraws 100 USDC
    const shares = BigInt.fromI64(1000).times(BigInt.fromI32(10).pow(12));
    handleDeposit(
      changetype<Deposit>(
        mockEvent(VAULT, T0 + 1, [
          addressParam("sender", ALICE),
          addressParam("owner", ALICE),
          uintParam("assets", usdc(1000)),
          uintParam("shares", shares),
        ]),
      ),
    );
    handleTransfer(
      changetype<Transfer>(
        mockEvent(VAULT, T0 + 1, [
          addressParam("from", ZERO_ADDRESS),
          addressParam("to", ALICE),
          uintParam("value", shares),
        ]),
      ),
    );
    handleVaultStateUpdated(
      changetype<VaultStateUpdated>(
        mockEvent(VAULT, T0 + 1, [
          uintParam("totalAssetsUsdc", usdc(1000)),
          uintParam("totalShares", shares),
          uintParam("idleUsdc", usdc(1000)),
          uintParam("sharePriceWad", wad(1)),
        ]),
      ),
    );
    const quarter = shares.div(n(4));
    handleTransfer(
      changetype<Transfer>(
        mockEvent(VAULT, T0 + HOUR, [
          addressParam("from", ALICE),
          addressParam("to", BOB),
          uintParam("value", quarter),
        ]),
      ),
    );
    handleCapitalAllocated(
      changetype<CapitalAllocated>(
        mockEvent(VAULT, T0 + HOUR, [
          addressParam("market", PERP),
          uintParam("amountUsdc", usdc(600)),
          uintParam("idleUsdc", usdc(400)),
        ]),
      ),
    );
    // traders lose: the share price rises to 1.1 before Alice withdraws 110 USDC for 100e12 shares
    const hundred = BigInt.fromI64(100).times(BigInt.fromI32(10).pow(12));
    handleWithdraw(
      changetype<Withdraw>(
        mockEvent(VAULT, T0 + 2 * HOUR, [
          addressParam("sender", ALICE),
          addressParam("receiver", ALICE),
          addressParam("owner", ALICE),
          uintParam("assets", usdc(110)),
          uintParam("shares", hundred),
        ]),
      ),
    );
    handleTransfer(
      changetype<Transfer>(
        mockEvent(VAULT, T0 + 2 * HOUR, [
          addressParam("from", ALICE),
          addressParam("to", ZERO_ADDRESS),
          uintParam("value", hundred),
        ]),
      ),
    );
    handleVaultStateUpdated(
      changetype<VaultStateUpdated>(
        mockEvent(VAULT, T0 + 2 * HOUR, [
          uintParam("totalAssetsUsdc", usdc(990)),
          uintParam("totalShares", shares.minus(hundred)),
          uintParam("idleUsdc", usdc(290)),
          uintParam("sharePriceWad", wad(11).div(n(10))),
        ]),
      ),
    );
    const v = VAULT.toHexString();
    assert.fieldEquals("LiquidityVaultState", v, "totalAssetsUsdc", usdc(990).toString());
    assert.fieldEquals("LiquidityVaultState", v, "idleUsdc", usdc(290).toString());
    assert.fieldEquals("LiquidityVaultState", v, "allocatedUsdc", usdc(600).toString());
    assert.fieldEquals("LiquidityVaultState", v, "lpCount", "2");
    assert.fieldEquals(
      "VaultLP",
      VAULT.concat(ALICE).toHexString(),
      "shares",
      shares.minus(quarter).minus(hundred).toString(),
    );
    assert.fieldEquals("VaultLP", VAULT.concat(BOB).toHexString(), "shares", quarter.toString());
    assert.fieldEquals("VaultLP", VAULT.concat(ALICE).toHexString(), "withdrawnUsdc", usdc(110).toString());
    const d = bucket(VAULT, T0, DAY);
    assert.fieldEquals("VaultDayData", d, "sharePriceOpenWad", wad(1).toString());
    assert.fieldEquals("VaultDayData", d, "sharePriceHighWad", wad(11).div(n(10)).toString());
    assert.fieldEquals("VaultDayData", d, "sharePriceCloseWad", wad(11).div(n(10)).toString());
    assert.fieldEquals("VaultDayData", d, "depositedUsdc", usdc(1000).toString());
    assert.fieldEquals("VaultDayData", d, "withdrawnUsdc", usdc(110).toString());
    assert.fieldEquals(
      "VaultMarketAllocation",
      VAULT.concat(PERP).toHexString(),
      "allocatedUsdc",
      usdc(600).toString(),
    );
  });
});

function futTrade(account: Address, delta: BigInt, size: BigInt, longOi: BigInt, shortOi: BigInt, ts: i64): void {
  handleFuturesTraded(
    changetype<FuturesTraded>(
      mockEvent(FUT, ts, [
        uintParam("seriesId", n(1)),
        addressParam("account", account),
        intParam("sizeDeltaCh", delta),
        uintParam("priceWad", wad(11)),
        uintParam("indexPriceWad", wad(10)),
        uintParam("feeUsdc", n(110000)),
        intParam("sizeCh", size),
        uintParam("entryPriceWad", wad(11)),
        uintParam("longOiCh", longOi),
        uintParam("shortOiCh", shortOi),
      ]),
    ),
  );
}

describe("FuturesMarket", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a series from listing to delivery: trades, election, settlement price, a failed delivery, settlement", () => {
    handleFuturesSeriesListed(
      changetype<FuturesSeriesListed>(
        mockEvent(FUT, T0, [
          uintParam("seriesId", n(1)),
          uintParam("expiry", BigInt.fromI64(T0 + 7 * DAY)),
          uintParam("electionCutoff", BigInt.fromI64(T0 + 6 * DAY)),
          i32Param("tenor", 1),
          uintParam("oiCapCh", wad(1000)),
          addressParam("lister", CAROL),
          uintParam("liveSeries", n(1)),
        ]),
      ),
    );
    futTrade(ALICE, wad(10), wad(10), wad(10), BigInt.zero(), T0 + 10);
    futTrade(BOB, wad(-6), wad(-6), wad(10), wad(6), T0 + 20);
    const s = FUT.concatI32(1).toHexString();
    assert.fieldEquals("FuturesSeries", s, "tenor", "Weekly");
    assert.fieldEquals("FuturesSeries", s, "volumeUsdc", usdc(176).toString());
    assert.fieldEquals("FuturesMarketState", FUT.toHexString(), "longOiCh", wad(10).toString());
    assert.fieldEquals("FuturesMarketState", FUT.toHexString(), "shortOiCh", wad(6).toString());
    handleDeliveryElected(
      changetype<DeliveryElected>(
        mockEvent(FUT, T0 + DAY, [
          uintParam("seriesId", n(1)),
          addressParam("account", ALICE),
          uintParam("electedCh", wad(8)),
          uintParam("seriesElectedCh", wad(8)),
        ]),
      ),
    );
    handleSettlementPriceProposed(
      changetype<SettlementPriceProposed>(
        mockEvent(FUT, T0 + 7 * DAY, [
          uintParam("seriesId", n(1)),
          uintParam("priceWad", wad(12)),
          uintParam("finalAt", BigInt.fromI64(T0 + 8 * DAY)),
          uintParam("assignableShortCh", wad(6)),
          addressParam("keeper", KEEPER),
          uintParam("bountyUsdc", n(1000000)),
          uintParam("liveSeries", BigInt.zero()),
        ]),
      ),
    );
    assert.fieldEquals("FuturesSeries", s, "status", "Proposed");
    // deliverable = min(8 elected, 6 short) = 6; each short delivers all its size (fraction 1)
    handleSettlementPriceFinalised(
      changetype<SettlementPriceFinalised>(
        mockEvent(FUT, T0 + 8 * DAY, [
          uintParam("seriesId", n(1)),
          uintParam("priceWad", wad(12)),
          uintParam("electedCh", wad(8)),
          uintParam("assignableShortCh", wad(6)),
          uintParam("deliverableCh", wad(6)),
          uintParam("shortFractionWad", wad(1)),
          uintParam("deliveryDeadline", BigInt.fromI64(T0 + 9 * DAY)),
          addressParam("keeper", KEEPER),
          uintParam("bountyUsdc", n(1000000)),
        ]),
      ),
    );
    // Bob delivers 4 of 6: paid 4 × 12 = 48, charged the penalty 2 × 12 × 10 % = 2.4
    handleDeliverySettled(
      changetype<DeliverySettled>(
        mockEvent(FUT, T0 + 9 * DAY, [
          uintParam("seriesId", n(1)),
          addressParam("account", BOB),
          uintParam("assignedCh", wad(6)),
          uintParam("deliveredCh", wad(4)),
          uintParam("paidUsdc", usdc(48)),
          uintParam("slashedUsdc", n(2400000)),
          intParam("collateralUsdc", usdc(100)),
        ]),
      ),
    );
    handleDeliveryReceived(
      changetype<DeliveryReceived>(
        mockEvent(FUT, T0 + 9 * DAY, [
          uintParam("seriesId", n(1)),
          addressParam("account", ALICE),
          uintParam("electedCh", wad(8)),
          uintParam("receivedCh", wad(3)),
          uintParam("paidUsdc", usdc(36)),
          uintParam("compensationUsdc", n(2400000)),
          uintParam("cashSettledCh", wad(2)),
        ]),
      ),
    );
    // Alice could pay for 3 of the 4 CH delivered: the 4th went to the vault (MKT-08)
    handleDeliveryForfeited(
      changetype<DeliveryForfeited>(
        mockEvent(FUT, T0 + 9 * DAY, [
          uintParam("seriesId", n(1)),
          addressParam("account", ALICE),
          uintParam("forfeitedCh", wad(1)),
          uintParam("uncollectedUsdc", usdc(12)),
          addressParam("vault", CAROL),
        ]),
      ),
    );
    handleFuturesPositionSettled(
      changetype<FuturesPositionSettled>(
        mockEvent(FUT, T0 + 9 * DAY + 1, [
          uintParam("seriesId", n(1)),
          addressParam("account", ALICE),
          intParam("sizeCh", wad(10)),
          uintParam("priceWad", wad(12)),
          intParam("realisedPnlUsdc", usdc(10)),
          addressParam("keeper", KEEPER),
          uintParam("bountyUsdc", BigInt.zero()),
          uintParam("openPositions", n(1)),
        ]),
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
      changetype<FuturesSeriesListed>(
        mockEvent(FUT, T0, [
          uintParam("seriesId", n(1)),
          uintParam("expiry", BigInt.fromI64(T0 + 7 * DAY)),
          uintParam("electionCutoff", BigInt.fromI64(T0 + 6 * DAY)),
          i32Param("tenor", 4),
          uintParam("oiCapCh", wad(1000)),
          addressParam("lister", CAROL),
          uintParam("liveSeries", n(1)),
        ]),
      ),
    );
    const s = FUT.concatI32(1).toHexString();
    futTrade(ALICE, wad(10), wad(10), wad(10), BigInt.zero(), T0 + 10);
    futTrade(BOB, wad(-4), wad(-4), wad(10), wad(4), T0 + 20);
    // Bob escrows CH, closes his short (the escrow comes back first), and his record closes empty before expiry
    handleDeliveryEscrowChanged(
      changetype<DeliveryEscrowChanged>(
        mockEvent(FUT, T0 + 30, [
          uintParam("seriesId", n(1)),
          addressParam("account", BOB),
          intParam("deltaCh", wad(4)),
          uintParam("escrowCh", wad(4)),
        ]),
      ),
    );
    assert.fieldEquals("FuturesSeries", s, "openPositions", "2");
    handleDeliveryEscrowChanged(
      changetype<DeliveryEscrowChanged>(
        mockEvent(FUT, T0 + 40, [
          uintParam("seriesId", n(1)),
          addressParam("account", BOB),
          intParam("deltaCh", wad(-4)),
          uintParam("escrowCh", BigInt.zero()),
        ]),
      ),
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
      changetype<PositionReduced>(
        mockEvent(FUT, T0 + 9 * DAY, [
          uintParam("seriesId", n(1)),
          addressParam("account", ALICE),
          intParam("sizeDeltaCh", wad(-10)),
          uintParam("priceWad", wad(12)),
          intParam("sizeCh", BigInt.zero()),
          uintParam("electedCh", BigInt.zero()),
          uintParam("longOiCh", BigInt.zero()),
          uintParam("shortOiCh", BigInt.zero()),
          i32Param("reason", 2),
        ]),
      ),
    );
    assert.fieldEquals("FuturesSeries", s, "longOiCh", "0");
    assert.fieldEquals("FuturesSeries", s, "shortOiCh", wad(2).toString());
    handleFuturesPositionSettled(
      changetype<FuturesPositionSettled>(
        mockEvent(FUT, T0 + 9 * DAY, [
          uintParam("seriesId", n(1)),
          addressParam("account", ALICE),
          intParam("sizeCh", wad(10)),
          uintParam("priceWad", wad(12)),
          intParam("realisedPnlUsdc", usdc(10)),
          addressParam("keeper", ALICE),
          uintParam("bountyUsdc", BigInt.zero()),
          uintParam("openPositions", n(1)),
        ]),
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
});

describe("OptionsMarket", () => {
  beforeEach(() => {
    clearStore();
  });

  test("a call series: written, bought, price fixed, settled; a futures option exercised", () => {
    handleOptionsSeriesListed(
      changetype<OptionsSeriesListed>(
        mockEvent(OPT, T0, [
          uintParam("seriesId", n(1)),
          i32Param("kind", 0),
          boolParam("onFutures", false),
          uintParam("futuresSeriesId", BigInt.zero()),
          uintParam("expiry", BigInt.fromI64(T0 + 7 * DAY)),
          uintParam("strikeWad", wad(10)),
          uintParam("capWad", wad(5)),
          addressParam("listedBy", CAROL),
          uintParam("liveSeries", n(1)),
        ]),
      ),
    );
    // Carol writes 20 calls (collateral 20 × 5 = 100 USDC)
    handleOptionsWritten(
      changetype<OptionsWritten>(
        mockEvent(OPT, T0 + 10, [
          uintParam("seriesId", n(1)),
          addressParam("writer", CAROL),
          uintParam("sizeCh", wad(20)),
          uintParam("collateralUsdc", usdc(100)),
          uintParam("openInterestCh", wad(20)),
          uintParam("postedUsdc", usdc(100)),
        ]),
      ),
    );
    // Alice buys 12 from Carol's sell offer at 0.5 premium: 6 USDC premium
    handleOfferFilled(
      changetype<OfferFilled>(
        mockEvent(OPT, T0 + 20, [
          bytesParam("offerHash", Bytes.fromHexString("0x" + "0f".repeat(32))),
          addressParam("maker", CAROL),
          addressParam("taker", ALICE),
          uintParam("seriesId", n(1)),
          boolParam("isBuy", false),
          uintParam("sizeCh", wad(12)),
          uintParam("premiumWad", wad(1).div(n(2))),
          uintParam("buyerPaidUsdc", n(6030000)),
          uintParam("sellerReceivedUsdc", n(5970000)),
          uintParam("feesUsdc", n(60000)),
          uintParam("filledAfterCh", wad(12)),
        ]),
      ),
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
      changetype<SettlementPriceFixed>(
        mockEvent(OPT, T0 + 7 * DAY, [
          uintParam("seriesId", n(1)),
          uintParam("priceWad", wad(12)),
          uintParam("payoffPerChWad", wad(2)),
          addressParam("fixedBy", KEEPER),
          uintParam("disputeEndsAt", BigInt.fromI64(T0 + 8 * DAY)),
          uintParam("bountyUsdc", n(500000)),
          uintParam("liveSeries", BigInt.zero()),
        ]),
      ),
    );
    handleOptionsPositionSettled(
      changetype<OptionsPositionSettled>(
        mockEvent(OPT, T0 + 8 * DAY + 1, [
          uintParam("seriesId", n(1)),
          addressParam("account", ALICE),
          uintParam("longCh", wad(12)),
          uintParam("shortCh", BigInt.zero()),
          uintParam("payoutUsdc", usdc(24)),
          uintParam("releasedUsdc", BigInt.zero()),
          uintParam("bountyUsdc", BigInt.zero()),
          uintParam("seriesPaidUsdc", usdc(24)),
          uintParam("seriesReleasedUsdc", BigInt.zero()),
        ]),
      ),
    );
    handleSettlementProgressed(
      changetype<SettlementProgressed>(
        mockEvent(OPT, T0 + 8 * DAY + 2, [
          uintParam("seriesId", n(1)),
          uintParam("cursor", n(2)),
          uintParam("writerCursor", BigInt.zero()),
          uintParam("accountCount", n(2)),
          boolParam("settled", true),
        ]),
      ),
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
      changetype<FuturesExercised>(
        mockEvent(OPT, T0 + 8 * DAY + 3, [
          uintParam("seriesId", n(1)),
          addressParam("holder", BOB),
          addressParam("writer", CAROL),
          uintParam("sizeCh", wad(3)),
          boolParam("openedFutures", true),
          uintParam("payoutUsdc", BigInt.zero()),
          uintParam("releasedUsdc", usdc(15)),
          uintParam("seriesPaidUsdc", usdc(24)),
          uintParam("seriesReleasedUsdc", usdc(15)),
        ]),
      ),
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
      changetype<OptionsSeriesListed>(
        mockEvent(OPT, T0, [
          uintParam("seriesId", n(1)),
          i32Param("kind", 1),
          boolParam("onFutures", false),
          uintParam("futuresSeriesId", BigInt.zero()),
          uintParam("expiry", BigInt.fromI64(T0 + 7 * DAY)),
          uintParam("strikeWad", wad(12)),
          uintParam("capWad", wad(12)),
          addressParam("listedBy", CAROL),
          uintParam("liveSeries", n(1)),
        ]),
      ),
    );
    handleOptionsWritten(
      changetype<OptionsWritten>(
        mockEvent(OPT, T0 + 10, [
          uintParam("seriesId", n(1)),
          addressParam("writer", CAROL),
          uintParam("sizeCh", wad(10)),
          uintParam("collateralUsdc", usdc(120)),
          uintParam("openInterestCh", wad(10)),
          uintParam("postedUsdc", usdc(120)),
        ]),
      ),
    );
    handleOfferFilled(
      changetype<OfferFilled>(
        mockEvent(OPT, T0 + 20, [
          bytesParam("offerHash", Bytes.fromHexString("0x" + "0e".repeat(32))),
          addressParam("maker", CAROL),
          addressParam("taker", ALICE),
          uintParam("seriesId", n(1)),
          boolParam("isBuy", false),
          uintParam("sizeCh", wad(10)),
          uintParam("premiumWad", wad(1)),
          uintParam("buyerPaidUsdc", n(10030000)),
          uintParam("sellerReceivedUsdc", n(9990000)),
          uintParam("feesUsdc", n(40000)),
          uintParam("filledAfterCh", wad(10)),
        ]),
      ),
    );
    const m = OPT.toHexString();
    // fees accrue 0.04; the fixer takes 0.04 of them (bounty = min(0.5, fees))
    handleFeesAccrued(
      changetype<FeesAccrued>(
        mockEvent(OPT, T0 + 20, [uintParam("amountUsdc", n(40000)), uintParam("feesUsdc", n(40000))]),
      ),
    );
    handleSettlementPriceFixed(
      changetype<SettlementPriceFixed>(
        mockEvent(OPT, T0 + 7 * DAY, [
          uintParam("seriesId", n(1)),
          uintParam("priceWad", wad(10)),
          uintParam("payoffPerChWad", wad(2)),
          addressParam("fixedBy", KEEPER),
          uintParam("disputeEndsAt", BigInt.fromI64(T0 + 7 * DAY + HOUR)),
          uintParam("bountyUsdc", n(40000)),
          uintParam("liveSeries", BigInt.zero()),
        ]),
      ),
    );
    assert.fieldEquals("OptionsMarketState", m, "pendingFeesUsdc", "0");
    assert.fieldEquals("OptionsMarketState", m, "keeperPaidUsdc", "40000");
    // Alice (long only) settles first: no short, the open interest stays; then Carol's 10 shorts leave it
    handleOptionsPositionSettled(
      changetype<OptionsPositionSettled>(
        mockEvent(OPT, T0 + 8 * DAY, [
          uintParam("seriesId", n(1)),
          addressParam("account", ALICE),
          uintParam("longCh", wad(10)),
          uintParam("shortCh", BigInt.zero()),
          uintParam("payoutUsdc", usdc(20)),
          uintParam("releasedUsdc", BigInt.zero()),
          uintParam("bountyUsdc", BigInt.zero()),
          uintParam("seriesPaidUsdc", usdc(20)),
          uintParam("seriesReleasedUsdc", BigInt.zero()),
        ]),
      ),
    );
    const s = OPT.concatI32(1).toHexString();
    assert.fieldEquals("OptionSeries", s, "openInterestCh", wad(10).toString());
    handleOptionsPositionSettled(
      changetype<OptionsPositionSettled>(
        mockEvent(OPT, T0 + 8 * DAY + 1, [
          uintParam("seriesId", n(1)),
          addressParam("account", CAROL),
          uintParam("longCh", BigInt.zero()),
          uintParam("shortCh", wad(10)),
          uintParam("payoutUsdc", BigInt.zero()),
          uintParam("releasedUsdc", usdc(100)),
          uintParam("bountyUsdc", n(500000)),
          uintParam("seriesPaidUsdc", usdc(20)),
          uintParam("seriesReleasedUsdc", usdc(100)),
        ]),
      ),
    );
    assert.fieldEquals("OptionSeries", s, "openInterestCh", "0");
    assert.fieldEquals("OptionsMarketState", m, "openInterestCh", "0");
    assert.fieldEquals("OptionsMarketState", m, "payoutUsdc", usdc(20).toString());
    handleMinNonceRaised(
      changetype<MinNonceRaised>(
        mockEvent(OPT, T0 + 9 * DAY, [addressParam("maker", BOB), uintParam("minNonce", n(5))]),
      ),
    );
    assert.fieldEquals("OptionMaker", BOB.toHexString(), "minNonce", "5");
    assert.fieldEquals("OptionMaker", BOB.toHexString(), "minNonceRaises", "1");
  });
});
