#!/usr/bin/env node
// `npm run build`: compiles in bounded groups, then one final full build (TypeChain included).
// Why: solc-js (wasm) runs out of linear memory ("memory access out of bounds", HHE908) when a clean build
// puts every contract, every OpenZeppelin dependency and forge-std into ONE compilation job. Building folder by
// folder keeps each job small; Hardhat caches each root file, so the final build only links what is left.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, existsSync } from "node:fs";
import path from "node:path";

// Contracts compile in groups; each test file alone (a test job pulls forge-std and most of the protocol).
const GROUP = Number(process.env.CHX_BUILD_GROUP ?? 8);
const TEST_GROUP = Number(process.env.CHX_BUILD_TEST_GROUP ?? 1);

function sol(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sol(p) : p.endsWith(".sol") ? [p] : [];
  });
}

function chunks(files, size = GROUP) {
  const out = [];
  for (let i = 0; i < files.length; i += size) out.push(files.slice(i, i + size));
  return out;
}

function hardhat(args) {
  if (process.env.CHX_BUILD_VERBOSE === "1") console.log(`build: ${args.join(" ")}`);
  const r = spawnSync("npx", ["hardhat", "build", "--quiet", ...args], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const contracts = sol("contracts").filter((f) => !f.endsWith(".t.sol"));
const tests = [...sol("test"), ...sol("contracts").filter((f) => f.endsWith(".t.sol"))];
for (const group of chunks(contracts)) hardhat(["--no-tests", ...group]);
for (const group of chunks(tests, TEST_GROUP)) hardhat(["--no-contracts", ...group]);
hardhat([]);
