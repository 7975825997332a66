/**
 * The deployment record (deployments/<network>.json): its type, its JSON schema (deployments/deployment.schema.json)
 * and a reader that checks a file against the schema before anyone uses an address from it.
 */
import { deploymentSchema } from "./generated/schema.js";

export { deploymentSchema };

export interface ContractRecord {
  /** Solidity contract name of the implementation (or of the plain contract): the SDK's ABI key. */
  contract: string;
  /** Solidity source path of the contract. */
  source?: string;
  /** uups: ERC-1967 proxy; plain: not upgradeable; external: deployed by someone else (USDC, Chainlink feeds). */
  kind: "uups" | "plain" | "external";
  /** The address users call: the proxy for "uups". */
  address: string;
  implementation: string;
  deployBlock: number;
  /** keccak256 of the ABI JSON in deployments/<network>/abi/<contract>.json (empty for external contracts). */
  abiHash: string;
  /** The transaction that created `address`. */
  txHash?: string;
  /** ABI-encoded constructor arguments (plain) or the initializer call (uups), for source verification. */
  constructorArgs?: string;
  /**
   * uups only: ABI-encoded constructor arguments of the implementation, when its configuration is implementation
   * immutables (ComputePriceOracle); what its verification and the next upgrade's default need.
   */
  implementationArgs?: string;
}

export interface DeploymentRecord {
  schemaVersion: 1;
  network: string;
  chainId: number;
  deployer: string;
  handover: boolean;
  /** False while a deploy runs or after it stopped half way (re-running the deploy resumes it). */
  complete: boolean;
  /** Folder of the ABIs, relative to the record file. */
  abiDir: string;
  contracts: Record<string, ContractRecord>;
}

export class DeploymentError extends Error {}

type Schema = {
  type?: string;
  const?: unknown;
  enum?: readonly unknown[];
  required?: readonly string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  pattern?: string;
  minimum?: number;
  minLength?: number;
  $ref?: string;
};

/** Checks `value` against the deployment schema; returns the problems (empty when valid). */
export function validateDeployment(value: unknown): string[] {
  const defs = (deploymentSchema as unknown as { $defs: Record<string, Schema> }).$defs;
  const problems: string[] = [];
  const check = (v: unknown, s: Schema, at: string): void => {
    if (s.$ref !== undefined) {
      const def = defs[s.$ref.replace("#/$defs/", "")];
      if (def === undefined) throw new Error(`schema: unknown $ref ${s.$ref}`);
      check(v, { ...def, ...s, $ref: undefined }, at);
      return;
    }
    if (s.const !== undefined && v !== s.const) problems.push(`${at}: must be ${JSON.stringify(s.const)}`);
    if (s.enum !== undefined && !s.enum.includes(v)) problems.push(`${at}: must be one of ${s.enum.join(", ")}`);
    switch (s.type) {
      case "object": {
        if (typeof v !== "object" || v === null || Array.isArray(v)) {
          problems.push(`${at}: must be an object`);
          return;
        }
        const o = v as Record<string, unknown>;
        for (const r of s.required ?? []) if (!(r in o)) problems.push(`${at}: missing "${r}"`);
        for (const [k, child] of Object.entries(o)) {
          const ps = s.properties?.[k];
          if (ps !== undefined) check(child, ps, `${at}.${k}`);
          else if (s.additionalProperties === false) problems.push(`${at}: unknown field "${k}"`);
          else if (typeof s.additionalProperties === "object") check(child, s.additionalProperties, `${at}.${k}`);
        }
        return;
      }
      case "string":
        if (typeof v !== "string") problems.push(`${at}: must be a string`);
        else {
          if (s.pattern !== undefined && !new RegExp(s.pattern).test(v)) problems.push(`${at}: "${v}" is malformed`);
          if (s.minLength !== undefined && v.length < s.minLength) problems.push(`${at}: must not be empty`);
        }
        return;
      case "integer":
        if (typeof v !== "number" || !Number.isInteger(v)) problems.push(`${at}: must be an integer`);
        else if (s.minimum !== undefined && v < s.minimum) problems.push(`${at}: must be ≥ ${s.minimum}`);
        return;
      case "boolean":
        if (typeof v !== "boolean") problems.push(`${at}: must be true or false`);
        return;
      default:
        return;
    }
  };
  check(value, deploymentSchema as unknown as Schema, "record");
  return problems;
}

/** Parses and validates a record (from a file's text or an already parsed object). */
export function parseDeployment(input: string | unknown, label = "deployment record"): DeploymentRecord {
  let value: unknown = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      throw new DeploymentError(`${label} is not JSON: ${(e as Error).message}`);
    }
  }
  const problems = validateDeployment(value);
  if (problems.length > 0) {
    throw new DeploymentError(
      `${label} does not match deployments/deployment.schema.json: ${problems.slice(0, 5).join("; ")}`,
    );
  }
  return value as DeploymentRecord;
}

/** deployments/<network>.json under `dir` (default "deployments", relative to the working directory). */
export function deploymentFile(network: string, dir = "deployments"): string {
  return `${dir.replace(/\/+$/, "")}/${network}.json`;
}

/** Reads and validates a record file (Node only). Undefined when the file does not exist. */
export async function readDeploymentFile(file: string): Promise<DeploymentRecord | undefined> {
  const { readFile } = await import("node:fs/promises");
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  return parseDeployment(text, file);
}

/** Reads deployments/<network>.json (Node only); undefined when nothing is deployed there. */
export function readDeployment(network: string, dir = "deployments"): Promise<DeploymentRecord | undefined> {
  return readDeploymentFile(deploymentFile(network, dir));
}

/** The address of deployment `name`, or a DeploymentError naming what is missing. */
export function addressOf(record: DeploymentRecord, name: string): string {
  const c = record.contracts[name];
  if (c === undefined) throw new DeploymentError(`"${name}" is not in the ${record.network} deployment`);
  return c.address;
}
