/**
 * The keeper's persistent state: one SQLite database per chain and signer in the data directory
 * (`<dataDir>/keeper-<chainId>-<address>.sqlite`), through Node's built-in `node:sqlite` (Node ≥ 22.13: no native
 * build, nothing to download; `npx chx-keeper` runs under the workspace's Node 22). It holds what a restart must not
 * forget:
 *
 *  - `memo`: idempotency keys with a transaction in flight or mined (key → state, tx hash, block);
 *  - `flights`: every transaction in flight, by nonce (the request, fees, every hash signed for it), so a restarted
 *    keeper adopts its pending transactions at their own nonces instead of re-sending the work at new ones;
 *  - `kv`: job checkpoints (scan cursors, the liquidation job's account set), namespaced per job;
 *  - `actions`: the last actions (job, key, outcome, gas cost, bounty), bounded.
 *
 * Writes are synchronous and small (one row per change), so the file is consistent whenever the process dies.
 * `dataDir: ":memory:"` keeps the same database in memory (tests; a restart forgets everything).
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ConfigError } from "./config.js";

/** Key-value checkpoints of one job (`JobContext.store`). Values are strings (JSON for structures). */
export interface JobStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  delete(key: string): void;
  /** Every key of this job with `prefix`. */
  entries(prefix?: string): Array<[string, string]>;
  /** Writes many keys in one transaction (a checkpoint: all or nothing). */
  batch(set: Array<[string, string]>, del?: string[]): void;
  /** Drops every key with `prefix`. */
  clear(prefix?: string): void;
}

export interface MemoRow {
  key: string;
  state: "pending" | "mined";
  txHash?: string;
  blockHash?: string;
  blockNumber?: number;
  at: number;
}

export interface FlightRow {
  nonce: number;
  job: string;
  /** Idempotency keys this transaction carries. */
  keys: string[];
  priority: boolean;
  to: string;
  data: string;
  value: string;
  gasLimit: string;
  maxFeeWei: string;
  priorityFeeWei: string;
  legacy: boolean;
  hashes: string[];
  firstSentAt: number;
  description: string;
}

export interface ActionRow {
  at: number;
  job: string;
  key: string;
  outcome: string;
  txHash?: string;
  nonce?: number;
  gasCostWei?: string;
  bounty?: string;
}

const MAX_ACTIONS = 10_000;

interface Statement {
  run(...args: unknown[]): unknown;
  get(...args: unknown[]): unknown;
  all(...args: unknown[]): unknown[];
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}

let sqlite: { DatabaseSync: new (file: string) => Database } | undefined;

/** `node:sqlite`, loaded on first use (without its one-time ExperimentalWarning on stderr). */
function loadSqlite(): { DatabaseSync: new (file: string) => Database } {
  if (sqlite !== undefined) return sqlite;
  const require = createRequire(import.meta.url);
  const emit = process.emitWarning;
  process.emitWarning = ((w: string | Error, ...rest: unknown[]) => {
    if (String(w instanceof Error ? w.message : w).includes("SQLite")) return;
    (emit as (...a: unknown[]) => void).call(process, w, ...rest);
  }) as typeof process.emitWarning;
  try {
    sqlite = require("node:sqlite") as typeof sqlite;
  } catch {
    throw new ConfigError(
      `The keeper keeps its state in SQLite through node:sqlite, which needs Node 22.13 or later (this is ${process.version}): run it with \`npx chx-keeper\` from the workspace (its Node 22) or install Node 22.`,
    );
  } finally {
    process.emitWarning = emit;
  }
  return sqlite!;
}

export class KeeperStore {
  readonly file: string;
  private readonly db: Database;
  private readonly st: Record<string, Statement>;
  /** After close() writes are dropped (a watcher settling after a fast stop must not crash the process). */
  private closed = false;

