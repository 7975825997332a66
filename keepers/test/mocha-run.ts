/**
 * The runner behind `npm run test:keepers` and `npm run test:relay`: starts one real local node, runs every
 * `<dir>/*.test.ts` (or those whose name contains an argument) with mocha in this process, always stops the node,
 * and ends with ONE line `[<prefix>]N passed, N failed` (scripts/test.mjs sums it). Exits 1 on any failure.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import Mocha from "mocha";

export interface MochaRunOptions {
  /** Folder of the `*.test.ts` files. */
  dir: string;
  /** What the timing and error lines call the suite ("keeper tests"). */
  label: string;
  /** Put before the closing `N passed, N failed` line ("relay: "). */
  prefix?: string;
  timeoutMs: number;
  /** Lines of a failure's stack to print. */
  stackLines?: number;
  startNode(): Promise<{ url: string; stop(): Promise<void> }>;
}

/**
 * Prints each test as it ends and every failure in full, but no "N passing" epilogue: scripts/test.mjs would count
 * mocha's summary AND the closing line.
 */
function lineReporter(stackLines: number) {
  return class LineReporter extends Mocha.reporters.Base {
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
            .slice(0, stackLines)
            .join("\n      ")}`,
        );
      });
    }
  };
}

export async function runMochaWithNode(o: MochaRunOptions): Promise<never> {
  const filter = process.argv.slice(2);
  const files = readdirSync(o.dir)
    .filter((f) => f.endsWith(".test.ts"))
    .filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
    .sort()
    .map((f) => path.join(o.dir, f));
  let passed = 0;
  let failed = 0;
  let node: { stop(): Promise<void> } | undefined;
  const t0 = Date.now();
  try {
    const n = await o.startNode();
    node = n;
    console.log(`local node ${n.url} up in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
    const mocha = new Mocha({ timeout: o.timeoutMs, reporter: lineReporter(o.stackLines ?? 12) });
    for (const f of files) mocha.addFile(f);
    await mocha.loadFilesAsync();
    await new Promise<void>((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on("pass", () => passed++);
      runner.on("fail", () => failed++);
    });
  } catch (e) {
    console.error(`${o.label} could not run: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    failed += 1;
  } finally {
    await node?.stop();
  }
  console.log(`${o.label} took ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  console.log(`${o.prefix ?? ""}${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}
