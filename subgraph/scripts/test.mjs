#!/usr/bin/env node
// `npm run test:subgraph`: everything the subgraph needs to be trusted, offline. Steps:
//   1. manifest (synthetic stand-in addresses: the WASM does not depend on them), graph codegen, the generated
//      zero-initialisers and event factories, graph build
//   2. tools/graph-host's own tests (host, replay, history, query layer, codegen, matchstick runner on a fixture)
//      and the subgraph's build guards (no mapping calls the chain)
//   3. mapping tests: subgraph/tests/*.test.ts (matchstick-as, one file per data source) on tools/graph-host, while
//      graph build runs
//   4. OPS-03 e2e: hardhat node on a free port (started at the beginning, in parallel with 1-3), the real deploy
//      into a temp record, a scripted scenario, its logs replayed through the built WASM re-targeted to the
//      deployed addresses, every aggregate compared with the contract getters at each checkpoint block, the
//      indexing speed reported (events/s, slowest handlers, most store operations in one call); then the same
//      replay with one log dropped must be caught. The node is stopped at the end, always.
//   5. every query of docs/queries.md validated against graph-node's derived query schema and executed over the
//      store step 4 indexed (no second indexing), with its checks (subgraph/queries/*.mjs).
// Output: the line `queries: N passed, M failed` for step 5 (N + M = the queries in docs/queries.md), then ONE
// closing line `N passed, N failed` for steps 1-4. scripts/test.mjs (npm test) sums both kinds of line, so the
// closing line does not count the queries again; the exit code covers everything.
// Options: --no-e2e (skip 4 and 5), --only-e2e.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { id as keccakId } from "ethers";
import { buildSubgraph } from "./build.mjs";
import { startNode, deployTo, runScenario, replayAndCompare } from "./e2e.mjs";
import { runHostTests } from "../../tools/graph-host/test/run.mjs";
import { runMatchstick } from "../../tools/graph-host/matchstick.mjs";
import { runGuards } from "./guards.mjs";
import { runDocQueries } from "./queries.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..", "..");
const args = new Set(process.argv.slice(2));
const DPS_EMITTED = keccakId("DPSEmitted(address,uint256,uint256,uint256)");
/** Store operations one handler call may make: a constant, independent of how many entities exist (issue 24). */
const MAX_STORE_OPS = 40;
const withE2E = !args.has("--no-e2e");
const started = Date.now();
let passed = 0;
let failed = 0;
let queries = null;
let speed = null;
const out = (m) => console.log(m);
const secs = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
// Sub-summaries never look like the closing line (`N passed, N failed` or `N passing`): the caller sums those.
const summary = (name, p, f, t0) => out(`[${name}] ${p} ok, ${f} not ok — ${secs(t0)}`);

let node;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "chx-subgraph-"));
const cleanup = () => {
  node?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
};
for (const sig of ["SIGINT", "SIGTERM"])
  process.on(sig, () => {
    cleanup();
    process.exit(130);
  });
process.on("exit", cleanup);

// The ABIs come from artifacts/: compile if this checkout has never been built.
if (!fs.existsSync(path.join(repoRoot, "artifacts", "contracts"))) {
  const { run } = await import("./build.mjs");
  out("artifacts/ missing: npx hardhat build --no-tests");
  const r = await run("npx", ["hardhat", "build", "--no-tests", "--quiet"], { cwd: repoRoot });
  if (r.code !== 0) out(r.out);
}

// 4a. start the node and deploy while the subgraph builds and its unit tests run
const chain = withE2E
  ? (async () => {
      const t0 = Date.now();
      node = await startNode();
      const record = await deployTo(node.url, path.join(tmp, "localhost.json"));
      return { record, ms: Date.now() - t0 };
    })()
  : null;
chain?.catch(() => {}); // awaited below; keep an early failure from being unhandled meanwhile

