/** Runs the scripted market on a connection and writes the report and plots. Used by `npm run demo` and its test. */
import { mkdir } from "node:fs/promises";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import { deployProtocol } from "../deploy/index.js";
import { connectProtocol } from "../lib/protocol.js";
import { Rng } from "./rng.js";
import { scenes, pendingScenes } from "./scenes/index.js";
import { renderLinePlot, type LinePlot } from "./plots.js";
import { writeReport, type Report } from "./report.js";
import type { DemoContext, DemoOptions, SceneResult, Series } from "./types.js";

const ACTORS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"];

export async function runDemo(
  hre: HardhatRuntimeEnvironment,
  connection: NetworkConnection,
  opts: DemoOptions,
  progress: (done: number, total: number, title: string) => void = () => {},
): Promise<Report> {
  const t0 = Date.now();
  await mkdir(opts.out, { recursive: true });
  const log: string[] = [];
  const figures: Record<string, string> = {};
  const series = new Map<string, Series>();
  const write = (line: string) => log.push(line);

  write(`deploying the protocol with scripts/deploy (network ${connection.networkName})`);
  const deploy = await deployProtocol(hre, connection, {
    write: connection.networkName !== "default",
    log: (m: string) => write(m.trim()),
  });
  const signers = await connection.ethers.getSigners();
  const deployer = signers[0]!;
  const named = new Map<string, (typeof signers)[number]>();
  const ctx: DemoContext = {
    hre,
    connection,
    deploy,
    protocol: connectProtocol(deploy.record, deployer),
    opts,
    rng: new Rng(opts.seed),
    deployer,
    actor(name) {
      let s = named.get(name);
      if (s === undefined) {
        const idx = ACTORS.indexOf(name);
        const provIdx = name.startsWith("provider") ? Number(name.slice(8)) : -1;
        const at = idx >= 0 ? 1 + idx : provIdx >= 0 ? 1 + ACTORS.length + provIdx : -1;
        s = signers[at];
        if (s === undefined) throw new Error(`no funded account for actor "${name}"`);
        named.set(name, s);
      }
      return s;
    },
    log: write,
    figure(key, value) {
      figures[key] = typeof value === "bigint" ? value.toString() : String(value);
    },
    series(name, row) {
      const s = series.get(name) ?? [];
      s.push(row);
      series.set(name, s);
    },
    async advance(seconds) {
      await connection.networkHelpers.time.increase(seconds);
    },
  };

  const results: SceneResult[] = [];
  const total = scenes.length + pendingScenes.length;
  let i = 0;
  for (const scene of scenes) {
    progress(i, total, scene.title);
    const missing = scene.requires.filter((n) => !deploy.has(n));
    const s0 = Date.now();
    if (missing.length > 0) {
      results.push({ title: scene.title, status: "skipped", note: `not deployed: ${missing.join(", ")}`, seconds: 0 });
    } else {
      write(`## ${scene.title}`);
      try {
        await scene.run(ctx);
        results.push({ title: scene.title, status: "done", note: "", seconds: (Date.now() - s0) / 1000 });
      } catch (e) {
        const msg = e instanceof Error ? e.message.split("\n")[0]! : String(e);
        write(`FAILED: ${msg}`);
        results.push({ title: scene.title, status: "failed", note: msg, seconds: (Date.now() - s0) / 1000 });
      }
    }
    i++;
  }
  for (const p of pendingScenes) {
    const missing = p.requires.filter((n) => !deploy.has(n));
    results.push({
      title: p.title,
      status: "skipped",
      note: missing.length > 0 ? `module not landed yet: ${missing.join(", ")}` : "scene not scripted yet",
      seconds: 0,
    });
    i++;
    progress(i, total, p.title);
  }

  const plots: string[] = [];
  for (const plot of plotSpecs(series)) plots.push(await renderLinePlot(opts.out, plot));

  const report: Report = {
    opts,
    network: connection.networkName,
    scenes: results,
    figures,
    log,
    plots,
    seconds: (Date.now() - t0) / 1000,
  };
  await writeReport(opts.out, report);
  return report;
}

/** Which series become which plot; a plot is drawn only when its series has data. */
function plotSpecs(series: Map<string, Series>): LinePlot[] {
  const specs: LinePlot[] = [];
  const s = (name: string) => series.get(name) ?? [];
  if (s("emission").length > 0)
    specs.push({
      file: "emission.svg",
      title: "DPS emission per epoch (halving marked)",
      series: s("emission"),
      x: "epoch",
      xTitle: "epoch (15 days)",
      y: ["dpsMinted"],
      yTitle: "DPS",
      rules: s("halvings").map((r) => ({ x: Number(r.epoch), label: "halving" })),
    });
  if (s("gfl").length > 0)
    specs.push({
      file: "gfl.svg",
      title: "Total GFL per epoch",
      series: s("gfl"),
      x: "epoch",
      xTitle: "epoch",
      y: ["totalGfl"],
      yTitle: "GFL",
    });
  if (s("convergence").length > 0)
    specs.push({
      file: "convergence.svg",
      title: "CH index vs futures price",
      series: s("convergence"),
      x: "day",
      xTitle: "day",
      y: ["index", "futures"],
      yTitle: "USDC per CH",
    });
  if (s("funding").length > 0)
    specs.push({
      file: "funding.svg",
      title: "Perp funding rate",
      series: s("funding"),
      x: "hour",
      xTitle: "hour",
      y: ["fundingRate"],
      yTitle: "rate per day",
    });
  if (s("openInterest").length > 0)
    specs.push({
      file: "open-interest.svg",
      title: "Open interest",
      series: s("openInterest"),
      x: "hour",
      xTitle: "hour",
      y: ["long", "short"],
      yTitle: "CH",
    });
  if (s("shock").length > 0)
    specs.push({
      file: "insurance.svg",
      title: "Insurance fund and guarantor capital through the shock",
      series: s("shock"),
      x: "step",
      xTitle: "step",
      y: ["insuranceFund", "guarantorCapital"],
      yTitle: "USDC",
    });
  if (s("spot").length > 0)
    specs.push({
      file: "spot.svg",
      title: "CH spot fills and TWAP",
      series: s("spot"),
      x: "hour",
      xTitle: "hour",
      y: ["price", "twap"],
      yTitle: "USDC per CH",
    });
  if (s("governance").length > 0)
    specs.push({
      file: "governance.svg",
      title: "Votes",
      series: s("governance"),
      x: "step",
      xTitle: "step",
      y: ["votes"],
      yTitle: "DPS",
    });
  return specs;
}
