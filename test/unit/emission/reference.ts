/**
 * An independent TypeScript model of the emission schedule (SPEC section 5, seed 001 sections 3-4), written from
 * docs/emission.md rather than from the contract: plain bigint arithmetic over a list of epochs.
 *
 * Rules modelled:
 *  - a provider's sample for a day is the lowest capacity attested that day, kept in nano-PetaFLOPs (floor);
 *  - its epoch GFL is the median of its days with a sample (even count: floor of the mean of the two middle
 *    values), or 0 when it has fewer than `minSamples` days;
 *  - per-GFL rate of era n: share × R_0 / 2^n (WAD, floor); the cumulative-GFL counter grows by each epoch's
 *    total; a threshold (era start + span) crossed inside an epoch splits that epoch's GFL between the two rates
 *    (blended rate, floor); otherwise a halving by time applies after the first epoch ending ≥ its due time
 *    (due times are a year apart, nominal; a threshold halving restarts the year at its epoch's end);
 *  - replenishment of D DPS: keeper share floor(D × bps / 1e4) aside, the rest P enters the reward pool and the
 *    counter falls by floor(P × 1e18 / rate_n) (capped at the counter);
 *  - rewards: floor(GFL × rate / 1e18) per provider; each epoch's floor(total × rate / 1e18) is funded at its
 *    close from the reward pool first, the rest minted; claims transfer funded DPS.
 */

export const WAD = 10n ** 18n;
export const DAY = 86_400n;
export const EPOCH = 15n * DAY;
export const YEAR = 365n * DAY;
const NANO = 10n ** 9n;

export interface ReferenceParams {
  /** rewardShare × R_0 as a WAD rate (20 % × 1/100 = 2e15). */
  baseRateWad: bigint;
  /** Cumulative GFL-epochs per era (0 = time only). */
  spanGfl: bigint;
  /** Minimum daily samples per epoch (a governance change applies from the next epoch). */
  minSamples: number | ((epoch: number) => number);
  keeperShareBps: bigint;
}

/** What happens during one epoch. */
export interface EpochInput {
  /** provider → list of [day 0-14, capacity in PFLOPS WAD]. */
  samples: Map<string, Array<[number, bigint]>>;
  /** DPS replenished during the epoch (before its close). */
  replenishDps?: bigint;
}

export interface EpochRow {
  epoch: number;
  totalGfl: bigint;
  rateWad: bigint;
  halvingsAfter: number;
  /** Halvings applied at this epoch's close, with their kind. */
  halvingKinds: Array<"threshold" | "time">;
  cumulativeGfl: bigint;
  /** Per-provider GFL after the rebalance (= epoch median). */
  gfl: Map<string, bigint>;
  /** Per-provider reward for this epoch. */
  rewards: Map<string, bigint>;
  /** DPS newly minted to fund this epoch's rewards. */
  mintedDps: bigint;
  /** DPS of this epoch's rewards taken from the reward pool. */
  fromPoolDps: bigint;
  totalMintedDps: bigint;
}

export function medianNano(values: bigint[]): bigint {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid]!;
  return (sorted[mid - 1]! + sorted[mid]!) / 2n;
}

/** A provider's epoch GFL (GFL wei) from its raw samples. */
export function epochGfl(samples: Array<[number, bigint]>, minSamples: number): bigint {
  const perDay = new Map<number, bigint>();
  for (const [day, wad] of samples) {
    const nano = wad / NANO;
    const prev = perDay.get(day);
    perDay.set(day, prev === undefined || nano < prev ? nano : prev);
  }
  if (perDay.size < minSamples) return 0n;
  return medianNano([...perDay.values()]) * NANO;
}

export function rateOf(p: ReferenceParams, n: number): bigint {
  return n >= 64 ? 0n : p.baseRateWad / 2n ** BigInt(n);
}

