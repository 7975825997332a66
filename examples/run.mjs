#!/usr/bin/env node
// `npm run test:examples` (and a step of `npm test`): a fresh local node, a fresh deployment through the real deploy
// script (record in a temporary folder), then every examples/*.ts in order, each in its own process (tsx), as a
// wallet would run it. Ends with `examples: N passed, N failed`.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const only = process.argv.slice(2);
const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function run(cmd, args, env, quiet = false) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const on = (stream) => (d) => {
      out += d;
      if (!quiet) stream.write(d);
    };
    child.stdout.on("data", on(process.stdout));
    child.stderr.on("data", on(process.stderr));
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
  });
}

// Up to 4 minutes: `hardhat node` loads the whole toolchain first, and on a loaded 2-core machine (CI runs the
// instrumented build beside this step) that alone took 76 s here. A node that exits stops the wait at once.
async function waitForNode(url, child) {
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited (${child.exitCode}) before answering`);
    try {
      const r = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no node at ${url}`);
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const dir = mkdtempSync(path.join(os.tmpdir(), "chx-examples-"));
const node = spawn("npx", ["hardhat", "node", "--hostname", "127.0.0.1", "--port", String(port)], {
  stdio: "ignore",
  detached: true,
});
let passed = 0;
let failed = 0;
try {
  await waitForNode(url, node);
  const env = {
    CHX_LOCAL_RPC: url,
    CHX_RPC_URL: url,
    CHX_DEPLOYMENTS_DIR: dir,
    CHX_DEPLOYMENT: path.join(dir, "localhost.json"),
  };
  console.log(`examples: deploying to a fresh node at ${url}`);
  // `npm test` has built the contracts (CHX_PREBUILT=1): `hardhat run` would otherwise also compile the Solidity tests
  const noCompile = process.env.CHX_PREBUILT === "1" ? ["--no-compile"] : [];
  const dep = await run(
    "npx",
    ["hardhat", "run", ...noCompile, "scripts/deploy.ts", "--network", "localhost"],
    env,
    true,
  );
  if (dep.code !== 0) {
    process.stdout.write(dep.out);
    throw new Error("the deploy failed");
  }
  const files = readdirSync("examples")
    .filter((f) => f.endsWith(".ts") && !f.startsWith("_"))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  for (const f of files) {
    const r = await run("npx", ["tsx", path.join("examples", f)], env);
    if (r.code === 0) passed++;
    else failed++;
  }
} catch (e) {
  console.error(`examples: ${e.message}`);
  failed++;
} finally {
  try {
    process.kill(-node.pid, "SIGTERM");
  } catch {
    // already gone
  }
  rmSync(dir, { recursive: true, force: true });
}
console.log(`examples: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
