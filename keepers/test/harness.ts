/**
 * Test machinery for the keeper: a REAL `hardhat node` process on a free loopback port (started once, always
 * killed), funded accounts, MockKeeperTarget deployments with their own deployments/<network>.json, and keepers
 * wired to any RPC URLs (directly or through a FaultProxy).
 */
import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HDNodeWallet, Wallet } from "ethers";
import { MockKeeperTarget__factory, type MockKeeperTarget } from "../../types/ethers-contracts/index.js";
import { applyConfig, defaultConfig, type KeeperConfig } from "../src/config.js";
import { toRecord, type DeploymentInfo } from "../src/deployments.js";
import { jobFactories } from "../src/jobs/index.js";
import type { JobFactory } from "../src/jobs/types.js";
import { Keeper } from "../src/keeper.js";
import { createLogger } from "../src/log.js";
import { pino, destination } from "pino";
import { CHAIN_ID, ROOT, spawnLocalNode, type LocalNode } from "./local-node.js";

const MNEMONIC = "test test test test test test test test test test test junk";
export { CHAIN_ID, freePort, type LocalNode } from "./local-node.js";

// On globalThis: mocha may load this module a second time (its own loader), and both copies must see the node.
const slot = globalThis as { __chxKeeperNode?: LocalNode };

export function node(): LocalNode {
  const current = slot.__chxKeeperNode;
  if (current === undefined)
    throw new Error("the local node is not running (run the suite through keepers/test/run.ts)");
  return current;
}

/** Starts the suite's `hardhat node` (keepers/test/local-node.ts) and keeps it in this harness's slot. */
export async function startNode(): Promise<LocalNode> {
  const started = await spawnLocalNode(240_000);
  slot.__chxKeeperNode = started;
  return started;
}

export function account(i: number): Wallet {
  const w = HDNodeWallet.fromPhrase(MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`);
  return new Wallet(w.privateKey);
}

/** A fresh MockKeeperTarget funded with 1 ETH, and a deployment record naming it. */
export async function deployTarget(
  tag: string,
): Promise<{ target: MockKeeperTarget; deployment: DeploymentInfo; dir: string }> {
  const n = node();
  const deployer = account(0).connect(n.provider);
  const target = await new MockKeeperTarget__factory(deployer).deploy();
  await target.waitForDeployment();
  const address = await target.getAddress();
  await (await deployer.sendTransaction({ to: address, value: 10n ** 18n })).wait();
  const dir = mkdtempSync(path.join(os.tmpdir(), `chx-keeper-${tag}-`));
  mkdirSync(dir, { recursive: true });
  const deployment: DeploymentInfo = {
    network: "keepertest",
    chainId: CHAIN_ID,
    file: path.join(dir, "keepertest.json"),
    contracts: { MockKeeperTarget: { contract: "MockKeeperTarget", address } },
  };
  writeFileSync(deployment.file, JSON.stringify(toRecord(deployment), null, 2));
  return { target, deployment, dir };
}

export async function now(): Promise<number> {
  const b = await node().provider.getBlock("latest");
  return b?.timestamp ?? 0;
}

export async function addItems(
  target: MockKeeperTarget,
  count: number,
  opts: { dueIn?: number; priority?: boolean; bountyWei?: bigint } = {},
) {
  const dueAt = opts.dueIn === undefined ? 0 : (await now()) + opts.dueIn;
  await (await target.addItems(count, dueAt, opts.priority ?? false, opts.bountyWei ?? 10n ** 15n)).wait();
}

export async function advance(seconds: number): Promise<void> {
  await node().rpc("evm_increaseTime", [seconds]);
  await node().rpc("evm_mine", []);
}

export interface MakeKeeperOptions {
  deployment: DeploymentInfo;
  accountIndex: number;
  urls?: string[];
  config?: Record<string, unknown>;
  factories?: JobFactory[];
  /** A logger (default: silent, or CHX_KEEPER_TEST_LOG). */
  log?: import("pino").Logger;
}

/** A keeper on `urls` (default: the node directly) with quiet logs (CHX_KEEPER_TEST_LOG=debug to see them). */
export function makeKeeper(o: MakeKeeperOptions): Keeper {
  const base: KeeperConfig = defaultConfig("keepertest");
  const config = applyConfig(base, {
    rpcUrls: o.urls ?? [node().url],
    deploymentsDir: path.dirname(o.deployment.file),
    artifactsDir: path.join(ROOT, "artifacts"),
    confirmations: 0,
    pollIntervalMs: 200,
    metricsPort: -1,
    rpcRetries: 3,
    rpcBackoffMs: 20,
    // Generous on purpose: CI runs this suite on 2 loaded cores (the instrumented build beside it), where an RPC call
    // or a block can take seconds; a tighter bound made tests that expect no replacement flaky. Tests of the
    // timeout/replacement paths set their own small values.
    rpcTimeoutMs: 30_000,
    replaceAfterMs: 15_000,
    txTimeoutMs: 30_000,
    jobs: { "mock-target": { gasCeilingGwei: 20 } },
    dataDir: ":memory:",
    breakerBaseMs: 200,
    breakerMaxMs: 2_000,
    ...o.config,
  });
  // A test's "jobs" section names the jobs it exercises: run just those (the keeper itself runs every deployed job
  // and treats the section as overrides; `only` is the explicit allow-list, as `--jobs` on the CLI).
  if (config.only === undefined) {
    const named = Object.entries(config.jobs)
      .filter(([, j]) => j.enabled)
      .map(([n]) => n);
    if (named.length > 0) config.only = named;
  }
  const level = process.env.CHX_KEEPER_TEST_LOG ?? "silent";
  const log = o.log ?? (level === "silent" ? pino({ level: "silent" }) : createLogger(level, destination(2)));
  return new Keeper({
    config,
    deployment: o.deployment,
    wallet: account(o.accountIndex),
    factories: o.factories ?? jobFactories,
    log,
  });
}

/** Number of ItemExecuted events per id on `target`. */
export async function executions(target: MockKeeperTarget): Promise<Map<bigint, number>> {
  const logs = await target.queryFilter(target.filters.ItemExecuted(), 0, "latest");
  const m = new Map<bigint, number>();
  for (const l of logs) m.set(l.args.id, (m.get(l.args.id) ?? 0) + 1);
  return m;
}

export function counts(results: Array<{ outcome: string }>): Record<string, number> {
  const c: Record<string, number> = {};
  for (const r of results) c[r.outcome] = (c[r.outcome] ?? 0) + 1;
  return c;
}
