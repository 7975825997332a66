/** Typed relay errors: every rejection has a code from the SDK's RELAY_ERROR_CODES and one HTTP status. */
import type { RelayErrorBody, RelayErrorCode } from "@chx/sdk";

export const STATUS: Record<RelayErrorCode, number> = {
  BAD_REQUEST: 400,
  UNSUPPORTED_KIND: 400,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  NOT_FOUND: 404,
  // the order is well formed but not acceptable here
  WRONG_CHAIN: 422,
  UNKNOWN_MARKET: 422,
  PRIVATE_ORDER: 422,
  INVALID_AMOUNT: 422,
  INVALID_PRICE: 422,
  INVALID_NONCE: 422,
  EXPIRED: 422,
  EXPIRY_TOO_FAR: 422,
  INVALID_SIGNATURE: 422,
  UNKNOWN_SERIES: 422,
  SERIES_NOT_TRADING: 422,
  // the chain (or the relay's capacity) says no right now
  NONCE_USED: 409,
  NONCE_BELOW_MINIMUM: 409,
  CANCELLED: 409,
  FILLED: 409,
  UNFUNDED: 409,
  BOOK_FULL: 409,
  CHAIN_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export class RelayHttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: RelayErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = STATUS[code];
  }
  body(): RelayErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const fail = (code: RelayErrorCode, message: string, details?: Record<string, unknown>): never => {
  throw new RelayHttpError(code, message, details);
};
