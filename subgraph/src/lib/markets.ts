// Shared by the market mappings (perps, vault, futures, options): notional and unit helpers.
import { Address, BigInt, Bytes, Entity, ethereum, store } from "@graphprotocol/graph-ts";
import { initEntity } from "../../generated/defaults";
import { getOrCreateAccount } from "./common";

/** 10^30: CH WAD × price WAD → USDC (6 decimals). */
export const WAD_WAD_TO_USDC = BigInt.fromI32(10).pow(30);

/** USDC notional of |sizeCh| at priceWad, rounded down. */
export function notionalUsdc(absSizeCh: BigInt, priceWad: BigInt): BigInt {
  return absSizeCh.times(priceWad).div(WAD_WAD_TO_USDC);
}

/** Id of a market's series: market ++ series id (4 bytes LE). */
export function seriesKey(market: Address, seriesId: BigInt): Bytes {
  return market.concatI32(seriesId.toI32());
}

/** An account's position row in a series (`type`, id = series ++ account), created zeroed with its references. */
export function seriesPosition(type: string, series: Bytes, account: Address, event: ethereum.Event): Entity {
  const id = series.concat(account);
  let e = store.get(type, id.toHexString());
  if (e == null) {
    e = initEntity(type, id);
    e.setBytes("series", series);
    e.setBytes("account", getOrCreateAccount(account, event.block).id);
  }
  e.setBigInt("updatedAt", event.block.timestamp);
  return e;
}
