/**
 * Schema migrations (Kysely's Migrator, in code so the package needs no migration folder at run time). Each
 * migration is written once against Kysely's schema builder and runs on SQLite and PostgreSQL alike; add a new
 * entry for every change, never edit a released one.
 */
import type { Kysely } from "kysely";
import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import type { Engine } from "./db.js";

const migrations: Record<string, Migration> = {
  "0001_orders_fills_sync": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("orders")
        .addColumn("hash", "text", (c) => c.primaryKey())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("book", "text", (c) => c.notNull())
        .addColumn("market", "text", (c) => c.notNull())
        .addColumn("maker", "text", (c) => c.notNull())
        .addColumn("side", "text", (c) => c.notNull())
        .addColumn("price", "text", (c) => c.notNull())
        .addColumn("amount", "text", (c) => c.notNull())
        .addColumn("filled", "text", (c) => c.notNull())
        .addColumn("fillable", "text", (c) => c.notNull())
        .addColumn("nonce", "text", (c) => c.notNull())
        .addColumn("expiry", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("reason", "text")
        .addColumn("soft_cancelled", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("is_contract", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("signature", "text", (c) => c.notNull())
        .addColumn("message", "text", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_block", "bigint", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("orders_book_status").on("orders").columns(["book", "status", "side"]).execute();
      await db.schema.createIndex("orders_maker_status").on("orders").columns(["maker", "status"]).execute();
      await db.schema.createIndex("orders_status_expiry").on("orders").columns(["status", "expiry"]).execute();
      await db.schema.createIndex("orders_updated_block").on("orders").column("updated_block").execute();

      await db.schema
        .createTable("fills")
        .addColumn("tx_hash", "text", (c) => c.notNull())
        .addColumn("log_index", "integer", (c) => c.notNull())
        .addColumn("block_number", "bigint", (c) => c.notNull())
        .addColumn("block_hash", "text", (c) => c.notNull())
        .addColumn("order_hash", "text", (c) => c.notNull())
        .addColumn("book", "text", (c) => c.notNull())
        .addColumn("maker", "text", (c) => c.notNull())
        .addColumn("counterparty", "text", (c) => c.notNull())
        .addColumn("amount", "text", (c) => c.notNull())
        .addColumn("price", "text", (c) => c.notNull())
        .addColumn("filled_after", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("fills_pk", ["tx_hash", "log_index"])
        .execute();
      await db.schema.createIndex("fills_order").on("fills").column("order_hash").execute();
      await db.schema.createIndex("fills_block").on("fills").column("block_number").execute();
      await db.schema.createIndex("fills_book_block").on("fills").columns(["book", "block_number"]).execute();

      await db.schema
        .createTable("cancels")
        .addColumn("order_hash", "text", (c) => c.notNull())
        .addColumn("via", "text", (c) => c.notNull())
        .addColumn("maker", "text", (c) => c.notNull())
        .addColumn("book", "text", (c) => c.notNull())
        .addColumn("block_number", "bigint")
        .addColumn("at", "bigint", (c) => c.notNull())
        .addPrimaryKeyConstraint("cancels_pk", ["order_hash", "via"])
        .execute();
      await db.schema.createIndex("cancels_at").on("cancels").column("at").execute();

      await db.schema
        .createTable("blocks")
        .addColumn("number", "bigint", (c) => c.primaryKey())
        .addColumn("hash", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("meta")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ["meta", "blocks", "cancels", "fills", "orders"]) await db.schema.dropTable(t).execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Brings the schema to the latest migration; throws with the failing migration's name. */
export async function migrate<T>(db: Kysely<T>, engine: Engine): Promise<string[]> {
  const migrator = new Migrator({ db: db as Kysely<unknown>, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "?";
    throw new Error(`relay: migration ${failed} failed on ${engine}: ${(error as Error).message ?? String(error)}`);
  }
  return (results ?? []).map((r) => r.migrationName);
}

export const migrationNames = Object.keys(migrations);
