import { readFile } from "node:fs/promises";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import { TaskError } from "../../lib.js";
import { orderFromJson, RelayClient, RelayError, type SignedOrderJson, type SpotOrder } from "@chx/sdk";

/** The relay to use: `--relay <url>`, else CHX_RELAY_URL; undefined when neither is set. */
export function relayUrl(arg: string): string | undefined {
  const url = arg !== "" ? arg : process.env.CHX_RELAY_URL;
  return url === undefined || url === "" ? undefined : url;
}

/** A relay client, or a TaskError saying how to name one. */
export function relayClient(arg: string): RelayClient {
  const url = relayUrl(arg);
  if (url === undefined)
    throw new TaskError("No relay: pass --relay <url> or set CHX_RELAY_URL (npm run relay serves one).");
  return new RelayClient(url);
}

/** Runs a relay call, turning its typed error into one sentence. */
export async function viaRelay<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof RelayError) throw new TaskError(`relay refused ${what}: ${e.code} — ${e.message}`);
    throw e;
  }
}

/** A signed order from the relay by its hash (`--hash`). */
export async function orderFromRelay(
  relay: string,
  hash: string,
  market: string,
): Promise<{ order: SpotOrder; signature: string }> {
  const { order: v } = await viaRelay(`order ${hash}`, () => relayClient(relay).order(hash));
  if (v.kind !== "spot" || v.market.toLowerCase() !== market.toLowerCase()) {
    throw new TaskError(`Order ${hash} on the relay is not an order of this SpotMarket (${market}).`);
  }
  return orderFromJson({
    market,
    chainId: v.chainId,
    order: v.order as SignedOrderJson["order"],
    signature: v.signature,
  });
}

export async function signerAt(connection: NetworkConnection, index: string): Promise<HardhatEthersSigner> {
  const i = Number(index);
  const signers = await connection.ethers.getSigners();
  const s = Number.isInteger(i) ? signers[i] : undefined;
  if (s === undefined) throw new TaskError(`--signer ${index}: there is no local account with that index.`);
  return s;
}

export async function readOrder(
  file: string,
  market: string,
): Promise<{ order: SpotOrder; signature: string; json: SignedOrderJson }> {
  let json: SignedOrderJson;
  try {
    json = JSON.parse(await readFile(file, "utf8")) as SignedOrderJson;
  } catch {
    throw new TaskError(`Cannot read a signed order from "${file}" (create one with chx:spot:order --out ${file}).`);
  }
  if (json.market.toLowerCase() !== market.toLowerCase()) {
    throw new TaskError(`The order in "${file}" was signed for market ${json.market}, not this one (${market}).`);
  }
  return { ...orderFromJson(json), json };
}
