/**
 * The served books, in memory: a materialised view of the database's open orders (rebuilt from it at start, then
 * updated after every committed change), so a snapshot of any depth is O(depth) and never touches SQL. Levels are
 * kept sorted best first; inside a level orders keep time priority (first posted first).
 */
import type { RelayBook, RelayLevel, RelayOrderView } from "@chx/sdk";

interface Level {
  price: bigint;
  total: bigint;
  orders: Map<string, RelayOrderView>;
}

class BookSide {
  private readonly levels = new Map<bigint, Level>();
  /** Prices best first (bids descending, asks ascending). */
  private readonly prices: bigint[] = [];
  constructor(private readonly descending: boolean) {}

  private better(a: bigint, b: bigint): boolean {
    return this.descending ? a > b : a < b;
  }

  /** Index of the first price not better than `p`. */
  private slot(p: bigint): number {
    let lo = 0;
    let hi = this.prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.better(this.prices[mid]!, p)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(v: RelayOrderView, price: bigint, amount: bigint): void {
    let level = this.levels.get(price);
    if (level === undefined) {
      level = { price, total: 0n, orders: new Map() };
      this.levels.set(price, level);
      this.prices.splice(this.slot(price), 0, price);
    }
    level.orders.set(v.hash, v);
    level.total += amount;
  }

  remove(hash: string, price: bigint, amount: bigint): void {
    const level = this.levels.get(price);
    if (level === undefined || !level.orders.delete(hash)) return;
    level.total -= amount;
    if (level.orders.size === 0) {
      this.levels.delete(price);
      const i = this.slot(price);
      if (this.prices[i] === price) this.prices.splice(i, 1);
    }
  }

  /** Replaces an order's amount in place (time priority kept). */
  resize(v: RelayOrderView, price: bigint, before: bigint, after: bigint): void {
    const level = this.levels.get(price);
    if (level === undefined) return;
    level.orders.set(v.hash, v);
    level.total += after - before;
  }

  snapshot(depth: number): RelayLevel[] {
    const out: RelayLevel[] = [];
    for (let i = 0; i < this.prices.length && i < depth; i++) {
      const l = this.levels.get(this.prices[i]!)!;
      out.push({ price: l.price.toString(), amount: l.total.toString(), orders: l.orders.size });
    }
    return out;
  }

  topOrders(n: number): RelayOrderView[] {
    const out: RelayOrderView[] = [];
    for (const p of this.prices) {
      for (const v of this.levels.get(p)!.orders.values()) {
        if (out.length >= n) return out;
        out.push(v);
      }
    }
    return out;
  }

  get size(): number {
    return this.prices.length;
  }
}

class Book {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  readonly entries = new Map<string, { price: bigint; amount: bigint; side: "buy" | "sell" }>();
  constructor(readonly name: string) {}
}

/** Whether an order belongs in a served book. */
export const served = (v: RelayOrderView): boolean => v.status === "open" && !v.softCancelled && v.fillable !== "0";

export class Books {
  private readonly books = new Map<string, Book>();
  /** Books changed since the last `drainChanged()` (for the stream). */
  private changed = new Set<string>();

  private book(name: string): Book {
    let b = this.books.get(name);
    if (b === undefined) {
      b = new Book(name);
      this.books.set(name, b);
    }
    return b;
  }

  /** Puts `v` where its status says: in its book when served, out of it otherwise. */
  apply(v: RelayOrderView): void {
    const b = this.book(v.book);
    const prev = b.entries.get(v.hash);
    const side = v.side === "buy" ? b.bids : b.asks;
    if (!served(v)) {
      if (prev !== undefined) {
        (prev.side === "buy" ? b.bids : b.asks).remove(v.hash, prev.price, prev.amount);
        b.entries.delete(v.hash);
        this.changed.add(v.book);
      }
      return;
    }
    const price = BigInt(v.price);
    const amount = BigInt(v.fillable);
    if (prev === undefined) {
      side.add(v, price, amount);
    } else {
      side.resize(v, price, prev.amount, amount);
    }
    b.entries.set(v.hash, { price, amount, side: v.side });
    this.changed.add(v.book);
  }

  has(hash: string, book: string): boolean {
    return this.books.get(book)?.entries.has(hash) ?? false;
  }

  names(): string[] {
    return [...this.books.keys()].sort();
  }

  snapshot(name: string, block: number, depth: number, orders: number): RelayBook {
    const b = this.books.get(name);
    const out: RelayBook = {
      book: name,
      block,
      bids: b?.bids.snapshot(depth) ?? [],
      asks: b?.asks.snapshot(depth) ?? [],
    };
    if (orders > 0) out.orders = { bids: b?.bids.topOrders(orders) ?? [], asks: b?.asks.topOrders(orders) ?? [] };
    return out;
  }

  count(name: string): number {
    return this.books.get(name)?.entries.size ?? 0;
  }

  drainChanged(): string[] {
    const c = [...this.changed];
    this.changed = new Set();
    return c;
  }

  clear(): void {
    this.books.clear();
    this.changed = new Set();
  }
}