/** Runs the schedule from genesis (time 0) over `epochs`. */
export function runReference(p: ReferenceParams, epochs: EpochInput[]): EpochRow[] {
  let n = 0;
  let cumulative = 0n;
  let eraStart = 0n;
  let nextTimeHalving = YEAR;
  let pool = 0n;
  let totalMinted = 0n;
  const rows: EpochRow[] = [];

  epochs.forEach((input, e) => {
    if (input.replenishDps !== undefined && input.replenishDps > 0n) {
      const toPool = input.replenishDps - (input.replenishDps * p.keeperShareBps) / 10_000n;
      const rate = rateOf(p, n);
      let cut = rate === 0n ? 0n : (toPool * WAD) / rate;
      if (cut > cumulative) cut = cumulative;
      cumulative -= cut;
      pool += toPool;
    }

    const gfl = new Map<string, bigint>();
    let total = 0n;
    for (const [provider, samples] of input.samples) {
      const g = epochGfl(samples, typeof p.minSamples === "number" ? p.minSamples : p.minSamples(e));
      gfl.set(provider, g);
      total += g;
    }

    // Split this epoch's GFL over eras.
    const end = BigInt(e + 1) * EPOCH;
    const kinds: Array<"threshold" | "time"> = [];
    let left = total;
    let weighted = 0n;
    while (p.spanGfl > 0n && n < 64) {
      const threshold = eraStart + p.spanGfl;
      if (cumulative + left < threshold) break;
      const inEra = threshold > cumulative ? threshold - cumulative : 0n;
      weighted += inEra * rateOf(p, n);
      cumulative += inEra;
      left -= inEra;
      n += 1;
      eraStart = cumulative;
      nextTimeHalving = end + YEAR;
      kinds.push("threshold");
    }
    weighted += left * rateOf(p, n);
    cumulative += left;
    if (kinds.length === 0 && n < 64 && end >= nextTimeHalving) {
      n += 1;
      eraStart = cumulative;
      nextTimeHalving += YEAR;
      kinds.push("time");
    }
    // An empty epoch pays nothing; its recorded rate is the one in force after its close.
    const rate = total === 0n ? rateOf(p, n) : weighted / total;

    const rewards = new Map<string, bigint>();
    for (const [provider, g] of gfl) rewards.set(provider, (g * rate) / WAD);
    // The epoch's rewards are funded at its close: floor(total × rate), the pool first, the rest minted.
    const owed = (total * rate) / WAD;
    const fromPool = owed < pool ? owed : pool;
    pool -= fromPool;
    const minted = owed - fromPool;
    totalMinted += minted;
    rows.push({
      epoch: e,
      totalGfl: total,
      rateWad: rate,
      halvingsAfter: n,
      halvingKinds: kinds,
      cumulativeGfl: cumulative,
      gfl,
      rewards,
      mintedDps: minted,
      fromPoolDps: fromPool,
      totalMintedDps: totalMinted,
    });
  });
  return rows;
}

/** Σ over eras of rate_n × span: the most the schedule can ever mint (EMI-01). */
export function geometricBound(p: ReferenceParams): bigint {
  let bound = 0n;
  for (let n = 0; n < 64; n++) bound += (rateOf(p, n) * p.spanGfl + WAD - 1n) / WAD;
  return bound;
}

export function formatUnits18(x: bigint, digits = 4): string {
  const neg = x < 0n;
  const v = neg ? -x : x;
  const int = v / WAD;
  const frac = (v % WAD).toString().padStart(18, "0").slice(0, digits);
  return `${neg ? "-" : ""}${int}.${frac}`;
}

/** The table the final report shows: epoch, total GFL, DPS minted, halvings. */
export function formatTable(rows: EpochRow[]): string {
  const lines = [
    "epoch | total GFL     | rate (DPS/GFL) | DPS rewarded | DPS minted   | total minted  | halvings",
    "----- | ------------- | -------------- | ------------ | ------------ | ------------- | --------",
  ];
  for (const r of rows) {
    const rewarded = [...r.rewards.values()].reduce((a, b) => a + b, 0n);
    const h = `${r.halvingsAfter}${r.halvingKinds.length > 0 ? ` (${r.halvingKinds.join("+")})` : ""}`;
    lines.push(
      [
        String(r.epoch).padStart(5),
        formatUnits18(r.totalGfl, 2).padStart(13),
        formatUnits18(r.rateWad, 6).padStart(14),
        formatUnits18(rewarded).padStart(12),
        formatUnits18(r.mintedDps).padStart(12),
        formatUnits18(r.totalMintedDps).padStart(13),
        h,
      ].join(" | "),
    );
  }
  return lines.join("\n");
}
