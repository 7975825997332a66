/**
 * @chx/keeper — the public entry of the keeper package. The CLI (src/cli.ts), the demo (scripts/demo) and the
 * `chx:keeper:status` Hardhat task use only what is exported here.
 */
import { pino } from "pino";
import { ErrorDecoder } from "@chx/sdk";
import { ChainClient } from "./chain/client.js";
import { ConfigError, deploymentFile, loadConfig, type KeeperConfig } from "./config.js";
import { loadDeployment, type DeploymentInfo } from "./deployments.js";
import { jobFactories } from "./jobs/index.js";
import { formatDueWork, scanDueWork, type JobDue } from "./scan.js";
import type { HeadInfo } from "./jobs/types.js";

export {
  Keeper,
  FAILED_OUTCOMES,
  type ActionResult,
  type Outcome,
  type TickReport,
  type KeeperDeps,
} from "./keeper.js";
export { KeeperStore, memoryJobStore, type JobStore } from "./store.js";
export { LogScanner, isRangeError, type LogScannerOptions } from "./chain/logs.js";
export { classifySendError, describeSendError, type SendCause } from "./chain/errors.js";
export { bountiesIn, claimsIn, valueWei, type Bounty } from "./profit.js";
export type { KeeperSigner } from "./chain/sender.js";
export {
  applyConfig,
  ConfigError,
  defaultConfig,
  deploymentFile,
  loadConfig,
  type CliOverrides,
  type JobConfig,
  type KeeperConfig,
} from "./config.js";
export { loadDeployment, toRecord, JobUnavailable, type DeploymentInfo } from "./deployments.js";
export { jobFactories } from "./jobs/index.js";
export type { JobFactory, KeeperJob, JobContext, Candidate, Action, HeadInfo } from "./jobs/types.js";
export { discoverCheckers, checkerJobFactories, KNOWN_CHECKERS, type DiscoveredChecker } from "./discover.js";
export { scanDueWork, formatDueWork, type JobDue, type DueAction } from "./scan.js";
export { ChainClient, type ClientOptions } from "./chain/client.js";
export { createLogger, type Logger } from "./log.js";
export { loadWallet, signerFor, dryRunSigner } from "./signer.js";

export interface DueWorkReport {
  network: string;
  chainId: number;
  file: string;
  confirmations: number;
  head: HeadInfo;
  safeBlock: number;
  jobs: JobDue[];
  /** The report as printable lines (one header per job, one line per due action). */
  lines: string[];
}

/**
 * Every keeper job's due work on `network` now, read-only (the keeper's own scan and plan, its config rules; nothing
 * is sent, no key is needed). Throws ConfigError with one sentence when the config, the record or the node is wrong.
 */
export async function dueWork(o: {
  network: string;
  rpcUrl: string;
  configFile?: string;
  env?: NodeJS.ProcessEnv;
}): Promise<DueWorkReport> {
  const cfg: KeeperConfig = loadConfig(
    { network: o.network, config: o.configFile },
    { ...(o.env ?? process.env), CHX_KEEPER_RPC_URLS: o.rpcUrl },
  );
  let deployment: DeploymentInfo;
  try {
    deployment = loadDeployment(deploymentFile(cfg));
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const client = new ChainClient({
    urls: [o.rpcUrl],
    chainId: deployment.chainId,
    retries: 2,
    backoffMs: 200,
    timeoutMs: cfg.rpcTimeoutMs,
  });
  try {
    let chainId: number;
    try {
      chainId = Number(await client.read("eth_chainId", (p) => p.send("eth_chainId", []) as Promise<string>));
    } catch {
      throw new ConfigError(`Cannot reach the node of "${o.network}" at ${o.rpcUrl}: is it running (npm run node)?`);
    }
    if (chainId !== deployment.chainId) {
      throw new ConfigError(
        `${deployment.file} is for chain ${deployment.chainId}, but "${o.network}" is chain ${chainId}.`,
      );
    }
    const report = await scanDueWork({
      client,
      deployment,
      config: cfg,
      factories: jobFactories,
      log: pino({ level: "silent" }),
      decoder: new ErrorDecoder(),
    });
    return {
      network: o.network,
      chainId,
      file: deployment.file,
      confirmations: cfg.confirmations,
      ...report,
      lines: formatDueWork(report),
    };
  } finally {
    client.destroy();
  }
}
