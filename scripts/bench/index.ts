import type { BenchSuite } from "./lib.js";
import { tokensBench } from "./tokens.js";
import { emissionBench } from "./emission.js";
import { computeBench } from "./compute.js";
import { tasksBench } from "./tasks.js";

/** Every benchmark suite; a module adds one line. */
export const suites: BenchSuite[] = [tokensBench, computeBench, emissionBench, tasksBench];
