#!/usr/bin/env node
// `npm test`: build, lint, every test runner, then one closing line `N passed, N failed` (the form CI reads).
// Each step's output streams through; test counts come from the runners' own summaries, and every non-test
// step (build, lint, codegen) counts as one check that passed or failed. Exit code 1 on any failure.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";

// The hardhat tests run once, instrumented (Hardhat's built-in coverage): the same solidity + mocha suite, then the
// contracts/core line-coverage floor of scripts/coverage-floor.json. The instrumented tree (`.coverage-build/`) is
// built from the start, in the background, beside the plain build: the solc-js builds are single-threaded and the
// machine has two cores. The plain build compiles the contracts only (`--no-tests`): its users are the deploy-based
// steps (lint, gates, subgraph, keepers, relay, examples); the Solidity tests are compiled and run in the
// instrumented tree. Once the instrumented contracts are built, the mocha tests run on them (in a copy of that tree)
// while the Solidity tests compile (a light optimizer: hardhat.config.ts `coverageTests`); the Solidity tests run when
// their compile ends; one report over both runners and the floor close it (scripts/coverage.mjs). All of it runs in
// the background alongside the other steps; background output is printed when each ends. CHX_COVERAGE=0 runs the plain
// `hardhat test` instead, in line, after a full plain build (a quicker local loop; docs/toolchain.md, "Coverage").
const COVERAGE = process.env.CHX_COVERAGE !== "0";
const COVERAGE_TREE = { CHX_BUILD_DIR: ".coverage-build", CHX_BUILD_COVERAGE: "1" };
const steps = [
  ...(COVERAGE
    ? [
        {
          name: "coverage build: contracts (instrumented tree)",
          cmd: "node",
          args: ["scripts/build.mjs", "--no-tests"],
          env: COVERAGE_TREE,
          kind: "check",
          background: true,
          id: "coverage-contracts",
        },
      ]
    : []),
  {
    name: "build (solc-js + TypeChain)",
    cmd: "node",
    args: COVERAGE ? ["scripts/build.mjs", "--no-tests"] : ["scripts/build.mjs"],
    kind: "check",
  },
  ...(COVERAGE
    ? [
        {
          name: "coverage build: Solidity tests (instrumented tree, light optimizer)",
          cmd: "node",
          args: ["scripts/build.mjs", "--tests-only"],
          env: COVERAGE_TREE,
          kind: "check",
          background: true,
          id: "coverage-tests",
          after: ["coverage-contracts"],
        },
        {
          name: "hardhat test mocha --coverage",
          cmd: "node",
          args: ["scripts/coverage.mjs", "--run", "mocha"],
          kind: "tests",
          background: true,
          id: "coverage-mocha",
          after: ["coverage-contracts"],
        },
        {
          name: "hardhat test solidity --coverage",
          cmd: "node",
          args: ["scripts/coverage.mjs", "--run", "solidity"],
          kind: "tests",
          background: true,
          id: "coverage-solidity",
          after: ["coverage-tests"],
        },
        {
          name: "coverage report (both runners) + floor (contracts/core lines)",
          cmd: "node",
          args: ["scripts/coverage.mjs", "--report"],
          kind: "tests",
          background: true,
          after: ["coverage-mocha", "coverage-solidity"],
        },
      ]
    : []),
  { name: "lint", cmd: "npm", args: ["run", "--silent", "lint"], kind: "check" },
  {
    name: "gates (storage layouts vs baseline, contract sizes)",
    cmd: "npm",
    args: ["run", "--silent", "gates"],
    kind: "tests",
  },
  ...(COVERAGE
    ? []
    : [{ name: "hardhat test (solidity + mocha)", cmd: "npx", args: ["hardhat", "test"], kind: "tests" }]),
];
if (existsSync("subgraph/package.json") || existsSync("subgraph/subgraph.template.yaml")) {
  steps.push({
    name: "subgraph (codegen, build, mapping tests)",
    cmd: "npm",
    args: ["run", "--silent", "test:subgraph"],
    kind: "tests",
  });
}
if (existsSync("keepers/test")) {
  steps.push({
    name: "keepers (against a local node)",
    cmd: "npm",
    args: ["run", "--silent", "test:keepers"],
    kind: "tests",
  });
}

if (existsSync("relay/test/run.ts")) {
  steps.push({
    name: "relay (SQLite and PostgreSQL/PGlite, against a local node)",
    cmd: "npm",
    args: ["run", "--silent", "test:relay"],
    kind: "tests",
  });
}

if (COVERAGE && existsSync("test/integration/demo.test.ts")) {
  // the main job's short run, on the plain contracts (skipped inside the instrumented run: demo.test.ts)
  steps.push({
    name: "demo (a short run of the main job, plain contracts)",
    cmd: "npx",
    args: ["hardhat", "test", "mocha", "--no-compile", "test/integration/demo.test.ts"],
    kind: "tests",
  });
}

if (existsSync("examples/run.mjs")) {
  steps.push({
    name: "examples (docs/integrate.md, against a fresh local deployment)",
    cmd: "node",
    args: ["examples/run.mjs"],
    kind: "tests",
  });
}

