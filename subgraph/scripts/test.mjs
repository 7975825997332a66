#!/usr/bin/env node
// `npm run test:subgraph`: everything the subgraph needs to be trusted, offline, ending with ONE line
// `N passed, N failed` (scripts/test.mjs sums it into `npm test`). Steps:
//   1. manifest (synthetic stand-in addresses: the WASM does not depend on them), graph codegen, graph build
//   2. test-runner self-test (BigDecimal golden vectors, immutability, schema checks, ABI, replay)
//   3. mapping tests: subgraph/tests/*.test.ts (matchstick-as) on the in-repo runner, while graph build runs
//   4. OPS-03 e2e: hardhat node on a free port (started at the beginning, in parallel with 1-3), the real deploy
//      into a temp record, a scripted scenario, its logs replayed through the built WASM re-targeted to the
//      deployed addresses, every aggregate compared with the contract getters at each checkpoint block; then
//      the same replay with one log dropped must be caught. The node is stopped at the end, always.
// Options: --no-e2e (skip 4), --only-e2e.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { id as keccakId } from "ethers";
import { buildSubgraph } from "./build.mjs";
import { startNode, deployTo, runScenario, replayAndCompare } from "./e2e.mjs";
import { runSelftest } from "../test-runner/selftest.mjs";
import { runMatchstick } from "../test-runner/matchstick.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "..", "..");
const args = new Set(process.argv.slice(2));
const DPS_EMITTED = keccakId("DPSEmitted(address,uint256,uint256,uint256)");
const withE2E = !args.has("--no-e2e");
const started = Date.now();
let passed = 0;
let failed = 0;
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
        ms = await runMatchstick({ out: (m) => lines.push("  " + m) });
      },
    });
    for (const s of b.steps) s.ok ? passed++ : failed++;
    summary("build", b.steps.filter((s) => s.ok).length, b.steps.filter((s) => !s.ok).length, t0);
    lines.forEach((l) => out(l));
    passed += ms.passed;
    failed += ms.failed;
    summary("mapping tests", ms.passed, ms.failed, t0);
    if (!b.ok) throw new Error("the subgraph does not build: later steps skipped");

    // 2. host self-test (needs build/)
    t0 = Date.now();
    out("== test-runner self-test");
    const st = await runSelftest({ out: (m) => (m.includes("✖") || m.startsWith("      ") ? out(m) : null) });
    passed += st.passed;
    failed += st.failed;
    summary("self-test", st.passed, st.failed, t0);
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
      const { checkpoints } = await runScenario(node.url, record);
      const r = await replayAndCompare(node.url, record, { checkpoints, log: (m) => out(m) });
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
      const misses = [...new Set(dropped.results.filter((x) => !x.ok).map((x) => x.name.replace(/ @\d+$/, "")))];
      const caught = misses.length > 0;
      out(
        `  ${caught ? "✔" : "✖"} a replay missing one DPSEmitted log is caught (${misses.join("; ") || "not caught"})`,
      );
      caught ? passed++ : failed++;
    }
    summary("e2e", passed - p0, failed - f0, t0);
  }
} catch (e) {
  out(`✖ ${e.message}`);
  failed++;
} finally {
  cleanup();
}

out(`subgraph: total ${secs(started)}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
