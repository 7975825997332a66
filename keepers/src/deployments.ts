/** Reads deployments/<network>.json (written by scripts/deploy.ts) — the keeper's only source of addresses. */
import { readFileSync, existsSync } from "node:fs";

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
  const raw = JSON.parse(readFileSync(file, "utf8")) as Omit<DeploymentInfo, "file">;
  if (typeof raw.chainId !== "number" || typeof raw.contracts !== "object") {
    throw new Error(`${file} is not a deployment record (missing chainId or contracts).`);
  }
  return { ...raw, file };
}

/** The address of a deployed contract, or JobUnavailable naming what is missing. */
export function addressOf(d: DeploymentInfo, name: string): string {
  const rec = d.contracts[name];
  if (rec === undefined) throw new JobUnavailable(`${name} is not in ${d.file}`);
  return rec.address;
}
