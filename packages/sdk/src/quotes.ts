/**
 * What a trade will cost, computed the way the contracts round (payers round up, receivers round down, fees up),
 * for quoting before signing. Tests check the contracts against these worked numbers.
 */
import { OptionKind } from "./generated/enums.js";
import { BPS, SIZE_PRICE_TO_USDC, mulDivUp } from "./units.js";

const E30 = SIZE_PRICE_TO_USDC;

/** USDC for `sizeCh` at `priceWad`, rounded down (what a receiver gets). */
export const usdcDown = (sizeCh: bigint, priceWad: bigint): bigint => (sizeCh * priceWad) / E30;
/** USDC for `sizeCh` at `priceWad`, rounded up (what a payer pays). */
export const usdcUp = (sizeCh: bigint, priceWad: bigint): bigint => mulDivUp(sizeCh, priceWad, E30);

export interface SpotSettlement {
  buyerPaidUsdc: bigint;
  sellerReceivedUsdc: bigint;
  buyerFeeUsdc: bigint;
  sellerFeeUsdc: bigint;
  spreadUsdc: bigint;
  protocolUsdc: bigint;
}

/** A spot fill of `amountCh` between a buy at `buyPriceWad` and a sell at `sellPriceWad`, fees after discounts. */
export function spotSettlement(
  amountCh: bigint,
  buyPriceWad: bigint,
  sellPriceWad: bigint,
  buyerFeeBps: bigint,
  buyerDiscountBps: bigint,
  sellerFeeBps: bigint,
  sellerDiscountBps: bigint,
): SpotSettlement {
  const buyQuote = usdcUp(amountCh, buyPriceWad);
  const sellQuote = usdcDown(amountCh, sellPriceWad);
  const buyerFeeUsdc = mulDivUp(buyQuote * buyerFeeBps, BPS - buyerDiscountBps, BPS * BPS);
  const sellerFeeUsdc = mulDivUp(sellQuote * sellerFeeBps, BPS - sellerDiscountBps, BPS * BPS);
  const spreadUsdc = (amountCh * (buyPriceWad - sellPriceWad)) / E30;
  const buyerPaidUsdc = buyQuote + buyerFeeUsdc;
  const sellerReceivedUsdc = sellQuote - sellerFeeUsdc;
  return {
    buyerPaidUsdc,
    sellerReceivedUsdc,
    buyerFeeUsdc,
    sellerFeeUsdc,
    spreadUsdc,
    protocolUsdc: buyerPaidUsdc - sellerReceivedUsdc - spreadUsdc,
  };
}

/** Option payoff per CH (WAD): calls min(max(S − K, 0), cap), puts max(K − S, 0). */
export function optionPayoffWad(kind: number, strikeWad: bigint, capWad: bigint, priceWad: bigint): bigint {
  let x = kind === OptionKind.Call ? priceWad - strikeWad : strikeWad - priceWad;
  if (x < 0n) x = 0n;
  return x > capWad ? capWad : x;
}

/** An options fill's premium legs: the buyer pays ⌈premium⌉ + ⌈fee⌉, the seller gets ⌊premium⌋ − ⌈fee⌉. */
export function optionFillQuote(
  sizeCh: bigint,
  premiumWad: bigint,
  buyerFeeBps: bigint,
  sellerFeeBps: bigint,
): { paidUsdc: bigint; receivedUsdc: bigint; feesUsdc: bigint } {
  const up = usdcUp(sizeCh, premiumWad);
  const down = usdcDown(sizeCh, premiumWad);
  const paidUsdc = up + mulDivUp(up * buyerFeeBps, BPS, BPS * BPS);
  const receivedUsdc = down - mulDivUp(down * sellerFeeBps, BPS, BPS * BPS);
  return { paidUsdc, receivedUsdc, feesUsdc: paidUsdc - receivedUsdc };
}
