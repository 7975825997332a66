/** Signed orders and offers as JSON files (bigints as decimal strings), to hand to a filler. */
import type { OptionsOffer, SpotOrder } from "./eip712.js";

export interface SignedOrderJson {
  market: string;
  chainId: string;
  order: { [K in keyof SpotOrder]: string | boolean };
  signature: string;
}

export interface SignedOfferJson {
  market: string;
  chainId: string;
  offer: { [K in keyof OptionsOffer]: string | boolean };
  signature: string;
}

const str = (o: Record<string, unknown>): Record<string, string | boolean> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "boolean" ? v : String(v)]));

export function orderToJson(market: string, chainId: bigint, order: SpotOrder, signature: string): SignedOrderJson {
  return { market, chainId: chainId.toString(), order: str({ ...order }) as SignedOrderJson["order"], signature };
}

export function orderFromJson(json: SignedOrderJson): { order: SpotOrder; signature: string } {
  const o = json.order;
  return {
    order: {
      maker: String(o.maker),
      isBuy: o.isBuy === true || o.isBuy === "true",
      amountCh: BigInt(String(o.amountCh)),
      priceWad: BigInt(String(o.priceWad)),
      nonce: BigInt(String(o.nonce)),
      expiry: BigInt(String(o.expiry)),
      taker: String(o.taker),
    },
    signature: json.signature,
  };
}

export function offerToJson(market: string, chainId: bigint, offer: OptionsOffer, signature: string): SignedOfferJson {
  return { market, chainId: chainId.toString(), offer: str({ ...offer }) as SignedOfferJson["offer"], signature };
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
