/**
 * Decodes custom errors from any CHX contract (and OpenZeppelin's) into a readable sentence, for tasks,
 * scripts and keepers. The decoder is built once from every artifact's ABI.
 */
import { Interface, type ErrorDescription, type InterfaceAbi } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

let cached: Interface | undefined;

export async function errorInterface(hre: HardhatRuntimeEnvironment): Promise<Interface> {
  if (cached !== undefined) return cached;
  const names = await hre.artifacts.getAllFullyQualifiedNames();
  const seen = new Set<string>();
  const fragments: InterfaceAbi = [];
  for (const fq of names) {
    const { abi } = await hre.artifacts.readArtifact(fq);
    for (const f of abi as Array<{ type: string; name?: string; inputs?: Array<{ type: string }> }>) {
      if (f.type !== "error") continue;
      const key = `${f.name}(${(f.inputs ?? []).map((i) => i.type).join(",")})`;
      if (seen.has(key)) continue;
      seen.add(key);
      (fragments as unknown[]).push(f);
    }
  }
  cached = new Interface(fragments);
  return cached;
}

/** Extracts revert data from an ethers / Hardhat error, if any. */
export function revertData(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur !== null && typeof cur === "object"; i++) {
    const o = cur as { data?: unknown; error?: unknown; info?: { error?: { data?: unknown } }; cause?: unknown };
    if (typeof o.data === "string" && o.data.startsWith("0x")) return o.data;
    if (typeof o.info?.error?.data === "string") return o.info.error.data;
    cur = o.error ?? o.cause;
  }
  return undefined;
}

export function formatError(desc: ErrorDescription): string {
  const args = desc.fragment.inputs.map((input, i) => `${input.name || `arg${i}`}=${String(desc.args[i])}`);
  return `${desc.name}(${args.join(", ")})`;
}

export async function decodeRevert(hre: HardhatRuntimeEnvironment, data: string): Promise<string | undefined> {
  try {
    const desc = (await errorInterface(hre)).parseError(data);
    return desc === null ? undefined : formatError(desc);
  } catch {
    return undefined;
  }
}

export async function describeError(hre: HardhatRuntimeEnvironment, e: unknown): Promise<string> {
  const data = revertData(e);
  if (data !== undefined) {
    const decoded = await decodeRevert(hre, data);
    if (decoded !== undefined) return `The contract refused: ${decoded}`;
  }
  const msg = e instanceof Error ? e.message : String(e);
  return msg.split("\n")[0] ?? msg;
}