const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
const started = Date.now();
// A recap printed just before the closing line, so that a log cut to its tail (CI keeps the last part) still says
// which step failed and which tests: each step's summary, and for a failing step the lines that name a failure.
const recap = [];
const FAILURE_LINE = /✗|✖|×|\bFAIL(?:ED)?\b|\bnot ok\b|\d+\) |AssertionError|Error:|failing|^killed:|^not run:/;
function failureLines(out) {
  const clean = out.replace(/\x1b\[[0-9;]*m/g, "");
  const lines = clean.split("\n").filter((l) => FAILURE_LINE.test(l) && !/\b0 failed\b|\b0 not ok\b/.test(l));
  return lines.slice(0, 25).map((l) => `    ${l.trim().slice(0, 300)}`);
}

// A deadline for the whole run (CHX_TEST_DEADLINE_S, default 65 minutes; CI allows 90 for install and test): a step
// still running then is killed with its process group and counted as failed, its output so far printed, and no step
// starts after it. A run that hangs or crawls (round 42: a solc-js fallback of 184 one-file jobs) still ends with its
// closing line and the name of the step that overran, instead of being cut off by CI without one.
const DEADLINE_S = Number(process.env.CHX_TEST_DEADLINE_S ?? 3900);
const live = new Set();
let overran = false;
const deadline = setTimeout(() => {
  overran = true;
  console.log(`\n=== deadline: ${DEADLINE_S} s passed; killing ${live.size} running step(s)`);
  for (const child of live) kill(child);
}, DEADLINE_S * 1000);
deadline.unref();
function kill(child) {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of live) kill(child);
    process.exit(1);
  });
}

function run(step, quiet = false) {
  if (overran) return Promise.resolve({ code: 1, out: `not run: the ${DEADLINE_S} s deadline had passed\n` });
  return new Promise((resolve) => {
    const child = spawn(step.cmd, step.args, {
      stdio: ["ignore", "pipe", "pipe"],
      // its own process group, so that the deadline kills the step's whole tree (npx → hardhat → solc-js, nodes)
      detached: true,
      // CHX_PREBUILT: the contracts are built by this run, so `hardhat run` in the steps skips its own build (it
      // would compile the Solidity tests into the plain tree: subgraph/scripts/manifest.mjs `prebuilt`)
      env: { ...process.env, CHX_PREBUILT: "1", ...(step.env ?? {}) },
    });
    live.add(child);
    let out = "";
    const onData = (stream) => (d) => {
      out += d.toString();
      if (!quiet) stream.write(d);
    };
    child.stdout.on("data", onData(process.stdout));
    child.stderr.on("data", onData(process.stderr));
    child.on("close", (code) => {
      live.delete(child);
      if (overran && code !== 0)
        out += `\nkilled: still running at the ${DEADLINE_S} s deadline (CHX_TEST_DEADLINE_S)\n`;
      resolve({ code: code ?? 1, out });
    });
  });
}

function account(step, code, out, secs) {
  if (step.kind === "tests") {
    // mocha: "N passing" / "N failing"; our node runners: "N passed, N failed"
    const clean = out.replace(/\x1b\[[0-9;]*m/g, "");
    let p = 0;
    let f = 0;
    // Hardhat prints each runner's summary and then a combined one last: take the last of each.
    const passing = [...clean.matchAll(/^\s*(\d+) passing/gm)].at(-1);
    const failing = [...clean.matchAll(/^\s*(\d+) failing/gm)].at(-1);
    if (passing !== undefined) p += Number(passing[1]);
    if (failing !== undefined) f += Number(failing[1]);
    for (const m of clean.matchAll(/^\s*(?:\w+: )?(\d+) passed, (\d+) failed/gm)) {
      p += Number(m[1]);
      f += Number(m[2]);
    }
    if (code !== 0 && f === 0) f = 1; // the runner died without a count: that is a failure
    passed += p;
    failed += f;
    const line = `=== ${step.name}: ${p} passed, ${f} failed (${secs}s)`;
    console.log(line);
    recap.push(line, ...(f > 0 ? failureLines(out) : []));
  } else if (code === 0) {
    passed += 1;
    const line = `=== ${step.name}: ok (${secs}s)`;
    console.log(line);
    recap.push(line);
  } else {
    failed += 1;
    const line = `=== ${step.name}: FAILED (exit ${code}, ${secs}s)`;
    console.log(line);
    recap.push(line, ...failureLines(out));
  }
}

const background = [];
const byId = new Map();
for (const step of steps) {
  if (only.length > 0 && !only.some((o) => step.name.includes(o))) continue;
  const t0 = Date.now();
  if (step.background === true) {
    // a step that needs other background steps (the instrumented tests need the instrumented build) starts when
    // those have ended, and only if they all passed
    const before = (step.after ?? []).map((id) => byId.get(id)).filter((p) => p !== undefined);
    const start = () => {
      const t1 = Date.now();
      return run(step, true).then((r) => ({ step, ...r, secs: ((Date.now() - t1) / 1000).toFixed(1) }));
    };
    const pending =
      before.length === 0
        ? start()
        : Promise.all(before).then((bs) => {
            const failedBefore = bs.find((b) => b.code !== 0);
            return failedBefore === undefined
              ? start()
              : { step, code: 1, out: `not run: "${failedBefore.step.name}" failed\n`, secs: "0.0" };
          });
    console.log(`\n=== ${step.name}: started in the background (its output follows the last step)`);
    if (step.id !== undefined) byId.set(step.id, pending);
    background.push(pending);
    continue;
  }
  console.log(`\n=== ${step.name}`);
  const { code, out } = await run(step);
  account(step, code, out, ((Date.now() - t0) / 1000).toFixed(1));
}
for (const pending of background) {
  const { step, code, out, secs } = await pending;
  console.log(`\n=== ${step.name} (background)`);
  process.stdout.write(out);
  account(step, code, out, secs);
}

console.log(`\n=== recap\n${recap.join("\n")}`);
console.log(`\ntotal time ${((Date.now() - started) / 1000).toFixed(1)}s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
