#!/usr/bin/env node
// Contract-size gate: every deployable contract outside mocks must fit EIP-170's 24,576-byte runtime limit.
import { readFileSync } from "node:fs";
import { artifactFiles as artifacts } from "./lib/walk.mjs";

const LIMIT = 24_576;
let passed = 0;
let failed = 0;
const rows = [];
for (const dir of ["artifacts/contracts/core", "artifacts/contracts/periphery", "artifacts/contracts/libraries"]) {
  for (const file of artifacts(dir)) {
    const a = JSON.parse(readFileSync(file, "utf8"));
    const size = (a.deployedBytecode?.length ?? 2) / 2 - 1;
    if (size <= 0) continue;
    rows.push([a.contractName, size]);
    if (size > LIMIT) failed++;
    else passed++;
  }
}
rows.sort((x, y) => y[1] - x[1]);
for (const [name, size] of rows) console.log(`${size > LIMIT ? "✖" : " "} ${name.padEnd(28)} ${String(size).padStart(6)} bytes (${((size / LIMIT) * 100).toFixed(0)}%)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
