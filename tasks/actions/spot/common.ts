import { readFile } from "node:fs/promises";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";
import { TaskError } from "../../lib.js";
import { orderFromJson, type SignedOrderJson, type SpotOrder } from "@chx/sdk";

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
