import { writeFile } from "node:fs/promises";
import path from "node:path";
import type { DemoOptions, SceneResult } from "./types.js";

export interface Report {
  opts: DemoOptions;
  network: string;
  scenes: SceneResult[];
  figures: Record<string, string>;
  log: string[];
  plots: string[];
  seconds: number;
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
