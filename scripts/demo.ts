/**
 * `npm run demo [-- --seed N --days D --providers P --network localhost --out demo-output]`
 * Deploys the whole protocol with the real deploy script on Hardhat's in-process chain (or a node), plays the
 * scripted market with the seeds' cast, prints a report and writes demo-output/report.md and plots (SVG).
 */
import { Command } from "commander";
import hre from "hardhat";
import { runDemo } from "./demo/run.js";
import { summary } from "./demo/report.js";

const program = new Command()
  .name("chx-demo")
  .option("--seed <n>", "random seed (same seed, same run)", "7")
  .option("--days <d>", "simulated days", "400")
  .option("--providers <p>", "number of providers", "6")
  .option("--network <name>", "hardhat network (default: in-process)", "default")
  .option("--out <dir>", "output directory", "demo-output")
  .parse(process.argv);
const o = program.opts<{ seed: string; days: string; providers: string; network: string; out: string }>();

const connection = await hre.network.create(o.network === "default" ? undefined : o.network);
const started = Date.now();
const report = await runDemo(
  hre,
  connection,
  { seed: Number(o.seed), days: Number(o.days), providers: Number(o.providers), out: o.out },
  (done, total, title) => {
    if (!process.stdout.isTTY) {
      console.log(`[${done}/${total}] ${title}`);
      return;
    }
    const width = 24;
    const filled = Math.round((done / total) * width);
    process.stdout.write(
      `\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${title.slice(0, 60).padEnd(60)}`,
    );
  },
);
process.stdout.write("\n\n");
console.log(summary(report));
console.log(
  `\nreport: ${o.out}/report.md; plots: ${report.plots.map((p) => p.split("/").pop()).join(", ") || "none yet"}`,
);
console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
await connection.close();
process.exit(report.scenes.some((s) => s.status === "failed") ? 1 : 0);
