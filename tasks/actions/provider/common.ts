/** Shared helpers of the provider tasks. */
import { parseUnits } from "ethers";
import { TaskError } from "../../lib.js";

export const wad = (x: string, what: string): bigint => {
  try {
    return parseUnits(x, 18);
  } catch {
    throw new TaskError(`"${x}" is not a valid ${what} (expected a decimal number such as 1.5).`);
  }
};

export const PERF = ["A", "B", "C", "D"];
export const RELIABILITY = ["1", "2", "3", "4"];
export const ENERGY = ["X", "Y", "Z"];
export const TIERS = ["Entry", "Low", "Medium", "High", "Ultra"];
