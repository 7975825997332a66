// Shared by the market mappings (perps, vault, futures, options): notional and unit helpers.
import { BigInt } from "@graphprotocol/graph-ts";

/** 10^30: CH WAD × price WAD → USDC (6 decimals). */
export const WAD_WAD_TO_USDC = BigInt.fromI32(10).pow(30);

/** USDC notional of |sizeCh| at priceWad, rounded down. */
export function notionalUsdc(absSizeCh: BigInt, priceWad: BigInt): BigInt {
  return absSizeCh.times(priceWad).div(WAD_WAD_TO_USDC);
}
