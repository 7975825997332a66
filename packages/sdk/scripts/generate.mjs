#!/usr/bin/env node
// Generates packages/sdk/src/generated/ from the compiled contracts (Hardhat artifacts, ABI + source AST):
//   abis.ts       one `as const` ABI per contract the SDK knows (deployed contracts, periphery lenses, local mocks)
//   errors.ts     every custom error of every artifact (CHX and OpenZeppelin), deduplicated: one merged error ABI
//   enums.ts      every Solidity enum of contracts/ (names and values from the AST, never copied by hand)
//   roles.ts      the AccessManager role ids of contracts/core/governance/Roles.sol (from the AST)
//   typed-data.ts the EIP-712 struct types, parsed from the contracts' *_TYPEHASH string constants
//   bytecode.ts   creation code of the deployless periphery lenses (eth_call without deploying)
//   typechain/    TypeChain (ethers v6) handles and factories over those ABIs
// Usage: node packages/sdk/scripts/generate.mjs [artifactsDir]   (default: <repo>/artifacts). Writes only files whose
// content changed, so an incremental build stays incremental.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.resolve(here, "..");
const root = path.resolve(pkg, "../..");
const artifactsDir = path.resolve(process.argv[2] ?? path.join(root, "artifacts"));
const out = path.join(pkg, "src/generated");

/** Contracts whose ABI the SDK exports (name → where it lives). The deployment record's `contract` names. */
export const SDK_CONTRACTS = {
  // governance and tokens
  ChxAccessManager: "contracts/core/governance/ChxAccessManager.sol",
  ChxTimelock: "contracts/core/governance/ChxTimelock.sol",
  ChxGovernor: "contracts/core/governance/ChxGovernor.sol",
  DPSToken: "contracts/core/token/DPSToken.sol",
  CHToken: "contracts/core/token/CHToken.sol",
  GFLToken: "contracts/core/token/GFLToken.sol",
  // compute and emission
  Emission: "contracts/core/emission/Emission.sol",
  ComputeStandard: "contracts/core/compute/ComputeStandard.sol",
  ProviderRegistry: "contracts/core/compute/ProviderRegistry.sol",
  ProviderMatcher: "contracts/core/compute/ProviderMatcher.sol",
  TaskRegistry: "contracts/core/tasks/TaskRegistry.sol",
  StreamTasks: "contracts/core/tasks/StreamTasks.sol",
  // oracle, clearing, insurance
  ComputePriceOracle: "contracts/core/oracle/ComputePriceOracle.sol",
  InsuranceFund: "contracts/core/clearing/InsuranceFund.sol",
  ClearingHouse: "contracts/core/clearing/ClearingHouse.sol",
  GuarantorPool: "contracts/core/clearing/GuarantorPool.sol",
  RiskEngine: "contracts/core/clearing/RiskEngine.sol",
  LiquidationEngine: "contracts/core/clearing/LiquidationEngine.sol",
  // markets
  SpotMarket: "contracts/core/markets/SpotMarket.sol",
  PerpMarket: "contracts/core/markets/PerpMarket.sol",
  LiquidityVault: "contracts/core/markets/LiquidityVault.sol",
  FuturesMarket: "contracts/core/markets/FuturesMarket.sol",
  FuturesDelivery: "contracts/core/markets/futures/FuturesDelivery.sol",
  OptionsMarket: "contracts/core/markets/OptionsMarket.sol",
  OptionsSettlement: "contracts/core/markets/OptionsSettlement.sol",
  // periphery (read-only lenses)
  AccountLens: "contracts/periphery/AccountLens.sol",
  TaskKeeperLens: "contracts/periphery/TaskKeeperLens.sol",
  LiquidationKeeperLens: "contracts/periphery/LiquidationKeeperLens.sol",
  BatchReader: "contracts/periphery/BatchReader.sol",
  // vendor automation (Gelato checker(), Chainlink checkUpkeep/performUpkeep) for the keeper's liquidation and
  // volatility work
  LiquidationChecker: "contracts/periphery/LiquidationChecker.sol",
  VolatilityChecker: "contracts/periphery/VolatilityChecker.sol",
  // interfaces a client talks to
  IKeeperChecker: "contracts/interfaces/keepers/IKeeperCompatible.sol",
  // local-network stand-ins deployed by the deploy script (and the keeper's reference target)
  MockERC20: "contracts/mocks/MockERC20.sol",
  MockAggregatorV3: "contracts/mocks/MockAggregatorV3.sol",
  MockPriceIndex: "contracts/mocks/MockPriceIndex.sol",
  MockInsuranceFund: "contracts/mocks/MockInsuranceFund.sol",
  MockKeeperTarget: "contracts/mocks/MockKeeperTarget.sol",
};

