/**
 * Checker discovery: every contract in deployments/<network>.json whose artifact ABI has `checker()`
 * (IKeeperChecker, contracts/interfaces/keepers/IKeeperCompatible.sol) becomes a keeper job driven by the generic checker
 * job — no keeper code per module. Jobs are named per contract type (`funding` for PerpMarket, `futures-expiry` for
 * FuturesMarket, `options-expiry` for OptionsMarket; any other contract: its deployment name in kebab case), so
 * each has its own `jobs.<name>` section (gas ceiling, profit factor, enabled). Several deployments of one type
 * (two PerpMarkets) share one job.
 *
 * Liveness and bad-debt work (expiries, settlement, delivery deadlines) is priority: sent whatever the gas price,
 * and a config cannot turn that off. Contracts with a dedicated job (Emission, TaskRegistry, MockKeeperTarget: a
 * factory's `covers`) and the checker job's explicit targets are not discovered twice (two jobs would race each
 * other for nothing).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Interface } from "ethers";
import { abis } from "@chx/sdk";
import { ConfigError } from "./config.js";
import type { DeploymentInfo } from "./deployments.js";
import { checkerJob, type CheckerTarget } from "./jobs/checker-job.js";
import type { JobFactory } from "./jobs/types.js";

export interface KnownChecker {
  /** Job name. */
  job: string;
  /** Liveness / bad-debt work: priority, and the config may not lower it. */
  priority: boolean;
  /** Functions `checker()` may return (Gelato needs one task per exec selector). */
  execFunctions: string[];
  /** What the job does, for the startup summary and --list-jobs. */
  work: string;
}

/** Contract types (artifact names) with a known job name and policy. */
export const KNOWN_CHECKERS: Record<string, KnownChecker> = {
  PerpMarket: {
    job: "funding",
    priority: false,
    execFunctions: ["executeOrder(address,uint80)", "cancelOrder(address)", "pokeFunding()"],
    work:
      "delayed orders (execute when due, cancel when expired; each pays its execution fee) and funding index pokes " +
      "(a late poke accrues the same funding over a longer interval; a trader can execute its own order: ordinary work)",
  },
  FuturesMarket: {
    job: "futures-expiry",
    priority: true,
    execFunctions: [
      "executeOrder(address,uint256,uint80)",
      "cancelOrder(address,uint256)",
      "fixSettlementPrice(uint256)",
      "fixSettlementPriceAt(uint256,uint80,uint64[])",
      "fixSettlementPriceFallback(uint256,uint80,uint64,uint80,uint64)",
      "finalizeSettlement(uint256)",
      "settlePosition(uint256,address)",
      "listStandardSeriesAt(uint8,uint64)",
    ],
    work:
      "futures orders (execute when due, cancel when expired; each pays its execution fee) and expiry: fix the " +
      "settlement price, finalise it after the dispute window, settle positions (liveness); then list the monthly " +
      "series governance asked to keep listed ahead (setKeeperListingMonths)",
  },
  OptionsMarket: {
    job: "options-expiry",
    priority: true,
    execFunctions: ["fixSettlementPrice(uint256)", "settleSeries(uint256,uint256)"],
    work: "options expiry: fix the settlement price, then settle each series in pages after the dispute window (liveness)",
  },
  TaskRegistry: {
    job: "tasks",
    priority: true,
    execFunctions: ["closeBidding(uint256)", "expire(uint256)", "drawCouncil(uint256)", "finalize(uint256)"],
    work: "task deadlines and council finalisation (newest 64 tasks; the tasks job scans them all)",
  },
  VolatilityChecker: {
    job: "volatility",
    priority: false,
    execFunctions: ["performUpkeep(bytes)"],
    work: "the EWMA volatility update for vendors (the volatility job does it directly)",
  },
  Emission: {
    job: "emission",
    priority: true,
    execFunctions: ["closeEpochs(uint256)", "rebalance(uint256)"],
    work: "epoch close and GFL rebalancing",
  },
};

export interface DiscoveredChecker {
  /** Deployment name. */
  name: string;
  /** Artifact (contract type). */
  contract: string;
  address: string;
  job: string;
  priority: boolean;
  execFunctions?: string[];
  work?: string;
}

