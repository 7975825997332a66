/** Shared plumbing for task actions: connect to the deployed protocol, or explain clearly why not. */
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import { connectProtocol, describeError, readDeployment, type DeploymentRecord, type Protocol } from "@chx/sdk";

export class TaskError extends Error {}

export interface TaskEnv {
  connection: NetworkConnection;
  record: DeploymentRecord;
  protocol: Protocol;
}

export async function openProtocol(hre: HardhatRuntimeEnvironment): Promise<TaskEnv> {
  const connection = await hre.network.create();
  const name = connection.networkName;
  const record = await readDeployment(name);
  if (record === undefined) {
    throw new TaskError(
      `Nothing is deployed on "${name}": deployments/${name}.json does not exist. ` +
        `Run \`npm run deploy -- --network ${name}\` first.`,
    );
  }
  const first = Object.values(record.contracts)[0];
  if (first !== undefined && (await connection.ethers.provider.getCode(first.address)) === "0x") {
    throw new TaskError(
      `deployments/${name}.json lists contracts that are not on this chain (was the node restarted?). ` +
        `Run \`npm run deploy -- --network ${name}\` again.`,
    );
  }
  const [signer] = await connection.ethers.getSigners();
  if (signer === undefined) throw new TaskError(`No account configured for "${name}" (set CHX_DEPLOYER_KEY).`);
  return { connection, record, protocol: connectProtocol(record, signer) };
}

/** Runs a task body, turning failures into one clear sentence (decoded custom errors, never raw hex). */
export async function runTask(hre: HardhatRuntimeEnvironment, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    const msg = e instanceof TaskError ? e.message : describeError(e);
    console.error(`✖ ${msg}`);
    process.exitCode = 1;
  }
}

/** Prints `value` as JSON (bigints as decimal strings) for `--json`. */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2));
}
