import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import { ConfigError, dueWork } from "@chx/keeper";
import { printJson, runTask, TaskError } from "../../lib.js";

/**
 * `npx hardhat chx:keeper:status --network <name>`: runs every keeper job's scan and plan (the keeper package's
 * public `dueWork`: its code, its config rules) against this network's node and prints the due work. Sends nothing,
 * needs no key.
 */
export default async function keeperStatus(
  args: { keeperConfig: string; json: boolean },
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
      let report;
      try {
        report = await dueWork({
          network: name,
          rpcUrl: url,
          configFile: args.keeperConfig === "" ? undefined : args.keeperConfig,
        });
      } catch (e) {
        if (e instanceof ConfigError) throw new TaskError(e.message);
        throw e;
      }
      if (args.json) {
        const { lines: _lines, ...rest } = report;
        printJson(rest);
        return;
      }
      const due = report.jobs.reduce((a, j) => a + j.actions.length, 0);
      console.log(
        `keeper status on ${name} (chain ${report.chainId}, ${report.file}): block ${report.head.number}, ` +
          `scanned at ${report.safeBlock} (${report.confirmations} confirmation(s)); ${due} action(s) due`,
      );
      for (const line of report.lines) console.log(line);
    } finally {
      await connection.close();
    }
  });
}
