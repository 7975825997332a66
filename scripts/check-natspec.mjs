#!/usr/bin/env node
// NatSpec gate: every external/public function, public state variable, event and error DECLARED in contracts/
// (mocks excluded) carries NatSpec. A function that overrides a documented base (an interface's) inherits its
// documentation — solc copies it unless the override documents itself — so only the base must be documented.
// Reads the source-unit ASTs stored in the last build's artifacts, so run it after `node scripts/build.mjs`.
import { readFileSync } from "node:fs";
import { artifactFiles } from "./lib/walk.mjs";

const seen = new Set();
const missing = [];
let checked = 0;

function visit(node, file, scope) {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const n of node) visit(n, file, scope);
    return;
  }
  const kind = node.nodeType;
  const next = kind === "ContractDefinition" ? node.name : scope;
  let what;
  if (
    kind === "FunctionDefinition" &&
    node.kind !== "constructor" &&
    node.kind !== "receive" &&
    node.kind !== "fallback"
  )
    what = node.visibility === "external" || node.visibility === "public" ? `function ${node.name}` : undefined;
  else if (kind === "VariableDeclaration" && node.stateVariable === true && node.visibility === "public")
    what = `variable ${node.name}`;
  else if (kind === "EventDefinition") what = `event ${node.name}`;
  else if (kind === "ErrorDefinition") what = `error ${node.name}`;
  if (what !== undefined) {
    const key = `${file}:${node.src.split(":").slice(0, 2).join(":")}`;
    if (!seen.has(key)) {
      seen.add(key);
      checked++;
      const doc = node.documentation?.text ?? "";
      const inherits =
        (node.baseFunctions?.length ?? 0) > 0 || (node.overrides !== null && node.overrides !== undefined);
      if (doc.trim() === "" && !inherits)
        missing.push(`${file} ${scope}.${what.split(" ")[1]} (${what.split(" ")[0]})`);
    }
  }
  for (const [k, v] of Object.entries(node)) if (k !== "documentation" && typeof v === "object") visit(v, file, next);
}

const units = new Set();
for (const f of artifactFiles("artifacts/contracts")) {
  const a = JSON.parse(readFileSync(f, "utf8"));
  const file = a.sourceName ?? "";
  if (!file.startsWith("contracts/") || file.includes("/mocks/") || units.has(file) || a.ast === undefined) continue;
  units.add(file);
  visit(a.ast, file, "");
}
for (const m of missing.sort()) console.log(`✖ ${m}`);
console.log(`NatSpec: ${checked} declarations checked, ${missing.length} undocumented`);
console.log(`${missing.length === 0 ? 1 : 0} passed, ${missing.length === 0 ? 0 : 1} failed`);
process.exit(missing.length === 0 ? 0 : 1);
