#!/usr/bin/env node
// Generates the subgraph inputs from the committed sources and a deployment record, so addresses and start
// blocks are never hand-copied:
//   subgraph/subgraph.yaml   <- subgraph.template.yaml + datasources/*.yaml, placeholders filled from the record
//   subgraph/schema.graphql  <- schema/*.graphql (in file-name order)
//   subgraph/abis/<C>.json   <- artifacts/**/<C>.json (the ABI only), for every ./abis/<C>.json the manifest names
//
//   node subgraph/scripts/manifest.mjs --network <name> [--deployment <file>] [--quiet]
//
// The record is deployments/<network>.json unless --deployment is given. For `--network hardhat` (the in-process
// network, which has no lasting deployment) the record is produced by running the real deploy (deployProtocol)
// in-process: see subgraph/scripts/deploy-record.ts. Placeholders: {{network}}, {{<Name>.address}},
// {{<Name>.startBlock}} where <Name> is a key of the record's `contracts` (AccessManager, DPSToken, Governor...).
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { keccak256, toUtf8Bytes } from "ethers";

const here = path.dirname(fileURLToPath(import.meta.url));
export const subgraphDir = path.resolve(here, "..");
export const repoRoot = path.resolve(subgraphDir, "..");

/** The network name graph-node knows a chain by (manifest `network:`), per Hardhat network name. */
const GRAPH_NETWORK = {
  hardhat: "hardhat",
  localhost: "localhost",
  sepolia: "sepolia",
  arbitrumSepolia: "arbitrum-sepolia",
  mainnet: "mainnet",
  arbitrum: "arbitrum-one",
};

function parseArgs(argv) {
  const o = { network: "hardhat", deployment: undefined, quiet: false, graphNetwork: undefined, synthetic: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--network") o.network = argv[++i];
    else if (a === "--deployment") o.deployment = argv[++i];
    else if (a === "--graph-network") o.graphNetwork = argv[++i];
    else if (a === "--quiet") o.quiet = true;
    else if (a === "--synthetic") o.synthetic = true;
    else throw new Error(`manifest: unknown argument ${a}`);
  }
  return o;
}

function findArtifacts(dir, out = new Map()) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "build-info") findArtifacts(p, out);
    } else if (e.name.endsWith(".json") && !e.name.endsWith(".dbg.json")) {
      const name = e.name.slice(0, -5);
      if (!out.has(name)) out.set(name, []);
      out.get(name).push(p);
    }
  }
  return out;
}

/**
 * Logic contracts a proxy runs by delegatecall (their events are emitted from the proxy's address, so they belong to
 * the proxy's data source): contract name -> module contract names.
 */
export const DELEGATE_MODULES = {
  FuturesMarket: ["FuturesDelivery"],
  OptionsMarket: ["OptionsSettlement"],
};

/** ChxUpgradeable events no data source indexes (the AccessManager's events cover authority; initialisation is the
 *  deploy): not required of a delegate module's data source either. */
const UNINDEXED_BASE_EVENTS = new Set(["AuthorityUpdated", "Initialized"]);

const typeOf = (p, withIndexed) => {
  let t = p.type;
  if (t.startsWith("tuple")) t = `(${p.components.map((c) => typeOf(c, false)).join(",")})${t.slice(5)}`;
  return withIndexed && p.indexed ? `indexed ${t}` : t;
};
/**
 * Handlers every CHX module shares, written once in src/mappings/module.ts: each data source whose ABI declares the
 * event gets the handler and its entities here (the data source fragments do not list them); its mapping file must
 * re-export the handler (`export { handleUpgraded } from "./module";`).
 */
const MODULE_HANDLERS = [
  {
    event: "FeaturePauseSet(indexed bytes32,bool,indexed address)",
    handler: "handleFeaturePauseSet",
    entities: ["ChxContract", "FeaturePause", "FeaturePauseEvent"],
  },
  { event: "Upgraded(indexed address)", handler: "handleUpgraded", entities: ["ChxContract", "ContractUpgrade"] },
];

/**
 * A data source fragment with the module-wide handlers its ABI needs and `context.name` = the data source name
 * (the mappings name the contract by it). Throws when the mapping file does not export a handler it needs.
 */
