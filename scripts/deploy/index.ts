import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import { runDeploy, type DeployContext } from "../lib/deployer.js";
import { protocolConfig, type ProtocolConfig } from "./config.js";
import { modules } from "./modules/index.js";

export interface DeployProtocolOptions {
  networkName?: string;
  config?: Partial<ProtocolConfig>;
  write?: boolean;
  quiet?: boolean;
  /** Where progress lines go (default console.log; `quiet` silences them). */
  log?: (line: string) => void;
}

/** Deploys (or completes) the whole protocol on `connection`: the one entry point for scripts, tests and the demo. */
export async function deployProtocol(
  hre: HardhatRuntimeEnvironment,
  connection: NetworkConnection,
  opts: DeployProtocolOptions = {},
): Promise<DeployContext> {
  const networkName = opts.networkName ?? connection.networkName;
  const config = { ...protocolConfig(networkName), ...opts.config };
  return runDeploy(hre, connection, modules, {
    networkName,
    config,
    write: opts.write ?? true,
    log: opts.quiet === true ? () => {} : opts.log,
  });
}
