import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { KeeperJobStats } from "./keeper.js";
import type { DemoOptions, SceneResult } from "./types.js";

export interface KeeperReport {
  /** The keeper's startup summary (signer, chain, each job on or off and why). */
  summary: string[];
  jobs: KeeperJobStats[];
  ticks: number;
  seconds: number;
}

export interface Report {
  opts: DemoOptions;
  network: string;
  scenes: SceneResult[];
  figures: Record<string, string>;
  log: string[];
  plots: string[];
  keeper: KeeperReport;
  seconds: number;
}

/** One line per keeper job: its actions by outcome. */
export function keeperLines(k: KeeperReport): string[] {
  return k.jobs.map((j) => {
    const outcomes = Object.entries(j.outcomes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([o, n]) => `${n} ${o}`);
    if (j.errors > 0) outcomes.push(`${j.errors} scan error(s)`);
    return `  ${j.job}: ${outcomes.join(", ") || "nothing due"}`;
  });
}

export function summary(r: Report): string {
  const done = r.scenes.filter((s) => s.status === "done").length;
  const skipped = r.scenes.filter((s) => s.status === "skipped").length;
  const failed = r.scenes.filter((s) => s.status === "failed").length;
  const lines = [
    `CHX demo — seed ${r.opts.seed}, ${r.opts.days} days, ${r.opts.providers} providers, network ${r.network}`,
    `scenes: ${done} done, ${skipped} skipped, ${failed} failed (${r.seconds.toFixed(1)} s)`,
    ...r.scenes.map(
      (s) =>
        `  ${s.status === "done" ? "✔" : s.status === "skipped" ? "–" : "✖"} ${s.title}${s.note ? ` — ${s.note}` : ""}`,
    ),
    `keeper (keepers/src, ${r.keeper.ticks} ticks, ${r.keeper.seconds.toFixed(1)} s) — actions per job:`,
    ...keeperLines(r.keeper),
    "key figures:",
    ...Object.entries(r.figures).map(([k, v]) => `  ${k}: ${v}`),
  ];
  return lines.join("\n");
}

export async function writeReport(dir: string, r: Report): Promise<string> {
  const md = [
    "# CHX demo report",
    "",
    "```",
    summary(r),
    "```",
    "",
    "## Keeper",
    "",
    "The keeper program (`keepers/src`, the same runner and jobs as `npm run keeper`) ran in-process against the",
    "demo's chain; every action it took is a JSON line in [keeper.log](keeper.log).",
    "",
    "```",
    ...r.keeper.summary,
    "```",
    "",
    "| job | actions by outcome | first actions |",
    "| --- | --- | --- |",
    ...r.keeper.jobs.map(
      (j) =>
        `| ${j.job} | ${
          Object.entries(j.outcomes)
            .map(([o, n]) => `${n} ${o}`)
            .join(", ") || "nothing due"
        }${j.errors > 0 ? `, ${j.errors} scan error(s)` : ""} | ${j.examples.map((e) => e.replace(/\|/g, "\\|")).join("<br>")} |`,
    ),
    "",
    "## Plots",
    "",
    ...r.plots.map((p) => `![${path.basename(p, ".svg")}](${path.basename(p)})`),
    "",
    "## Run log",
    "",
    ...r.log.map((l) => `- ${l}`),
    "",
  ].join("\n");
  const file = path.join(dir, "report.md");
  await writeFile(file, md);
  await writeFile(path.join(dir, "report.json"), JSON.stringify({ ...r, log: undefined }, null, 2) + "\n");
  return file;
}
