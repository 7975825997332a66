import { readFile } from "node:fs/promises";
import { formatUnits, parseUnits } from "ethers";
import type { OptionsMarket } from "../../../types/ethers-contracts/index.js";
import { TaskError } from "../../lib.js";
import { SeriesStatusNames as SeriesStatus, offerFromJson, type OptionsOffer, type SignedOfferJson } from "@chx/sdk";

export { signerAt } from "../spot/common.js";

export const usdc = (v: bigint): string => formatUnits(v, 6);
export const wad = (v: bigint): string => formatUnits(v, 18);

/** A count or a duration from a typed INT option that must be positive. */
export function positiveInt(what: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new TaskError(`${what} ${value}: give a positive whole number.`);
  return value;
}

export function parseAmount(what: string, value: string, decimals: number): bigint {
  try {
    const v = parseUnits(value, decimals);
    if (v <= 0n) throw new Error();
    return v;
  } catch {
    throw new TaskError(`${what} "${value}" is not a positive number.`);
  }
}

export async function readOffer(file: string, market: string): Promise<{ offer: OptionsOffer; signature: string }> {
  let json: SignedOfferJson;
  try {
    json = JSON.parse(await readFile(file, "utf8")) as SignedOfferJson;
  } catch {
    throw new TaskError(`Cannot read a signed offer from "${file}" (create one with chx:options:write --premium).`);
  }
  if (json.market.toLowerCase() !== market.toLowerCase()) {
    throw new TaskError(`The offer in "${file}" was signed for market ${json.market}, not this one (${market}).`);
  }
  return offerFromJson(json);
}

/** One line describing a series. */
export async function describeSeries(options: OptionsMarket, id: bigint): Promise<string> {
  const s = await options.series(id);
  const status = SeriesStatus[Number(await options.seriesStatus(id))] ?? "?";
  const kind = Number(s.kind) === 0 ? "call" : "put";
  const under = s.onFutures ? `futures #${s.futuresSeriesId}` : "CH index";
  const cap = Number(s.kind) === 0 ? ` cap ${wad(s.capWad)}` : "";
  const price = s.priceFixedAt === 0n ? "" : ` settled at ${wad(s.settlementPriceWad)}`;
  return (
    `#${id} ${kind} on ${under} strike ${wad(s.strikeWad)}${cap} expiry ${new Date(Number(s.expiry) * 1000).toISOString()} ` +
    `[${status}] OI ${wad(s.openInterestCh)} CH, posted ${usdc(s.postedUsdc)} paid ${usdc(s.paidUsdc)} ` +
    `released ${usdc(s.releasedUsdc)} USDC${price}`
  );
}

/** Throws a clear sentence when the series does not exist (ids are 1..seriesCount). */
export async function requireSeries(options: OptionsMarket, id: bigint): Promise<void> {
  if (id === 0n) throw new TaskError("Pass --series <id> (1, 2, …; see chx:options:list).");
  const count = await options.seriesCount();
  if (id < 1n || id > count) {
    throw new TaskError(`Series ${id} does not exist (${count} listed; see chx:options:list).`);
  }
}