  private constructor(file: string) {
    this.file = file;
    const { DatabaseSync } = loadSqlite();
    this.db = new DatabaseSync(file);
    if (file !== ":memory:") {
      this.db.exec("PRAGMA journal_mode = WAL");
      this.db.exec("PRAGMA synchronous = NORMAL");
    }
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS memo (
        key TEXT PRIMARY KEY, state TEXT NOT NULL, tx_hash TEXT, block_hash TEXT, block_number INTEGER, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS flights (nonce INTEGER PRIMARY KEY, row TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS kv (ns TEXT NOT NULL, k TEXT NOT NULL, v TEXT NOT NULL, PRIMARY KEY (ns, k));
      CREATE TABLE IF NOT EXISTS actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, job TEXT NOT NULL, key TEXT NOT NULL,
        outcome TEXT NOT NULL, tx_hash TEXT, nonce INTEGER, gas_cost_wei TEXT, bounty TEXT);
    `);
    const p = (sql: string) => this.db.prepare(sql);
    this.st = {
      metaGet: p("SELECT v FROM meta WHERE k = ?"),
      metaSet: p("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v"),
      memoPut: p(
        "INSERT INTO memo (key, state, tx_hash, block_hash, block_number, at) VALUES (?, ?, ?, ?, ?, ?) " +
          "ON CONFLICT(key) DO UPDATE SET state = excluded.state, tx_hash = excluded.tx_hash, " +
          "block_hash = excluded.block_hash, block_number = excluded.block_number, at = excluded.at",
      ),
      memoDel: p("DELETE FROM memo WHERE key = ?"),
      memoAll: p("SELECT key, state, tx_hash, block_hash, block_number, at FROM memo"),
      memoPrune: p("DELETE FROM memo WHERE state = 'mined' AND at < ?"),
      flightPut: p(
        "INSERT INTO flights (nonce, row) VALUES (?, ?) ON CONFLICT(nonce) DO UPDATE SET row = excluded.row",
      ),
      flightDel: p("DELETE FROM flights WHERE nonce = ?"),
      flightAll: p("SELECT row FROM flights ORDER BY nonce"),
      kvGet: p("SELECT v FROM kv WHERE ns = ? AND k = ?"),
      kvSet: p("INSERT INTO kv (ns, k, v) VALUES (?, ?, ?) ON CONFLICT(ns, k) DO UPDATE SET v = excluded.v"),
      kvDel: p("DELETE FROM kv WHERE ns = ? AND k = ?"),
      kvList: p("SELECT k, v FROM kv WHERE ns = ? AND k >= ? AND k < ? ORDER BY k"),
      kvClear: p("DELETE FROM kv WHERE ns = ? AND k >= ? AND k < ?"),
      actionAdd: p(
        "INSERT INTO actions (at, job, key, outcome, tx_hash, nonce, gas_cost_wei, bounty) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      actionTrim: p("DELETE FROM actions WHERE id <= (SELECT MAX(id) FROM actions) - ?"),
      actionRecent: p(
        "SELECT at, job, key, outcome, tx_hash, nonce, gas_cost_wei, bounty FROM actions ORDER BY id DESC LIMIT ?",
      ),
    };
  }

  /**
   * Opens (creating) the database of `address` on `chainId` in `dir` (":memory:" for an in-memory one). A file made
   * for another chain or signer is refused (one sentence), so two networks never share state.
   */
  static open(dir: string, chainId: number, address: string): KeeperStore {
    let file = ":memory:";
    if (dir !== ":memory:") {
      try {
        mkdirSync(dir, { recursive: true });
      } catch (e) {
        throw new ConfigError(`Cannot create the keeper's data directory ${dir} (${(e as Error).message}).`);
      }
      file = path.join(dir, `keeper-${chainId}-${address.toLowerCase()}.sqlite`);
    }
    let store: KeeperStore;
    try {
      store = new KeeperStore(file);
    } catch (e) {
      if (e instanceof ConfigError) throw e;
      throw new ConfigError(`Cannot open the keeper's state database ${file} (${(e as Error).message}).`);
    }
    const owner = `${chainId}:${address.toLowerCase()}`;
    const seen = store.meta("owner");
    if (seen === undefined) store.setMeta("owner", owner);
    else if (seen !== owner) {
      store.close();
      throw new ConfigError(`State database ${file} belongs to ${seen}, not ${owner}.`);
    }
    return store;
  }

  /**
   * Binds the database to the chain whose genesis block hash is `genesisHash`. A database made on another chain
   * with the same id (a local node restarted from genesis, a devnet reset) holds idempotency keys, flights and
   * checkpoints of a history that no longer exists: it is emptied, and true is returned.
   */
  bindToChain(genesisHash: string): boolean {
    const seen = this.meta("genesis");
    if (seen === genesisHash) return false;
    let reset = false;
    if (seen !== undefined) {
      this.db.exec("DELETE FROM memo; DELETE FROM flights; DELETE FROM kv; DELETE FROM actions;");
      reset = true;
    }
    this.setMeta("genesis", genesisHash);
    return reset;
  }

  meta(k: string): string | undefined {
    return (this.st.metaGet!.get(k) as { v: string } | undefined)?.v;
  }

  setMeta(k: string, v: string): void {
    if (this.closed) return;
    this.st.metaSet!.run(k, v);
  }

  private tx(fn: () => void): void {
    this.db.exec("BEGIN");
    try {
      fn();
      this.db.exec("COMMIT");
    } catch (e) {
      this.db.exec("ROLLBACK");
      throw e;
    }
  }

  // ── memo ──
  putMemo(rows: MemoRow[]): void {
    if (this.closed) return;
    this.tx(() => {
      for (const r of rows) {
        this.st.memoPut!.run(r.key, r.state, r.txHash ?? null, r.blockHash ?? null, r.blockNumber ?? null, r.at);
      }
    });
  }

  deleteMemo(keys: string[]): void {
    if (this.closed) return;
    this.tx(() => {
      for (const k of keys) this.st.memoDel!.run(k);
    });
  }

  memo(): MemoRow[] {
    return (this.st.memoAll!.all() as Array<Record<string, unknown>>).map((r) => ({
      key: String(r.key),
      state: r.state as MemoRow["state"],
      txHash: (r.tx_hash as string | null) ?? undefined,
      blockHash: (r.block_hash as string | null) ?? undefined,
      blockNumber: r.block_number === null ? undefined : Number(r.block_number),
      at: Number(r.at),
    }));
  }

  pruneMemo(before: number): void {
    if (this.closed) return;
    this.st.memoPrune!.run(before);
  }

  // ── flights ──
  putFlight(f: FlightRow): void {
    if (this.closed) return;
    this.st.flightPut!.run(f.nonce, JSON.stringify(f));
  }

  deleteFlight(nonce: number): void {
    if (this.closed) return;
    this.st.flightDel!.run(nonce);
  }

  flights(): FlightRow[] {
    return (this.st.flightAll!.all() as Array<{ row: string }>).map((r) => JSON.parse(r.row) as FlightRow);
  }

  // ── job checkpoints ──
  jobStore(ns: string): JobStore {
    const range = (prefix = ""): [string, string] => [prefix, prefix + "\uffff"];
    return {
      get: (k) => (this.st.kvGet!.get(ns, k) as { v: string } | undefined)?.v,
      set: (k, v) => void (this.closed || this.st.kvSet!.run(ns, k, v)),
      delete: (k) => void (this.closed || this.st.kvDel!.run(ns, k)),
      entries: (prefix) =>
        (this.st.kvList!.all(ns, ...range(prefix)) as Array<{ k: string; v: string }>).map((r) => [r.k, r.v]),
      batch: (set, del = []) =>
        this.closed ||
        this.tx(() => {
          for (const k of del) this.st.kvDel!.run(ns, k);
          for (const [k, v] of set) this.st.kvSet!.run(ns, k, v);
        }),
      clear: (prefix) => void (this.closed || this.st.kvClear!.run(ns, ...range(prefix))),
    };
  }

  // ── actions ──
  private actionCount = 0;
  addAction(a: ActionRow): void {
    if (this.closed) return;
    this.st.actionAdd!.run(
      a.at,
      a.job,
      a.key,
      a.outcome,
      a.txHash ?? null,
      a.nonce ?? null,
      a.gasCostWei ?? null,
      a.bounty ?? null,
    );
    if (++this.actionCount % 500 === 0) this.st.actionTrim!.run(MAX_ACTIONS);
  }

  recentActions(limit = 50): ActionRow[] {
    return (this.st.actionRecent!.all(limit) as Array<Record<string, unknown>>).map((r) => ({
      at: Number(r.at),
      job: String(r.job),
      key: String(r.key),
      outcome: String(r.outcome),
      txHash: (r.tx_hash as string | null) ?? undefined,
      nonce: r.nonce === null ? undefined : Number(r.nonce),
      gasCostWei: (r.gas_cost_wei as string | null) ?? undefined,
      bounty: (r.bounty as string | null) ?? undefined,
    }));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.db.close();
    } catch {
      // already closed
    }
  }
}

/** An in-memory JobStore (the read-only status report, unit tests). */
export function memoryJobStore(): JobStore {
  const m = new Map<string, string>();
  const within = (k: string, prefix = "") => k.startsWith(prefix);
  return {
    get: (k) => m.get(k),
    set: (k, v) => void m.set(k, v),
    delete: (k) => void m.delete(k),
    entries: (prefix) => [...m.entries()].filter(([k]) => within(k, prefix)).sort(([a], [b]) => (a < b ? -1 : 1)),
    batch: (set, del = []) => {
      for (const k of del) m.delete(k);
      for (const [k, v] of set) m.set(k, v);
    },
    clear: (prefix) => {
      for (const k of [...m.keys()]) if (within(k, prefix)) m.delete(k);
    },
  };
}
