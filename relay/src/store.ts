/**
 * The relay's durable state through the query layer: orders, fills, cancel notices, the processed blocks and the
 * sync cursor. Writes go through one queue (one writer: SQLite has one connection, and every block's changes and
 * its cursor commit in one transaction, so a crash never leaves half a block applied). On SQLite reads are queued
 * too (one connection: a read never sees a half-written transaction).
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { RelayCancel, RelayFill, RelayOrderStatus, RelayOrderView } from "@chx/sdk";
import { pad, unpad, messageJson, type RelayOrder } from "./codec.js";
import type { Database, Engine, OrdersTable, Schema } from "./db.js";

export const LIVE: RelayOrderStatus[] = ["open", "unfunded"];

export interface OrderUpdate {
  hash: string;
  status: RelayOrderStatus;
  filled: bigint;
  fillable: bigint;
  reason: string | null;
  updatedBlock: number;
  softCancelled?: boolean;
}

export interface Cursor {
  number: number;
  hash: string;
}

type Db = Kysely<Schema> | Transaction<Schema>;

export class Store {
  readonly db: Kysely<Schema>;
  readonly engine: Engine;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly database: Database,
    readonly chainId: bigint,
  ) {
    this.db = database.db;
    this.engine = database.engine;
  }

  /** Runs `fn` alone (after every queued write). */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** One transaction, queued behind the other writes. */
  write<T>(fn: (tx: Transaction<Schema>) => Promise<T>): Promise<T> {
    return this.serial(() => this.db.transaction().execute(fn));
  }

  /** A read: queued on SQLite (one connection), concurrent on PostgreSQL (a pool). */
  read<T>(fn: (db: Kysely<Schema>) => Promise<T>): Promise<T> {
    return this.engine === "sqlite" ? this.serial(() => fn(this.db)) : fn(this.db);
  }

  // ───────────────────────────── orders

  static row(
    o: RelayOrder,
    status: RelayOrderStatus,
    filled: bigint,
    fillable: bigint,
    reason: string | null,
    isContract: boolean,
    block: number,
    now: number,
  ): OrdersTable {
    return {
      hash: o.hash,
      kind: o.kind,
      book: o.book,
      market: o.market.toLowerCase(),
      maker: o.maker.toLowerCase(),
      side: o.side,
      price: pad(o.price),
      amount: pad(o.amount),
      filled: pad(filled),
      fillable: pad(fillable),
      nonce: pad(o.nonce),
      expiry: pad(o.expiry),
      status,
      reason,
      soft_cancelled: 0,
      is_contract: isContract ? 1 : 0,
      signature: o.signature,
      message: JSON.stringify(messageJson(o)),
      created_at: now,
      updated_block: block,
    };
  }

  view(r: OrdersTable): RelayOrderView {
    return {
      hash: r.hash,
      kind: r.kind as RelayOrderView["kind"],
      book: r.book,
      market: r.market,
      chainId: this.chainId.toString(),
      maker: r.maker,
      side: r.side as RelayOrderView["side"],
      price: unpad(r.price).toString(),
      amount: unpad(r.amount).toString(),
      filled: unpad(r.filled).toString(),
      fillable: unpad(r.fillable).toString(),
      nonce: unpad(r.nonce).toString(),
      expiry: unpad(r.expiry).toString(),
      status: r.status as RelayOrderStatus,
      reason: r.reason,
      softCancelled: Number(r.soft_cancelled) === 1,
      order: JSON.parse(r.message) as RelayOrderView["order"],
      signature: r.signature,
      createdAt: Number(r.created_at),
      updatedBlock: Number(r.updated_block),
    };
  }

  /** Inserts new orders (ignores hashes already stored); returns the hashes inserted. */
  async insertOrders(tx: Db, rows: OrdersTable[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (let i = 0; i < rows.length; i += 200) {
      const r = await tx
        .insertInto("orders")
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.column("hash").doNothing())
        .returning("hash")
        .execute();
      for (const x of r) inserted.add(x.hash);
    }
    return inserted;
  }

  async updateOrders(tx: Db, updates: OrderUpdate[]): Promise<void> {
    for (const u of updates) {
      const set: Partial<OrdersTable> = {
        status: u.status,
        filled: pad(u.filled),
        fillable: pad(u.fillable),
        reason: u.reason,
        updated_block: u.updatedBlock,
      };
      if (u.softCancelled !== undefined) set.soft_cancelled = u.softCancelled ? 1 : 0;
      await tx.updateTable("orders").set(set).where("hash", "=", u.hash).execute();
    }
  }

  async existing(tx: Db, hashes: string[]): Promise<OrdersTable[]> {
    if (hashes.length === 0) return [];
    const out: OrdersTable[] = [];
    for (let i = 0; i < hashes.length; i += 500) {
      out.push(
        ...((await tx
          .selectFrom("orders")
          .selectAll()
          .where("hash", "in", hashes.slice(i, i + 500))
          .execute()) as OrdersTable[]),
      );
    }
    return out;
  }

  order(hash: string): Promise<OrdersTable | undefined> {
    return this.read((db) => db.selectFrom("orders").selectAll().where("hash", "=", hash).executeTakeFirst());
  }

  /** Every order still live (open or unfunded), oldest first. */
  liveOrders(db: Db = this.db): Promise<OrdersTable[]> {
    return db
      .selectFrom("orders")
      .selectAll()
      .where("status", "in", LIVE)
      .orderBy("created_at")
      .orderBy("hash")
      .execute() as Promise<OrdersTable[]>;
  }

  liveOrdersOf(db: Db, makers: string[]): Promise<OrdersTable[]> {
    if (makers.length === 0) return Promise.resolve([]);
    return db
      .selectFrom("orders")
      .selectAll()
      .where("status", "in", LIVE)
      .where("maker", "in", makers)
      .execute() as Promise<OrdersTable[]>;
  }

  /** Orders whose state the blocks above `block` changed (a reorg rolls those blocks back). */
  ordersUpdatedAbove(db: Db, block: number): Promise<OrdersTable[]> {
    return db.selectFrom("orders").selectAll().where("updated_block", ">", block).execute() as Promise<OrdersTable[]>;
  }

  makerOrders(maker: string, live: boolean, limit: number): Promise<OrdersTable[]> {
    return this.read((db) => {
      let q = db.selectFrom("orders").selectAll().where("maker", "=", maker.toLowerCase());
      if (live) q = q.where("status", "in", LIVE);
      return q.orderBy("created_at", "desc").limit(limit).execute() as Promise<OrdersTable[]>;
    });
  }

  counts(): Promise<{ open: number; unfunded: number }> {
    return this.read(async (db) => {
      const rows = await db
        .selectFrom("orders")
        .select(["status", sql<number>`count(*)`.as("n")])
        .where("status", "in", LIVE)
        .groupBy("status")
        .execute();
      const get = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
      return { open: get("open"), unfunded: get("unfunded") };
    });
  }

  // ───────────────────────────── fills and cancels

  async insertFills(tx: Db, fills: RelayFill[], blockHash: Map<number, string>): Promise<void> {
    for (let i = 0; i < fills.length; i += 200) {
      await tx
        .insertInto("fills")
        .values(
          fills.slice(i, i + 200).map((f) => ({
            tx_hash: f.txHash,
            log_index: f.logIndex,
            block_number: f.blockNumber,
            block_hash: blockHash.get(f.blockNumber) ?? "",
            order_hash: f.orderHash,
            book: f.book,
            maker: f.maker.toLowerCase(),
            counterparty: f.counterparty.toLowerCase(),
            amount: pad(BigInt(f.amount)),
            price: pad(BigInt(f.price)),
            filled_after: pad(BigInt(f.filledAfter)),
          })),
        )
        .onConflict((oc) => oc.columns(["tx_hash", "log_index"]).doNothing())
        .execute();
    }
  }

  private fillView = (r: Schema["fills"]): RelayFill => ({
    txHash: r.tx_hash,
    logIndex: Number(r.log_index),
    blockNumber: Number(r.block_number),
    orderHash: r.order_hash,
    book: r.book,
    maker: r.maker,
    counterparty: r.counterparty,
    amount: unpad(r.amount).toString(),
    price: unpad(r.price).toString(),
    filledAfter: unpad(r.filled_after).toString(),
  });

  fillsOf(hash: string): Promise<RelayFill[]> {
    return this.read(async (db) =>
      (
        await db
          .selectFrom("fills")
          .selectAll()
          .where("order_hash", "=", hash)
          .orderBy("block_number")
          .orderBy("log_index")
          .execute()
      ).map(this.fillView),
    );
  }

  fills(opts: { book?: string; maker?: string; limit: number }): Promise<RelayFill[]> {
    return this.read(async (db) => {
      let q = db.selectFrom("fills").selectAll();
      if (opts.book !== undefined) q = q.where("book", "=", opts.book);
      if (opts.maker !== undefined) q = q.where("maker", "=", opts.maker.toLowerCase());
      const rows = await q.orderBy("block_number", "desc").orderBy("log_index", "desc").limit(opts.limit).execute();
      return rows.map(this.fillView);
    });
  }

  async insertCancel(tx: Db, c: RelayCancel): Promise<void> {
    await tx
      .insertInto("cancels")
      .values({
        order_hash: c.orderHash,
        via: c.via,
        maker: c.maker.toLowerCase(),
        book: c.book,
        block_number: c.blockNumber,
        at: c.at,
      })
      .onConflict((oc) => oc.columns(["order_hash", "via"]).doNothing())
      .execute();
  }

  cancels(since: number, limit: number): Promise<RelayCancel[]> {
    return this.read(async (db) =>
      (
        await db
          .selectFrom("cancels")
          .selectAll()
          .where("at", ">=", since)
          .orderBy("at")
          .orderBy("order_hash")
          .limit(limit)
          .execute()
      ).map((r) => ({
        orderHash: r.order_hash,
        maker: r.maker,
        book: r.book,
        via: r.via as RelayCancel["via"],
        blockNumber: r.block_number === null ? null : Number(r.block_number),
        at: Number(r.at),
      })),
    );
  }

  // ───────────────────────────── blocks and the cursor

  async cursor(db: Db = this.db): Promise<Cursor | undefined> {
    const r = await db.selectFrom("meta").select("value").where("key", "=", "cursor").executeTakeFirst();
    return r === undefined ? undefined : (JSON.parse(r.value) as Cursor);
  }

  async setCursor(tx: Db, c: Cursor): Promise<void> {
    const value = JSON.stringify(c);
    await tx
      .insertInto("meta")
      .values({ key: "cursor", value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
      .execute();
  }

  async meta(key: string): Promise<string | undefined> {
    return this.read(
      async (db) => (await db.selectFrom("meta").select("value").where("key", "=", key).executeTakeFirst())?.value,
    );
  }

  async setMeta(tx: Db, key: string, value: string): Promise<void> {
    await tx
      .insertInto("meta")
      .values({ key, value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
      .execute();
  }

  async recordBlocks(tx: Db, blocks: Cursor[], keep: number): Promise<void> {
    if (blocks.length === 0) return;
    await tx
      .insertInto("blocks")
      .values(blocks.map((b) => ({ number: b.number, hash: b.hash })))
      .onConflict((oc) => oc.column("number").doUpdateSet((eb) => ({ hash: eb.ref("excluded.hash") })))
      .execute();
    const top = Math.max(...blocks.map((b) => b.number));
    await tx
      .deleteFrom("blocks")
      .where("number", "<", top - keep)
      .execute();
  }

  /** Recorded blocks, newest first. */
  recentBlocks(db: Db = this.db): Promise<Cursor[]> {
    return db
      .selectFrom("blocks")
      .selectAll()
      .orderBy("number", "desc")
      .execute()
      .then((rows) => rows.map((r) => ({ number: Number(r.number), hash: r.hash })));
  }

  /** Forgets everything the blocks above `block` brought (a reorg): their fills, chain cancels and block hashes. */
  async rollbackAbove(tx: Db, block: number): Promise<void> {
    await tx.deleteFrom("fills").where("block_number", ">", block).execute();
    await tx.deleteFrom("cancels").where("block_number", ">", block).execute();
    await tx.deleteFrom("blocks").where("number", ">", block).execute();
  }
}
