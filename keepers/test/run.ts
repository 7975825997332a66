/**
 * `npm run test:keepers`: starts one real local node, runs every keepers/test/*.test.ts with mocha in this process,
 * always stops the node, and ends with ONE line `N passed, N failed` (scripts/test.mjs sums it). Exit 1 on failure.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import Mocha from "mocha";
import { startNode, type LocalNode } from "./harness.js";

const dir = import.meta.dirname;
const filter = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".test.ts"))
  .filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
  .sort()
  .map((f) => path.join(dir, f));

let passed = 0;
let failed = 0;
let n: LocalNode | undefined;
const t0 = Date.now();
try {
  n = await startNode();
  console.log(`local node ${n.url} up in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  const mocha = new Mocha({ timeout: 60_000, reporter: "spec" });
  for (const f of files) mocha.addFile(f);
  await mocha.loadFilesAsync();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on("pass", () => passed++);
    runner.on("fail", () => failed++);
  });
} catch (e) {
  console.error(`keeper tests could not run: ${e instanceof Error ? e.message : String(e)}`);
  failed += 1;
} finally {
  await n?.stop();
}
console.log(`keeper tests took ${((Date.now() - t0) / 1000).toFixed(1)}s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
