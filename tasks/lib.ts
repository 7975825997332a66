/**
 * Shared plumbing for task actions: connect to the deployed protocol (read-only, or with the one signer a task is
 * given), or explain clearly why not; print JSON for scripts; decode failures by name and arguments.
 */
import { existsSync } from "node:fs";
import type { Signer } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NetworkConnection } from "hardhat/types/network";
import {
  connectProtocol,
  describeError,
  DeploymentError,
  loadSigner,
  readDeployment,
  SignerError,
  type DeploymentRecord,
  type Protocol,
} from "@chx/sdk";

export class TaskError extends Error {}

export { SIGNER_HELP } from "./help.js";

export interface TaskEnv {
  connection: NetworkConnection;
  record: DeploymentRecord;
  /** Handles connected to the signer (or, read-only, to the provider). */
  protocol: Protocol;
  /** The signer (read-only tasks have none). */
  signer: Signer & { address: string };
}

/** Resolves `--signer`: an index into the network's accounts, or an encrypted JSON keystore file. */
export async function resolveSigner(
  connection: NetworkConnection,
  spec: string,
): Promise<Signer & { address: string }> {
  if (/^\d+$/.test(spec)) {
    let signers;
    try {
      signers = await connection.ethers.getSigners();
    } catch (e) {
      throw new TaskError(
        `No account configured for "${connection.networkName}" (${(e as Error).message.split("\n")[0]}): ` +
          "set CHX_DEPLOYER_KEY in the Hardhat keystore, or pass --signer <keystore.json>.",
      );
    }
    const s = signers[Number(spec)];
    if (s === undefined) {
      throw new TaskError(
        `--signer ${spec}: "${connection.networkName}" has ${signers.length} account(s) (0..${signers.length - 1}).`,
      );
    }
    return s;
  }
  if (!existsSync(spec)) throw new TaskError(`--signer ${spec}: neither an account index nor a keystore file.`);
  try {
    const w = await loadSigner(
      { keystore: spec, password: process.env.CHX_KEYSTORE_PASSWORD },
      connection.ethers.provider,
    );
    return w;
  } catch (e) {
    if (e instanceof SignerError) throw new TaskError(`--signer ${spec}: ${e.message} (CHX_KEYSTORE_PASSWORD)`);
    throw e;
  }
}

/**
 * Opens the deployment of this network. With `signer`, the handles sign as that account; without it the task is
 * read-only: no key is needed and the handles are connected to the provider.
 */
export async function openProtocol(hre: HardhatRuntimeEnvironment, opts: { signer?: string } = {}): Promise<TaskEnv> {
  const connection = await hre.network.create();
  const name = connection.networkName;
  let record: DeploymentRecord | undefined;
  try {
    record = await readDeployment(name, process.env.CHX_DEPLOYMENTS_DIR ?? "deployments");
  } catch (e) {
    if (e instanceof DeploymentError) throw new TaskError(e.message);
    throw e;
  }
  if (record === undefined) {
    throw new TaskError(
      `Nothing is deployed on "${name}": deployments/${name}.json does not exist. ` +
        `Run \`npm run deploy -- --network ${name}\` first.`,
    );
  }
  const first = Object.values(record.contracts).find((c) => c.kind !== "external");
  if (first !== undefined && (await connection.ethers.provider.getCode(first.address)) === "0x") {
    throw new TaskError(
      `deployments/${name}.json lists contracts that are not on this chain (was the node restarted?). ` +
        `Run \`npm run deploy -- --network ${name}\` again.`,
    );
  }
  if (opts.signer === undefined) {
    const protocol = connectProtocol(record, connection.ethers.provider);
    const none = new Proxy({} as Signer & { address: string }, {
      get() {
        throw new TaskError("this task is read-only: it has no signer");
      },
    });
    return { connection, record, protocol, signer: none };
  }
  const signer = await resolveSigner(connection, opts.signer);
  return { connection, record, protocol: connectProtocol(record, signer), signer };
}

/** Runs a task body, turning failures into one clear sentence (decoded custom errors, never raw hex). */
export async function runTask(hre: HardhatRuntimeEnvironment, body: () => Promise<void>): Promise<void> {
  void hre;
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

/** A struct from ethers (a Result) as a plain object of its named fields. */
export function plain(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const r = value as { toObject?: (deep?: boolean) => unknown };
  if (typeof r.toObject === "function") {
    try {
      return r.toObject(true);
    } catch {
      return Array.from(value as unknown[]).map(plain);
    }
  }
  return value;
}

/** A read task's default account: the network's first configured account, if it has one (no key is needed). */
export async function defaultAccount(connection: NetworkConnection): Promise<{ address: string }> {
  try {
    const [s] = await connection.ethers.getSigners();
    if (s !== undefined) return { address: s.address };
  } catch {
    // no key configured: fine for a read
  }
  throw new TaskError("Say which account: pass --account <address> (this network has no configured account).");
}
