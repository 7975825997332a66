#!/usr/bin/env node
// `npm run build`: contracts first, then tests (Hardhat caches each root file, so the second job only adds the
// tests) and TypeChain. If solc-js (wasm) crashes on a large job — HHE908 "memory access out of bounds", seen with
// solc 0.8.28 when forge-std and the Governor/AccessManager share a job — it falls back to small jobs: contracts in
// groups, then each test file alone. See docs/toolchain.md.
import { spawnSync } from "node:child_process";

import { walk } from "./lib/walk.mjs";

const GROUP = Number(process.env.CHX_BUILD_GROUP ?? 8);
const verbose = process.env.CHX_BUILD_VERBOSE === "1";

const sol = (dir) => walk(dir, (p) => p.endsWith(".sol"));

function chunks(files, size) {
  const out = [];
  for (let i = 0; i < files.length; i += size) out.push(files.slice(i, i + size));
  return out;
}

/** Runs `hardhat build`; returns true on success. Output is shown only when it fails for another reason. */
function hardhat(args) {
  if (verbose) console.log(`build: ${args.join(" ") || "(all)"}`);
  const r = spawnSync("npx", ["hardhat", "build", "--quiet", ...args], { encoding: "utf8" });
  const out = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (r.status === 0) return true;
  if (/HHE908|memory access out of bounds|Aborted\(\)/.test(out)) {
    console.log(`build: solc-js ran out of memory on ${args.length > 0 ? `${args.length} file(s)` : "the full job"}; splitting`);
    return false;
  }
  process.stdout.write(out);
  process.exit(r.status ?? 1);
}

if (hardhat(["--no-tests"]) && hardhat([])) process.exit(0);

const contracts = sol("contracts").filter((f) => !f.endsWith(".t.sol"));
const tests = [...sol("test"), ...sol("contracts").filter((f) => f.endsWith(".t.sol"))];
for (const group of chunks(contracts, GROUP)) if (!hardhat(["--no-tests", ...group])) process.exit(1);
for (const group of chunks(tests, 1)) if (!hardhat(["--no-contracts", ...group])) process.exit(1);
if (!hardhat([])) process.exit(1);
