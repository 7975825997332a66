/**
 * Test machinery for the keeper: a REAL `hardhat node` process on a free loopback port (started once, always
 * killed), funded accounts, MockKeeperTarget deployments with their own deployments/<network>.json, and keepers
 * wired to any RPC URLs (directly or through a FaultProxy).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync, mkdirSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { HDNodeWallet, JsonRpcProvider, Network, Wallet } from "ethers";
import { MockKeeperTarget__factory, type MockKeeperTarget } from "../../types/ethers-contracts/index.js";
import { applyConfig, defaultConfig, type KeeperConfig } from "../src/config.js";
import { toRecord, type DeploymentInfo } from "../src/deployments.js";
import { jobFactories } from "../src/jobs/index.js";
import type { JobFactory } from "../src/jobs/types.js";
import { Keeper } from "../src/keeper.js";
import { createLogger } from "../src/log.js";
import { pino, destination } from "pino";

const MNEMONIC = "test test test test test test test test test test test junk";
export const CHAIN_ID = 31337;
const ROOT = path.resolve(import.meta.dirname, "..", "..");

export interface LocalNode {
  url: string;
  port: number;
  provider: JsonRpcProvider;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

// On globalThis: mocha may load this module a second time (its own loader), and both copies must see the node.
const slot = globalThis as { __chxKeeperNode?: LocalNode };

export function node(): LocalNode {
  const current = slot.__chxKeeperNode;
  if (current === undefined)
    throw new Error("the local node is not running (run the suite through keepers/test/run.ts)");
  return current;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts `hardhat node --hostname 127.0.0.1 --port <free>` in its own process group and waits for it to answer. */
export async function startNode(): Promise<LocalNode> {
  const port = await freePort();
  const bin = path.join(ROOT, "node_modules", ".bin");
  const child: ChildProcess = spawn(
    path.join(bin, "hardhat"),
    ["node", "--hostname", "127.0.0.1", "--port", String(port)],
    {
      cwd: ROOT,
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const kill = (sig: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  const onExit = () => kill("SIGKILL");
  process.once("exit", onExit);
  const url = `http://127.0.0.1:${port}`;
  const network = Network.from(CHAIN_ID);
  const provider = new JsonRpcProvider(url, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited (${child.exitCode}): ${output}`);
    try {
      await provider.send("eth_chainId", []);
      break;
    } catch {
      if (Date.now() > deadline) {
        kill("SIGKILL");
        throw new Error(`hardhat node did not answer on ${url} within 60 s: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const stop = async () => {
    provider.destroy();
    process.removeListener("exit", onExit);
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    kill("SIGTERM");
    const t = setTimeout(() => kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(t);
  };
  const started: LocalNode = { url, port, provider, rpc: (m, p = []) => provider.send(m, p), stop };
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
    rpcTimeoutMs: 5_000,
    replaceAfterMs: 2_000,
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
