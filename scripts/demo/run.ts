/** Runs the scripted market on a connection and writes the report and plots. Used by `npm run demo` and its test. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Interface } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import { deployProtocol } from "../deploy/index.js";
import { DemoKeeper } from "./keeper.js";
import { Rng } from "./rng.js";
import { scenes, pendingScenes } from "./scenes/index.js";
import { renderBarPlot, renderLinePlot, type BarPlot, type LinePlot } from "./plots.js";
import { writeReport, type Report } from "./report.js";
import type { DemoContext, DemoOptions, SceneResult, Series } from "./types.js";
import { connectProtocol } from "@chx/sdk";

/** Routine upkeep, counted in the report's keeper table but not listed line by line in the run log. */
const ROUTINE = /^keeper volatility:|→ pokeFunding\(\)/;

const ACTORS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"];

/** The longest stretch of simulated time without a new index round (the feed's heartbeat is 1 day). */
const MAX_INDEX_STEP_SEC = 12 * 3_600;

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
  const addRow = (name: string, row: Record<string, number | string>) => {
    const s = series.get(name) ?? [];
    s.push(row);
    series.set(name, s);
  };

  write(`deploying the protocol with scripts/deploy (network ${connection.networkName})`);
  const deploy = await deployProtocol(hre, connection, {
    write: connection.networkName !== "default",
    log: (m: string) => write(m.trim()),
  });
  const signers = await connection.ethers.getSigners();
  const deployer = signers[0]!;
  const named = new Map<string, (typeof signers)[number]>();
  const protocol = connectProtocol(deploy.record, deployer);

  // checker payloads by function name in the run log (the keeper logs the selector)
  const selectors = new Map<string, string>();
  for (const handle of Object.values(protocol)) {
    const iface = (handle as { interface?: Interface } | undefined)?.interface;
    iface?.forEachFunction((f) => selectors.set(f.selector, `→ ${f.name}()`));
  }
  // The keeper program (keepers/src) runs in-process against this chain; its JSON logs go to <out>/keeper.log.
  const keeper = await DemoKeeper.start({
    connection,
    record: deploy.record,
    deployer,
    seed: opts.seed,
    out: opts.out,
    // routine upkeep (σ updates) is counted in the report, not listed in the run log
    onAction: (line) => {
      const named = line.replace(/payload (0x[0-9a-f]{8})/, (m, sel: string) => selectors.get(sel) ?? m);
      if (!ROUTINE.test(named)) write(named);
    },
  });
  for (const line of keeper.summary()) write(line.trim());

  // The CH index: a seeded walk (2 % a day, pulled back to 2 USDC) published to the mock Chainlink feed whenever
  // time moves, so the oracle is never stale; scenes may set it (the shock). Its own RNG stream, so scenes draw
  // the same numbers whether or not time moves in between.
  const indexRng = new Rng(opts.seed ^ 0x5eed1dec);
  let indexUsdc = 2;
  let clock = Number((await connection.ethers.provider.getBlock("latest"))!.timestamp);
  const startedAt = clock;
  const publish = async (price: number) => {
    indexUsdc = price;
    const feed = protocol.chIndexFeed;
    if (feed === undefined) return;
    await (await feed.setAnswer(BigInt(Math.round(price * 1e8)))).wait();
    addRow("index", { day: Number(((clock - startedAt) / 86_400).toFixed(4)), index: price });
  };

  const ctx: DemoContext = {
    hre,
    connection,
    deploy,
    protocol,
    keeper,
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
    series: addRow,
    async advance(seconds) {
      // In steps of at most 12 hours, each publishing a round, as a live feed does within its heartbeat (1 day): a
      // futures series settles from the index TWAP over the hour before its expiry, and a round in that hour older
      // than the heartbeat is stale (the fixing refuses it), so one long jump across an expiry must not leave a
      // days-old round in force there.
      for (let left = seconds; left > 0;) {
        const step = Math.min(left, MAX_INDEX_STEP_SEC);
        left -= step;
        await connection.networkHelpers.time.increase(step);
        clock = Number((await connection.ethers.provider.getBlock("latest"))!.timestamp);
        const days = step / 86_400;
        const z = (indexRng.next() - 0.5) * Math.sqrt(12); // unit variance
        const next = indexUsdc * (1 + 0.02 * Math.sqrt(days) * z) + 0.05 * (2 - indexUsdc) * Math.min(days, 1);
        await publish(Math.max(0.05, Number(next.toFixed(6))));
      }
      await keeper.tick();
    },
    index: () => indexUsdc,
    async setIndex(price) {
      await publish(price);
    },
  };

  const results: SceneResult[] = [];
  try {
    await playScenes(ctx, results, progress);
    // a last round of upkeep: a fresh index (scenes may have moved time without it) and whatever is still due
    await publish(indexUsdc);
    await keeper.settle();
  } finally {
    await keeper.close();
  }
  const timing = keeper.timing();
  figures["keeper.actions"] = String(keeper.successes());
  figures["keeper.failures"] = String(keeper.failures());
  for (const j of keeper.jobStats()) figures[`keeper.${j.job}.actions`] = String(j.outcomes.success ?? 0);
  write(`keeper: ${timing.ticks} ticks in ${timing.seconds.toFixed(1)} s; JSON log ${keeper.logFile}`);
  await writeFile(path.join(opts.out, "keeper-cost.json"), JSON.stringify(await keeper.costs(), null, 1) + "\n");
  const keeperStats = keeper.jobStats();
  const keeperSummary = keeper.summary();

  const plots: string[] = [];
  for (const plot of plotSpecs(series)) plots.push(await renderLinePlot(opts.out, plot));
  for (const plot of barSpecs(series)) plots.push(await renderBarPlot(opts.out, plot));
  // the plots' data, for anyone who wants to re-plot or check a run
  await writeFile(path.join(opts.out, "series.json"), JSON.stringify(Object.fromEntries(series), null, 1) + "\n");

  const report: Report = {
    opts,
    network: connection.networkName,
    scenes: results,
    figures,
    log,
    plots,
    keeper: { summary: keeperSummary, jobs: keeperStats, ticks: timing.ticks, seconds: timing.seconds },
    seconds: (Date.now() - t0) / 1000,
  };
  await writeReport(opts.out, report);
  return report;
}