/** Lenses a client may run without deploying them (`eth_call` of the creation code): their bytecode is exported. */
const DEPLOYLESS = ["LiquidationKeeperLens", "AccountLens", "BatchReader"];

function walk(dir, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const entry of readdirSync(dir)) {
    if (entry === "build-info") continue;
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory()) walk(p, acc);
    else if (entry.endsWith(".json") && !entry.endsWith(".dbg.json")) acc.push(p);
  }
  return acc;
}

function writeIfChanged(file, text) {
  mkdirSync(path.dirname(file), { recursive: true });
  if (existsSync(file) && readFileSync(file, "utf8") === text) return false;
  writeFileSync(file, text);
  return true;
}

const HEADER = "// Generated by packages/sdk/scripts/generate.mjs from the compiled contracts. Do not edit.\n";

if (!existsSync(artifactsDir)) {
  console.error(`sdk generate: no artifacts at ${artifactsDir} (compile first: node scripts/build.mjs)`);
  process.exit(1);
}

// ─────────────────────────────── read every artifact once
const artifacts = [];
for (const f of walk(artifactsDir)) {
  let a;
  try {
    a = JSON.parse(readFileSync(f, "utf8"));
  } catch {
    continue;
  }
  if (!Array.isArray(a.abi) || typeof a.contractName !== "string") continue;
  artifacts.push(a);
}
const bySource = new Map(artifacts.map((a) => [`${a.sourceName}:${a.contractName}`, a]));

// ─────────────────────────────── ABIs
const abis = {};
const missing = [];
for (const [name, source] of Object.entries(SDK_CONTRACTS)) {
  const a = bySource.get(`${source}:${name}`);
  if (a === undefined) missing.push(`${name} (${source})`);
  else abis[name] = a;
}
if (missing.length > 0) {
  console.error(`sdk generate: artifacts missing for ${missing.join(", ")}`);
  process.exit(1);
}
const json = (v) => JSON.stringify(v, null, 2);
let abiTs = HEADER;
for (const [name, a] of Object.entries(abis)) abiTs += `\n/** ABI of ${name} (${a.sourceName}). */\nexport const ${name}Abi = ${json(a.abi)} as const;\n`;
abiTs += `\n/** Every ABI by contract name (the deployment record's \`contract\` field). */\nexport const abis = {\n${Object.keys(abis)
  .map((n) => `  ${n}: ${n}Abi,`)
  .join("\n")}\n} as const;\n\nexport type ContractName = keyof typeof abis;\n`;

