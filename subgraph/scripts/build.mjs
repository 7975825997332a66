#!/usr/bin/env node
// manifest + `graph codegen` + `graph build`, offline, with the pinned graph-cli from node_modules.
//   node subgraph/scripts/build.mjs --network sepolia        (addresses from deployments/sepolia.json)
//   node subgraph/scripts/build.mjs --synthetic              (stand-in addresses: compile and test only)
// `graph build` is skipped when its inputs (manifest, schema, ABIs, src/, toolchain versions) are unchanged.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { generate, subgraphDir, repoRoot } from "./manifest.mjs";
import { entityDefaults, eventFactories, mockModule } from "../../tools/graph-host/codegen.mjs";
import { loadYaml } from "../../tools/graph-host/replay.mjs";

const require = createRequire(import.meta.url);

export function graphBin() {
  const pkg = require.resolve("@graphprotocol/graph-cli/package.json", { paths: [subgraphDir] });
  return path.join(path.dirname(pkg), "bin", "run.js");
}

/** Runs a command; resolves { code, out } with stdout+stderr (ANSI stripped). */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: subgraphDir, stdio: ["ignore", "pipe", "pipe"], ...opts });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code: code ?? 1, out: out.replace(/\x1b\[[0-9;]*m/g, "") }));
  });
}

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

function inputsHash(dirs) {
  const h = crypto.createHash("sha256");
  const files = [
    path.join(subgraphDir, "subgraph.yaml"),
    path.join(subgraphDir, "schema.graphql"),
    // generated/factories/ only serves the mapping tests: it does not change what graph build compiles
    ...dirs.flatMap((d) =>
      walk(path.join(subgraphDir, d)).filter((f) => !f.endsWith(".sha256") && !f.includes(`${path.sep}factories${path.sep}`)),
    ),
  ];
  for (const f of files) h.update(path.relative(subgraphDir, f)).update("\0").update(fs.readFileSync(f)).update("\0");
  for (const p of ["@graphprotocol/graph-cli/package.json", "@graphprotocol/graph-ts/package.json"])
    h.update(JSON.parse(fs.readFileSync(require.resolve(p, { paths: [subgraphDir] }), "utf8")).version);
  return h.digest("hex");
}

/**
 * @returns {Promise<{ok:boolean, steps:Array<{name:string, ok:boolean, ms:number, note?:string, out?:string}>}>}
 */
export async function buildSubgraph({
  network = "hardhat",
  deployment,
  synthetic = false,
  log = () => {},
  // work that needs only `generated/` (e.g. compiling the mapping tests) runs while `graph build` runs
  duringBuild = async () => {},
} = {}) {
  const steps = [];
  const step = async (name, fn) => {
    const t0 = Date.now();
    try {
      const r = (await fn()) ?? {};
      steps.push({ name, ok: r.ok !== false, ms: Date.now() - t0, note: r.note, out: r.out });
    } catch (e) {
      steps.push({ name, ok: false, ms: Date.now() - t0, out: e.message });
    }
    const s = steps[steps.length - 1];
    log(`${s.ok ? "✔" : "✖"} ${name}${s.note ? ` (${s.note})` : ""} — ${(s.ms / 1000).toFixed(1)} s`);
    if (!s.ok && s.out) log(s.out.split("\n").slice(-40).join("\n"));
    return s.ok;
  };
  const ok =
    (await step("manifest", () => {
      const r = generate({ network, deployment, synthetic, log: () => {} });
      return { note: `${r.dataSources} data sources for ${r.network}` };
    })) &&
    (await step("graph codegen", async () => {
      const stamp = path.join(subgraphDir, "generated", ".inputs.sha256");
      const hash = inputsHash(["abis"]);
      if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash) return { note: "inputs unchanged, cached" };
      const r = await run(process.execPath, [graphBin(), "codegen", "subgraph.yaml"]);
      if (r.code === 0) fs.writeFileSync(stamp, hash);
      return { ok: r.code === 0, out: r.out };
    })) &&
    (await step("entity defaults", () => {
      // generated/defaults.ts: initT(id) zero-initialisers from the schema (tools/graph-host/codegen.mjs)
      const file = path.join(subgraphDir, "generated", "defaults.ts");
      const text = entityDefaults(fs.readFileSync(path.join(subgraphDir, "schema.graphql"), "utf8"));
      if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) return { note: "unchanged" };
      fs.writeFileSync(file, text);
    })) &&
    (await step("event factories", () => {
      // generated/factories/<DataSource>.ts: typed event builders for the mapping tests, from each data source's ABI
      const dir = path.join(subgraphDir, "generated", "factories");
      fs.mkdirSync(dir, { recursive: true });
      const manifest = loadYaml(path.join(subgraphDir, "subgraph.yaml"));
      const write = (f, text) => {
        const file = path.join(dir, f);
        if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text) fs.writeFileSync(file, text);
      };
      write("_mock.ts", mockModule());
      for (const ds of manifest.dataSources) {
        const abiFile = ds.mapping.abis.find((a) => a.name === ds.source.abi).file;
        const abi = JSON.parse(fs.readFileSync(path.join(subgraphDir, abiFile), "utf8"));
        const eventsModule = `../${ds.name}/${ds.source.abi}`;
        write(`${ds.name}.ts`, eventFactories(ds.name, abi, { eventsModule, abiFile: abiFile.replace(/^\.\//, "") }));
      }
      return { note: `${manifest.dataSources.length} data sources` };
    })) &&
    (
      await Promise.all([
        step("graph build", async () => {
          const stamp = path.join(subgraphDir, "build", ".inputs.sha256");
          const hash = inputsHash(["abis", "src", "generated"]);
          if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === hash)
            return { note: "inputs unchanged, cached" };
          const r = await run(process.execPath, [graphBin(), "build", "subgraph.yaml"]);
          if (r.code === 0) fs.writeFileSync(stamp, hash);
          return { ok: r.code === 0, out: r.out };
        }),
        duringBuild(),
      ])
    )[0];
  return { ok, steps };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const o = { network: "hardhat", synthetic: false, log: console.log };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--network") o.network = argv[++i];
    else if (argv[i] === "--deployment") o.deployment = argv[++i];
    else if (argv[i] === "--synthetic") o.synthetic = true;
    else {
      console.error(`build: unknown argument ${argv[i]}`);
      process.exit(2);
    }
  }
  const r = await buildSubgraph(o);
  if (r.ok) console.log(`subgraph built in ${path.relative(repoRoot, path.join(subgraphDir, "build"))}/`);
  process.exit(r.ok ? 0 : 1);
}
