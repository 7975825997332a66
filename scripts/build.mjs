#!/usr/bin/env node
// `npm run build`: contracts first, then tests (Hardhat caches each root file, so the second job only adds the
// tests) and TypeChain. If solc-js (wasm) crashes on a large job — HHE908 "memory access out of bounds", seen with
// solc 0.8.28 when forge-std and the Governor/AccessManager share a job — it splits the job in halves, and each half
// again while it still crashes (a bisection: the crash comes within seconds, before any codegen, so a failed try is
// cheap, while every extra job recompiles the contracts its tests import). Round 42's tests outgrew one job of the
// instrumented tree; the old fallback, each of 184 test files alone at ~35 s each, took CI past its 90 minutes.
// See docs/toolchain.md. Then the SDK (packages/sdk): ABIs, enums, EIP-712 types and
// TypeChain handles generated from the artifacts, compiled to packages/sdk/dist (ESM + types), incrementally.
// Progress: one line per step and, while solc-js works (a first build takes minutes on 2 cores), a line every 20 s.
// `--sdk-only` rebuilds the SDK from the current artifacts. `--no-tests` compiles the contracts (and TypeChain, the
// SDK) but not the Solidity tests: `npm test` uses it for the plain tree, whose only users are the deploy-based
// steps (lint, gates, subgraph, keepers, relay, examples), while the hardhat tests run in the instrumented tree.
import { spawnSync, spawn } from "node:child_process";

import { walk } from "./lib/walk.mjs";

// CHX_BUILD_COVERAGE=1 (scripts/coverage.mjs): the instrumented build, with the same small-job fallback, so a fresh
// clone's coverage tree never depends on one solc-js job holding the whole project.
const COVERAGE = process.env.CHX_BUILD_COVERAGE === "1" ? ["--coverage"] : [];
// In that tree the Solidity tests are built with the light `coverageTests` profile (hardhat.config.ts), alone
// (`--no-contracts`): a build of contracts and tests under that profile would recompile the contracts too.
const TESTS =
  COVERAGE.length > 0
    ? { global: ["--build-profile", "coverageTests"], only: ["--no-contracts"] }
    : { global: [], only: [] };
const verbose = process.env.CHX_BUILD_VERBOSE === "1";

const sol = (dir) => walk(dir, (p) => p.endsWith(".sol"));

function chunks(files, size) {
  const out = [];
  for (let i = 0; i < files.length; i += size) out.push(files.slice(i, i + size));
  return out;
}

const started = Date.now();
const secs = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

/** Runs a command, printing "still working" every 20 s; resolves to { status, out }. */
function run(cmd, args, label, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setInterval(() => console.log(`build: ${label} … (${secs()})`), 20_000);
    child.on("close", (status) => {
      clearInterval(timer);
      resolve({ status, out });
    });
  });
}

/** Runs `hardhat build`; returns true on success. Output is shown only when it fails for another reason. */
async function hardhat(args, label, global = []) {
  if (verbose) console.log(`build: ${[...global, ...args].join(" ") || "(all)"}`);
  // the instrumented tree's test jobs ask solc for the tests' outputs only (scripts/hardhat/test-outputs.ts)
  const env = COVERAGE.length > 0 && args.includes("--no-contracts") ? { CHX_TEST_OUTPUTS_ONLY: "1" } : {};
  const r = await run("npx", ["hardhat", ...COVERAGE, ...global, "build", "--quiet", ...args], label, env);
  const out = r.out;
  if (r.status === 0) return true;
  if (/HHE908|memory access out of bounds|Aborted\(\)/.test(out)) {
    const files = args.filter((a) => !a.startsWith("--")).length;
    console.log(`build: solc-js ran out of memory on ${files > 0 ? `${files} file(s)` : "the full job"}; splitting`);
    return false;
  }
  process.stdout.write(out);
  process.exit(r.status ?? 1);
}

const CONTRACTS_ONLY = process.argv.includes("--no-tests");
// `--tests-only`: the Solidity tests alone, on contracts this tree has already built (`npm test` builds the
// instrumented tree's contracts first, then its tests and its mocha run side by side: scripts/test.mjs).
const TESTS_ONLY = process.argv.includes("--tests-only");

async function compile() {
  console.log("build: compiling contracts (solc-js; a first build takes several minutes, later ones seconds)");
  if (CONTRACTS_ONLY) {
    if (await hardhat(["--no-tests"], "compiling contracts, TypeChain")) return;
  } else if (TESTS_ONLY) {
    if (await hardhat(["--no-contracts"], "compiling tests", TESTS.global)) return;
  } else if (
    (await hardhat(["--no-tests"], "compiling contracts")) &&
    (await hardhat(TESTS.only, "compiling tests, TypeChain", TESTS.global))
  )
    return;
  const contracts = sol("contracts").filter((f) => !f.endsWith(".t.sol"));
  const tests = [...sol("test"), ...sol("contracts").filter((f) => f.endsWith(".t.sol"))].sort();
  if (!TESTS_ONLY && !(await bisect(contracts, "--no-tests", "contracts", []))) process.exit(1);
  if (CONTRACTS_ONLY) {
    if (!(await hardhat(["--no-tests"], "TypeChain"))) process.exit(1);
    return;
  }
  if (!(await bisect(tests, "--no-contracts", "tests", TESTS.global))) process.exit(1);
  if (!(await hardhat(COVERAGE.length > 0 ? ["--no-tests"] : [], "TypeChain"))) process.exit(1);
}

/**
 * Compiles `files` (sorted by path, so a directory's files, which share imports, stay in one job) as halves, and
 * each half that solc-js cannot hold as halves again, down to one file. False if a single file does not fit.
 */
async function bisect(files, only, what, global) {
  const pending = chunks(files, Math.ceil(files.length / 2));
  let jobs = 0;
  while (pending.length > 0) {
    const group = pending.shift();
    jobs++;
    const label = `${what}: ${group.length} file(s) from ${group[0]} (job ${jobs})`;
    if (await hardhat([only, ...group], label, global)) continue;
    if (group.length === 1) return false;
    pending.unshift(...chunks(group, Math.ceil(group.length / 2)));
  }
  console.log(`build: ${what} compiled in ${jobs} job(s) (${secs()})`);
  return true;
}

/** packages/sdk: generate from the plain artifacts, then tsc (incremental). Skipped in the coverage tree. */
async function sdk() {
  if (process.env.CHX_BUILD_DIR !== undefined) return;
  console.log(`build: SDK (packages/sdk) (${secs()})`);
  const gen = spawnSync("node", ["packages/sdk/scripts/generate.mjs"], { encoding: "utf8" });
  if (gen.status !== 0) {
    process.stdout.write(`${gen.stdout ?? ""}${gen.stderr ?? ""}`);
    process.exit(gen.status ?? 1);
  }
  if (verbose) process.stdout.write(gen.stdout);
  const tsc = await run("npx", ["tsc", "-p", "packages/sdk/tsconfig.json"], "compiling the SDK");
  if (tsc.status !== 0) {
    process.stdout.write(tsc.out);
    process.exit(tsc.status ?? 1);
  }
}

if (!process.argv.includes("--sdk-only")) await compile();
await sdk();
console.log(`build: done (${secs()})`);
