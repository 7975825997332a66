/**
 * Independent TypeScript reference of the perpetual's formulas (docs/perps.md), written from the specification,
 * not from the Solidity: the average-premium fill price, the maker/taker fee and the velocity funding model.
 * Integers (bigint) with the documented rounding, so results compare exactly with the chain.
 */
export const WAD = 10n ** 18n;
const DAY = 86_400n;

const absB = (x: bigint): bigint => (x < 0n ? -x : x);
/** floor(a / b) for b > 0. */
const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));
/** ceil(a / b) for b > 0. */
const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);
/** Truncation toward zero (what the EVM's signed division does). */
const truncDiv = (a: bigint, b: bigint): bigint => a / b;

export interface FundingParams {
  skewScaleCh: bigint;
  maxFundingVelocityWad: bigint;
  maxFundingRateWad: bigint;
}

/** Fill price: index × (1 + (skew + skew') / (2·scale)); premium and price round against the trader. */
export function refFillPrice(indexWad: bigint, skewCh: bigint, deltaCh: bigint, scaleCh: bigint): bigint {
  const num = (skewCh + (skewCh + deltaCh)) * WAD;
  const den = 2n * scaleCh;
  const premium = deltaCh > 0n ? ceilDiv(num, den) : floorDiv(num, den);
  const factor = WAD + premium;
  return deltaCh > 0n ? ceilDiv(indexWad * factor, WAD) : floorDiv(indexWad * factor, WAD);
}

/** Fee: maker bps on the part that reduces |skew|, taker bps on the rest, on notional at the fill price, rounded up. */
export function refFee(skewCh: bigint, deltaCh: bigint, fillWad: bigint, makerBps: bigint, takerBps: bigint): bigint {
  const size = absB(deltaCh);
  const reduces = skewCh !== 0n && skewCh > 0n !== deltaCh > 0n;
  const maker = reduces ? (size < absB(skewCh) ? size : absB(skewCh)) : 0n;
  const taker = size - maker;
  return ceilDiv((maker * makerBps + taker * takerBps) * fillWad, 10n ** 34n);
}

/** Three-way split: insurance and burn round down, LPs take the rest. */
export function refSplit(fee: bigint, insuranceBps: bigint, burnBps: bigint) {
  const insurance = (fee * insuranceBps) / 10_000n;
  const burn = (fee * burnBps) / 10_000n;
  return { lp: fee - insurance - burn, insurance, burn };
}

/**
 * One funding interval of `dtSec` at constant skew. The rate starts from `rate0` (reset to 0 if its sign opposes
 * the skew, and 0 while the skew is 0), moves linearly at v = clamp(skew/scale, ±1) × maxVelocity per day and stops
 * at ±maxRate; the index grows by the integral of the rate (in days) times the index price.
 */
export function refAccrue(
  index: bigint,
  rate0: bigint,
  dtSec: bigint,
  skewCh: bigint,
  p: FundingParams,
  priceWad: bigint,
): { index: bigint; rate: bigint } {
  if (skewCh === 0n) return { index, rate: 0n };
  let r0 = rate0;
  if (r0 !== 0n && r0 > 0n !== skewCh > 0n) r0 = 0n;
  const cap = skewCh > 0n ? p.maxFundingRateWad : -p.maxFundingRateWad;
  if (absB(r0) > p.maxFundingRateWad) r0 = cap;
  if (dtSec === 0n) return { index, rate: r0 };
  let s = truncDiv(skewCh * WAD, p.skewScaleCh);
  if (s > WAD) s = WAD;
  if (s < -WAD) s = -WAD;
  const v = truncDiv(s * p.maxFundingVelocityWad, WAD);
  const free = r0 + truncDiv(v * dtSec, DAY);
  let area2: bigint; // twice the area under r(t), WAD·seconds
  let rate: bigint;
  if (absB(free) <= p.maxFundingRateWad) {
    area2 = (r0 + free) * dtSec;
    rate = free;
  } else {
    let hit = truncDiv((cap - r0) * DAY, v);
    if (hit > dtSec) hit = dtSec;
    area2 = (r0 + cap) * hit + 2n * cap * (dtSec - hit);
    rate = cap;
  }
  return { index: index + truncDiv(area2 * priceWad, 2n * DAY * WAD), rate };
}

/** Funding owed by a position of `sizeCh` between two index values, USDC, rounded toward +∞. */
export function refOwed(sizeCh: bigint, fromIndex: bigint, toIndex: bigint): bigint {
  return ceilDiv(sizeCh * (toIndex - fromIndex), 10n ** 30n);
}
