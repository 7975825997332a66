/**
 * Custom-error decoding for the keeper, built straight from Hardhat's artifact JSON files (the keeper runs under
 * plain tsx, outside Hardhat). Same output shape as scripts/lib/errors.ts: `Name(arg=value, …)`.
 */
import { readdirSync, readFileSync, existsSync, statSync } from "node:fs";
import path from "node:path";
import { AbiCoder, Interface, type ErrorDescription, type InterfaceAbi } from "ethers";

export interface DecodedError {
  /** Error name (`KeeperTargetAlreadyDone`, `Error`, `Panic`), or undefined when the data is unknown. */
  name?: string;
  /** One readable line: `KeeperTargetAlreadyDone(id=3)` or the node's message. */
  text: string;
  data?: string;
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir)) {
    if (entry === "build-info") continue;
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (entry.endsWith(".json") && !entry.endsWith(".dbg.json")) out.push(p);
  }
}

export class ErrorDecoder {
  readonly iface: Interface;

  constructor(fragments: InterfaceAbi) {
    this.iface = new Interface(fragments);
  }

  /** Every distinct error fragment of every artifact under `artifactsDir` (an empty decoder if it is missing). */
  static fromArtifacts(artifactsDir: string): ErrorDecoder {
    const files: string[] = [];
    if (existsSync(artifactsDir)) walk(artifactsDir, files);
    const seen = new Set<string>();
    const fragments: unknown[] = [];
    for (const f of files) {
      let abi: unknown;
      try {
        abi = (JSON.parse(readFileSync(f, "utf8")) as { abi?: unknown }).abi;
      } catch {
        continue;
      }
      if (!Array.isArray(abi)) continue;
      for (const frag of abi as Array<{ type?: string; name?: string; inputs?: Array<{ type: string }> }>) {
        if (frag.type !== "error") continue;
        const key = `${frag.name}(${(frag.inputs ?? []).map((i) => i.type).join(",")})`;
        if (seen.has(key)) continue;
        seen.add(key);
        fragments.push(frag);
      }
    }
    return new ErrorDecoder(fragments as InterfaceAbi);
  }

  get size(): number {
    let n = 0;
    this.iface.forEachError(() => n++);
    return n;
  }

  decodeData(data: string): DecodedError {
    if (data === "0x" || data.length < 10) return { text: "reverted without a reason", data };
    const selector = data.slice(0, 10).toLowerCase();
    try {
      if (selector === "0x08c379a0") {
        const [reason] = AbiCoder.defaultAbiCoder().decode(["string"], "0x" + data.slice(10));
        return { name: "Error", text: `Error("${String(reason)}")`, data };
      }
      if (selector === "0x4e487b71") {
        const [code] = AbiCoder.defaultAbiCoder().decode(["uint256"], "0x" + data.slice(10));
        return { name: "Panic", text: `Panic(0x${(code as bigint).toString(16)})`, data };
      }
      const desc = this.iface.parseError(data);
      if (desc !== null) return { name: desc.name, text: formatError(desc), data };
    } catch {
      // fall through: unknown or malformed
    }
    return { text: `unknown custom error ${selector}`, data };
  }

  /** Decodes any ethers / JSON-RPC error into a name (when typed) and one sentence-ready line. */
  decode(e: unknown): DecodedError {
    const data = revertData(e);
    if (data !== undefined) return this.decodeData(data);
    return { text: shortMessage(e) };
  }
}

export function formatError(desc: ErrorDescription): string {
  const args = desc.fragment.inputs.map((input, i) => `${input.name || `arg${i}`}=${String(desc.args[i])}`);
  return `${desc.name}(${args.join(", ")})`;
}

/** Extracts revert data from an ethers / JSON-RPC error, if any. */
export function revertData(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 6 && cur !== null && typeof cur === "object"; i++) {
    const o = cur as {
      data?: unknown;
      error?: unknown;
      info?: { error?: { data?: unknown } };
      cause?: unknown;
    };
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
