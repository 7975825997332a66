import type { BenchSuite } from "./lib.js";
import { tokensBench } from "./tokens.js";
import { emissionBench } from "./emission.js";
import { computeBench } from "./compute.js";
import { oracleBench, insuranceBench } from "./oracle-insurance.js";
import { clearingBench } from "./clearing.js";
import { spotBench } from "./spot.js";
import { tasksBench } from "./tasks.js";
import { perpsBench } from "./perps.js";
import { optionsBench } from "./options.js";
import { futuresBench } from "./futures.js";
import { lensBench } from "./lens.js";
import { stressBench } from "./stress.js";
import { seriesBench } from "./series.js";

/** Every benchmark suite; a module adds one line. */
export const suites: BenchSuite[] = [
  tokensBench,
  computeBench,
  emissionBench,
  oracleBench,
  insuranceBench,
  clearingBench,
  spotBench,
  tasksBench,
  perpsBench,
  optionsBench,
  futuresBench,
  lensBench,
  stressBench,
  seriesBench,
];
