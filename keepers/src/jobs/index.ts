/**
 * Every job this keeper build knows. A module adds its job with one line (its file exports a JobFactory);
 * which jobs run is chosen by the config's "jobs" section (or `--jobs`).
 */
import type { JobFactory } from "./types.js";
import { checkerFactory } from "./checker-job.js";
import { mockTargetFactory } from "./mock-target.js";
import { emissionFactory } from "./emission.js";
import { liquidationsFactory } from "./liquidations.js";
import { volatilityFactory } from "./volatility.js";
import { tasksFactory } from "./tasks.js";
import { spotMatcherFactory } from "./spot-matcher.js";
import { bountiesFactory } from "./bounties.js";

export const jobFactories: JobFactory[] = [
  checkerFactory,
  mockTargetFactory,
  emissionFactory,
  liquidationsFactory,
  volatilityFactory,
  tasksFactory,
  spotMatcherFactory,
  bountiesFactory,
];
