/** Plots as SVG files, rendered by vega-lite + vega (a real charting library, headless, no canvas needed). */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import * as vega from "vega";
import * as vl from "vega-lite";
import type { Series } from "./types.js";

export interface LinePlot {
  file: string;
  title: string;
  series: Series;
  x: string;
  xTitle: string;
  /** Columns to draw as lines (one colour each). */
  y: string[];
  yTitle: string;
  /** Optional vertical rules (e.g. a halving, the shock) at these x values. */
  rules?: Array<{ x: number; label: string }>;
}

export async function renderLinePlot(dir: string, plot: LinePlot): Promise<string> {
  const values = plot.series.flatMap((row) =>
    plot.y.filter((k) => row[k] !== undefined).map((k) => ({ x: row[plot.x], value: row[k], series: k })),
  );
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: plot.title,
    width: 640,
    height: 280,
    background: "white",
    layer: [
      {
        data: { values },
        mark: { type: "line", point: values.length < 60 },
        encoding: {
          x: { field: "x", type: "quantitative", title: plot.xTitle },
          y: { field: "value", type: "quantitative", title: plot.yTitle },
          color: { field: "series", type: "nominal", title: null },
        },
      },
      ...(plot.rules !== undefined && plot.rules.length > 0
        ? [
            {
              data: { values: plot.rules },
              mark: { type: "rule", strokeDash: [4, 4], color: "#c0392b" },
              encoding: { x: { field: "x", type: "quantitative" } },
            },
            {
              data: { values: plot.rules },
              mark: { type: "text", align: "left", dx: 4, dy: -120, color: "#c0392b" },
              encoding: { x: { field: "x", type: "quantitative" }, text: { field: "label" } },
            },
          ]
        : []),
    ],
  } as unknown as vl.TopLevelSpec;
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  const svg = await view.toSVG();
  const file = path.join(dir, plot.file);
  await writeFile(file, svg);
  return file;
}

export interface BarPlot {
  file: string;
  title: string;
  /** One bar per row: `category` on the x axis, `group` side by side within it (one colour each), `value` its height. */
  rows: Array<{ category: string; group: string; value: number }>;
  xTitle: string;
  yTitle: string;
}

/** Grouped bars (e.g. each waterfall layer's absorption in each shock), same renderer as the line plots. */
export async function renderBarPlot(dir: string, plot: BarPlot): Promise<string> {
  const order = [...new Set(plot.rows.map((r) => r.category))];
  const spec = {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: plot.title,
    width: 640,
    height: 280,
    background: "white",
    data: { values: plot.rows },
    mark: { type: "bar", tooltip: true },
    encoding: {
      x: { field: "category", type: "nominal", title: plot.xTitle, sort: order, axis: { labelAngle: 0 } },
      xOffset: { field: "group", type: "nominal" },
      y: { field: "value", type: "quantitative", title: plot.yTitle },
      color: { field: "group", type: "nominal", title: null },
    },
  } as unknown as vl.TopLevelSpec;
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  const svg = await view.toSVG();
  const file = path.join(dir, plot.file);
  await writeFile(file, svg);
  return file;
}
