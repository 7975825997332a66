/**
 * `npm run keeper:gelato -- --network <name> [--config <file>] [--execute]`: builds the Gelato Automate task
 * registration for every contract with a `checker()` (IKeeperChecker) and prints it. Dry run by default: the
 * registrations (CreateTaskOptions plus the encoded module data the Automate contract receives) are printed as
 * JSON on stdout. `--execute` registers them with @gelatonetwork/automate-sdk 3.1.0, which needs an ethers v5
 * signer (confined to this file) and Gelato's HTTP API.
 *
 * Targets: the keeper config's `jobs.checker.targets` and every deployed contract whose artifact has `checker()`
 * (keepers/src/discover.ts: PerpMarket → job `funding`, FuturesMarket → `futures-expiry`, OptionsMarket →
 * `options-expiry`, TaskRegistry → `tasks`, Emission → `emission`, …). Gelato checks the exec selector of the
 * payload against the task's, so a checker that returns several functions gets one task per function: the
 * target's `execFunction` (e.g. "execute(uint256)"), else the known functions of its contract type, else the
 * selector of the payload a live `checker()` returns right now.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Command } from "commander";
import { id as selectorOf } from "ethers";
import { AutomateModule, AutomateSDK, TriggerType, type CreateTaskOptions } from "@gelatonetwork/automate-sdk";
import { ClearingHouse__factory, IKeeperChecker__factory, LiquidationChecker__factory } from "@chx/sdk";
import { getAddress } from "ethers";
import { LogScanner } from "./chain/logs.js";
import { AccountSet } from "./jobs/liquidations.js";
import { ChainClient } from "./chain/client.js";
import { ConfigError, deploymentFile, loadConfig } from "./config.js";
import { loadDeployment, type DeploymentInfo } from "./deployments.js";
import { discoverCheckers } from "./discover.js";
import type { CheckerTarget } from "./jobs/checker-job.js";

interface GelatoTarget extends CheckerTarget {
  /** Signature of the function execPayload calls, e.g. "execute(uint256)". */
  execFunction?: string;
  /** Every function the checker may return (one Gelato task each); from discovery's table of contract types. */
  execFunctions?: string[];
  /** The keeper job that drives the same work (for the operator: run one or the other, not both). */
  job?: string;
  /** Gelato time-trigger interval (ms), default 60,000. */
  intervalMs?: number;
  /** Resolver calldata other than `checker()` (the LiquidationChecker's `checker(accounts)` of one shard). */
  resolverData?: string;
  /** Label of the shard (task name). */
  shard?: string;
}

export interface Registration {
  contract: string;
  job: string;
  /** The function this task executes (one task per function the checker may return). */
  execFunction: string;
  options: CreateTaskOptions;
  moduleData: { modules: number[]; args: string[] };
  selectorSource: "config" | "contract type" | "live checker()";
}

