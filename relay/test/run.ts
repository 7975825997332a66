/**
 * `npm run test:relay`: starts one real local node, deploys the protocol on it once, runs every relay/test/*.test.ts
 * with mocha (each behavioural test against SQLite and against PostgreSQL's engine, PGlite), always stops the node,
 * and ends with ONE line `N passed, N failed` (scripts/test.mjs sums it). Exit 1 on any failure.
 * `npx tsx relay/test/run.ts intake` runs the files whose name contains "intake".
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

/** One line per test, failures in full, and no mocha epilogue (scripts/test.mjs would count it twice). */
class LineReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let depth = 0;
    const pad = () => "  ".repeat(depth);
    runner.on("suite", (s) => {
      if (s.title === "") return;
      depth++;
      console.log(`\n${pad()}${s.title}`);
    });
    runner.on("suite end", (s) => {
      if (s.title !== "") depth--;
    });
    runner.on("pass", (t) => console.log(`${pad()}  ✔ ${t.title} (${t.duration ?? 0}ms)`));
    runner.on("fail", (t, err: Error) => {
      console.log(`${pad()}  ✖ ${t.title}`);
      console.log(
        `      ${String(err.stack ?? err.message)
          .split("\n")
          .slice(0, 14)
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
  const mocha = new Mocha({ timeout: 120_000, reporter: LineReporter });
  for (const f of files) mocha.addFile(f);
  await mocha.loadFilesAsync();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on("pass", () => passed++);
    runner.on("fail", () => failed++);
  });
} catch (e) {
  console.error(`relay tests could not run: ${e instanceof Error ? e.stack : String(e)}`);
  failed += 1;
} finally {
  await n?.stop();
}
console.log(`relay tests took ${((Date.now() - t0) / 1000).toFixed(1)}s`);
console.log(`relay: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
