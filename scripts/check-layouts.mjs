#!/usr/bin/env node
// Storage-layout gate: every upgradeable core contract's layout (OpenZeppelin's own extraction, from the
// plugin's cache/validations.json) is compared with a committed baseline in storage-layouts/<Contract>.json
// using OpenZeppelin's upgrade-compatibility engine (getStorageUpgradeReport, the check `upgradeProxy` runs).
//   node scripts/check-layouts.mjs            check (a missing baseline fails)
//   node scripts/check-layouts.mjs --update   write baselines for contracts that have none (new contracts)
//   node scripts/check-layouts.mjs --accept X re-baseline contract X after a reviewed, compatible change
import { readFileSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { artifactFiles as artifacts } from "./lib/walk.mjs";

const require = createRequire(import.meta.url);
const core = require("@openzeppelin/upgrades-core");
const { getVersion, getStorageLayout, getStorageUpgradeReport, withValidationDefaults } = core;

const args = process.argv.slice(2);
const update = args.includes("--update");
const accept = args.includes("--accept") ? args[args.indexOf("--accept") + 1] : undefined;
const DIR = "storage-layouts";


const validations = JSON.parse(readFileSync("cache/validations.json", "utf8"));
const fqnInherits = new Map();
for (const run of validations.log) for (const [fqn, c] of Object.entries(run)) fqnInherits.set(fqn, c.inherit ?? []);

let failed = 0;
let checked = 0;
mkdirSync(DIR, { recursive: true });
for (const file of artifacts("artifacts/contracts/core")) {
  const a = JSON.parse(readFileSync(file, "utf8"));
  if (a.bytecode === undefined || a.bytecode === "0x") continue; // abstract / interface / library-less
  const fqn = `project/${a.sourceName}:${a.contractName}`;
  const inherits = fqnInherits.get(fqn) ?? [];
  if (!inherits.some((i) => i.endsWith(":UUPSUpgradeable"))) continue;
  const layout = getStorageLayout(validations, getVersion(a.bytecode, a.deployedBytecode));
  const baseFile = path.join(DIR, `${a.contractName}.json`);
  checked++;
  if (!existsSync(baseFile) || accept === a.contractName) {
    if (update || accept === a.contractName) {
      writeFileSync(baseFile, JSON.stringify(layout, null, 2) + "\n");
      console.log(`  ${a.contractName}: baseline written`);
    } else {
      console.log(`✖ ${a.contractName}: no baseline in ${DIR}/ — run \`node scripts/check-layouts.mjs --update\` and commit it`);
      failed++;
    }
    continue;
  }
  const baseline = JSON.parse(readFileSync(baseFile, "utf8"));
  const report = getStorageUpgradeReport(baseline, layout, withValidationDefaults({}));
  if (report.ok) {
    console.log(`  ${a.contractName}: layout compatible with baseline`);
  } else {
    console.log(`✖ ${a.contractName}: storage layout breaks the baseline\n${report.explain()}`);
    failed++;
  }
}
console.log(`${checked - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
