#!/usr/bin/env node
/**
 * chx-keeper: runs the CHX maintenance jobs against a network.
 *
 *   npm run keeper -- --network localhost [--config keepers/keeper.localhost.json] [--dry-run] [--once]
 *
 * Exit codes: 0 after a clean stop (or a --once tick without failures), 1 on a configuration or startup error
 * (one sentence on stderr), 2 when a --once tick had failed actions.
 */
import { Command, InvalidArgumentError } from "commander";
import { ConfigError, deploymentFile, loadConfig } from "./config.js";
import { loadDeployment } from "./deployments.js";
import { jobFactories } from "./jobs/index.js";
import { Keeper } from "./keeper.js";
import { createLogger, stdoutDestination } from "./log.js";
import { allFactories } from "./scan.js";
import { signerFor } from "./signer.js";
import { FAILED_OUTCOMES } from "./keeper.js";

function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < -1 || n > 65535) throw new InvalidArgumentError("a port number (or -1 to disable)");
  return n;
}

async function main(argv: string[]): Promise<number> {
  const program = new Command()
    .name("chx-keeper")
    .description("CHX keeper: performs the protocol's permissionless maintenance work for its bounties.")
    .option("-n, --network <name>", "network name (reads deployments/<name>.json)")
    .option("-c, --config <file>", "JSON config file (see docs/keepers.md)")
    .option("--dry-run", "scan and simulate only; never send a transaction")
    .option("--once", "run one tick and exit")
    .option("--jobs <names>", "comma-separated jobs to run (overrides the config's selection)")
    .option("--log-level <level>", "pino level: trace, debug, info, warn, error")
    .option("--metrics-port <port>", "port for /health and /metrics (-1 disables, 0 picks a free one)", port)
    .option("--metrics-host <address>", "address the metrics server binds (default 127.0.0.1; 0.0.0.0 in a container)")
    .option("--data-dir <dir>", "state database directory (default .chx-keeper/<network>)")
    .option("--list-jobs", "print the jobs this build knows and exit")
    .showHelpAfterError();
  program.parse(argv);
  const o = program.opts<{
    network?: string;
    config?: string;
    dryRun?: boolean;
    once?: boolean;
    jobs?: string;
    logLevel?: string;
    metricsPort?: number;
    metricsHost?: string;
    dataDir?: string;
    listJobs?: boolean;
  }>();
  if (o.listJobs) {
    for (const f of jobFactories) console.log(`${f.name.padEnd(16)} ${f.description}`);
    if (o.network === undefined) {
      console.log(
        "(with --network <name>: also one job per deployed contract with checker(), e.g. funding, futures-expiry, options-expiry)",
      );
      return 0;
    }
    const cfg = loadConfig({ network: o.network, config: o.config });
    const deployment = loadDeployment(deploymentFile(cfg));
    for (const f of allFactories(cfg, deployment, jobFactories).filter((x) => x.discovered)) {
      console.log(`${f.name.padEnd(16)} ${f.description}`);
    }
    return 0;
  }
  if (o.network === undefined) throw new ConfigError("Say which network to keep: --network <name> (e.g. localhost).");
  const cfg = loadConfig({
    network: o.network,
    config: o.config,
    dryRun: o.dryRun,
    once: o.once,
    jobs: o.jobs?.split(",").map((s) => s.trim()),
    logLevel: o.logLevel,
    metricsPort: o.metricsPort,
    metricsHost: o.metricsHost,
    dataDir: o.dataDir,
  });
  const deployment = loadDeployment(deploymentFile(cfg));
  const wallet = await signerFor(cfg);
  const log = createLogger(cfg.logLevel, stdoutDestination());
  const keeper = new Keeper({ config: cfg, deployment, wallet, factories: jobFactories, log });
  if (keeper.jobs.length === 0) {
    const why = keeper.unavailable.map((u) => `${u.name}: ${u.reason}`).join("; ");
    await keeper.stop(0);
    throw new ConfigError(
      `No job is enabled on ${cfg.network}, so this keeper would do nothing${why === "" ? "" : ` (${why})`}.`,
    );
  }
  let warnings: string[];
  try {
    warnings = await keeper.preflight();
  } catch (e) {
    await keeper.stop(0);
    throw e;
  }
  const metricsPort = await keeper.startMetrics();
  if (metricsPort !== undefined) cfg.metricsPort = metricsPort;
  for (const line of keeper.summary()) process.stderr.write(line + "\n");
  for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
  // The handlers are in place before "keeper started" is written: a supervisor may stop the keeper as soon as it reads
  // that line, and a signal without a handler would kill the process without its graceful stop.
  let signals = 0;
  const onSignal = (sig: string) => {
    signals++;
    if (signals > 1) process.exit(130);
    log.info({ sig }, "stopping: finishing the current tick (send the signal again to exit at once)");
    void keeper.stop();
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  log.info({ address: keeper.address, jobs: keeper.jobs.map((j) => j.name), dryRun: cfg.dryRun }, "keeper started");

  if (cfg.once) {
    try {
      const report = await keeper.tick();
      const failed = report.results.filter((r) => FAILED_OUTCOMES.has(r.outcome)).length + report.errors.length;
      const counts: Record<string, number> = {};
      for (const r of report.results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
      process.stderr.write(
        `tick at block ${report.head}: ${
          Object.entries(counts)
            .map(([k, v]) => `${v} ${k}`)
            .join(", ") || "nothing due"
        }\n`,
      );
      return failed > 0 ? 2 : 0;
    } finally {
      await keeper.stop(0);
    }
  }
  await keeper.run();
  await keeper.stop();
  log.info({}, "keeper stopped");
  return 0;
}

main(process.argv).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const msg = e instanceof ConfigError || e instanceof Error ? e.message : String(e);
    process.stderr.write(`chx-keeper: ${msg}\n`);
    process.exit(1);
  },
);