export async function buildRegistrations(
  deployment: DeploymentInfo,
  targets: GelatoTarget[],
  client: ChainClient | undefined,
): Promise<{ registrations: Registration[]; problems: string[] }> {
  const defaultChecker = IKeeperChecker__factory.createInterface().encodeFunctionData("checker");
  const module = new AutomateModule();
  const registrations: Registration[] = [];
  const problems: string[] = [];
  for (const t of targets) {
    const checkerData = t.resolverData ?? defaultChecker;
    const rec = deployment.contracts[t.contract];
    if (rec === undefined) {
      problems.push(`${t.contract} is not in ${deployment.file}.`);
      continue;
    }
    // Exec functions: configured, else the contract type's known ones, else the live payload's selector.
    let fns: Array<{ fn: string; selector: string }> = [];
    let selectorSource: Registration["selectorSource"] = "config";
    if (t.execFunction !== undefined) {
      fns = [{ fn: t.execFunction, selector: selectorOf(t.execFunction).slice(0, 10) }];
    } else if (t.execFunctions !== undefined && t.execFunctions.length > 0) {
      fns = t.execFunctions.map((fn) => ({ fn, selector: selectorOf(fn).slice(0, 10) }));
      selectorSource = "contract type";
    } else if (client !== undefined) {
      try {
        const [canExec, payload] = await client.read("checker", (p) =>
          IKeeperChecker__factory.connect(rec.address, p).checker(),
        );
        if (canExec && payload.length >= 10) {
          fns = [{ fn: payload.slice(0, 10), selector: payload.slice(0, 10) }];
          selectorSource = "live checker()";
        }
      } catch {
        // no node reachable: reported below
      }
    }
    if (fns.length === 0) {
      problems.push(
        `${t.contract}: no exec selector — set "execFunction" on its checker target (checker() has no work to show it now).`,
      );
      continue;
    }
    const trigger = { type: TriggerType.TIME as const, interval: t.intervalMs ?? 60_000 };
    const moduleData = await module.encodeModuleArgs({
      resolverAddress: rec.address,
      resolverData: checkerData,
      dedicatedMsgSender: true,
      trigger,
    });
    for (const { fn, selector } of fns) {
      const options: CreateTaskOptions = {
        name:
          (fns.length > 1 ? `CHX ${t.contract} keeper: ${fn.split("(")[0]}` : `CHX ${t.contract} keeper`) +
          (t.shard === undefined ? "" : ` (${t.shard})`),
        execAddress: rec.address,
        execSelector: selector,
        resolverAddress: rec.address,
        resolverData: checkerData,
        dedicatedMsgSender: true,
        trigger,
      };
      registrations.push({
        contract: t.contract,
        job: t.job ?? "checker",
        execFunction: fn,
        options,
        moduleData,
        selectorSource,
      });
    }
  }
  return { registrations, problems };
}

/**
 * The LiquidationChecker's tasks: the ClearingHouse keeps no account list, so each task's resolver data is
 * `checker(accounts)` for one shard of the accounts with a position now (from the ClearingHouse's events, read as the
 * liquidations job reads them). Accounts that open positions later need a re-registration (or the keeper itself).
 */
export async function liquidationShards(
  deployment: DeploymentInfo,
  client: ChainClient,
  shardSize = 100,
): Promise<GelatoTarget[]> {
  const ch = deployment.contracts.ClearingHouse;
  const checker = deployment.contracts.LiquidationChecker;
  if (ch === undefined || checker === undefined) return [];
  const set = new AccountSet(0); // one scan, no reorg to follow: no journal
  const iface = ClearingHouse__factory.createInterface();
  const topics = (["PositionModified", "PositionLiquidated", "AccountSettled"] as const).map(
    (n) => iface.getEvent(n).topicHash,
  );
  const head = await client.read("getBlockNumber", (p) => p.getBlockNumber());
  await new LogScanner().scan(client, { address: ch.address, topics: [topics] }, ch.deployBlock ?? 0, head, (logs) => {
    for (const l of logs) {
      const ev = iface.parseLog(l);
      if (ev === null) continue;
      set.apply(
        ev.args.account as string,
        ev.args.market as string,
        ev.name === "AccountSettled" ? undefined : (ev.args.sizeCh as bigint),
        l.blockNumber,
      );
    }
  });
  const accounts = set.open().map((a) => getAddress(a.account));
  const lc = LiquidationChecker__factory.createInterface();
  const size = Math.max(1, Math.min(500, Math.floor(shardSize)));
  const out: GelatoTarget[] = [];
  for (let i = 0; i < accounts.length; i += size) {
    const shard = accounts.slice(i, i + size);
    out.push({
      contract: "LiquidationChecker",
      job: "liquidations",
      priority: true,
      execFunctions: ["performUpkeep(bytes)"],
      resolverData: lc.encodeFunctionData("checker", [shard]),
      shard: `accounts ${i}-${i + shard.length - 1} of ${accounts.length}`,
    });
  }
  return out;
}

function describe(e: unknown): string {
  if (e instanceof Error && e.message !== "") return e.message.split("\n")[0] as string;
  if (e instanceof TypeError) return "no response from Gelato's API";
  return String(e);
}