// ─────────────────────────────── merged error ABI
const seen = new Set();
const errors = [];
for (const a of [...artifacts].filter((x) => /^(contracts|@openzeppelin)\//.test(x.sourceName)).sort((x, y) => `${x.sourceName}:${x.contractName}`.localeCompare(`${y.sourceName}:${y.contractName}`))) {
  for (const f of a.abi) {
    if (f.type !== "error") continue;
    const key = `${f.name}(${(f.inputs ?? []).map((i) => i.type).join(",")})`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(f);
  }
}
errors.sort((x, y) => x.name.localeCompare(y.name));
const errorsTs = `${HEADER}\n/** Every custom error of every CHX and OpenZeppelin contract, one fragment per signature (${errors.length}). */\nexport const chxErrorAbi = ${json(errors)} as const;\n`;

// ─────────────────────────────── AST: enums, roles, typehashes
const enums = [];
const roles = [];
const typehashes = [];
const astSeen = new Set();
function visit(node, owner, source) {
  if (Array.isArray(node)) {
    for (const n of node) visit(n, owner, source);
    return;
  }
  if (node === null || typeof node !== "object") return;
  if (node.nodeType === "ContractDefinition") owner = node.name;
  if (node.nodeType === "EnumDefinition") {
    enums.push({ owner, name: node.name, members: node.members.map((m) => m.name), source });
  }
  if (node.nodeType === "VariableDeclaration" && node.constant === true && node.value !== undefined) {
    if (owner === "Roles" && source.endsWith("governance/Roles.sol")) roles.push({ name: node.name, value: constValue(node.value) });
    if (/_TYPEHASH$/.test(node.name) && node.value.nodeType === "FunctionCall") {
      const arg = node.value.arguments?.[0];
      if (arg?.nodeType === "Literal" && typeof arg.value === "string" && !arg.value.startsWith("EIP712Domain(")) {
        typehashes.push({ owner, constant: node.name, type: arg.value, source });
      }
    }
  }
  for (const [k, v] of Object.entries(node)) if (k !== "value" || node.nodeType !== "Literal") visit(v, owner, source);
}
function constValue(v) {
  if (v.nodeType === "Literal") return BigInt(v.value);
  // type(uintN).max
  if (v.nodeType === "MemberAccess" && v.memberName === "max") {
    const t = v.expression?.arguments?.[0]?.name ?? v.expression?.arguments?.[0]?.typeName?.name;
    const bits = Number(/^uint(\d+)$/.exec(t ?? "")?.[1] ?? NaN);
    if (Number.isInteger(bits)) return (1n << BigInt(bits)) - 1n;
  }
  throw new Error(`sdk generate: cannot evaluate the constant ${JSON.stringify(v).slice(0, 200)}`);
}
for (const a of artifacts) {
  if (!a.sourceName.startsWith("contracts/") || a.ast === undefined || astSeen.has(a.sourceName)) continue;
  if (a.sourceName.startsWith("contracts/mocks/")) continue;
  astSeen.add(a.sourceName);
  visit(a.ast, undefined, a.sourceName);
}
enums.sort((x, y) => `${x.owner}.${x.name}`.localeCompare(`${y.owner}.${y.name}`));

const ownerLabel = (o) => o.replace(/^I(?=[A-Z])/, "").replace(/Types$/, "");
const counts = new Map();
for (const e of enums) counts.set(e.name, (counts.get(e.name) ?? 0) + 1);
let enumsTs = `${HEADER}\n// Each enum as { Member: index } and its member names in order. Names are the Solidity ones; where two contracts\n// declare an enum of the same name, the flat export carries the contract's name (TaskRegistryStatus, StreamTasksStatus).\n`;
const grouped = new Map();
for (const e of enums) {
  const flat = counts.get(e.name) > 1 ? `${ownerLabel(e.owner)}${e.name}` : e.name;
  const obj = `{ ${e.members.map((m, i) => `${m}: ${i}`).join(", ")} }`;
  enumsTs += `\n/** ${e.owner}.${e.name} (${e.source}). */\nexport const ${flat} = ${obj} as const;\nexport type ${flat} = (typeof ${flat})[keyof typeof ${flat}];\nexport const ${flat}Names = ${JSON.stringify(e.members)} as const;\n`;
  grouped.set(e.owner, [...(grouped.get(e.owner) ?? []), `${e.name}: ${flat}`]);
}
enumsTs += `\n/** Every enum by its declaring contract or interface. */\nexport const enums = {\n${[...grouped.entries()]
  .map(([o, list]) => `  ${o}: { ${list.join(", ")} },`)
  .join("\n")}\n} as const;\n`;

if (roles.length === 0) throw new Error("sdk generate: no role constants found in Roles.sol");
const rolesTs = `${HEADER}\n/** AccessManager role ids (contracts/core/governance/Roles.sol). */\nexport const Roles = {\n${roles
  .map((r) => `  ${r.name}: ${r.value}n,`)
  .join("\n")}\n} as const;\n`;

// "Order(address maker,bool isBuy,...)Inner(uint256 x)" → { Order: [{name, type}], Inner: [...] }
function parseTypeString(s) {
  const types = {};
  const re = /([A-Za-z_][A-Za-z0-9_]*)\(([^)]*)\)/g;
  let m;
  let primary;
  while ((m = re.exec(s)) !== null) {
    primary ??= m[1];
    types[m[1]] = m[2] === "" ? [] : m[2].split(",").map((field) => {
      const [type, name] = field.trim().split(/\s+/);
      return { name, type };
    });
  }
  return { primary, types };
}
const typed = {};
for (const t of typehashes.sort((x, y) => x.type.localeCompare(y.type))) {
  const { primary, types } = parseTypeString(t.type);
  if (typed[primary] !== undefined && typed[primary].typeString !== t.type) {
    throw new Error(`sdk generate: two EIP-712 types named ${primary}: ${typed[primary].typeString} / ${t.type}`);
  }
  typed[primary] = { declaredIn: t.owner, source: t.source, typeString: t.type, types };
}
let typedTs = `${HEADER}\n// EIP-712 struct types exactly as the contracts hash them (their *_TYPEHASH string constants).\n`;
for (const [primary, t] of Object.entries(typed)) {
  typedTs += `\n/** ${t.typeString}\n *  (${t.declaredIn}, ${t.source}) */\nexport const ${primary}Types = ${json(t.types)} as const;\n`;
}

