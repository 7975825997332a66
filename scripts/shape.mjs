#!/usr/bin/env node
// Code-shape figures of issue 18: Solidity file lengths (contracts/, mocks excluded, interfaces included) as median,
// p90 and max lines, and the runtime size of every deployable core/periphery contract against the 20,480-byte target
// (EIP-170's 24,576 less 4 KB headroom). `--write <file>` stores them as JSON (npm run bench writes bench/shape.json).
import { readFileSync, writeFileSync } from "node:fs";
import { walk, artifactFiles } from "./lib/walk.mjs";

const LINES_MAX = 500;
const SIZE_TARGET = 20_480;

const files = walk("contracts", (p) => p.endsWith(".sol") && !p.includes("/mocks/"))
  .map((p) => ({ path: p, lines: readFileSync(p, "utf8").split("\n").length - 1 }))
  .sort((a, b) => a.lines - b.lines);
const at = (q) => files[Math.min(files.length - 1, Math.ceil(q * files.length) - 1)].lines;

const sizes = [];
for (const dir of ["artifacts/contracts/core", "artifacts/contracts/periphery"]) {
  for (const f of artifactFiles(dir)) {
    const a = JSON.parse(readFileSync(f, "utf8"));
    const size = (a.deployedBytecode?.length ?? 2) / 2 - 1;
    if (size > 0) sizes.push({ contract: a.contractName, bytes: size });
  }
}
sizes.sort((a, b) => b.bytes - a.bytes);

const shape = {
  solidityFiles: files.length,
  medianLines: at(0.5),
  p90Lines: at(0.9),
  maxLines: files[files.length - 1].lines,
  maxLinesFile: files[files.length - 1].path,
  filesOver500Lines: files.filter((f) => f.lines > LINES_MAX).map((f) => `${f.path} (${f.lines})`),
  largestRuntimeBytes: sizes[0].bytes,
  largestRuntimeContract: sizes[0].contract,
  contractsOver20480Bytes: sizes.filter((s) => s.bytes > SIZE_TARGET).map((s) => `${s.contract} (${s.bytes})`),
};
const i = process.argv.indexOf("--write");
if (i > 0) writeFileSync(process.argv[i + 1], `${JSON.stringify(shape, null, 2)}\n`);
console.log(JSON.stringify(shape, null, 2));
