/**
 * Units of the CHX contracts and conversions between them. USDC amounts have 6 decimals; CH sizes, prices (USDC per
 * CH), rates and other fixed-point numbers are WAD (18 decimals); fees are basis points. Every conversion that divides
 * says how it rounds in its name, as the contracts do (ClearingMath): `Down` rounds toward −∞, `Up` toward +∞.
 * The protocol rounds in its own favour: what a user receives rounds down, what a user pays rounds up.
 */
import { formatUnits, parseUnits } from "ethers";

export const USDC_DECIMALS = 6;
export const CH_DECIMALS = 18;
export const WAD_DECIMALS = 18;
/** 1e18: one CH, one USDC-per-CH price unit, one fixed-point 1.0. */
export const WAD = 10n ** 18n;
/** 1e6: one USDC. */
export const ONE_USDC = 10n ** 6n;
/** 1e18: one CH. */
export const ONE_CH = 10n ** 18n;
/** 10,000: basis points in one. */
export const BPS = 10_000n;
/** size (1e18) × price (1e18) / 1e30 = USDC (1e6). */
export const SIZE_PRICE_TO_USDC = 10n ** 30n;

export class UnitError extends Error {}

function parse(value: string | number, decimals: number, what: string): bigint {
  const text = typeof value === "number" ? String(value) : value.trim();
  if (!/^-?\d+(\.\d+)?$/.test(text)) throw new UnitError(`${what}: "${value}" is not a decimal number`);
  try {
    return parseUnits(text, decimals);
  } catch {
    throw new UnitError(`${what}: "${value}" has more than ${decimals} decimals`);
  }
}

/** "12.5" → 12_500_000n (USDC, 6 decimals). Rejects more decimals than USDC has. */
export const parseUsdc = (value: string | number): bigint => parse(value, USDC_DECIMALS, "USDC amount");
/** "2.5" → 2.5e18 (CH, 18 decimals). */
export const parseCh = (value: string | number): bigint => parse(value, CH_DECIMALS, "CH amount");
/** "0.94" → 0.94e18 (any WAD number: prices in USDC per CH, rates, factors). */
export const parseWad = (value: string | number): bigint => parse(value, WAD_DECIMALS, "WAD number");
export const formatUsdc = (x: bigint): string => formatUnits(x, USDC_DECIMALS);
export const formatCh = (x: bigint): string => formatUnits(x, CH_DECIMALS);
export const formatWad = (x: bigint): string => formatUnits(x, WAD_DECIMALS);

/** floor(a × b / d) for a, b ≥ 0, d > 0. */
export function mulDivDown(a: bigint, b: bigint, d: bigint): bigint {
  if (a < 0n || b < 0n || d <= 0n) throw new UnitError("mulDivDown takes a, b ≥ 0 and d > 0");
  return (a * b) / d;
}
/** ceil(a × b / d) for a, b ≥ 0, d > 0. */
export function mulDivUp(a: bigint, b: bigint, d: bigint): bigint {
  if (a < 0n || b < 0n || d <= 0n) throw new UnitError("mulDivUp takes a, b ≥ 0 and d > 0");
  const p = a * b;
  return p === 0n ? 0n : (p - 1n) / d + 1n;
}
export const mulWadDown = (a: bigint, b: bigint): bigint => mulDivDown(a, b, WAD);
export const mulWadUp = (a: bigint, b: bigint): bigint => mulDivUp(a, b, WAD);
/** `amount` × bps / 10,000, rounded down (a share someone receives). */
export const bpsOfDown = (amount: bigint, bps: bigint): bigint => mulDivDown(amount, bps, BPS);
/** `amount` × bps / 10,000, rounded up (a fee someone pays). */
export const bpsOfUp = (amount: bigint, bps: bigint): bigint => mulDivUp(amount, bps, BPS);

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** |size| × price in USDC, rounded up: a notional a margin requirement is computed on. */
export const notionalUsdcUp = (absSizeCh: bigint, priceWad: bigint): bigint =>
  mulDivUp(abs(absSizeCh), priceWad, SIZE_PRICE_TO_USDC);
/** |size| × price in USDC, rounded down: what a seller of `absSizeCh` at `priceWad` receives. */
export const notionalUsdcDown = (absSizeCh: bigint, priceWad: bigint): bigint =>
  mulDivDown(abs(absSizeCh), priceWad, SIZE_PRICE_TO_USDC);
/** Signed size × price in USDC, rounded toward −∞ (a position's value credited to its holder). */
export const valueUsdcDown = (sizeCh: bigint, priceWad: bigint): bigint =>
  sizeCh >= 0n ? notionalUsdcDown(sizeCh, priceWad) : -notionalUsdcUp(sizeCh, priceWad);
/** Signed size × price in USDC, rounded toward +∞ (a new position's cost basis). */
export const valueUsdcUp = (sizeCh: bigint, priceWad: bigint): bigint =>
  sizeCh >= 0n ? notionalUsdcUp(sizeCh, priceWad) : -notionalUsdcDown(sizeCh, priceWad);
/** USDC per CH (WAD) of `usdc` for `sizeCh`, rounded down. */
export const priceWadDown = (usdc: bigint, sizeCh: bigint): bigint =>
  mulDivDown(abs(usdc), SIZE_PRICE_TO_USDC, abs(sizeCh));
