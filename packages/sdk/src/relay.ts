/**
 * The order relay's client (relay/, docs/relay.md): post signed spot orders and option offers, read books, an order's
 * status, a maker's orders, cancel notices and fills, and follow the WebSocket stream. The wire types are the
 * relay's own (the relay imports them from here), so client and server cannot drift.
 */
import type { Signer, TypedDataDomain } from "ethers";
import type { SignedOfferJson, SignedOrderJson } from "./signed-json.js";

/** What the relay carries. Futures orders slot in as a third kind when the futures market signs orders. */
export type RelayKind = "spot" | "option" | "futures";
/** `open`: served in the book; `unfunded`: valid but the maker cannot pay or deliver now (hidden, rechecked every
 *  block); the rest are final. */
export type RelayOrderStatus = "open" | "unfunded" | "filled" | "cancelled" | "expired";
export type RelaySide = "buy" | "sell";

/** Every typed error the relay answers with (HTTP 4xx/5xx, body `{ error: { code, message, details? } }`). */
export const RELAY_ERROR_CODES = [
  "BAD_REQUEST",
  "PAYLOAD_TOO_LARGE",
  "RATE_LIMITED",
  "NOT_FOUND",
  "UNSUPPORTED_KIND",
  "WRONG_CHAIN",
  "UNKNOWN_MARKET",
  "PRIVATE_ORDER",
  "INVALID_AMOUNT",
  "INVALID_PRICE",
  "INVALID_NONCE",
  "EXPIRED",
  "EXPIRY_TOO_FAR",
  "INVALID_SIGNATURE",
  "NONCE_USED",
  "NONCE_BELOW_MINIMUM",
  "CANCELLED",
  "FILLED",
  "UNFUNDED",
  "UNKNOWN_SERIES",
  "SERIES_NOT_TRADING",
  "BOOK_FULL",
  "CHAIN_UNAVAILABLE",
  "INTERNAL",
] as const;
export type RelayErrorCode = (typeof RELAY_ERROR_CODES)[number];

export interface RelayErrorBody {
  error: { code: RelayErrorCode; message: string; details?: Record<string, unknown> };
}

/** The order (or offer) fields as JSON: bigints as decimal strings. */
export type RelayMessageJson = SignedOrderJson["order"] | SignedOfferJson["offer"];

export interface RelayOrderView {
  hash: string;
  kind: RelayKind;
  /** The book it rests in: "spot", "option:<seriesId>" (later "futures:<seriesId>"). */
  book: string;
  /** The verifying contract (SpotMarket / OptionsMarket proxy). */
  market: string;
  chainId: string;
  maker: string;
  side: RelaySide;
  /** priceWad (spot) or premiumWad (options), decimal. */
  price: string;
  /** amountCh (spot) or sizeCh (options). */
  amount: string;
  filled: string;
  /** What a taker can fill now: the remaining amount, capped by what the maker can pay or deliver. */
  fillable: string;
  nonce: string;
  expiry: string;
  status: RelayOrderStatus;
  /** Why it is not open (e.g. "balance", "allowance", "minNonce", "nonceUsed", "cancelled on chain"). */
  reason: string | null;
  /** The maker sent a cancel notice: the relay no longer serves it (it stays valid on chain until cancelled there). */
  softCancelled: boolean;
  order: RelayMessageJson;
  signature: string;
  createdAt: number;
  /** Block of the last state change the relay saw (0: none since intake). */
  updatedBlock: number;
}

export interface RelayLevel {
  price: string;
  /** Sum of the level's fillable amounts. */
  amount: string;
  orders: number;
}

export interface RelayBook {
  book: string;
  /** The block this snapshot reflects. */
  block: number;
  bids: RelayLevel[];
  asks: RelayLevel[];
  /** With `orders=N`: the first N orders of the top levels, best first (price, then time). */
  orders?: { bids: RelayOrderView[]; asks: RelayOrderView[] };
}

export interface RelayFill {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  orderHash: string;
  book: string;
  maker: string;
  counterparty: string;
  amount: string;
  price: string;
  filledAfter: string;
}

export interface RelayCancel {
  orderHash: string;
  maker: string;
  book: string;
  /** "notice": the maker's signed notice to the relay; "chain": cancelOrder/cancelOffer; "minNonce": a nonce raise. */
  via: "notice" | "chain" | "minNonce";
  blockNumber: number | null;
  at: number;
}

export interface RelayStatus {
  chainId: string;
  markets: Record<string, string>;
  head: number;
  syncedBlock: number;
  blocksBehind: number;
  confirmations: number;
  orders: { open: number; unfunded: number };
  books: string[];
  database: string;
}

export interface RelayPostResult {
  /** false when the same order was already there (posting is idempotent). */
  created: boolean;
  order: RelayOrderView;
}

/** Stream messages (`GET /v1/stream?book=…&maker=…`, WebSocket, JSON text frames). */
export type RelayStreamMessage =
  | { type: "hello"; block: number; books: string[] }
  | { type: "book"; book: string; block: number; bids: RelayLevel[]; asks: RelayLevel[] }
  | { type: "order"; order: RelayOrderView }
  | { type: "fill"; fill: RelayFill }
  | { type: "reorg"; fromBlock: number; toBlock: number }
  | { type: "block"; number: number; hash: string };

