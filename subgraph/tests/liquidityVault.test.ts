// Mapping tests of the LiquidityVault data source (matchstick-as API; events from generated/factories/LiquidityVault.ts).
import { Address, BigInt } from "@graphprotocol/graph-ts";
import { assert, beforeEach, clearStore, describe, test } from "matchstick-as/assembly/index";
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
import { ALICE, BOB, DAY, HOUR, T0, wad, ZERO_ADDRESS } from "./helpers";
import { LiquidityVaultEvents } from "../generated/factories/LiquidityVault";

const PERP = Address.fromString("0x000000000000000000000000000000000000fe49");
const VAULT = Address.fromString("0x000000000000000000000000000000000000fa17");

function usdc(n: i64): BigInt {
  return BigInt.fromI64(n * 1000000);
}
function n(x: i32): BigInt {
  return BigInt.fromI32(x);
}
function bucket(market: Address, ts: i64, size: i64): string {
  return market.concatI32(<i32>(ts / size)).toHexString();
}

describe("LiquidityVault", () => {
  beforeEach(() => {
    clearStore();
  });

  test("vault deposits, share transfers, withdrawals, allocation and share-price candles", () => {
    // Alice deposits 1000 USDC for 1000e12 shares (12 decimals), gives 250e12 to Bob, withdraws 100 USDC
    const shares = BigInt.fromI64(1000).times(BigInt.fromI32(10).pow(12));
    handleDeposit(
      new LiquidityVaultEvents(VAULT).Deposit(T0 + 1, ALICE, ALICE, usdc(1000), shares),
    );
    handleTransfer(
      new LiquidityVaultEvents(VAULT).Transfer(T0 + 1, ZERO_ADDRESS, ALICE, shares),
    );
    handleVaultStateUpdated(
      new LiquidityVaultEvents(VAULT).VaultStateUpdated(T0 + 1, usdc(1000), shares, usdc(1000), wad(1)),
    );
    const quarter = shares.div(n(4));
    handleTransfer(
      new LiquidityVaultEvents(VAULT).Transfer(T0 + HOUR, ALICE, BOB, quarter),
    );
    handleCapitalAllocated(
      new LiquidityVaultEvents(VAULT).CapitalAllocated(T0 + HOUR, PERP, usdc(600), usdc(400)),
    );
    // traders lose: the share price rises to 1.1 before Alice withdraws 110 USDC for 100e12 shares
    const hundred = BigInt.fromI64(100).times(BigInt.fromI32(10).pow(12));
    handleWithdraw(
      new LiquidityVaultEvents(VAULT).Withdraw(T0 + 2 * HOUR, ALICE, ALICE, ALICE, usdc(110), hundred),
    );
    handleTransfer(
      new LiquidityVaultEvents(VAULT).Transfer(T0 + 2 * HOUR, ALICE, ZERO_ADDRESS, hundred),
    );
    handleVaultStateUpdated(
      new LiquidityVaultEvents(VAULT).VaultStateUpdated(T0 + 2 * HOUR, usdc(990), shares.minus(hundred), usdc(290), wad(11).div(n(10))),
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
