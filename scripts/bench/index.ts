import type { BenchSuite } from "./lib.js";
import { tokensBench } from "./tokens.js";
import { spotBench } from "./spot.js";

/** Every benchmark suite; a module adds one line. */
export const suites: BenchSuite[] = [tokensBench, spotBench];
