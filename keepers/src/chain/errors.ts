/** Revert decoding for the keeper: the SDK's decoder over the merged CHX error ABI (every contract, every mock). */
import { revertData, shortMessage } from "@chx/sdk";

export { ErrorDecoder, formatError, revertData, shortMessage, type DecodedError } from "@chx/sdk";

/** Every message an error carries (ethers wraps a node's answer: `error.message`, `info.error.message`, …). */
export function errorTexts(e: unknown): string {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const walk = (x: unknown, depth: number) => {
    if (x === null || typeof x !== "object" || seen.has(x) || depth > 4) return;
    seen.add(x);
    const o = x as Record<string, unknown>;
    for (const k of ["shortMessage", "message", "reason"]) if (typeof o[k] === "string") out.push(o[k] as string);
    for (const k of ["error", "info", "cause", "data"]) walk(o[k], depth + 1);
  };
  if (typeof e === "string") out.push(e);
  walk(e, 0);
  return out.join(" | ");
}

/** Why a send failed, as an operator needs to know it. */
export type SendCause = "insufficient-funds" | "nonce" | "nonce-gap" | "underpriced" | "revert" | "rpc" | "rejected";

const FUNDS =
  /insufficient funds|doesn't have enough funds|not enough funds|balance too low|exceeds (the )?balance|gas required exceeds allowance/i;
const NONCE = /nonce too low|nonce has already been used|already been used|nonce expired|NONCE_EXPIRED/i;
const NONCE_GAP = /nonce too high|can't be queued/i;
const UNDERPRICED = /underpriced|fee too low|less than (the )?block base fee|max fee per gas less than/i;
const REJECTED =
  /exceeds block gas limit|intrinsic gas too low|oversized data|invalid sender|invalid signature|chain ?id/i;

/**
 * Maps a node's answer to a send (or an estimate) to its cause: a key with no ETH is "insufficient-funds" (not an RPC
 * failure to retry or a fee to bump), a used nonce "nonce", a revert "revert", a refused transaction "rejected",
 * anything else (transport, 5xx, timeouts) "rpc".
 */
export function classifySendError(e: unknown): SendCause {
  const code = (e as { code?: unknown })?.code;
  const text = errorTexts(e);
  if (code === "INSUFFICIENT_FUNDS" || FUNDS.test(text)) return "insufficient-funds";
  if (code === "NONCE_EXPIRED" || NONCE.test(text)) return "nonce";
  if (NONCE_GAP.test(text)) return "nonce-gap";
  if (code === "REPLACEMENT_UNDERPRICED" || UNDERPRICED.test(text)) return "underpriced";
  if (revertData(e) !== undefined || code === "CALL_EXCEPTION" || /revert/i.test(text)) return "revert";
  if (REJECTED.test(text)) return "rejected";
  return "rpc";
}

/** One sentence per cause, for the logs and the action's reason. */
export function describeSendError(cause: SendCause, e: unknown, address: string): string {
  switch (cause) {
    case "insufficient-funds":
      return `the keeper ${address} cannot pay for gas (insufficient funds): fund it`;
    case "nonce":
      return `nonce already used (${shortMessage(e)})`;
    case "nonce-gap":
      return `an earlier nonce is missing (${shortMessage(e)})`;
    case "underpriced":
      return `fee too low for the node (${shortMessage(e)})`;
    case "revert":
      return `reverted (${shortMessage(e)})`;
    case "rejected":
      return `the node refused the transaction (${shortMessage(e)})`;
    default:
      return `RPC failure (${shortMessage(e)})`;
  }
}