async function main(argv: string[]): Promise<number> {
  const o = new Command()
    .name("keeper:gelato")
    .description("Builds (and with --execute, submits) the Gelato Automate tasks for every CHX checker().")
    .requiredOption("-n, --network <name>", "network name (reads deployments/<name>.json)")
    .option("-c, --config <file>", "keeper JSON config (its jobs.checker.targets)")
    .option("--execute", "register with Gelato (needs CHX_GELATO_KEY and Gelato's API; not reachable offline)")
    .option("--shard-size <n>", "accounts per LiquidationChecker task (default 100)", (v) => Number(v), 100)
    .parse(argv)
    .opts<{ network: string; config?: string; execute?: boolean; shardSize: number }>();
  const cfg = loadConfig({ network: o.network, config: o.config });
  const deployment = loadDeployment(deploymentFile(cfg));
  const configured = (cfg.jobs.checker?.options.targets as GelatoTarget[] | undefined) ?? [];
  const targets: GelatoTarget[] = [
    ...configured.map((t) => ({ ...t, job: "checker" })),
    ...discoverCheckers(deployment, cfg.artifactsDir)
      .filter((d) => !configured.some((t) => t.contract === d.name))
      .map((d) => ({ contract: d.name, job: d.job, execFunctions: d.execFunctions })),
  ];
  const client = new ChainClient({
    urls: cfg.rpcUrls,
    chainId: deployment.chainId,
    retries: 1,
    backoffMs: 100,
    timeoutMs: 5_000,
  });
  try {
    if (deployment.contracts.LiquidationChecker !== undefined) {
      try {
        targets.push(...(await liquidationShards(deployment, client, o.shardSize)));
      } catch (e) {
        process.stderr.write(`skipped: LiquidationChecker shards (the accounts come from the node: ${describe(e)})\n`);
      }
    }
    if (targets.length === 0) {
      process.stderr.write(`No contract with checker() in ${deployment.file}: nothing to register.\n`);
      return 0;
    }
    const { registrations, problems } = await buildRegistrations(deployment, targets, client);
    for (const p of problems) process.stderr.write(`skipped: ${p}\n`);
    process.stdout.write(
      JSON.stringify({ network: cfg.network, chainId: deployment.chainId, registrations }, null, 2) + "\n",
    );
    if (!o.execute) {
      process.stderr.write(
        `dry run: ${registrations.length} Gelato task(s) built; rerun with --execute (and CHX_GELATO_KEY) to register them.\n`,
      );
      return problems.length > 0 ? 2 : 0;
    }
    if (registrations.length === 0) {
      process.stderr.write("Nothing to register (see the skipped targets above).\n");
      return 2;
    }
    const key = process.env.CHX_GELATO_KEY;
    if (key === undefined) throw new ConfigError("--execute needs the task owner's key in CHX_GELATO_KEY.");
    // automate-sdk 3.1.0 accepts ethers v5 signers only: load its own nested ethers v5, here and nowhere else.
    const requireFromSdk = createRequire(createRequire(import.meta.url).resolve("@gelatonetwork/automate-sdk"));
    const v5 = requireFromSdk("ethers") as {
      providers: { JsonRpcProvider: new (url: string) => unknown };
      Wallet: new (key: string, provider: unknown) => unknown;
    };
    const signer = new v5.Wallet(key, new v5.providers.JsonRpcProvider(cfg.rpcUrls[0] as string));
    let sdk: AutomateSDK;
    try {
      sdk = await AutomateSDK.create(deployment.chainId, signer as never);
    } catch (e) {
      throw new Error(
        `Gelato Automate is not available for chain ${deployment.chainId} from here (${describe(e)}); the JSON above is what would be registered.`,
      );
    }
    for (const r of registrations) {
      try {
        const { taskId, tx } = await sdk.createTask(r.options);
        process.stderr.write(`registered ${r.contract}: task ${taskId} (tx ${tx.hash})\n`);
      } catch (e) {
        throw new Error(`Gelato refused the ${r.contract} task: ${describe(e)}.`);
      }
    }
    return 0;
  } finally {
    client.destroy();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv).then(
    (code) => process.exit(code),
    (e: unknown) => {
      const msg = e instanceof Error ? e.message.split("\n")[0] : String(e);
      process.stderr.write(`keeper:gelato: ${msg}\n`);
      process.exit(1);
    },
  );
}
