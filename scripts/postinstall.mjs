// Second install pass under Node 22 (see docs/toolchain.md).
// Under the system's Node 20, npm skips EDR's native package (engines: node >= 22) and Hardhat
// then cannot load its binding. The `node` devDependency puts a Node 22 in node_modules/.bin; we
// re-run `npm install` with it first on PATH so npm resolves the platform package. A guard variable
// stops the second pass from recursing.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = process.cwd();
const binding = path.join(root, "node_modules/@nomicfoundation/edr-linux-x64-gnu");
if (
  process.platform !== "linux" ||
  process.arch !== "x64" ||
  process.env.CHX_SECOND_PASS === "1" ||
  existsSync(binding)
) {
  process.exit(0);
}
console.log("[chx] EDR native binding missing: running a second `npm install` under Node 22");
const bin = path.join(root, "node_modules/.bin");
const env = { ...process.env, CHX_SECOND_PASS: "1", PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` };
const r = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { stdio: "inherit", env });
if (r.status !== 0 || !existsSync(binding)) {
  console.error("[chx] second install pass failed: Hardhat will not find its native binding");
  process.exit(r.status || 1);
}