async function playScenes(
  ctx: DemoContext,
  results: SceneResult[],
  progress: (done: number, total: number, title: string) => void,
): Promise<void> {
  const { deploy, log: write } = ctx;
  // scenes may move time on their own (the tasks scene's windows): each starts with a fresh index
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
        await ctx.setIndex(ctx.index());
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
}

/** The bar plots: compute delivered per month, each waterfall layer's absorption per shock. */
function barSpecs(series: Map<string, Series>): BarPlot[] {
  const specs: BarPlot[] = [];
  const s = (name: string) => series.get(name) ?? [];
  const schedule = s("delivery").filter((r) => r.scheduledCh !== undefined);
  if (schedule.length > 0) {
    // Alice's months (the cast scene: one row per delivered month): what she hedged against what her tasks consumed
    const rows: BarPlot["rows"] = [];
    for (const r of schedule) {
      rows.push({
        category: String(r.label),
        group: "hedged and delivered to her order",
        value: Number(r.scheduledCh),
      });
      rows.push({ category: String(r.label), group: "consumed as verified tasks", value: Number(r.computeHours) });
    }
    specs.push({
      file: "delivery.svg",
      title: "Alice's compute per delivery month: the CH her futures delivered vs the compute hours her tasks consumed",
      rows,
      xTitle: "month of her schedule (month 1 is six months after she hedged)",
      yTitle: "compute hours (CH)",
    });
  }
  if (s("shockLayers").length > 0)
    specs.push({
      file: "shock-layers.svg",
      title: "What each layer of the waterfall absorbed, per shock (after the defaulters' own margin)",
      rows: s("shockLayers").map((r) => ({ category: String(r.layer), group: String(r.shock), value: Number(r.usdc) })),
      xTitle: "layer",
      yTitle: "USDC absorbed",
    });
  return specs;
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
      title: "CH index vs futures price, converging at expiry",
      series: s("convergence"),
      x: "hour",
      xTitle: "hours to expiry",
      y: ["index", "futures"],
      yTitle: "USDC per CH",
    });
  if (s("forwardCurve").length > 0)
    specs.push({
      file: "forward-curve.svg",
      title: "Futures forward curve: each month's last trader-against-trader price (signed orders)",
      series: s("forwardCurve"),
      x: "month",
      xTitle: "months after the near expiry (0: the index)",
      y: ["price"],
      yTitle: "USDC per CH",
    });
  if (s("castOptionsPayoff").length > 0)
    specs.push({
      file: "cast-options-payoff.svg",
      title:
        "Bob's puts and Carol's strangle at expiry: payoff (USDC) against the futures price, the settlement marked",
      series: s("castOptionsPayoff"),
      x: "futuresAtExpiry",
      xTitle: "futures price at expiry (USDC per CH)",
      y: ["Bob: puts", "Carol: strangle written", "Carol: lower put", "Carol: net of premiums"],
      yTitle: "USDC",
      rules: s("castOptionsSettlement").map((r) => ({ x: Number(r.price), label: "settled" })),
    });
  if (s("basis").length > 0)
    specs.push({
      file: "basis.svg",
      title: "Futures basis (futures − index) shrinking to zero at expiry",
      series: s("basis"),
      x: "hour",
      xTitle: "hours to expiry",
      y: ["basisBps"],
      yTitle: "bps of the index",
    });
  if (s("funding").length > 0)
    specs.push({
      file: "funding.svg",
      title: "Perp funding rate (+: longs pay)",
      series: s("funding"),
      x: "hour",
      xTitle: "hour",
      y: ["fundingRate"],
      yTitle: "% of notional per day",
    });
  if (s("openInterest").length > 0)
    specs.push({
      file: "open-interest.svg",
      title: "Perp open interest",
      series: s("openInterest"),
      x: "hour",
      xTitle: "hour",
      y: ["long", "short"],
      yTitle: "CH",
    });
  if (s("shock").length > 0)
    specs.push({
      file: "insurance.svg",
      title: "Insurance fund and guarantor capital through the 40 % shock",
      series: s("shock"),
      x: "hour",
      xTitle: "hours from the shock",
      y: ["insuranceUsdc", "guarantorsUsdc"],
      yTitle: "USDC",
      rules: [{ x: 0, label: "−40 %" }],
    });
  if (s("shock60").length > 0)
    specs.push({
      file: "insurance-shock60.svg",
      title: "Insurance fund and guarantor capital through the 60 % shock (the fund drained first)",
      series: s("shock60"),
      x: "hour",
      xTitle: "hours from the shock",
      y: ["insuranceUsdc", "guarantorsUsdc"],
      yTitle: "USDC",
      rules: [{ x: 0, label: "−60 %" }],
    });
  if (s("index").length > 1)
    specs.push({
      file: "index.svg",
      title: "CH index published by the feed (USDC per CH)",
      series: s("index"),
      x: "day",
      xTitle: "day",
      y: ["index"],
      yTitle: "USDC per CH",
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
