#!/usr/bin/env node
// Contract-size gate on the production build (artifacts/, never the instrumented coverage tree):
//  - every deployable contract outside mocks must fit EIP-170's 24,576-byte runtime limit;
//  - every core/periphery contract must also keep the 4 KB headroom of issue 18's shape target (20,480 bytes),
//    except those listed in OVER_TARGET, which are known to be over it and tracked in docs/gas.md. A listed
//    contract that comes back under the target fails too, so that the list is shortened rather than left stale.
import { readFileSync } from "node:fs";
import { artifactFiles as artifacts } from "./lib/walk.mjs";

const LIMIT = 24_576;
const TARGET = 20_480;
const OVER_TARGET = new Set([]);
let passed = 0;
let failed = 0;
const rows = [];
for (const dir of ["artifacts/contracts/core", "artifacts/contracts/periphery", "artifacts/contracts/libraries"]) {
  for (const file of artifacts(dir)) {
    const a = JSON.parse(readFileSync(file, "utf8"));
    const size = (a.deployedBytecode?.length ?? 2) / 2 - 1;
    if (size <= 0) continue;
    const targeted = !dir.endsWith("libraries");
    let why = "";
    if (size > LIMIT) why = "over EIP-170";
    else if (targeted && size > TARGET && !OVER_TARGET.has(a.contractName)) why = `over the ${TARGET}-byte target`;
    else if (targeted && size <= TARGET && OVER_TARGET.has(a.contractName))
      why = "under target: drop it from OVER_TARGET";
    rows.push([a.contractName, size, why]);
    if (why === "") passed++;
    else failed++;
  }
}
rows.sort((x, y) => y[1] - x[1]);
for (const [name, size, why] of rows)
  console.log(
    `${why ? "✖" : " "} ${name.padEnd(28)} ${String(size).padStart(6)} bytes (${((size / LIMIT) * 100).toFixed(0)}%)${why ? `  ${why}` : ""}`,
  );
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
