#!/usr/bin/env node
// `npm run coverage`: Solidity line coverage of the whole suite (Hardhat 3's built-in coverage, instrumented by EDR,
// works with the solc-js compiler) and a floor gate on contracts/core.
//
//   node scripts/coverage.mjs               build the instrumented tree, run both runners, report, gate
//   node scripts/coverage.mjs --check       gate an existing coverage/lcov.info only (no test run)
//   node scripts/coverage.mjs --update      run, then raise the floor to the measured value (never lowers it)
//   node scripts/coverage.mjs --run mocha   (npm test) one runner, instrumented, on a tree already built; mocha runs
//   node scripts/coverage.mjs --run solidity  in a copy of the contracts-only tree (below), solidity in the tree
//   node scripts/coverage.mjs --report      (npm test) one report over both runners' data, then the gate
//
// The instrumented build lives in its own tree, `.coverage-build/` (artifacts, cache, TypeChain output: the
// CHX_BUILD_DIR switch of hardhat.config.ts), never in the plain artifacts/: instrumented bytecode exceeds EIP-170
// and must never reach the demo, the bench, the keepers' or the subgraph's tests, which may run at the same time.
// The floor (scripts/coverage-floor.json, percent of contracts/core lines) only ever goes up.
//
// Why the runners run apart (`npm test`, scripts/test.mjs): the mocha tests need only the instrumented contracts, the
// Solidity tests need their own compile as well (most of the tree's solc-js time), so the mocha run starts as soon as
// the contracts are built, beside the test compile, in `.coverage-mocha/` — a copy of the contracts-only tree, because
// the test compile rewrites the tree's cache (OpenZeppelin's validations.json) while the mocha tests deploy through
// the upgrades plugin. Each run saves its hits under coverage/data/<runner>/ (Hardhat's coverage manager) and runs
// `--no-compile`, so it has no statement metadata and its own report is empty; `--report` builds the contracts (a cache
// hit that still gathers the metadata) and writes one lcov.info + html over both runners (scripts/coverage-report.ts).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const FLOOR_FILE = "scripts/coverage-floor.json";
const LCOV = "coverage/lcov.info";
const SCOPE = "contracts/core/";
const argv = process.argv.slice(2);
const args = new Set(argv);
const TREE = ".coverage-build";
const MOCHA_TREE = ".coverage-mocha";
/** The instrumented tree's build switches (hardhat.config.ts, scripts/build.mjs); scripts/test.mjs sets the same. */
const COVERAGE_TREE = { CHX_BUILD_DIR: TREE, CHX_BUILD_COVERAGE: "1" };

function fail(message) {
  console.log(message);
  console.log("0 passed, 1 failed");
  process.exit(1);
}

/** `hardhat --coverage test <runner> --no-compile` in a built instrumented tree; the exit status. */
function runRunner(runner) {
  let dir = TREE;
  if (runner === "mocha") {
    // the contracts-only tree as it is now: the Solidity test compile may start writing into TREE at any moment
    rmSync(MOCHA_TREE, { recursive: true, force: true });
    cpSync(TREE, MOCHA_TREE, { recursive: true });
    dir = MOCHA_TREE;
  }
  const r = spawnSync("npx", ["hardhat", "--coverage", "test", runner, "--no-compile"], {
    stdio: "inherit",
    env: { ...process.env, CHX_BUILD_DIR: dir },
  });
  return r.status ?? 1;
}

/** One lcov.info + html over both runners' saved hits (scripts/coverage-report.ts). */
function report() {
  const r = spawnSync("npx", ["hardhat", "--coverage", "run", "--no-compile", "scripts/coverage-report.ts"], {
    stdio: "inherit",
    env: { ...process.env, CHX_BUILD_DIR: TREE },
  });
  return r.status ?? 1;
}

const only = argv[argv.indexOf("--run") + 1];
if (args.has("--run")) {
  if (only !== "mocha" && only !== "solidity") fail(`--run takes mocha or solidity, not ${only}`);
  // the runner's own summary ("N passing" / "N failing") is what npm test counts
  process.exit(runRunner(only));
}

if (args.has("--report")) {
  if (report() !== 0) fail("coverage report failed");
} else if (!args.has("--check")) {
  // the mocha tests import the plain TypeChain types (types/): build them first on a fresh checkout
  if (!existsSync("types/ethers-contracts/index.ts")) {
    if (spawnSync("node", ["scripts/build.mjs"], { stdio: "inherit" }).status !== 0) fail("plain build failed");
  }
  const t0 = Date.now();
  // The instrumented build first, through scripts/build.mjs: in a fresh clone one solc-js job for the whole project
  // runs out of wasm memory (HHE908), and build.mjs falls back to small jobs.
  const b = spawnSync("node", ["scripts/build.mjs"], { stdio: "inherit", env: { ...process.env, ...COVERAGE_TREE } });
  if (b.status !== 0) fail("coverage build failed");
  const statuses = ["solidity", "mocha"].map(runRunner);
  const rep = report();
  console.log(`coverage run: ${((Date.now() - t0) / 1000).toFixed(0)} s, exit ${statuses.join("/")}/${rep}`);
  if (statuses.some((st) => st !== 0) || rep !== 0) fail("coverage run failed");
}
if (!existsSync(LCOV)) fail(`${LCOV} not found: run without --check first`);

/** Per-file line hits from an lcov report (LH/LF records). */
function parseLcov(text) {
  const files = [];
  let cur;
  for (const line of text.split("\n")) {
    if (line.startsWith("SF:")) cur = { file: line.slice(3).replace(/^.*?(contracts\/)/, "$1"), hit: 0, found: 0 };
    else if (line.startsWith("LH:") && cur) cur.hit = Number(line.slice(3));
    else if (line.startsWith("LF:") && cur) cur.found = Number(line.slice(3));
    else if (line === "end_of_record" && cur) {
      files.push(cur);
      cur = undefined;
    }
  }
  return files;
}

const files = parseLcov(readFileSync(LCOV, "utf8")).filter((f) => f.file.startsWith(SCOPE));
let hit = 0;
let found = 0;
for (const f of files.sort((a, b) => a.file.localeCompare(b.file))) {
  hit += f.hit;
  found += f.found;
  const pct = f.found === 0 ? 100 : (100 * f.hit) / f.found;
  console.log(`${pct.toFixed(1).padStart(6)} %  ${String(f.hit).padStart(5)}/${String(f.found).padEnd(5)} ${f.file}`);
}
const measured = found === 0 ? 0 : (100 * hit) / found;
const floor = existsSync(FLOOR_FILE) ? JSON.parse(readFileSync(FLOOR_FILE, "utf8")).coreLinesPercent : 0;
console.log(`\ncontracts/core lines: ${measured.toFixed(2)} % (${hit}/${found}), floor ${floor} %`);

if (args.has("--update") && measured > floor) {
  const next = Math.floor(measured * 100) / 100;
  writeFileSync(FLOOR_FILE, JSON.stringify({ coreLinesPercent: next, target: 95 }, null, 2) + "\n");
  console.log(`floor raised to ${next} % in ${FLOOR_FILE}`);
}
const ok = found > 0 && measured + 1e-9 >= floor;
console.log(ok ? "1 passed, 0 failed" : "0 passed, 1 failed");
process.exit(ok ? 0 : 1);
