// OPS-03 end-to-end check: a local Hardhat node, the real deploy (deployProtocol), a scripted scenario, then the
// node's logs replayed through the BUILT subgraph and every aggregate compared with the contract getters at the
// same block. Used by subgraph/scripts/test.mjs; runnable alone:
//   node subgraph/scripts/e2e.mjs        (starts its own node on a free port, never 8545; stops it at the end)
import fs from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { spawn, execFile } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Contract, JsonRpcProvider, id as keccakId, parseUnits } from "ethers";
import { parseDeployment, Roles } from "@chx/sdk";
import { SubgraphReplay } from "../../tools/graph-host/replay.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
/** `--no-compile` when `npm test` has built the contracts (as in manifest.mjs `prebuilt`). */
const prebuilt = () => (process.env.CHX_PREBUILT === "1" ? ["--no-compile"] : []);
const subgraphDir = path.resolve(here, "..");
const repoRoot = path.resolve(subgraphDir, "..");

// ------------------------------------------------------------------------------------------------ node lifecycle
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => (port === 8545 ? freePort().then(resolve, reject) : resolve(port)));
    });
  });
}

/** Starts `hardhat node` on 127.0.0.1:<free port>; resolves once it answers JSON-RPC. stop() kills only it. */
export async function startNode({ log = () => {} } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn("npx", ["hardhat", "node", "--hostname", "127.0.0.1", "--port", String(port)], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // own process group: stop() ends npx and the node it started, nothing else
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  let exited = false;
  child.on("exit", () => (exited = true));
  const stop = () => {
    if (exited) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  // 4 minutes: on a loaded 2-core machine `hardhat node` alone took 76 s to answer here (CI runs the instrumented
  // build beside this step); an exited node still stops the wait at once.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (exited) throw new Error(`hardhat node exited early:\n${output.slice(-2000)}`);
    try {
      const r = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`hardhat node did not answer on ${url} within 240 s`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`node: ${url} (pid ${child.pid})`);
  return { url, port, pid: child.pid, stop };
}

/** Runs the real deploy against `url`, writing the record to a temp file (deployments/ is never touched). */
export async function deployTo(url, recordFile) {
  await new Promise((resolve, reject) => {
    execFile(
      "npx",
      ["hardhat", "run", ...prebuilt(), "subgraph/scripts/deploy-record.ts", "--network", "localhost"],
      { cwd: repoRoot, env: { ...process.env, CHX_LOCAL_RPC: url, CHX_SUBGRAPH_RECORD: recordFile } },
      (err, stdout, stderr) =>
        err ? reject(new Error(`deploy failed: ${err.message}\n${stdout}\n${stderr}`)) : resolve(),
    );
  });
  return parseDeployment(fs.readFileSync(recordFile, "utf8"), recordFile);
}

// ------------------------------------------------------------------------------------------------ checks
// Each protocol area contributes subgraph/e2e/<nn>-<area>.mjs exporting `scenario(ctx)` (actions on the chain,
// calling ctx.checkpoint() at the end of each phase) and `compare(ctx)` (indexed values vs getters at
// ctx.at = { blockTag }). They run in file-name order; a module adds its file and touches nothing here.

export async function loadChecks() {
  const dir = path.join(subgraphDir, "e2e");
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".mjs"))
    .sort();
  return Promise.all(files.map(async (f) => ({ file: f, ...(await import(pathToFileURL(path.join(dir, f)).href)) })));
}

function abiOf(contract) {
  return JSON.parse(fs.readFileSync(path.join(subgraphDir, "abis", `${contract}.json`), "utf8"));
}

/** ethers Contract for a deployment name (ABI from subgraph/abis, i.e. from artifacts/). */
export function contractOf(record, name, runner) {
  const c = record.contracts[name];
  if (!c) throw new Error(`e2e: the deployment has no "${name}"`);
  return new Contract(c.address, abiOf(c.contract), runner);
}

/** Runs every check file's scenario; returns the checkpoint blocks (the deploy's last block first). */
export async function runScenario(url, record, { checks } = {}) {
  checks ??= await loadChecks();
  const provider = new JsonRpcProvider(url, undefined, { cacheTimeout: -1 });
  const signers = await Promise.all([...Array(10).keys()].map((i) => provider.getSigner(i)));
  const checkpoints = [];
  const ctx = {
    provider,
    record,
    signers,
    Roles,
    keccakId,
    wad: (n) => parseUnits(String(n), 18),
    /** ctx.as(signer)("DPSToken") -> the contract connected to that signer */
    as: (signer) => (name) => contractOf(record, name, signer),
    send: async (p) => (await p).wait(),
    mine: async (seconds) => {
      await provider.send("evm_increaseTime", [seconds]);
      await provider.send("evm_mine", []);
    },
    checkpoint: async () => {
      checkpoints.push(await provider.getBlockNumber());
    },
  };
  await ctx.checkpoint(); // right after the deploy
  try {
    for (const c of checks) if (c.scenario) await c.scenario(ctx);
  } finally {
    provider.destroy();
  }
  return { checkpoints };
}

// ------------------------------------------------------------------------------------------------ replay + compare
async function rpc(provider, method, params) {
  return provider.send(method, params);
}

/** The replay's data source targets from a deployment record: data source name = deployment name. */
export function targetsOf(record) {
  return Object.fromEntries(
    Object.entries(record.contracts).map(([name, c]) => [name, { address: c.address, startBlock: c.deployBlock ?? 0 }]),
  );
}

