/**
 * The 3-year scenario (73 epochs) both the contract and the reference run: four providers with growth, noise,
 * an even sample count, a late joiner and a flaky provider, plus two reward-pool replenishments.
 */
import { parseUnits } from "ethers";
import type { EpochInput, ReferenceParams } from "./reference.js";

export const YEARS3_EPOCHS = 73; // 73 × 15 days = 1,095 days
export const PROVIDERS = ["p1", "p2", "p3", "p4"] as const;
export type ProviderKey = (typeof PROVIDERS)[number];

const pf = (x: number | string) => parseUnits(String(x), 18);

export const scenarioParams: ReferenceParams = {
  baseRateWad: parseUnits("0.002", 18), // 20 % × 1/100
  spanGfl: pf(15_000),
  minSamples: 3,
  keeperShareBps: 500n,
};

/** Epoch 0 runs under the deployed minimum (8 days); governance lowers it to 3 from epoch 1 on. */
export const minSamplesAt = (epoch: number) => (epoch === 0 ? 8 : 3);

export function scenario(): EpochInput[] {
  const epochs: EpochInput[] = [];
  for (let e = 0; e < YEARS3_EPOCHS; e++) {
    const samples = new Map<string, Array<[number, bigint]>>();
    const days = e === 0 ? [0, 1, 2, 3, 4, 5, 6, 7] : [1, 6, 11];
    // p1: a constant 100 PFLOPS (the seed's network).
    samples.set(
      "p1",
      days.map((d) => [d, pf(100)]),
    );
    // p2: grows 5 PFLOPS per epoch with noise around the trend; a second, lower heartbeat on day 6 sets the day's minimum.
    const v2 = 50 + 5 * e;
    samples.set("p2", [
      ...days.map((d, i): [number, bigint] => [d, pf(v2 + (i % 3 === 0 ? 3 : i % 3 === 1 ? 0 : -2))]),
      [6, pf(v2 - 1)],
    ]);
    // p3: joins at epoch 10 with four samples (even count: mean of the two middle values), fractional capacity.
    if (e >= 10) {
      samples.set("p3", [
        [2, pf("300.5")],
        [5, pf(280)],
        [9, pf(310)],
        [12, pf("305.25")],
      ]);
    }
    // p4: flaky: samples in even epochs only (two days: below the minimum of 3 ⇒ GFL 0), three days every 4th.
    if (e % 2 === 0 && e > 0) {
      const d4: number[] = e % 4 === 0 ? [0, 7, 14] : [0, 7];
      samples.set(
        "p4",
        d4.map((d) => [d, pf(200)]),
      );
    }
    epochs.push({ samples, replenishDps: e === 30 ? pf(2) : e === 50 ? pf(1) : undefined });
  }
  return epochs;
}
