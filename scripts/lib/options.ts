/**
 * Options helpers shared by tasks, tests and the bench: the EIP-712 `Offer` type (identical to OptionsMarket's type
 * string), signing, a JSON form of a signed offer, and an independent TypeScript reference of the option arithmetic
 * (payoffs, collateral, premiums, fees) that tests check worked numbers against.
 */
import type { Signer, TypedDataDomain } from "ethers";

export const OptionKind = { Call: 0, Put: 1 } as const;
export const SeriesStatus = ["None", "Trading", "Expired", "Disputable", "Final", "Settled"] as const;

export interface OptionsOffer {
  maker: string;
  seriesId: bigint;
  isBuy: boolean;
  sizeCh: bigint;
  premiumWad: bigint;
  nonce: bigint;
  expiry: bigint;
  taker: string;
}

export const OFFER_TYPES = {
  Offer: [
    { name: "maker", type: "address" },
    { name: "seriesId", type: "uint256" },
    { name: "isBuy", type: "bool" },
    { name: "sizeCh", type: "uint256" },
    { name: "premiumWad", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "expiry", type: "uint64" },
    { name: "taker", type: "address" },
  ],
};

export function optionsDomain(chainId: bigint, market: string): TypedDataDomain {
  return { name: "CHX Options", version: "1", chainId, verifyingContract: market };
}

export async function signOffer(signer: Signer, domain: TypedDataDomain, offer: OptionsOffer): Promise<string> {
  return signer.signTypedData(domain, OFFER_TYPES, offer);
}

/** A signed offer as saved to / read from JSON (bigints as decimal strings). */
export interface SignedOfferJson {
  market: string;
  chainId: string;
  offer: { [K in keyof OptionsOffer]: string | boolean };
  signature: string;
}

export function offerToJson(market: string, chainId: bigint, offer: OptionsOffer, signature: string): SignedOfferJson {
  return {
    market,
    chainId: chainId.toString(),
    offer: {
      maker: offer.maker,
      seriesId: offer.seriesId.toString(),
      isBuy: offer.isBuy,
      sizeCh: offer.sizeCh.toString(),
      premiumWad: offer.premiumWad.toString(),
      nonce: offer.nonce.toString(),
      expiry: offer.expiry.toString(),
      taker: offer.taker,
    },
    signature,
  };
}

export function offerFromJson(j: SignedOfferJson): { offer: OptionsOffer; signature: string } {
  const o = j.offer;
  return {
    offer: {
      maker: String(o.maker),
      seriesId: BigInt(String(o.seriesId)),
      isBuy: o.isBuy === true || o.isBuy === "true",
      sizeCh: BigInt(String(o.sizeCh)),
      premiumWad: BigInt(String(o.premiumWad)),
      nonce: BigInt(String(o.nonce)),
      expiry: BigInt(String(o.expiry)),
      taker: String(o.taker),
    },
    signature: j.signature,
  };
}

// ---------------------------------------------------------------- reference arithmetic

const E30 = 10n ** 30n;
const BPS = 10_000n;

const divUp = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** USDC for `sizeCh` at `priceWad`, rounded down (what a receiver gets). */
export const usdcDown = (sizeCh: bigint, priceWad: bigint): bigint => (sizeCh * priceWad) / E30;
/** USDC for `sizeCh` at `priceWad`, rounded up (what a payer pays). */
export const usdcUp = (sizeCh: bigint, priceWad: bigint): bigint => divUp(sizeCh * priceWad, E30);

/** Payoff per CH (WAD): calls min(max(S − K, 0), cap), puts max(K − S, 0). */
export function payoffWad(kind: number, strikeWad: bigint, capWad: bigint, priceWad: bigint): bigint {
  let x = kind === OptionKind.Call ? priceWad - strikeWad : strikeWad - priceWad;
  if (x < 0n) x = 0n;
  return x > capWad ? capWad : x;
}

/** A fill's premium legs: the buyer pays ceil(premium) + ceil fee, the seller gets floor(premium) − ceil fee. */
export function fillQuote(
  sizeCh: bigint,
  premiumWad: bigint,
  buyerFeeBps: bigint,
  sellerFeeBps: bigint,
): { paidUsdc: bigint; receivedUsdc: bigint; feesUsdc: bigint } {
  const up = usdcUp(sizeCh, premiumWad);
  const down = usdcDown(sizeCh, premiumWad);
  const paidUsdc = up + divUp(up * buyerFeeBps * BPS, BPS * BPS);
  const receivedUsdc = down - divUp(down * sellerFeeBps * BPS, BPS * BPS);
  return { paidUsdc, receivedUsdc, feesUsdc: paidUsdc - receivedUsdc };
}
