/**
 * The relay's order model: one shape for every kind (spot order, option offer, later futures order), fixed-width
 * decimal text for uint256 columns (so SQL orders them the same way in SQLite and PostgreSQL), and a fast EIP-712
 * struct hasher built from the SDK's generated types (checked against ethers' TypedDataEncoder in the tests).
 */
import { getAddress, keccak256, TypedDataEncoder, type TypedDataDomain, type TypedDataField } from "ethers";
import {
  OfferTypes,
  OrderTypes,
  type OptionsOffer,
  type RelayKind,
  type RelayMessageJson,
  type RelaySide,
  type SpotOrder,
} from "@chx/sdk";

export const UINT256_MAX = (1n << 256n) - 1n;
export const UINT128_MAX = (1n << 128n) - 1n;
export const UINT64_MAX = (1n << 64n) - 1n;
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** uint256 as 78-digit zero-padded decimal text: lexicographic order = numeric order, in every SQL engine. */
export const pad = (v: bigint): string => v.toString().padStart(78, "0");
export const unpad = (s: string): bigint => BigInt(s);

/** A relayed order of any kind, normalised. `message` is what the maker signed. */
export interface RelayOrder {
  kind: RelayKind;
  hash: string;
  /** "spot" | "option:<seriesId>" */
  book: string;
  market: string;
  maker: string;
  side: RelaySide;
  price: bigint;
  amount: bigint;
  nonce: bigint;
  expiry: bigint;
  taker: string;
  /** Options only: the series. */
  seriesId?: bigint;
  message: SpotOrder | OptionsOffer;
  signature: string;
}

export function messageJson(o: RelayOrder): RelayMessageJson {
  return Object.fromEntries(
    Object.entries(o.message).map(([k, v]) => [k, typeof v === "boolean" ? v : String(v)]),
  ) as RelayMessageJson;
}

// ───────────────────────────── fast EIP-712 struct hashing (flat structs of static types)

type Encoder = (message: Record<string, unknown>) => Uint8Array;

function wordEncoder(type: string): (v: unknown, out: Uint8Array, at: number) => void {
  if (type === "address") {
    return (v, out, at) => {
      const hex = String(v).slice(2);
      for (let i = 0; i < 20; i++) out[at + 12 + i] = parseInt(hex.substr(i * 2, 2), 16);
    };
  }
  if (type === "bool") return (v, out, at) => void (out[at + 31] = v === true ? 1 : 0);
  if (/^uint\d+$/.test(type) || type === "bytes32") {
    return (v, out, at) => {
      let x = type === "bytes32" ? BigInt(String(v)) : (v as bigint);
      for (let i = 31; i >= 0 && x > 0n; i--) {
        out[at + i] = Number(x & 0xffn);
        x >>= 8n;
      }
    };
  }
  throw new Error(`fast EIP-712 encoder: unsupported field type ${type}`);
}

/** keccak256(abi.encode(typeHash, fields…)) for a flat struct; equals TypedDataEncoder's struct hash. */
function structHasher(types: Record<string, readonly TypedDataField[]>, primary: string): Encoder {
  const fields = types[primary];
  if (fields === undefined) throw new Error(`no type ${primary}`);
  const typeHash = TypedDataEncoder.from(types as Record<string, TypedDataField[]>).encodeType(primary);
  const th = Buffer.from(keccak256(Buffer.from(typeHash)).slice(2), "hex");
  const enc = fields.map((f) => ({ name: f.name, write: wordEncoder(f.type) }));
  return (message) => {
    const buf = new Uint8Array(32 * (enc.length + 1));
    buf.set(th, 0);
    enc.forEach((f, i) => f.write(message[f.name], buf, 32 * (i + 1)));
    return buf;
  };
}

const mutable = (t: object) => JSON.parse(JSON.stringify(t)) as Record<string, TypedDataField[]>;
const orderEncoder = structHasher(mutable(OrderTypes), "Order");
const offerEncoder = structHasher(mutable(OfferTypes), "Offer");

/** The EIP-712 digest the contract checks: keccak256(0x1901 ‖ domainSeparator ‖ structHash). */
export class DigestHasher {
  private readonly prefix: Uint8Array;
  constructor(
    readonly domain: TypedDataDomain,
    private readonly encode: Encoder,
  ) {
    this.prefix = Buffer.from("1901" + TypedDataEncoder.hashDomain(domain).slice(2), "hex");
  }
  digest(message: Record<string, unknown>): string {
    const sh = Buffer.from(keccak256(this.encode(message)).slice(2), "hex");
    const buf = new Uint8Array(66);
    buf.set(this.prefix, 0);
    buf.set(sh, 34);
    return keccak256(buf);
  }
}

export const spotHasher = (domain: TypedDataDomain) => new DigestHasher(domain, orderEncoder);
export const offerHasher = (domain: TypedDataDomain) => new DigestHasher(domain, offerEncoder);

// ───────────────────────────── parsing JSON bodies (schema-checked strings) into messages

/** Canonical checksummed address (the schema already checked the 0x + 40 hex form). */
export const addr = (s: string): string => getAddress(s.toLowerCase());

export function spotOrderFromBody(o: Record<string, string | boolean>): SpotOrder {
  return {
    maker: addr(String(o.maker)),
    isBuy: o.isBuy === true,
    amountCh: BigInt(String(o.amountCh)),
    priceWad: BigInt(String(o.priceWad)),
    nonce: BigInt(String(o.nonce)),
    expiry: BigInt(String(o.expiry)),
    taker: addr(String(o.taker)),
  };
}

export function offerFromBody(o: Record<string, string | boolean>): OptionsOffer {
  return {
    maker: addr(String(o.maker)),
    seriesId: BigInt(String(o.seriesId)),
    isBuy: o.isBuy === true,
    sizeCh: BigInt(String(o.sizeCh)),
    premiumWad: BigInt(String(o.premiumWad)),
    nonce: BigInt(String(o.nonce)),
    expiry: BigInt(String(o.expiry)),
    taker: addr(String(o.taker)),
  };
}

export function spotRelayOrder(market: string, hash: string, m: SpotOrder, signature: string): RelayOrder {
  return {
    kind: "spot",
    hash,
    book: "spot",
    market,
    maker: m.maker,
    side: m.isBuy ? "buy" : "sell",
    price: m.priceWad,
    amount: m.amountCh,
    nonce: m.nonce,
    expiry: m.expiry,
    taker: m.taker,
    message: m,
    signature: signature.toLowerCase(),
  };
}

export function offerRelayOrder(market: string, hash: string, m: OptionsOffer, signature: string): RelayOrder {
  return {
    kind: "option",
    hash,
    book: `option:${m.seriesId}`,
    market,
    maker: m.maker,
    side: m.isBuy ? "buy" : "sell",
    price: m.premiumWad,
    amount: m.sizeCh,
    nonce: m.nonce,
    expiry: m.expiry,
    taker: m.taker,
    seriesId: m.seriesId,
    message: m,
    signature: signature.toLowerCase(),
  };
}

/** Rebuilds the typed message from its stored JSON. */
export function messageFromJson(kind: RelayKind, json: string): SpotOrder | OptionsOffer {
  const o = JSON.parse(json) as Record<string, string | boolean>;
  return kind === "spot" ? spotOrderFromBody(o) : offerFromBody(o);
}
