/**
 * Runs Hardhat tasks in a mocha test as the CLI would (typed arguments, defaults filled in), against the whole
 * protocol deployed by the real deploy script: the deployment record goes to a temporary CHX_DEPLOYMENTS_DIR, and the
 * tasks' `hre.network.create()` gets the fixture's chain (uncloseable, so a task's `close()` leaves it running).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import hre from "hardhat";
import type { NetworkConnection } from "hardhat/types/network";
import { connectionFor, deployAll, type Fixture } from "./fixture.js";

/** What a task run printed, and whether it failed (process.exitCode 1). */
export interface TaskRun {
  out: string;
  err: string;
  failed: boolean;
}

/** Deploys the protocol on a fresh connection and points the tasks at it; `restore()` undoes both. */
export async function deployForTasks(name: string): Promise<{ fx: Fixture; restore: () => void }> {
  const connection = await connectionFor(name);
  const fx = await deployAll(connection);
  const dir = mkdtempSync(path.join(os.tmpdir(), `chx-${name}-`));
  writeFileSync(path.join(dir, `${connection.networkName}.json`), JSON.stringify(fx.ctx.record));
  const previousDir = process.env.CHX_DEPLOYMENTS_DIR;
  process.env.CHX_DEPLOYMENTS_DIR = dir;
  const shared = new Proxy(connection, {
    get: (target, key, receiver) =>
      key === "close" ? async () => {} : (Reflect.get(target, key, receiver) as unknown),
  });
  const network = hre.network as { create: () => Promise<NetworkConnection> };
  const create = network.create;
  network.create = async () => shared;
  const restore = () => {
    network.create = create;
    if (previousDir === undefined) delete process.env.CHX_DEPLOYMENTS_DIR;
    else process.env.CHX_DEPLOYMENTS_DIR = previousDir;
    rmSync(dir, { recursive: true, force: true });
  };
  return { fx, restore };
}

/** Runs task `name` with `args`, capturing what it prints. */
export async function runTask(name: string, args: Record<string, unknown>): Promise<TaskRun> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  console.error = (...a: unknown[]) => void err.push(a.join(" "));
  let failed: boolean;
  try {
    await hre.tasks.getTask(name).run(args);
    failed = process.exitCode === 1;
  } finally {
    console.log = log;
    console.error = error;
    process.exitCode = exitCode;
  }
  return { out: out.join("\n"), err: err.join("\n"), failed };
}

/** The one JSON document a `--json` run prints (the run must succeed). */
export async function runTaskJson(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await runTask(name, { ...args, json: true });
  expect(r.failed, r.err).to.equal(false);
  return JSON.parse(r.out) as Record<string, unknown>;
}