/** The spot book's name. */
export const SPOT_BOOK = "spot";
/** An options series' book name. */
export const optionBook = (seriesId: bigint | number | string): string => `option:${BigInt(seriesId)}`;

// ───────────────────────────── cancel notices (off-chain, signed to the relay)

/** EIP-712 type of a cancel notice: the maker asks the relay to stop serving one of its orders. */
export const CancelNoticeTypes = { CancelNotice: [{ name: "orderHash", type: "bytes32" }] } as const;

/** The relay's own EIP-712 domain (no verifying contract: no contract checks a notice). */
export const relayDomain = (chainId: bigint | number): TypedDataDomain => ({
  name: "CHX Relay",
  version: "1",
  chainId: BigInt(chainId),
});

/** Signs a cancel notice for `orderHash` (the order's EIP-712 digest). */
export function signCancelNotice(signer: Signer, chainId: bigint | number, orderHash: string): Promise<string> {
  return signer.signTypedData(
    relayDomain(chainId),
    { CancelNotice: [...CancelNoticeTypes.CancelNotice] },
    { orderHash },
  );
}

// ───────────────────────────── client

export class RelayError extends Error {
  constructor(
    readonly status: number,
    readonly code: RelayErrorCode | "NETWORK",
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "RelayError";
  }
}

export interface RelayClientOptions {
  /** fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Per-request timeout, ms (default 10 s). */
  timeoutMs?: number;
}

type Query = Record<string, string | number | boolean | undefined>;

/** HTTP client of the relay. Every failure is a RelayError carrying the relay's typed code. */
export class RelayClient {
  readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, opts: RelayClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.fetchFn = opts.fetch ?? fetch;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  private async request<T>(method: "GET" | "POST", path: string, body?: unknown, query?: Query): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await this.fetchFn(url, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      throw new RelayError(0, "NETWORK", `relay ${this.baseUrl} unreachable: ${(e as Error).message}`);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new RelayError(res.status, "INTERNAL", `relay answered ${res.status} with a non-JSON body`);
    }
    if (!res.ok) {
      const err = (json as Partial<RelayErrorBody> | undefined)?.error;
      throw new RelayError(
        res.status,
        err?.code ?? "INTERNAL",
        err?.message ?? `relay answered ${res.status}`,
        err?.details,
      );
    }
    return json as T;
  }

  /** Posts a signed spot order (the SDK's `orderToJson` form). */
  postOrder(signed: SignedOrderJson): Promise<RelayPostResult> {
    return this.request("POST", "/v1/orders", { kind: "spot", ...signed });
  }

  /** Posts a signed option offer (the SDK's `offerToJson` form). */
  postOffer(signed: SignedOfferJson): Promise<RelayPostResult> {
    return this.request("POST", "/v1/orders", { kind: "option", ...signed });
  }

  order(hash: string): Promise<{ order: RelayOrderView; fills: RelayFill[] }> {
    return this.request("GET", `/v1/orders/${hash}`);
  }

  makerOrders(
    maker: string,
    opts: { status?: "live" | "all"; limit?: number } = {},
  ): Promise<{ orders: RelayOrderView[] }> {
    return this.request("GET", `/v1/makers/${maker}/orders`, undefined, opts);
  }

  books(): Promise<{ books: string[] }> {
    return this.request("GET", "/v1/books");
  }

  /** A book's levels (`depth` per side) and, with `orders`, its first orders (signed, ready to fill). */
  book(book: string, opts: { depth?: number; orders?: number } = {}): Promise<RelayBook> {
    return this.request("GET", `/v1/books/${encodeURIComponent(book)}`, undefined, opts);
  }

  /** Sends a cancel notice (sign it with `signCancelNotice`). */
  cancelNotice(hash: string, signature: string): Promise<{ order: RelayOrderView }> {
    return this.request("POST", `/v1/orders/${hash}/cancel`, { signature });
  }

  cancels(opts: { since?: number; limit?: number } = {}): Promise<{ cancels: RelayCancel[] }> {
    return this.request("GET", "/v1/cancels", undefined, opts);
  }

  fills(opts: { book?: string; maker?: string; limit?: number } = {}): Promise<{ fills: RelayFill[] }> {
    return this.request("GET", "/v1/fills", undefined, opts);
  }

  status(): Promise<RelayStatus> {
    return this.request("GET", "/v1/status");
  }

  /** The WebSocket URL of the stream (books and/or a maker's orders). */
  streamUrl(opts: { books?: string[]; maker?: string } = {}): string {
    const url = new URL(this.baseUrl.replace(/^http/, "ws") + "/v1/stream");
    if (opts.books !== undefined) url.searchParams.set("books", opts.books.join(","));
    if (opts.maker !== undefined) url.searchParams.set("maker", opts.maker);
    return url.toString();
  }
}
