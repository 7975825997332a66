#!/usr/bin/env node
// `npm run graph:local`: builds the CHX subgraph for the local chain and deploys it to the graph-node of
// subgraph/docker-compose.yml (create + deploy). For people with Docker; not exercised in CI here (no Docker).
//
//   npm run node                                             # terminal 1: the chain (see docker-compose.yml for Linux)
//   npm run deploy -- --network localhost                    # writes deployments/localhost.json
//   docker compose -f subgraph/docker-compose.yml up -d      # graph-node, IPFS, PostgreSQL
//   npm run graph:local                                      # this script
//
// Options: --node <admin url> (default http://127.0.0.1:8020), --ipfs <url> (http://127.0.0.1:5001),
// --name <subgraph name> (chx/chx), --version-label <label> (v<unix time>), --dry-run (build, print the commands).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSubgraph, graphBin, run } from "./build.mjs";
import { subgraphDir, repoRoot } from "./manifest.mjs";

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const node = opt("--node", "http://127.0.0.1:8020");
const ipfs = opt("--ipfs", "http://127.0.0.1:5001");
const name = opt("--name", "chx/chx");
const label = opt("--version-label", `v${Math.floor(Date.now() / 1000)}`);
const dryRun = argv.includes("--dry-run");
const fail = (msg) => {
  console.error(`graph:local: ${msg}`);
  process.exit(1);
};

/** Is `url` answering at all (any HTTP status)? */
async function reachable(url, init = {}) {
  try {
    await fetch(url, { ...init, signal: AbortSignal.timeout(3000) });
    return true;
  } catch {
    return false;
  }
}

export async function graphLocal() {
  const record = path.join(repoRoot, "deployments", "localhost.json");
  if (!fs.existsSync(record))
    fail(`${path.relative(repoRoot, record)} is missing: start the chain (npm run node) and run \`npm run deploy -- --network localhost\``);
  if (!dryRun) {
    if (!(await reachable(node, { method: "POST" })))
      fail(`no graph-node admin endpoint at ${node}: \`docker compose -f subgraph/docker-compose.yml up -d\``);
    if (!(await reachable(`${ipfs}/api/v0/version`, { method: "POST" })))
      fail(`no IPFS API at ${ipfs}: \`docker compose -f subgraph/docker-compose.yml up -d\``);
  }
  console.log(`graph:local: building for network localhost from ${path.relative(repoRoot, record)}`);
  const b = await buildSubgraph({ network: "localhost", log: (m) => console.log("  " + m) });
  if (!b.ok) fail("the subgraph does not build");
  const create = [graphBin(), "create", "--node", node, name];
  const deploy = [graphBin(), "deploy", "--node", node, "--ipfs", ipfs, "--version-label", label, name, "subgraph.yaml"];
  if (dryRun) {
    console.log(`graph:local: dry run, in ${path.relative(repoRoot, subgraphDir)}/:\n  node ${create.slice(1).join(" ")}\n  node ${deploy.slice(1).join(" ")}`);
    return;
  }
  const c = await run(process.execPath, create);
  // a second run finds the name taken: that is fine, deploy adds a version
  if (c.code !== 0 && !/already exists/i.test(c.out)) fail(`graph create failed:\n${c.out}`);
  console.log(c.code === 0 ? `graph:local: created ${name}` : `graph:local: ${name} exists`);
  const d = await run(process.execPath, deploy);
  if (d.code !== 0) fail(`graph deploy failed:\n${d.out}`);
  console.log(d.out.trim().split("\n").slice(-6).join("\n"));
  const endpoint = node.replace(/:8020\b/, ":8000") + `/subgraphs/name/${name}`;
  console.log(
    `graph:local: deployed ${name} ${label}; queries at ${endpoint}, e.g.\n` +
      `  curl -s ${endpoint} -H 'content-type: application/json' -d '{"query":"{ _meta { block { number } } tokens { symbol totalSupply } }"}'`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await graphLocal();