// ─────────────────────────────── deployless bytecode
let bytecodeTs = `${HEADER}\n// Creation code of the periphery lenses that can run without being deployed (eth_call with this as \`data\`).\n`;
for (const n of DEPLOYLESS) bytecodeTs += `\nexport const ${n}Bytecode = ${JSON.stringify(abis[n].bytecode)};\n`;

// ─────────────────────────────── TypeChain
const abiDir = path.join(pkg, ".abi");
rmSync(abiDir, { recursive: true, force: true });
mkdirSync(abiDir, { recursive: true });
for (const [name, a] of Object.entries(abis)) {
  const body = DEPLOYLESS.includes(name) ? { contractName: name, abi: a.abi, bytecode: a.bytecode } : a.abi;
  writeFileSync(path.join(abiDir, `${name}.json`), JSON.stringify(body));
}
const tcOut = path.join(out, "typechain");
const tcTmp = path.join(pkg, ".typechain-tmp");
rmSync(tcTmp, { recursive: true, force: true });
const { runTypeChain } = await import("typechain");
const { outputTransformers } = await import("typechain/dist/codegen/outputTransformers/index.js");
// no prettier pass (slow, and the generated code is not read by people)
const pi = outputTransformers.findIndex((t) => t.name === "prettierOutputTransformer");
if (pi !== -1) outputTransformers.splice(pi, 1);
const files = Object.keys(abis).map((n) => path.join(abiDir, `${n}.json`).split(path.sep).join("/"));
await runTypeChain({
  cwd: pkg,
  filesToProcess: files,
  allFiles: files,
  outDir: tcTmp,
  target: "ethers-v6",
  flags: { alwaysGenerateOverloads: false, discriminateTypes: false, tsNocheck: false, node16Modules: true, environment: undefined },
});
// copy into place, writing only changed files (keeps tsc's incremental build incremental)
let changed = 0;
const tcFiles = walkAll(tcTmp);
const keep = new Set();
for (const f of tcFiles) {
  const rel = path.relative(tcTmp, f);
  keep.add(rel);
  if (writeIfChanged(path.join(tcOut, rel), readFileSync(f, "utf8"))) changed++;
}
for (const f of walkAll(tcOut)) if (!keep.has(path.relative(tcOut, f))) rmSync(f);
rmSync(tcTmp, { recursive: true, force: true });
rmSync(abiDir, { recursive: true, force: true });

function walkAll(dir, acc = []) {
  if (!existsSync(dir)) return acc;
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) walkAll(p, acc);
    else acc.push(p);
  }
  return acc;
}

for (const [file, text] of [
  ["abis.ts", abiTs],
  ["errors.ts", errorsTs],
  ["enums.ts", enumsTs],
  ["roles.ts", rolesTs],
  ["typed-data.ts", typedTs],
  ["bytecode.ts", bytecodeTs],
]) {
  if (writeIfChanged(path.join(out, file), text)) changed++;
}
console.log(
  `sdk generate: ${Object.keys(abis).length} ABIs, ${errors.length} errors, ${enums.length} enums, ${roles.length} roles, ` +
    `${Object.keys(typed).length} EIP-712 types (${changed} file(s) changed)`,
);

// ─────────────────────────────── the deployment record's JSON schema (deployments/deployment.schema.json)
{
  const schema = JSON.parse(readFileSync(path.join(root, "deployments/deployment.schema.json"), "utf8"));
  const text = `${HEADER}\n/** deployments/deployment.schema.json: the JSON schema of a deployment record. */\nexport const deploymentSchema = ${json(schema)} as const;\n`;
  writeIfChanged(path.join(out, "schema.ts"), text);
  writeIfChanged(path.join(pkg, "deployment.schema.json"), JSON.stringify(schema, null, 2) + "\n");
}
