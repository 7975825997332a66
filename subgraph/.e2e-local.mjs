// local-only wrapper (not committed): e2e with `hardhat run --no-compile` (full build crashes solc-js here)
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startNode, runScenario, replayAndCompare } from "./scripts/e2e.mjs";
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const node = await startNode({ log: console.log });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "chx-sgc-"));
try {
  const recordFile = path.join(tmp, "localhost.json");
  await new Promise((res, rej) =>
    execFile("npx", ["hardhat", "run", "--no-compile", "subgraph/scripts/deploy-record.ts", "--network", "localhost"],
      { cwd: repoRoot, env: { ...process.env, CHX_LOCAL_RPC: node.url, CHX_SUBGRAPH_RECORD: recordFile } },
      (err, so, se) => (err ? rej(new Error(err.message + so + se)) : res())));
  const record = JSON.parse(fs.readFileSync(recordFile, "utf8"));
  const { checkpoints } = await runScenario(node.url, record);
  const r = await replayAndCompare(node.url, record, { checkpoints });
  const failed = r.results.filter((x) => !x.ok).length;
  for (const x of r.results) if (/compute/.test(x.name)) console.log(x.ok ? "  ✔" : "  ✖", x.name);
  console.log(`e2e: ${r.handled} logs replayed; entities ${JSON.stringify(r.counts)}`);
  console.log(`${r.results.length - failed} passed, ${failed} failed`);
} finally {
  node.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
// control: drop the first ProviderCHMinted log, expect compute mismatches
import { id as keccakText } from "ethers";
if (process.env.CONTROL) {
  const topic = keccakText("ProviderCHMinted(address,address,uint256,uint256)");
  const node2 = await startNode({ log: console.log });
  const tmp2 = fs.mkdtempSync(path.join(os.tmpdir(), "chx-sgc-"));
  try {
    const recordFile = path.join(tmp2, "localhost.json");
    await new Promise((res, rej) =>
      execFile("npx", ["hardhat", "run", "--no-compile", "subgraph/scripts/deploy-record.ts", "--network", "localhost"],
        { cwd: repoRoot, env: { ...process.env, CHX_LOCAL_RPC: node2.url, CHX_SUBGRAPH_RECORD: recordFile } },
        (err, so, se) => (err ? rej(new Error(err.message + so + se)) : res())));
    const record = JSON.parse(fs.readFileSync(recordFile, "utf8"));
    const { checkpoints } = await runScenario(node2.url, record);
    let dropped = false;
    const r = await replayAndCompare(node2.url, record, { checkpoints, log: () => {}, dropLog: (l) => !dropped && l.topics[0] === topic && (dropped = true) });
    const bad = r.results.filter((x) => !x.ok).map((x) => x.name);
    console.log(`control: ${bad.length} failed: ${bad.slice(0, 6).join(" | ")}`);
  } finally {
    node2.stop();
    fs.rmSync(tmp2, { recursive: true, force: true });
  }
}