/**
 * Replays every log from the first start block to the last checkpoint through the built subgraph (re-targeted to
 * the record's addresses), and at each checkpoint block runs every check file's `compare`. Returns the replay too
 * (its store and history answer the documented queries afterwards, without indexing again).
 */
export async function replayAndCompare(
  url,
  record,
  {
    buildDir = path.join(subgraphDir, "build"),
    checkpoints,
    log = console.log,
    dropLog = () => false,
    checks,
    stopOnMismatch = false,
  } = {},
) {
  checks ??= await loadChecks();
  const provider = new JsonRpcProvider(url, undefined, { cacheTimeout: -1, staticNetwork: true });
  const replay = await new SubgraphReplay(buildDir, { targets: targetsOf(record) }).init();
  const last = checkpoints[checkpoints.length - 1];
  const logs = (
    await rpc(provider, "eth_getLogs", [
      { fromBlock: "0x" + replay.startBlock.toString(16), toBlock: "0x" + last.toString(16) },
    ])
  ).filter((l, i, all) => !dropLog(l, i, all)); // dropLog: a test hook proving the comparison catches gaps
  const byBlock = new Map();
  for (const l of logs) {
    const n = Number(BigInt(l.blockNumber));
    if (!byBlock.has(n)) byBlock.set(n, []);
    byBlock.get(n).push(l);
  }
  const t0 = Date.now();
  const txs = new Map();
  const hashes = [...new Set(logs.map((l) => l.transactionHash))];
  for (const [h, tx] of await fetchAll(hashes, (h) => rpc(provider, "eth_getTransactionByHash", [h])))
    txs.set(h, tx);

  const results = [];
  const check = (name, ok, detail) => {
    results.push({ name, ok, detail });
    if (!ok) log(`  ✖ ${name}: ${detail}`);
  };
  const names = new Map(Object.entries(record.contracts).map(([n, c]) => [c.address.toLowerCase(), n]));
  const cache = new Map();
  const ctxBase = {
    replay,
    record,
    check,
    /** the last checkpoint block (the end of the scenario) */
    lastCheckpoint: last,
    /** eq(label, indexed value (string|bigint|undefined), on-chain value) */
    eq: (name, indexed, onChain) =>
      check(name, BigInt(indexed ?? 0) === BigInt(onChain), `subgraph ${indexed} ≠ chain ${onChain}`),
    /** read-only contract by deployment name */
    contract: (name) => {
      if (!cache.has(name)) cache.set(name, contractOf(record, name, provider));
      return cache.get(name);
    },
    /** lower-case address of a deployment (entity ids are lower-case hex) */
    address: (name) => record.contracts[name].address.toLowerCase(),
    /** deployment name of an address, or undefined */
    nameOf: (address) => names.get(String(address).toLowerCase()),
  };

  const blocks = [...new Set([...byBlock.keys(), ...checkpoints])].sort((x, y) => x - y);
  const headers = await fetchAll(blocks, (n) => rpc(provider, "eth_getBlockByNumber", ["0x" + n.toString(16), false]));
  const fetchMs = Date.now() - t0;
  let compareMs = 0;
  const cps = new Set(checkpoints);
  for (const n of blocks) {
    const blockLogs = byBlock.get(n) ?? [];
    const block = headers.get(n);
    if (blockLogs.length) replay.runBlock(block, blockLogs, (h) => txs.get(h));
    else replay.advance(block);
    if (cps.has(n)) {
      const c0 = Date.now();
      const ctx = { ...ctxBase, at: { blockTag: n }, tag: `@${n}`, block: n };
      // the check files compare concurrently: their getter calls interleave into JSON-RPC batches (ethers batches the
      // requests of one tick), where one awaited round trip per getter left the node and this process taking turns
      await Promise.all(checks.filter((c) => c.compare).map((c) => c.compare(ctx)));
      compareMs += Date.now() - c0;
      // a run that only has to show a gap is caught stops at the first checkpoint that catches it
      if (stopOnMismatch && results.some((x) => !x.ok)) break;
    }
  }
  provider.destroy();
  const ms = { fetch: fetchMs, compare: compareMs, total: Date.now() - t0 };
  return { results, counts: replay.counts(), handled: replay.handled, skipped: replay.skipped, replay, ms };
}

/**
 * `fetch` for every key, at most 64 requests in flight (ethers sends the requests of one tick as one JSON-RPC batch):
 * the replay needs every block header and transaction up front, and one round trip each was most of its fetch time.
 * Returns key → result.
 */
async function fetchAll(keys, fetch) {
  const out = new Map();
  for (let i = 0; i < keys.length; i += 64) {
    const chunk = keys.slice(i, i + 64);
    const got = await Promise.all(chunk.map(fetch));
    chunk.forEach((k, j) => out.set(k, got[j]));
  }
  return out;
}

/** The whole check with its own node (used when running this file alone; test.mjs composes the phases). */
export async function runE2E({ log = console.log } = {}) {
  const { buildSubgraph } = await import("./build.mjs");
  if (!(await buildSubgraph({ synthetic: true, log })).ok) throw new Error("the subgraph does not build");
  const node = await startNode({ log });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "chx-subgraph-"));
  try {
    const record = await deployTo(node.url, path.join(tmp, "localhost.json"));
    const { checkpoints } = await runScenario(node.url, record);
    return await replayAndCompare(node.url, record, { checkpoints, log });
  } finally {
    node.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await runE2E();
  const failed = r.results.filter((x) => !x.ok).length;
  console.log(`e2e: ${r.handled} logs replayed; entities ${JSON.stringify(r.counts)}`);
  console.log(`${r.results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
