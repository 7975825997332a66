/**
 * The keeper's addresses come from deployments/<network>.json only, read and checked against the record's JSON
 * schema by the SDK (`parseDeployment`).
 */
import { readFileSync, existsSync } from "node:fs";
import { DeploymentError, parseDeployment, type DeploymentRecord } from "@chx/sdk";

/** What a job needs of a deployment record (a subset of the SDK's DeploymentRecord), and the file it came from. */
export interface DeploymentInfo {
  network: string;
  chainId: number;
  file: string;
  contracts: Record<string, { contract: string; address: string; deployBlock?: number }>;
}

export class JobUnavailable extends Error {}

export function loadDeployment(file: string): DeploymentInfo {
  if (!existsSync(file)) {
    throw new Error(`No deployment record at ${file}: deploy first (npm run deploy -- --network <name>).`);
  }
  let record: DeploymentRecord;
  try {
    record = parseDeployment(readFileSync(file, "utf8"), file);
  } catch (e) {
    throw new Error(e instanceof DeploymentError ? e.message : `${file}: ${(e as Error).message}`);
  }
  return { network: record.network, chainId: record.chainId, contracts: record.contracts, file };
}

/** A schema-complete record for `info` (tests and tools that write a record by hand). */
export function toRecord(info: DeploymentInfo): DeploymentRecord {
  const contracts: DeploymentRecord["contracts"] = {};
  for (const [name, c] of Object.entries(info.contracts)) {
    contracts[name] = {
      contract: c.contract,
      kind: "plain",
      address: c.address,
      implementation: c.address,
      deployBlock: c.deployBlock ?? 0,
      abiHash: "",
    };
  }
  return {
    schemaVersion: 1,
    network: info.network,
    chainId: info.chainId,
    deployer: "0x0000000000000000000000000000000000000000",
    handover: false,
    complete: true,
    abiDir: `${info.network}/abi`,
    contracts,
  };
}

/** The address of a deployed contract, or JobUnavailable naming what is missing. */
export function addressOf(d: DeploymentInfo, name: string): string {
  const rec = d.contracts[name];
  if (rec === undefined) throw new JobUnavailable(`${name} is not in ${d.file}`);
  return rec.address;
}
