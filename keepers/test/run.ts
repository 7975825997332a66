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

/**
 * Prints each test as it ends and every failure in full, but no "N passing" epilogue: scripts/test.mjs would count
 * mocha's summary AND our closing line.
 */
class LineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let depth = 0;
    const pad = () => "  ".repeat(depth);
    runner.on("suite", (suite) => {
      if (suite.title === "") return;
      depth++;
      console.log(`\n${pad()}${suite.title}`);
    });
    runner.on("suite end", (suite) => {
      if (suite.title !== "") depth--;
    });
    runner.on("pass", (test) => console.log(`${pad()}  ✔ ${test.title} (${test.duration ?? 0}ms)`));
    runner.on("fail", (test, err: Error) => {
      console.log(`${pad()}  ✖ ${test.title}`);
      console.log(
        `      ${String(err.stack ?? err.message)
          .split("\n")
          .slice(0, 12)
          .join("\n      ")}`,
      );
    });
  }
}

let passed = 0;
let failed = 0;
let n: LocalNode | undefined;
const t0 = Date.now();
try {
  n = await startNode();
  console.log(`local node ${n.url} up in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  const mocha = new Mocha({ timeout: 60_000, reporter: LineReporter });
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
