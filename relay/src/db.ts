/**
 * One query layer (Kysely) over two engines:
 *   sqlite:<file> | sqlite::memory:   embedded SQLite through Node's own `node:sqlite` (WAL, synchronous=FULL), the
 *                                     default, so `npm run relay` needs nothing installed;
 *   postgres://… | postgresql://…     PostgreSQL through `pg` (production);
 *   pglite:<dir> | pglite:memory      PostgreSQL's own engine compiled to WASM (@electric-sql/pglite): the same SQL
 *                                     dialect as a server, used by the tests on a machine without a server.
 * Migrations (src/migrations.ts) run at open. uint256 values are stored as 78-digit decimal text (codec.ts `pad`).
 */
import { Kysely, PostgresDialect, SqliteDialect, PGliteDialect } from "kysely";
import { migrate } from "./migrations.js";

export interface OrdersTable {
  hash: string;
  kind: string;
  book: string;
  market: string;
  maker: string;
  side: string;
  price: string;
  amount: string;
  filled: string;
  fillable: string;
  nonce: string;
  expiry: string;
  status: string;
  reason: string | null;
  soft_cancelled: number;
  is_contract: number;
  signature: string;
  message: string;
  created_at: number;
  updated_block: number;
}

export interface FillsTable {
  tx_hash: string;
  log_index: number;
  block_number: number;
  block_hash: string;
  order_hash: string;
  book: string;
  maker: string;
  counterparty: string;
  amount: string;
  price: string;
  filled_after: string;
}

export interface CancelsTable {
  order_hash: string;
  via: string;
  maker: string;
  book: string;
  block_number: number | null;
  at: number;
}

export interface BlocksTable {
  number: number;
  hash: string;
}

export interface MetaTable {
  key: string;
  value: string;
}

export interface Schema {
  orders: OrdersTable;
  fills: FillsTable;
  cancels: CancelsTable;
  blocks: BlocksTable;
  meta: MetaTable;
}

export type Engine = "sqlite" | "postgres";

export interface Database {
  db: Kysely<Schema>;
  engine: Engine;
  /** The URL with any password removed (for /v1/status and logs). */
  label: string;
  close(): Promise<void>;
}

/** A node:sqlite DatabaseSync behind the statement interface Kysely's SqliteDialect drives (statements cached). */
async function nodeSqlite(file: string) {
  const { DatabaseSync } = await import("node:sqlite");
  const raw = new DatabaseSync(file);
  // WAL: readers never block the writer; FULL: a committed transaction survives a power cut (orders are never lost)
  raw.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;");
  const cache = new Map<string, ReturnType<typeof raw.prepare>>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (s === undefined) {
      s = raw.prepare(sql);
      if (cache.size > 500) cache.clear();
      cache.set(sql, s);
    }
    return s;
  };
  type Param = null | number | bigint | string | Uint8Array;
  const params = (p: ReadonlyArray<unknown>) => p.map((v) => (typeof v === "boolean" ? Number(v) : v)) as Param[];
  return {
    close: () => raw.close(),
    prepare(sql: string) {
      const s = stmt(sql);
      return {
        reader: s.columns().length > 0,
        all: (p: ReadonlyArray<unknown>) => s.all(...params(p)),
        run: (p: ReadonlyArray<unknown>) => s.run(...params(p)),
        iterate: (p: ReadonlyArray<unknown>) => s.iterate(...params(p)) as IterableIterator<unknown>,
      };
    },
  };
}

export async function openDatabase(url: string): Promise<Database> {
  let db: Kysely<Schema>;
  let engine: Engine;
  let label = url;
  if (url.startsWith("sqlite:")) {
    const file = url.slice("sqlite:".length);
    if (file !== ":memory:") {
      const { mkdirSync } = await import("node:fs");
      const path = await import("node:path");
      mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    }
    const database = await nodeSqlite(file);
    db = new Kysely<Schema>({ dialect: new SqliteDialect({ database }) });
    engine = "sqlite";
  } else if (url.startsWith("pglite:")) {
    const dir = url.slice("pglite:".length);
    const { PGlite } = await import("@electric-sql/pglite");
    const pglite = dir === "memory" ? new PGlite() : new PGlite(dir);
    await pglite.waitReady;
    db = new Kysely<Schema>({ dialect: new PGliteDialect({ pglite }) });
    engine = "postgres";
  } else if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const pg = await import("pg");
    // int8 (COUNT, bigint columns) as JS numbers: every bigint column here holds block numbers or milliseconds
    pg.default.types.setTypeParser(20, (v: string) => Number(v));
    const pool = new pg.default.Pool({ connectionString: url, max: 10 });
    db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    engine = "postgres";
    label = url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
  } else {
    throw new Error(
      `Unknown database URL "${url}" (sqlite:<file>, sqlite::memory:, postgres://…, pglite:<dir>|memory)`,
    );
  }
  await migrate(db, engine);
  return { db, engine, label, close: () => db.destroy() };
}