function withModuleParts(text, name, abi, where) {
  const declared = new Set(abi.filter((x) => x.type === "event").map(manifestEventSignature));
  const needed = MODULE_HANDLERS.filter((m) => declared.has(m.event) && !text.includes(`- event: ${m.event}`));
  const file = /^\s*file:\s*(\S+\.ts)\s*$/m.exec(text)?.[1];
  const source = file ? fs.readFileSync(path.join(subgraphDir, file), "utf8") : "";
  for (const m of needed)
    if (
      !new RegExp(`export \\{[^}]*\\b${m.handler}\\b[^}]*\\} from "\\./module"|export function ${m.handler}\\b`).test(
        source,
      )
    )
      throw new Error(
        `manifest: ${where}: ${file} must export ${m.handler} (export { ${m.handler} } from "./module";)`,
      );
  const lines = text.split("\n");
  const at = (re) => lines.findIndex((l) => re.test(l));
  // entities: appended to the list (once each)
  const entitiesAt = at(/^    entities:\s*$/);
  const have = new Set(lines.filter((l) => /^      - \w+\s*$/.test(l)).map((l) => l.trim().slice(2)));
  const extra = [...new Set(needed.flatMap((m) => m.entities))].filter((e) => !have.has(e));
  let end = entitiesAt + 1;
  while (end < lines.length && /^      - /.test(lines[end])) end++;
  lines.splice(end, 0, ...extra.map((e) => `      - ${e}`));
  // handlers: appended to eventHandlers
  const handlersAt = at(/^    eventHandlers:\s*$/);
  if (handlersAt < 0 && needed.length) throw new Error(`manifest: ${where} has no eventHandlers`);
  end = handlersAt + 1;
  while (end < lines.length && /^      (- event:|  handler:)/.test(lines[end])) end++;
  lines.splice(end, 0, ...needed.flatMap((m) => [`      - event: ${m.event}`, `        handler: ${m.handler}`]));
  // context: the data source name
  const networkAt = at(/^  network:/);
  lines.splice(networkAt + 1, 0, "  context:", "    name:", "      type: String", `      data: ${name}`);
  return lines.join("\n");
}

/**
 * The one mapping module of the built subgraph (relative to subgraph/). Every data source's `mapping.file` points to
 * it and its handlers are exported there as `<DataSource>_<handler>`, so `graph build` compiles and optimises the
 * mappings once instead of once per data source: graph-cli compiles each distinct mapping file, and with 23 data
 * sources that was 23 optimised builds of mostly the same code (graph-ts, src/lib), 210 s of `npm test` (docs/subgraph.md
 * "One mapping module"). The prefix keeps handlers apart when two contracts' files use one name (`handleTransfer`
 * in four token mappings); AssemblyScript's `export *` would silently keep one of them. The sources stay one file
 * per contract (src/mappings/<contract>.ts) and the fragments keep naming their own file and handlers.
 */
export const MAPPING_ENTRY = "generated/mappings.ts";

/** Points a data source fragment at MAPPING_ENTRY and records its handlers' export line there. */
function intoEntry(text, name, where, entry) {
  const file = /^([ \t]*file:[ \t]*)\.\/(src\/mappings\/\S+)\.ts[ \t]*$/m.exec(text);
  if (!file) throw new Error(`manifest: ${where}: mapping file must be ./src/mappings/<name>.ts`);
  const handlers = [...new Set([...text.matchAll(/^[ \t]*handler:[ \t]*(\w+)[ \t]*$/gm)].map((m) => m[1]))];
  if (handlers.length === 0) throw new Error(`manifest: ${where} has no handlers`);
  entry.push(`export { ${handlers.map((h) => `${h} as ${name}_${h}`).join(", ")} } from "../${file[2]}";`);
  return text
    .replace(file[0], `${file[1]}./${MAPPING_ENTRY}`)
    .replace(/^([ \t]*handler:[ \t]*)(\w+)[ \t]*$/gm, (_m, lead, h) => `${lead}${name}_${h}`);
}

/** `Name(type,...)`: the canonical signature (tuples expanded). */
const eventSignature = (e) => `${e.name}(${e.inputs.map((p) => typeOf(p, false)).join(",")})`;
/** The manifest's form: `Name(indexed type,...)`. */
const manifestEventSignature = (e) => `${e.name}(${e.inputs.map((p) => typeOf(p, true)).join(",")})`;

/**
 * `--no-compile` when `npm test` has already built the contracts (CHX_PREBUILT=1, scripts/test.mjs). `hardhat run`
 * otherwise builds the whole project, Solidity tests included, which `npm test`'s plain tree leaves out on purpose.
 */
export const prebuilt = () => (process.env.CHX_PREBUILT === "1" ? ["--no-compile"] : []);

