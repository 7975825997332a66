/**
 * Revert decoding: every custom error of every CHX contract (and OpenZeppelin's) from one merged error ABI, plus
 * Solidity's Error(string) and Panic(uint256). Output: the error's name, its named arguments, and one readable line
 * `Name(arg=value, …)`.
 */
import { AbiCoder, Interface, type ErrorDescription, type InterfaceAbi } from "ethers";
import { chxErrorAbi } from "./generated/errors.js";

export { chxErrorAbi };

export interface DecodedError {
  /** Error name (`ClearingInsufficientMargin`, `Error`, `Panic`), or undefined when the data is unknown. */
  name?: string;
  /** Named arguments (positional names `arg0`… where the ABI has none). */
  args?: Record<string, unknown>;
  /** One readable line: `ClearingInsufficientMargin(account=0x…, requiredUsdc=5000000, equityUsdc=1000)`. */
  text: string;
  /** The raw revert data, when there was some. */
  data?: string;
}

const PANIC_REASONS: Record<number, string> = {
  0x01: "assertion failed",
  0x11: "arithmetic overflow or underflow",
  0x12: "division by zero",
  0x21: "invalid enum value",
  0x22: "bad storage byte array",
  0x31: "pop on an empty array",
  0x32: "array index out of bounds",
  0x41: "out of memory",
  0x51: "call to an uninitialised function",
};

export function formatError(desc: ErrorDescription): string {
  const args = desc.fragment.inputs.map((input, i) => `${input.name || `arg${i}`}=${String(desc.args[i])}`);
  return `${desc.name}(${args.join(", ")})`;
}

export class ErrorDecoder {
  readonly iface: Interface;

  /** A decoder over `fragments` (default: the merged CHX error ABI). */
  constructor(fragments: InterfaceAbi = chxErrorAbi as unknown as InterfaceAbi) {
    this.iface = new Interface(fragments);
  }

  get size(): number {
    let n = 0;
    this.iface.forEachError(() => n++);
    return n;
  }

  /** Decodes revert data (`0x` + selector + arguments). */
  decodeData(data: string): DecodedError {
    if (data === "0x" || data.length < 10) return { text: "reverted without a reason", data };
    const selector = data.slice(0, 10).toLowerCase();
    try {
      if (selector === "0x08c379a0") {
        const [reason] = AbiCoder.defaultAbiCoder().decode(["string"], "0x" + data.slice(10));
        return { name: "Error", args: { reason }, text: `Error("${String(reason)}")`, data };
      }
      if (selector === "0x4e487b71") {
        const [code] = AbiCoder.defaultAbiCoder().decode(["uint256"], "0x" + data.slice(10));
        const c = Number(code as bigint);
        return {
          name: "Panic",
          args: { code },
          text: `Panic(0x${c.toString(16)}: ${PANIC_REASONS[c] ?? "unknown"})`,
          data,
        };
      }
      const desc = this.iface.parseError(data);
      if (desc !== null) {
        const args: Record<string, unknown> = {};
        desc.fragment.inputs.forEach((input, i) => (args[input.name || `arg${i}`] = desc.args[i]));
        return { name: desc.name, args, text: formatError(desc), data };
      }
    } catch {
      // fall through: unknown or malformed
    }
    return { text: `unknown custom error ${selector}`, data };
  }

  /** Decodes any ethers / JSON-RPC / Hardhat error into a name (when typed) and one line. */
  decode(e: unknown): DecodedError {
    const data = revertData(e);
    if (data !== undefined) return this.decodeData(data);
    return { text: shortMessage(e) };
  }
}

let shared: ErrorDecoder | undefined;
/** The decoder over the merged CHX error ABI (built once). */
export function errorDecoder(): ErrorDecoder {
  shared ??= new ErrorDecoder();
  return shared;
}

/** Decodes revert data with the merged CHX error ABI. */
export const decodeRevert = (data: string): DecodedError => errorDecoder().decodeData(data);

/** One sentence for a failed call or transaction: `The contract refused: Name(arg=…)`, or the node's message. */
export function describeError(e: unknown): string {
  const d = errorDecoder().decode(e);
  return d.name !== undefined ? `The contract refused: ${d.text}` : d.text;
}

/** Extracts revert data from an ethers / JSON-RPC / Hardhat error, if any. */
export function revertData(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 6 && cur !== null && typeof cur === "object"; i++) {
    const o = cur as { data?: unknown; error?: unknown; info?: { error?: { data?: unknown } }; cause?: unknown };
    if (typeof o.data === "string" && o.data.startsWith("0x")) return o.data;
    if (typeof o.data === "object" && o.data !== null) {
      const inner = (o.data as { data?: unknown }).data;
      if (typeof inner === "string" && inner.startsWith("0x")) return inner;
    }
    const infoData = o.info?.error?.data;
    if (typeof infoData === "string" && infoData.startsWith("0x")) return infoData;
    if (typeof infoData === "object" && infoData !== null) {
      const inner = (infoData as { data?: unknown }).data;
      if (typeof inner === "string" && inner.startsWith("0x")) return inner;
    }
    cur = o.error ?? o.info?.error ?? o.cause;
  }
  return undefined;
}

/** First line of an error's message, without ethers' long diagnostic suffix. */
export function shortMessage(e: unknown): string {
  const o = e as { shortMessage?: unknown; message?: unknown; info?: { error?: { message?: unknown } } };
  const inner = o?.info?.error?.message;
  const msg =
    typeof inner === "string"
      ? inner
      : typeof o?.shortMessage === "string"
        ? o.shortMessage
        : typeof o?.message === "string"
          ? o.message
          : String(e);
  return (msg.split("\n")[0] ?? msg).replace(/ \(action=.*$/, "");
}
