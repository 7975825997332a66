import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import { runDeploy, type DeployContext } from "../lib/deployer.js";
import { protocolConfig, type ProtocolConfig } from "./config.js";
import { modules } from "./modules/index.js";
import { checkChain, checkSettings, PreflightError } from "./preflight.js";

export type { DeployContext };

export interface DeployProtocolOptions {
  networkName?: string;
  config?: Partial<ProtocolConfig>;
  write?: boolean;
  quiet?: boolean;
  /** Where progress lines go (default console.log; `quiet` silences them). */
  log?: (line: string) => void;
  /** Directory of deployment records (default deployments/). */
  dir?: string;
}

/** Deploys (or completes) the whole protocol on `connection`: the one entry point for scripts, tests and the demo. */
export async function deployProtocol(
  hre: HardhatRuntimeEnvironment,
  connection: NetworkConnection,
  opts: DeployProtocolOptions = {},
): Promise<DeployContext> {
  const networkName = opts.networkName ?? connection.networkName;
  // Every setting and the chain are checked before the first transaction (read-only).
  const problems = [...checkSettings(networkName), ...(await checkChain(connection, networkName))];
  if (problems.length > 0) throw new PreflightError(problems);
  const config = { ...protocolConfig(networkName), ...opts.config };
  return runDeploy(hre, connection, modules, {
    networkName,
    config,
    write: opts.write ?? true,
    dir: opts.dir,
    log: opts.quiet === true ? () => {} : opts.log,
  });
}
