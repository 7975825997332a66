import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { pino } from "pino";
import { ChainClient } from "../../../keepers/src/chain/client.js";
import { ErrorDecoder } from "../../../keepers/src/chain/errors.js";
import { ConfigError, deploymentFile, loadConfig } from "../../../keepers/src/config.js";
import { loadDeployment } from "../../../keepers/src/deployments.js";
import { jobFactories } from "../../../keepers/src/jobs/index.js";
import { formatDueWork, scanDueWork } from "../../../keepers/src/scan.js";
import { runTask, TaskError } from "../../lib.js";

/**
 * `npx hardhat chx:keeper:status --network <name>`: runs every keeper job's scan and plan (the keeper's code, the
 * keeper's config rules) against this network's node and prints the due work. Sends nothing, needs no key.
 */
export default async function keeperStatus(
  args: { keeperConfig: string },
  hre: HardhatRuntimeEnvironment,
): Promise<void> {
  await runTask(hre, async () => {
    const connection = await hre.network.create();
    try {
      const name = connection.networkName;
      const nc = connection.networkConfig;
      if (nc.type !== "http") {
        throw new TaskError(
          `chx:keeper:status reads a node over HTTP: run it with --network localhost (or another HTTP network), ` +
            `not the in-process "${name}" network.`,
        );
      }
      const url = await nc.url.getUrl();
      let cfg;
      try {
        cfg = loadConfig(
          { network: name, config: args.keeperConfig === "" ? undefined : args.keeperConfig },
          { ...process.env, CHX_KEEPER_RPC_URLS: url },
        );
      } catch (e) {
        if (e instanceof ConfigError) throw new TaskError(e.message);
        throw e;
      }
      let deployment;
      try {
        deployment = loadDeployment(deploymentFile(cfg));
      } catch (e) {
        throw new TaskError((e as Error).message);
      }
      let chainId: number;
      try {
        chainId = Number((await connection.ethers.provider.getNetwork()).chainId);
      } catch {
        throw new TaskError(`Cannot reach the node of "${name}" at ${url}: is it running (npm run node)?`);
      }
      if (deployment.chainId !== chainId) {
        throw new TaskError(
          `${deployment.file} is for chain ${deployment.chainId}, but "${name}" is chain ${chainId}.`,
        );
      }
      const client = new ChainClient({ urls: [url], chainId, retries: 2, backoffMs: 200, timeoutMs: cfg.rpcTimeoutMs });
      try {
        const report = await scanDueWork({
          client,
          deployment,
          config: cfg,
          factories: jobFactories,
          log: pino({ level: "silent" }),
          decoder: ErrorDecoder.fromArtifacts(cfg.artifactsDir),
        });
        const due = report.jobs.reduce((a, j) => a + j.actions.length, 0);
        console.log(
          `keeper status on ${name} (chain ${chainId}, ${deployment.file}): block ${report.head.number}, ` +
            `scanned at ${report.safeBlock} (${cfg.confirmations} confirmation(s)); ${due} action(s) due`,
        );
        for (const line of formatDueWork(report)) console.log(line);
      } finally {
        client.destroy();
      }
    } finally {
      await connection.close();
    }
  });
}
