/**
 * Relay test machinery: one real `hardhat node` on a free loopback port (killed at the end), the whole protocol
 * deployed on it once through the deploy engine (as `npm run deploy` does), funded makers, signing helpers, and
 * relays started in-process against SQLite (a temporary file) or PostgreSQL (PGlite: the real engine, WASM) — the
 * BACKENDS every behavioural test runs against.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HDNodeWallet, MaxUint256, Wallet, ZeroAddress, type Signer } from "ethers";
import { pino } from "pino";
import {
  connectProtocol,
  domainOf,
  orderToJson,
  offerToJson,
  Roles,
  signOffer,
  signOrder,
  type DeploymentRecord,
  type OptionsOffer,
  type Protocol,
  type SignedOrderJson,
  type SpotOrder,
} from "@chx/sdk";
import { spawnLocalNode, type LocalNode } from "../../keepers/test/local-node.js";
import { defaultRelayConfig, startRelay, type RelayConfig, type RunningRelay } from "../src/index.js";

export { freePort, ROOT, type LocalNode } from "../../keepers/test/local-node.js";
const MNEMONIC = "test test test test test test test test test test test junk";
export const CHAIN_ID = 31337n;

export type Backend = "sqlite" | "pglite" | "postgres";
/**
 * Every behavioural test runs against both engines; CHX_RELAY_BACKENDS=sqlite narrows it (a quick loop), and
 * CHX_RELAY_BACKENDS=postgres with CHX_RELAY_PG_URL=postgres://user@host:port/db runs them through the `pg` driver
 * against a PostgreSQL server (each relay in a fresh database created there).
 */
export const BACKENDS: Backend[] = (process.env.CHX_RELAY_BACKENDS ?? "sqlite,pglite")
  .split(",")
  .filter((b): b is Backend => b === "sqlite" || b === "pglite" || b === "postgres");

const slot = globalThis as { __chxRelayNode?: LocalNode; __chxRelayProtocol?: Promise<Deployed> };

export function node(): LocalNode {
  const n = slot.__chxRelayNode;
  if (n === undefined) throw new Error("no local node (run the suite through relay/test/run.ts)");
  return n;
}

/** Starts the suite's `hardhat node` (keepers/test/local-node.ts) and keeps it in this harness's slot. */
export async function startNode(): Promise<LocalNode> {
  const n = await spawnLocalNode(240_000);
  slot.__chxRelayNode = n;
  return n;
}

/** Test account `i` of `backend`'s run (the backends share one chain: each gets its own accounts). */
export function acct(i: number, backend: Backend): Wallet {
  return account(i + 100 * (BACKENDS.indexOf(backend) + 1));
}