/** Produces a deployment record on the in-process Hardhat network with the real deploy function. */
export function deployInProcess(outFile) {
  execFileSync("npx", ["hardhat", "run", ...prebuilt(), "subgraph/scripts/deploy-record.ts"], {
    cwd: repoRoot,
    env: { ...process.env, CHX_SUBGRAPH_RECORD: outFile },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

/**
 * Generates subgraph.yaml, schema.graphql and abis/. Returns { manifest, dataSources, record }.
 * @param {{network:string, deployment?:string, graphNetwork?:string, log?:(m:string)=>void}} o
 */
export function generate(o) {
  const log = o.log ?? ((m) => console.log(m));
  let recordPath = o.deployment ?? path.join(repoRoot, "deployments", `${o.network}.json`);
  let record;
  if (o.synthetic) {
    // Compile-and-test mode: every deployment name gets a stand-in address derived from its name and start
    // block 0. The WASM does not depend on addresses; the e2e replay re-targets data sources from the real
    // record (tools/graph-host/replay.mjs). Never deploy a subgraph generated this way.
    recordPath = "(synthetic addresses)";
    record = {
      network: o.network,
      contracts: new Proxy(
        {},
        {
          get: (_t, name) =>
            typeof name === "string"
              ? { address: "0x" + keccak256(toUtf8Bytes(name)).slice(26), deployBlock: 0 }
              : undefined,
        },
      ),
    };
  } else {
    if (!fs.existsSync(recordPath)) {
      if (o.network !== "hardhat" || o.deployment) throw new Error(`manifest: no deployment record at ${recordPath}`);
      log("manifest: no deployments/hardhat.json — deploying in-process to produce one");
      deployInProcess(recordPath);
    }
    record = JSON.parse(fs.readFileSync(recordPath, "utf8"));
  }
  const network = o.graphNetwork ?? GRAPH_NETWORK[o.network] ?? o.network;
  const source = o.synthetic ? "synthetic addresses" : path.relative(repoRoot, path.resolve(recordPath));

  // 1. schema parts
  const partsDir = path.join(subgraphDir, "schema");
  const parts = fs
    .readdirSync(partsDir)
    .filter((f) => f.endsWith(".graphql"))
    .sort();
  const schema =
    "# GENERATED by subgraph/scripts/manifest.mjs from subgraph/schema/*.graphql — edit the parts, not this file.\n\n" +
    parts
      .map((f) => `# ==== schema/${f}\n` + fs.readFileSync(path.join(partsDir, f), "utf8").trimEnd() + "\n")
      .join("\n");
  fs.writeFileSync(path.join(subgraphDir, "schema.graphql"), schema);

  // 2. manifest: template + data source fragments, placeholders filled from the record
  const artifacts = findArtifacts(path.join(repoRoot, "artifacts"));
  const readAbi = (name) => {
    const found = artifacts.get(name) ?? [];
    if (found.length === 0) throw new Error(`manifest: no artifact for ABI ${name} (run \`npx hardhat build\`)`);
    if (found.length > 1) throw new Error(`manifest: ABI ${name} is ambiguous: ${found.join(", ")}`);
    return JSON.parse(fs.readFileSync(found[0], "utf8")).abi;
  };
  const used = new Set();
  const fill = (text, where) =>
    text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_m, key) => {
      if (key === "network") return network;
      const [name, field] = key.split(".");
      const c = record.contracts?.[name];
      if (!c) throw new Error(`manifest: ${where} needs "${name}", which ${recordPath} does not contain`);
      used.add(name);
      if (field === "address") return c.address;
      if (field === "startBlock") return String(c.deployBlock ?? 0);
      throw new Error(`manifest: ${where}: unknown placeholder {{${key}}}`);
    });
  const dsDir = path.join(subgraphDir, "datasources");
  const fragments = fs
    .readdirSync(dsDir)
    .filter((f) => f.endsWith(".yaml"))
    .sort();
  const skipped = [];
  /** export lines of the one mapping module every data source runs (MAPPING_ENTRY; see intoEntry) */
  const entry = [];
  const dataSources = fragments
    .map((f) => {
      const text = fs.readFileSync(path.join(dsDir, f), "utf8").trimEnd();
      // A data source is named after the deployment whose address it indexes (the replay and docs rely on it).
      const name = /^\s*-?\s*name:\s*(\S+)/m.exec(text)?.[1];
      const addr = /address:\s*"?\{\{\s*(\w+)\.address\s*\}\}/.exec(text)?.[1];
      if (!name || !addr || name !== addr)
        throw new Error(`manifest: datasources/${f}: name "${name}" must equal the deployment in {{${addr}.address}}`);
      // A module not deployed on this network (e.g. a market that has not launched yet) stays inactive: its data
      // source is left out until deployments/<network>.json holds its address. Synthetic builds include every one.
      if (!o.synthetic && !record.contracts?.[name]) {
        skipped.push(name);
        return null;
      }
      const abiName = /^\s*abi:\s*(\w+)\s*$/m.exec(text)?.[1];
      const full = withModuleParts(fill(text, `datasources/${f}`), name, readAbi(abiName), `datasources/${f}`);
      return intoEntry(full, name, `datasources/${f}`, entry);
    })
    .filter((t) => t !== null)
    .map((t) =>
      t
        .split("\n")
        .map((l) => (l.length ? "  " + l : l))
        .join("\n"),
    )
    .join("\n");
  // The template's leading comment lines document the placeholders: drop them before filling.
  const template = fs
    .readFileSync(path.join(subgraphDir, "subgraph.template.yaml"), "utf8")
    .split("\n")
    .filter((l) => !l.startsWith("#"))
    .join("\n");
  if (!/^\{\{dataSources\}\}$/m.test(template)) throw new Error("manifest: the template has no {{dataSources}} line");
  const header =
    `# GENERATED by subgraph/scripts/manifest.mjs for network ${o.network} from ${source}` +
    ` — do not edit, do not commit.\n`;
  const manifest =
    header +
    fill(
      template.replace(/^\{\{dataSources\}\}$/m, () => dataSources),
      "subgraph.template.yaml",
    );
  fs.writeFileSync(path.join(subgraphDir, "subgraph.yaml"), manifest);
  fs.mkdirSync(path.dirname(path.join(subgraphDir, MAPPING_ENTRY)), { recursive: true });
  fs.writeFileSync(
    path.join(subgraphDir, MAPPING_ENTRY),
    "// GENERATED by subgraph/scripts/manifest.mjs with subgraph.yaml: the handlers of every data source, under\n" +
      "// <DataSource>_<handler>, in one module that `graph build` compiles once. Edit src/mappings/, not this file.\n" +
      entry.join("\n") +
      "\n",
  );

  // 3. ABIs from the Hardhat artifacts
  const abiDir = path.join(subgraphDir, "abis");
  fs.rmSync(abiDir, { recursive: true, force: true });
  fs.mkdirSync(abiDir, { recursive: true });
  const abiNames = [...new Set([...manifest.matchAll(/file:\s*\.\/abis\/([\w-]+)\.json/g)].map((m) => m[1]))];
  const abiHashes = new Map();
  for (const name of abiNames) {
    const abi = readAbi(name);
    abiHashes.set(name, keccak256(toUtf8Bytes(JSON.stringify(abi))));
    // Events a delegate-called module emits come from the proxy's address: they must be in the proxy's ABI (codegen
    // decodes them from it) and handled. Today the modules share the market's event declarations, so nothing is
    // added; a module that declares its own event gets it merged here rather than silently unindexed.
    const events = new Set(abi.filter((x) => x.type === "event").map(eventSignature));
    for (const module of DELEGATE_MODULES[name] ?? []) {
      for (const e of readAbi(module).filter((x) => x.type === "event")) {
        if (events.has(eventSignature(e))) continue;
        abi.push(e);
        events.add(eventSignature(e));
        log(`manifest: ${name}: event ${eventSignature(e)} of its delegate module ${module} added to its ABI`);
      }
    }
    fs.writeFileSync(path.join(abiDir, `${name}.json`), JSON.stringify(abi, null, 2) + "\n");
  }
  // Every event a delegate module emits must have a handler in the data source of the contract it runs in.
  for (const [name, mods] of Object.entries(DELEGATE_MODULES)) {
    const ds = manifest.split(/\n(?=  - kind: )/).find((t) => new RegExp(`^\\s*name: ${name}$`, "m").test(t));
    if (!ds) continue;
    const handled = new Set([...ds.matchAll(/- event: (.+)$/gm)].map((m) => m[1].trim()));
    for (const module of mods) {
      const missing = readAbi(module)
        .filter((x) => x.type === "event" && !UNINDEXED_BASE_EVENTS.has(x.name))
        .map(manifestEventSignature)
        .filter((sig) => !handled.has(sig));
      if (missing.length)
        throw new Error(
          `manifest: ${name} has no handler for events of its delegate module ${module}: ${missing.join(", ")}`,
        );
    }
  }
  // The record's abiHash says which ABI was deployed: a mismatch means the subgraph would decode with a newer
  // (or older) ABI than the chain runs — fine for added events, wrong for changed ones. Warn, do not fail.
  for (const name of used) {
    const c = record.contracts[name];
    if (o.synthetic) break;
    const built = abiHashes.get(c.contract);
    if (built && c.abiHash && built !== c.abiHash)
      log(`manifest: warning: ${name} (${c.contract}) was deployed with a different ABI than artifacts/ holds`);
  }
  if (skipped.length) log(`manifest: not deployed on ${o.network}, left out: ${skipped.join(", ")}`);
  const active = fragments.length - skipped.length;
  log(
    `manifest: ${active} data sources, ${parts.length} schema parts, ${abiNames.length} ABIs for ${network}` +
      ` (${source})`,
  );
  return { manifest, record, network, dataSources: active, skipped };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const o = parseArgs(process.argv.slice(2));
    generate({ ...o, log: o.quiet ? () => {} : undefined });
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
