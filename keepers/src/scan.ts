/**
 * The keeper's job selection and scan → plan pass, shared by the runner (keeper.ts) and the read-only report
 * `npx hardhat chx:keeper:status` (tasks/actions/keeper/status.ts): both see the same due work, built by the same
 * job code from the same on-chain state at head − confirmations.
 */
import type { Logger } from "pino";
import type { ChainClient } from "./chain/client.js";
import type { ErrorDecoder } from "./chain/errors.js";
import { ConfigError, DEFAULT_JOB, type JobConfig, type KeeperConfig } from "./config.js";
import { JobUnavailable, type DeploymentInfo } from "./deployments.js";
import { checkerJobFactories } from "./discover.js";
import { keyString, type HeadInfo, type JobContext, type JobFactory, type KeeperJob } from "./jobs/types.js";

export interface LoadedJob {
  job: KeeperJob;
  name: string;
  config: JobConfig;
}

/**
 * The factories a config runs with: this build's, plus (unless `discoverCheckers` is false) one per discovered
 * checker job — every deployed contract whose ABI has `checker()` and no dedicated job (keepers/src/discover.ts).
 */
export function allFactories(config: KeeperConfig, deployment: DeploymentInfo, factories: JobFactory[]): JobFactory[] {
  if (!config.discoverCheckers) return factories;
  const explicit = ((config.jobs.checker?.options.targets as Array<{ contract?: string }> | undefined) ?? [])
    .map((t) => t.contract)
    .filter((c): c is string => typeof c === "string");
  return [...factories, ...checkerJobFactories(deployment, config.artifactsDir, factories, explicit)];
}

/**
 * The jobs a config runs: every job of this build whose contracts are deployed, and every discovered checker job,
 * with the config's `jobs.<name>` section as overrides (never an allow-list: a section for one job does not turn the
 * others off); `enabled: false` turns one off and `only` (`--jobs a,b`) keeps just the named ones. A name in `jobs`
 * or `only` that no job answers to fails at start-up (a typo must not silently run nothing). Jobs whose contracts are
 * missing (JobUnavailable) are returned in `unavailable` with the reason.
 */
export function loadJobs(
  config: KeeperConfig,
  deployment: DeploymentInfo,
  builtIn: JobFactory[],
): { jobs: LoadedJob[]; unavailable: Array<{ name: string; reason: string }> } {
  const factories = allFactories(config, deployment, builtIn);
  const names = new Set(factories.map((f) => f.name));
  const known = () => [...names].sort().join(", ");
  for (const name of Object.keys(config.jobs)) {
    if (!names.has(name)) {
      throw new ConfigError(
        `Config "jobs.${name}" names no job of this keeper on ${deployment.file} (known: ${known()}).`,
      );
    }
  }
  for (const name of config.only ?? []) {
    if (!names.has(name)) {
      throw new ConfigError(`--jobs names "${name}", which is no job of this keeper (known: ${known()}).`);
    }
  }
  const only = config.only === undefined || config.only.length === 0 ? undefined : new Set(config.only);
  const jobs: LoadedJob[] = [];
  const unavailable: Array<{ name: string; reason: string }> = [];
  for (const f of factories) {
    const jc = config.jobs[f.name] ?? DEFAULT_JOB;
    if (only !== undefined && !only.has(f.name)) continue;
    if (!jc.enabled) {
      unavailable.push({ name: f.name, reason: `disabled in the config (jobs.${f.name}.enabled = false)` });
      continue;
    }
    try {
      jobs.push({ name: f.name, config: jc, job: f.create({ deployment, config: jc }) });
    } catch (e) {
      if (!(e instanceof JobUnavailable)) throw e;
      unavailable.push({ name: f.name, reason: e.message });
    }
  }
  return { jobs, unavailable };
}

export async function readHead(client: ChainClient): Promise<HeadInfo> {
  const b = await client.read("getBlock", (p) => p.getBlock("latest"));
  if (b === null || b.hash === null) throw new Error("The node returned no latest block.");
  return { number: b.number, hash: b.hash, timestamp: b.timestamp };
}

export interface DueAction {
  key: string;
  /** Every key a batch action covers. */
  keys: string[];
  priority: boolean;
  rewardWei?: bigint;
  description: string;
}

export interface JobDue {
  job: string;
  summary?: string;
  /** "off": not run on this network (reason); "error": the scan failed (reason, decoded). */
  state: "on" | "off" | "error";
  reason?: string;
  actions: DueAction[];
}

/** One read-only scan → plan pass over every job the config selects (no idempotency memo, no simulation). */
export async function scanDueWork(o: {
  client: ChainClient;
  deployment: DeploymentInfo;
  config: KeeperConfig;
  factories: JobFactory[];
  log: Logger;
  decoder: ErrorDecoder;
  keeper?: string;
}): Promise<{ head: HeadInfo; safeBlock: number; jobs: JobDue[] }> {
  const head = await readHead(o.client);
  const safeBlock = Math.max(0, head.number - o.config.confirmations);
  const { jobs, unavailable } = loadJobs(o.config, o.deployment, o.factories);
  const out: JobDue[] = [];
  for (const lj of jobs) {
    const ctx: JobContext = {
      client: o.client,
      deployment: o.deployment,
      config: lj.config,
      log: o.log.child({ job: lj.name }),
      keeper: o.keeper ?? "0x0000000000000000000000000000000000000000",
      head,
      safeBlock,
    };
    try {
      const candidates = await lj.job.scan(ctx);
      const actions = candidates.length === 0 ? [] : await lj.job.plan(ctx, candidates);
      out.push({
        job: lj.name,
        summary: lj.job.summary,
        state: "on",
        actions: actions
          .map((a) => ({
            key: keyString(a.key),
            keys: (a.keys ?? [a.key]).map(keyString),
            priority: a.priority,
            rewardWei: a.rewardWei,
            description: a.description,
          }))
          .sort((a, b) => (a.priority === b.priority ? 0 : a.priority ? -1 : 1)),
      });
    } catch (e) {
      out.push({ job: lj.name, state: "error", reason: `could not scan: ${o.decoder.decode(e).text}`, actions: [] });
    }
  }
  for (const u of unavailable) out.push({ job: u.name, state: "off", reason: u.reason, actions: [] });
  return { head, safeBlock, jobs: out };
}

/** The report as lines: one header per job, one line per due action (`!` marks priority work). */
export function formatDueWork(r: { head: HeadInfo; safeBlock: number; jobs: JobDue[] }): string[] {
  const lines: string[] = [];
  for (const j of r.jobs) {
    if (j.state === "off") lines.push(`job ${j.job}: off — ${j.reason}`);
    else if (j.state === "error") lines.push(`job ${j.job}: ${j.reason}`);
    else if (j.actions.length === 0) lines.push(`job ${j.job}: nothing due`);
    else {
      const n = j.actions.length;
      const p = j.actions.filter((a) => a.priority).length;
      lines.push(`job ${j.job}: ${n} action(s) due${p > 0 ? `, ${p} priority` : ""}`);
      for (const a of j.actions) {
        const reward = a.rewardWei === undefined ? "" : ` (bounty ≈ ${a.rewardWei} wei)`;
        lines.push(`  ${a.priority ? "!" : " "} ${a.key}  ${a.description}${reward}`);
      }
    }
  }
  return lines;
}
