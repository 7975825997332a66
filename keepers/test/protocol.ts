/**
 * The real protocol on the shared test node: deployed ONCE per run through the deploy engine (every module of
 * scripts/deploy/modules, as `npm run deploy -- --network localhost` does, handover off: the deployer keeps
 * ADMIN_ROLE) in this process, with its deployments/localhost.json written to a temporary directory. Jobs that
 * drive protocol contracts (emission, …) start from here; Hardhat is imported lazily so the other test files
 * never pay for it.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DeploymentInfo } from "../src/deployments.js";
import { account, node } from "./harness.js";
import { connectProtocol, type DeploymentRecord, type Protocol } from "@chx/sdk";

export interface DeployedProtocol {
  record: DeploymentRecord;
  /** The record as the keeper reads it (deployments/localhost.json in `dir`). */
  deployment: DeploymentInfo;
  dir: string;
  /** Handles signed by the deployer (account 0, holder of ADMIN_ROLE and the DPS genesis supply). */
  protocol: Protocol;
  /** Seconds the deploy took. */
  seconds: number;
}

const slot = globalThis as { __chxKeeperProtocol?: Promise<DeployedProtocol> };

async function deploy(): Promise<DeployedProtocol> {
  const t0 = Date.now();
  const { default: hre } = await import("hardhat");
  const { deployProtocol } = await import("../../scripts/deploy/index.js");
  const dir = mkdtempSync(path.join(os.tmpdir(), "chx-keeper-protocol-"));
  const connection = await hre.network.create({ network: "localhost", override: { url: node().url } });
  try {
    await deployProtocol(hre, connection, { networkName: "localhost", write: true, dir, log: () => undefined });
  } finally {
    await connection.close();
  }
  const file = path.join(dir, "localhost.json");
  const record = JSON.parse(readFileSync(file, "utf8")) as DeploymentRecord;
  return {
    record,
    deployment: { network: "localhost", chainId: record.chainId, file, contracts: record.contracts },
    dir,
    protocol: connectProtocol(record, account(0).connect(node().provider)),
    seconds: (Date.now() - t0) / 1000,
  };
}

/** The protocol on the shared node (deployed on first use). */
export function protocolOnNode(): Promise<DeployedProtocol> {
  slot.__chxKeeperProtocol ??= deploy();
  return slot.__chxKeeperProtocol;
}
