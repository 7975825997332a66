#!/usr/bin/env node
// Writes subgraph/abis-pending/<Name>.json: the ABI of a market whose branch is not merged yet, compiled from its
// interface as that branch has it, plus the ChxUpgradeable events every core contract emits. manifest.mjs uses it
// only while artifacts/ has no <Name> artifact (docs/subgraph.md, "Markets").
//
//   node subgraph/scripts/pending-abi.mjs <branch> <IInterface> <Name>
//   node subgraph/scripts/pending-abi.mjs futures IFuturesMarket FuturesMarket
//   node subgraph/scripts/pending-abi.mjs options IOptionsMarket OptionsMarket
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { repoRoot, subgraphDir } from "./manifest.mjs";

const [branch, iface, name] = process.argv.slice(2);
if (!branch || !iface || !name) {
  console.error("usage: pending-abi.mjs <branch> <IInterface> <Name>");
  process.exit(2);
}
const require = createRequire(path.join(repoRoot, "package.json"));
const solc = require("solc");
const git = (...a) => execFileSync("git", a, { cwd: repoRoot, encoding: "utf8", maxBuffer: 1 << 26 });

// this checkout's interfaces, overlaid with the branch's (the branch may add or change some)
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "chx-pending-abi-"));
const dir = path.join(tmp, "contracts", "interfaces");
fs.mkdirSync(dir, { recursive: true });
for (const f of fs.readdirSync(path.join(repoRoot, "contracts", "interfaces")))
  fs.copyFileSync(path.join(repoRoot, "contracts", "interfaces", f), path.join(dir, f));
for (const f of git("ls-tree", "--name-only", `${branch}:contracts/interfaces`).split("\n").filter(Boolean))
  fs.writeFileSync(path.join(dir, f), git("show", `${branch}:contracts/interfaces/${f}`));

const file = `contracts/interfaces/${iface}.sol`;
const input = {
  language: "Solidity",
  sources: { [file]: { content: fs.readFileSync(path.join(tmp, file), "utf8") } },
  settings: { outputSelection: { "*": { "*": ["abi"] } } },
};
const out = JSON.parse(
  solc.compile(JSON.stringify(input), {
    import: (p) => {
      for (const base of [tmp, path.join(repoRoot, "node_modules")]) {
        const f = path.join(base, p);
        if (fs.existsSync(f)) return { contents: fs.readFileSync(f, "utf8") };
      }
      return { error: `not found: ${p}` };
    },
  }),
);
fs.rmSync(tmp, { recursive: true, force: true });
const errors = (out.errors ?? []).filter((e) => e.severity === "error");
if (errors.length) {
  for (const e of errors) console.error(e.formattedMessage);
  process.exit(1);
}
const abi = out.contracts[file][iface].abi;
const base = JSON.parse(
  fs.readFileSync(path.join(repoRoot, "artifacts/contracts/core/base/ChxUpgradeable.sol/ChxUpgradeable.json"), "utf8"),
).abi.filter((x) => x.type === "event");
const have = new Set(abi.filter((x) => x.type === "event").map((x) => x.name));
const all = [...abi, ...base.filter((e) => !have.has(e.name))];
fs.mkdirSync(path.join(subgraphDir, "abis-pending"), { recursive: true });
fs.writeFileSync(path.join(subgraphDir, "abis-pending", `${name}.json`), JSON.stringify(all, null, 2) + "\n");
console.log(`abis-pending/${name}.json: ${all.filter((x) => x.type === "event").length} events from ${branch}:${file}`);