/** Contract name → ABI for every artifact under `dir` (build-info and debug files skipped), read once per dir. */
const indexCache = new Map<string, Map<string, unknown[]>>();
export function artifactIndex(dir: string): Map<string, unknown[]> {
  const cached = indexCache.get(dir);
  if (cached !== undefined) return cached;
  const out = new Map<string, unknown[]>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      if (entry === "build-info") continue;
      const p = path.join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (entry.endsWith(".json") && !entry.endsWith(".dbg.json")) {
        try {
          const a = JSON.parse(readFileSync(p, "utf8")) as { contractName?: string; abi?: unknown[] };
          const name = a.contractName ?? entry.slice(0, -5);
          if (Array.isArray(a.abi) && !out.has(name)) out.set(name, a.abi);
        } catch {
          // not an artifact
        }
      }
    }
  };
  if (existsSync(dir)) walk(dir);
  indexCache.set(dir, out);
  return out;
}

/** "LiquidityVault" → "liquidity-vault". */
export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .toLowerCase();
}

/**
 * Every deployed contract whose ABI has `checker()`, with its job name and policy. ABIs come from the SDK by contract
 * name; a Hardhat artifacts folder (`artifactsDir`, when it exists) is read first, so a build newer than the SDK's
 * (or a contract the SDK does not know) is seen too.
 */
export function discoverCheckers(deployment: DeploymentInfo, artifactsDir: string): DiscoveredChecker[] {
  const local = artifactIndex(artifactsDir);
  const out: DiscoveredChecker[] = [];
  for (const [name, rec] of Object.entries(deployment.contracts)) {
    const abi = local.get(rec.contract) ?? (abis as Record<string, readonly unknown[] | undefined>)[rec.contract];
    if (abi === undefined) continue;
    let has = false;
    try {
      has = new Interface(abi as never).getFunction("checker()") !== null;
    } catch {
      has = false;
    }
    if (!has) continue;
    const known = KNOWN_CHECKERS[rec.contract];
    out.push({
      name,
      contract: rec.contract,
      address: rec.address,
      job: known?.job ?? kebab(name),
      priority: known?.priority ?? false,
      execFunctions: known?.execFunctions,
      work: known?.work,
    });
  }
  return out;
}

const OPTION_KEYS = ["priority", "alreadyDone", "rewardWei"];

/**
 * Job factories for the discovered checkers not covered by a dedicated job of `factories` nor by the checker job's
 * explicit targets (`explicitTargets`), one per job name.
 */
export function checkerJobFactories(
  deployment: DeploymentInfo,
  artifactsDir: string,
  factories: JobFactory[],
  explicitTargets: string[] = [],
): JobFactory[] {
  const covered = new Set(factories.flatMap((f) => f.covers ?? []));
  const taken = new Set(factories.map((f) => f.name));
  const explicit = new Set(explicitTargets);
  const groups = new Map<string, DiscoveredChecker[]>();
  for (const d of discoverCheckers(deployment, artifactsDir)) {
    if (covered.has(d.contract) || explicit.has(d.name) || taken.has(d.job)) continue;
    groups.set(d.job, [...(groups.get(d.job) ?? []), d]);
  }
  return [...groups.entries()].map(([job, found]) => ({
    name: job,
    description: `discovered checker() of ${found.map((f) => f.name).join(", ")}: ${found[0]!.work ?? "the payload its checker() returns"}`,
    discovered: true,
    create({ config }) {
      const opts = config.options as { priority?: unknown; alreadyDone?: unknown; rewardWei?: unknown };
      for (const k of Object.keys(opts)) {
        if (!OPTION_KEYS.includes(k)) {
          throw new ConfigError(`Unknown option "jobs.${job}.${k}" (known: ${OPTION_KEYS.join(", ")}).`);
        }
      }
      const liveness = found.some((f) => f.priority);
      if (opts.priority !== undefined && typeof opts.priority !== "boolean") {
        throw new ConfigError(`Config "jobs.${job}.priority" must be true or false.`);
      }
      if (liveness && opts.priority === false) {
        throw new ConfigError(
          `Config "jobs.${job}.priority" cannot be false: ${job} is liveness work, never skipped on a gas spike (OPS-02).`,
        );
      }
      if (opts.alreadyDone !== undefined && !Array.isArray(opts.alreadyDone)) {
        throw new ConfigError(`Config "jobs.${job}.alreadyDone" must be a list of error names.`);
      }
      const targets: Array<CheckerTarget & { address: string }> = found.map((f) => ({
        contract: f.name,
        address: f.address,
        priority: liveness || opts.priority === true,
        alreadyDone: opts.alreadyDone as string[] | undefined,
        rewardWei: opts.rewardWei === undefined ? undefined : String(opts.rewardWei),
      }));
      return checkerJob(targets, job);
    },
  }));
}
