/**
 * Spot order helpers shared by tasks, tests and the bench: EIP-712 types (identical to SpotMarket's type
 * strings), signing, and a JSON form of a signed order. Also an independent TypeScript reference of the
 * settlement arithmetic (used by tests to check worked numbers).
 */
import type { Signer, TypedDataDomain } from "ethers";

export interface SpotOrder {
  maker: string;
  isBuy: boolean;
  amountCh: bigint;
  priceWad: bigint;
  nonce: bigint;
  expiry: bigint;
  taker: string;
}

export interface SpotDeal {
  seller: string;
  buyer: string;
  amountCh: bigint;
  priceWad: bigint;
  nonce: bigint;
  expiry: bigint;
}

export const ORDER_TYPES = {
  Order: [
    { name: "maker", type: "address" },
    { name: "isBuy", type: "bool" },
    { name: "amountCh", type: "uint256" },
    { name: "priceWad", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "expiry", type: "uint64" },
    { name: "taker", type: "address" },
  ],
};

export const DEAL_TYPES = {
  Deal: [
    { name: "seller", type: "address" },
    { name: "buyer", type: "address" },
    { name: "amountCh", type: "uint256" },
    { name: "priceWad", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "expiry", type: "uint64" },
  ],
};

export function spotDomain(chainId: bigint, market: string): TypedDataDomain {
  return { name: "CHX Spot", version: "1", chainId, verifyingContract: market };
}

export async function signOrder(signer: Signer, domain: TypedDataDomain, order: SpotOrder): Promise<string> {
  return signer.signTypedData(domain, ORDER_TYPES, order);
}

export async function signDeal(signer: Signer, domain: TypedDataDomain, deal: SpotDeal): Promise<string> {
  return signer.signTypedData(domain, DEAL_TYPES, deal);
}

/** A signed order as saved to / read from JSON (bigints as decimal strings). */
export interface SignedOrderJson {
  market: string;
  chainId: string;
  order: { [K in keyof SpotOrder]: string | boolean };
  signature: string;
}

export function orderToJson(market: string, chainId: bigint, order: SpotOrder, signature: string): SignedOrderJson {
  return {
    market,
    chainId: chainId.toString(),
    order: {
      maker: order.maker,
      isBuy: order.isBuy,
      amountCh: order.amountCh.toString(),
      priceWad: order.priceWad.toString(),
      nonce: order.nonce.toString(),
      expiry: order.expiry.toString(),
      taker: order.taker,
    },
    signature,
  };
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

// ------------------------------------------------------------------ independent reference arithmetic

const E30 = 10n ** 30n;
const BPS = 10_000n;

const ceilDiv = (a: bigint, b: bigint): bigint => (a === 0n ? 0n : (a - 1n) / b + 1n);

export interface SettlementRef {
  buyerPaidUsdc: bigint;
  sellerReceivedUsdc: bigint;
  buyerFeeUsdc: bigint;
  sellerFeeUsdc: bigint;
  spreadUsdc: bigint;
  protocolUsdc: bigint;
}

/** The settlement SpotMarket must produce (payers round up, receivers round down, fees round up). */
export function settlementRef(
  amountCh: bigint,
  buyPriceWad: bigint,
  sellPriceWad: bigint,
  buyerFeeBps: bigint,
  buyerDiscountBps: bigint,
  sellerFeeBps: bigint,
  sellerDiscountBps: bigint,
): SettlementRef {
  const buyQuote = ceilDiv(amountCh * buyPriceWad, E30);
  const sellQuote = (amountCh * sellPriceWad) / E30;
  const buyerFeeUsdc = ceilDiv(buyQuote * buyerFeeBps * (BPS - buyerDiscountBps), BPS * BPS);
  const sellerFeeUsdc = ceilDiv(sellQuote * sellerFeeBps * (BPS - sellerDiscountBps), BPS * BPS);
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