try {
  if (!args.has("--only-e2e")) {
    // 1. build; 3. the mapping tests compile and run while `graph build` runs (they need only generated/)
    let t0 = Date.now();
    out("== subgraph build (manifest, graph codegen, graph build) and mapping tests (subgraph/tests)");
    const lines = [];
    let ms = { passed: 0, failed: 0 };
    const b = await buildSubgraph({
      synthetic: true,
      log: (m) => out("  " + m),
      duringBuild: async () => {
        await new Promise((r) => setImmediate(r)); // let `graph build` start first
        ms = await runMatchstick({ root: path.resolve(here, ".."), out: (m) => lines.push("  " + m) });
      },
    });
    for (const s of b.steps) s.ok ? passed++ : failed++;
    summary("build", b.steps.filter((s) => s.ok).length, b.steps.filter((s) => !s.ok).length, t0);
    lines.forEach((l) => out(l));
    passed += ms.passed;
    failed += ms.failed;
    summary("mapping tests", ms.passed, ms.failed, t0);
    if (!b.ok) throw new Error("the subgraph does not build: later steps skipped");

    // 2. the host's own tests (a fixture subgraph, nothing of CHX) and the subgraph's build guards (need build/)
    t0 = Date.now();
    out("== tools/graph-host tests");
    const quiet = (m) => (m.includes("✖") || m.startsWith("      ") ? out(m) : null);
    const st = await runHostTests({ out: quiet });
    passed += st.passed;
    failed += st.failed;
    summary("graph-host", st.passed, st.failed, t0);
    t0 = Date.now();
    const gd = await runGuards({ out: (m) => out("  " + m) });
    passed += gd.passed;
    failed += gd.failed;
    summary("build guards", gd.passed, gd.failed, t0);
  }

  // 4b. e2e
  if (chain) {
    const t0 = Date.now();
    const [p0, f0] = [passed, failed];
    out("== OPS-03 end-to-end (local node, real deploy, scenario, replay, compare with getters)");
    let record;
    try {
      ({ record } = await chain);
      out(`  node ${node.url}, deployed ${Object.keys(record.contracts).length} contracts`);
      passed++;
    } catch (e) {
      out(`  ✖ local node + deploy: ${e.message}`);
      failed++;
    }
    if (record) {
      const ts = Date.now();
      const { checkpoints } = await runScenario(node.url, record);
      const scenarioMs = Date.now() - ts;
      const r = await replayAndCompare(node.url, record, { checkpoints, log: (m) => out(m) });
      out(
        `  time: scenario ${(scenarioMs / 1000).toFixed(1)} s; replay ${(r.ms.total / 1000).toFixed(1)} s ` +
          `(blocks and transactions fetched in ${(r.ms.fetch / 1000).toFixed(1)} s, getters compared in ` +
          `${(r.ms.compare / 1000).toFixed(1)} s)`,
      );
      speed = r.replay.stats();
      const bad = r.results.filter((x) => !x.ok);
      passed += r.results.length - bad.length;
      failed += bad.length;
      out(`  ${r.handled} logs replayed over checkpoints ${checkpoints.join(", ")}; ${r.results.length} comparisons`);
      out(
        `  entities: ${Object.entries(r.counts)
          .map(([k, v]) => `${k} ${v}`)
          .join(", ")}`,
      );
      const checked = [...new Set(r.results.map((x) => x.name.replace(/ @\d+$/, "")))];
      out(`  compared at every checkpoint: ${checked.join("; ")}`);

      // the comparison must have teeth: replay without the first DPSEmitted log and expect a mismatch
      const dropped = await replayAndCompare(node.url, record, {
        checkpoints,
        log: () => {},
        stopOnMismatch: true,
        dropLog: (l, i, all) => i === all.findIndex((x) => x.topics[0] === DPS_EMITTED),
      });
      out(`  control replay (one log dropped, stops at the first mismatch): ${(dropped.ms.total / 1000).toFixed(1)} s`);
      const misses = [...new Set(dropped.results.filter((x) => !x.ok).map((x) => x.name.replace(/ @\d+$/, "")))];
      const caught = misses.length > 0;
      out(
        `  ${caught ? "✔" : "✖"} a replay missing one DPSEmitted log is caught (${misses.join("; ") || "not caught"})`,
      );
      caught ? passed++ : failed++;
      reportSpeed(speed);
      summary("e2e", passed - p0, failed - f0, t0);

      // 5. the documented queries over the store this run indexed
      const tq = Date.now();
      out("== docs/queries.md: every query validated against graph-node's query schema and run over the indexed store");
      queries = await runDocQueries({ replay: r.replay, record, url: node.url, checkpoints, out: (m) => out(m) });
      out(`  ${secs(tq)}`);
    } else summary("e2e", passed - p0, failed - f0, t0);
  }
} catch (e) {
  out(`✖ ${e.message}`);
  failed++;
} finally {
  cleanup();
}

/** Indexing speed of the e2e replay: events/s over the replay, slowest handlers, the most store operations of a call. */
function reportSpeed(s) {
  if (!s) return;
  const slow = s.handlers.filter((h) => h.calls >= 3).slice(0, 3);
  const ops = [...s.handlers].sort((a, b) => b.maxOps - a.maxOps)[0];
  out(`  indexing speed: ${s.events} events in ${(s.ms / 1000).toFixed(2)} s = ${s.eventsPerSecond.toFixed(0)} events/s`);
  out(
    `  slowest handlers (mean, ≥ 3 calls): ${slow.map((h) => `${h.name} ${h.meanMs.toFixed(2)} ms × ${h.calls}`).join("; ")}` +
      `; slowest single call: ${[...s.handlers].sort((a, b) => b.maxMs - a.maxMs)[0]?.name}`,
  );
  out(`  most store operations in one handler call: ${ops?.name} ${ops?.maxOps} (no handler reads or writes a growing list)`);
  // No handler's cost may grow with the number of entities: a call touches a bounded set of rows.
  const over = s.handlers.filter((h) => h.maxOps > MAX_STORE_OPS);
  out(`  ${over.length ? "✖" : "✔"} every handler call made ≤ ${MAX_STORE_OPS} store operations${over.length ? ": " + over.map((h) => `${h.name} ${h.maxOps}`).join(", ") : ""}`);
  over.length ? failed++ : passed++;
}

out(`subgraph: total ${secs(started)}`);
if (queries) console.log(`queries: ${queries.passed} passed, ${queries.failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
const ok = failed === 0 && passed > 0 && (queries === null || (queries.failed === 0 && queries.passed === queries.total));
process.exit(ok ? 0 : 1);