export function account(i: number): Wallet {
  return new Wallet(HDNodeWallet.fromPhrase(MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`).privateKey, node().provider);
}

export interface Deployed {
  record: DeploymentRecord;
  file: string;
  /** Handles signed by the deployer (account 0: ADMIN, CH minter after `deployed()`). */
  protocol: Protocol;
}

async function deploy(): Promise<Deployed> {
  const { default: hre } = await import("hardhat");
  const { deployProtocol } = await import("../../scripts/deploy/index.js");
  const dir = mkdtempSync(path.join(os.tmpdir(), "chx-relay-protocol-"));
  const connection = await hre.network.create({ network: "localhost", override: { url: node().url } });
  try {
    await deployProtocol(hre, connection, { networkName: "localhost", write: true, dir, log: () => undefined });
  } finally {
    await connection.close();
  }
  const file = path.join(dir, "localhost.json");
  const record = JSON.parse(readFileSync(file, "utf8")) as DeploymentRecord;
  const protocol = connectProtocol(record, account(0));
  await (await protocol.accessManager.grantRole(Roles.CH_MINTER, account(0).address, 0)).wait();
  return { record, file, protocol };
}

/** The protocol on the shared node (deployed on first use). */
export function deployed(): Promise<Deployed> {
  slot.__chxRelayProtocol ??= deploy();
  return slot.__chxRelayProtocol;
}

/** Gives `w` ETH, `usdc` USDC units and `ch` CH wei, and approves the SpotMarket for both (unless `approve` is false). */
export async function fund(w: Wallet, o: { usdc?: bigint; ch?: bigint; approve?: boolean } = {}): Promise<void> {
  const { protocol } = await deployed();
  await node().rpc("hardhat_setBalance", [w.address, "0x56BC75E2D63100000"]);
  if ((o.usdc ?? 0n) > 0n) await (await protocol.usdc.mint(w.address, o.usdc!)).wait();
  if ((o.ch ?? 0n) > 0n) await (await protocol.ch.mint(w.address, o.ch!)).wait();
  if (o.approve !== false) {
    const spot = await protocol.spot.getAddress();
    await (await protocol.usdc.connect(w).approve(spot, MaxUint256)).wait();
    await (await protocol.ch.connect(w).approve(spot, MaxUint256)).wait();
  }
}

export async function headTime(): Promise<bigint> {
  const b = await node().provider.getBlock("latest");
  return BigInt(b!.timestamp);
}

export const WAD = 10n ** 18n;
export const CH = (n: number | string): bigint => BigInt(Math.round(Number(n) * 1e6)) * 10n ** 12n;
export const PRICE = (usdc: number | string): bigint => BigInt(Math.round(Number(usdc) * 1e6)) * 10n ** 12n;

let nonceSeq = BigInt(Date.now()) * 1000n;
export const nextNonce = (): bigint => nonceSeq++;

export async function spotOrder(
  maker: Signer,
  o: { isBuy: boolean; amountCh: bigint; priceWad: bigint; nonce?: bigint; expiry?: bigint; taker?: string },
): Promise<{ order: SpotOrder; json: SignedOrderJson; signature: string }> {
  const { protocol } = await deployed();
  const market = await protocol.spot.getAddress();
  const order: SpotOrder = {
    maker: await maker.getAddress(),
    isBuy: o.isBuy,
    amountCh: o.amountCh,
    priceWad: o.priceWad,
    nonce: o.nonce ?? nextNonce(),
    expiry: o.expiry ?? (await headTime()) + 3_600n,
    taker: o.taker ?? ZeroAddress,
  };
  const signature = await signOrder(maker, await domainOf(node().provider, "SpotMarket", market), order);
  return { order, signature, json: orderToJson(market, CHAIN_ID, order, signature) };
}

export async function optionOffer(maker: Signer, offer: OptionsOffer) {
  const { protocol } = await deployed();
  const market = await protocol.options.getAddress();
  const signature = await signOffer(maker, await domainOf(node().provider, "OptionsMarket", market), offer);
  return { offer, signature, json: offerToJson(market, CHAIN_ID, offer, signature) };
}

let dbSeq = 0;
/** A fresh database of `backend` (a file, a PGlite directory, or a new database on CHX_RELAY_PG_URL's server). */
export async function dbUrl(backend: Backend, dir?: string): Promise<string> {
  const d = dir ?? mkdtempSync(path.join(os.tmpdir(), "chx-relay-db-"));
  if (backend === "sqlite") return `sqlite:${path.join(d, `relay-${dbSeq++}.sqlite`)}`;
  if (backend === "pglite") return `pglite:${path.join(d, `pg-${dbSeq++}`)}`;
  const server = process.env.CHX_RELAY_PG_URL;
  if (server === undefined) throw new Error("the postgres backend needs CHX_RELAY_PG_URL");
  const name = `chx_relay_${process.pid}_${dbSeq++}`;
  const pg = await import("pg");
  const client = new pg.default.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function relayConfig(backend: Backend, over: Partial<RelayConfig> = {}): Promise<RelayConfig> {
  const { file } = await deployed();
  return {
    ...defaultRelayConfig("localhost"),
    rpcUrl: node().url,
    deploymentFile: file,
    database: await dbUrl(backend),
    port: 0,
    pollMs: 50,
    logLevel: "silent",
    ...over,
  };
}

/** A relay on a free port; `sync: false` leaves the follower to the test (engine.syncToHead()). */
export async function relay(
  backend: Backend,
  over: Partial<RelayConfig> = {},
  opts: { sync?: boolean } = {},
): Promise<RunningRelay & { cfg: RelayConfig }> {
  const cfg = await relayConfig(backend, over);
  const r = await startRelay(cfg, { logger: pino({ level: "silent" }), sync: opts.sync });
  if (opts.sync === false) await r.engine.syncToHead();
  return { ...r, cfg };
}

/** POSTs raw JSON (or a string body) and returns status + parsed body. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === "" ? undefined : JSON.parse(text)) as Record<string, any> };
}

export async function get(url: string) {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

export async function mine(n = 1): Promise<void> {
  for (let i = 0; i < n; i++) await node().rpc("evm_mine", []);
}

export async function snapshot(): Promise<string> {
  return node().rpc<string>("evm_snapshot", []);
}

export async function revert(id: string): Promise<void> {
  const ok = await node().rpc<boolean>("evm_revert", [id]);
  if (!ok) throw new Error(`evm_revert ${id} failed`);
}

export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns true (or throws after `ms`). */
export async function until(fn: () => Promise<boolean> | boolean, ms = 60_000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await wait(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}
