/**
 * The relay's engine, without HTTP: intake (validation at the door, batched), the chain follower (fills, cancels,
 * nonce raises, balances and allowances through events; reorgs rolled back by block hash; a resumable cursor),
 * the in-memory books and the stream. server.ts puts HTTP and WebSocket in front of it.
 *
 * Invariants it keeps:
 *  - an order is in a served book only while the last block the relay processed says it can be filled (status
 *    `open`, fillable > 0, not soft-cancelled); every block's effects and the cursor commit in one transaction,
 *    and the books change only after the commit;
 *  - every accepted order is committed before the client hears 201 (a crash loses nothing acknowledged);
 *  - bad input never reaches the database: every check runs before the insert.
 */
import { TypedDataEncoder, type Log } from "ethers";
import {
  CancelNoticeTypes,
  OptionsMarketAbi,
  relayDomain,
  SpotMarketAbi,
  type RelayCancel,
  type RelayFill,
  type RelayOrderView,
  type RelayPostResult,
  type RelayStatus,
} from "@chx/sdk";
import { Interface } from "ethers";
import type { Logger } from "pino";
import { Books, served } from "./book.js";
import { Chain, recoverEoa, type Assessment, type Head } from "./chain.js";
import {
  messageFromJson,
  offerFromBody,
  offerRelayOrder,
  spotOrderFromBody,
  spotRelayOrder,
  UINT128_MAX,
  UINT256_MAX,
  UINT64_MAX,
  ZERO_ADDRESS,
  type RelayOrder,
} from "./codec.js";
import type { RelayConfig } from "./config.js";
import type { OrdersTable } from "./db.js";
import { fail, RelayHttpError } from "./errors.js";
import { Hub } from "./hub.js";
import { Store, type Cursor, type OrderUpdate } from "./store.js";

const spotIface = new Interface(SpotMarketAbi);
const optIface = new Interface(OptionsMarketAbi);
const TOPIC = {
  orderFilled: spotIface.getEvent("OrderFilled")!.topicHash,
  cancelled: spotIface.getEvent("Cancelled")!.topicHash,
  offerFilled: optIface.getEvent("OfferFilled")!.topicHash,
  offerCancelled: optIface.getEvent("OfferCancelled")!.topicHash,
};

/** A POST /v1/orders body after schema validation. */
export interface PostBody {
  kind: string;
  market: string;
  chainId: string;
  order?: Record<string, string | boolean>;
  offer?: Record<string, string | boolean>;
  signature: string;
}

interface Live {
  order: RelayOrder;
  view: RelayOrderView;
}

interface Pending {
  order: RelayOrder;
  /** When the request arrived (ms). */
  at: number;
  resolve: (r: RelayPostResult) => void;
  reject: (e: unknown) => void;
}

class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}
  take(key: string, now = Date.now()): boolean {
    let b = this.buckets.get(key);
    if (b === undefined) {
      if (this.buckets.size > 100_000) this.buckets.clear();
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

export interface SyncReport {
  from: number;
  to: number;
  logs: number;
  updated: number;
  reorg?: { fork: number; dropped: number };
}

export class Engine {
  readonly books = new Books();
  readonly hub = new Hub();
  /** Every live (open or unfunded) order, by hash. */
  private readonly live = new Map<string, Live>();
  private readonly liveByMaker = new Map<string, Set<string>>();
  /** Makers with code (their orders' ERC-1271 signatures are re-checked every block). */
  private readonly contracts = new Set<string>();
  /** Makers to re-check at the next sync round (orders accepted while a round was reading newer blocks). */
  private readonly dirty = new Set<string>();
  private readonly seriesExpiry = new Map<string, bigint>();
  private readonly makerLimit: TokenBuckets;
  private static readonly MAX_FLUSHES = 4;
  private batch: Pending[] = [];
  private flushes = 0;
  private scheduled = false;
  private readonly inflight = new Map<string, Promise<RelayPostResult>>();
  private cursor: Cursor | undefined;
  /** Highest block a sync round has started reading. */
  private syncTarget = 0;
  private syncing: Promise<SyncReport | undefined> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  lastSyncError: string | undefined;
  /** Intake batches: how many, how many orders, and where their time went (ms). */
  readonly intakeStats = { batches: 0, orders: 0, headMs: 0, assessMs: 0, dbMs: 0 };

  constructor(
    readonly cfg: RelayConfig,
    readonly chain: Chain,
    readonly store: Store,
    readonly log: Logger,
  ) {
    this.makerLimit = new TokenBuckets(cfg.makerRateLimit.perSecond, cfg.makerRateLimit.burst);
  }

  /** Loads the live orders and the cursor from the database (a restart resumes where it stopped). */
  async load(): Promise<void> {
    const rows = await this.store.read((db) => this.store.liveOrders(db));
    for (const r of rows) this.track(this.fromRow(r), this.store.view(r));
    this.cursor = await this.store.read((db) => this.store.cursor(db));
    this.syncTarget = this.cursor?.number ?? 0;
    for (const l of this.live.values()) {
      if (l.order.seriesId !== undefined && !this.seriesExpiry.has(l.order.seriesId.toString())) {
        const s = await this.chain.seriesAt(l.order.seriesId, this.chain.head.number);
        this.seriesExpiry.set(l.order.seriesId.toString(), s.expiry);
      }
    }
    this.log.info({ live: this.live.size, cursor: this.cursor }, "relay state loaded");
  }

  private fromRow(r: OrdersTable): RelayOrder {
    const message = messageFromJson(r.kind as RelayOrder["kind"], r.message);
    const o =
      r.kind === "spot"
        ? spotRelayOrder(r.market, r.hash, message as Parameters<typeof spotRelayOrder>[2], r.signature)
        : offerRelayOrder(r.market, r.hash, message as Parameters<typeof offerRelayOrder>[2], r.signature);
    if (Number(r.is_contract) === 1) this.contracts.add(r.maker);
    return o;
  }

  private track(order: RelayOrder, view: RelayOrderView): void {
    const isLive = view.status === "open" || view.status === "unfunded";
    const mk = view.maker;
    if (isLive) {
      this.live.set(view.hash, { order, view });
      let set = this.liveByMaker.get(mk);
      if (set === undefined) {
        set = new Set();
        this.liveByMaker.set(mk, set);
      }
      set.add(view.hash);
    } else {
      this.live.delete(view.hash);
      const set = this.liveByMaker.get(mk);
      set?.delete(view.hash);
      if (set?.size === 0) this.liveByMaker.delete(mk);
    }
    this.books.apply(view);
  }

  get liveCount(): number {
    return this.live.size;
  }

  // ───────────────────────────── intake

  /** Validates and stores a posted order; throws RelayHttpError with a typed code when it is refused. */
  async post(body: PostBody): Promise<RelayPostResult> {
    const order = this.parse(body);
    const existing = this.live.get(order.hash);
    if (existing !== undefined) return { created: false, order: existing.view };
    const pending = this.inflight.get(order.hash);
    if (pending !== undefined) return pending.then((r) => ({ ...r, created: false }));
    // an order the relay holds but no longer serves (filled, cancelled, expired) gets the chain's verdict below, or —
    // should the chain say it is fillable again — the stored view (the insert below does not overwrite it)
    if (!this.makerLimit.take(order.maker.toLowerCase())) {
      fail("RATE_LIMITED", `too many orders from maker ${order.maker}; slow down`, {
        perSecond: this.cfg.makerRateLimit.perSecond,
      });
    }
    await this.checkSignature(order);
    if (order.kind === "option") await this.checkSeries(order);
    const p = new Promise<RelayPostResult>((resolve, reject) => {
      this.batch.push({ order, at: Date.now(), resolve, reject });
      this.schedule();
    });
    this.inflight.set(order.hash, p);
    void p.then(
      () => this.inflight.delete(order.hash),
      () => this.inflight.delete(order.hash),
    );
    return p;
  }

  /** The checks that need no chain read: chain, market, kind, private orders, bounds. */
  parse(body: PostBody): RelayOrder {
    if (BigInt(body.chainId) !== this.chain.chainId) {
      fail("WRONG_CHAIN", `this relay serves chain ${this.chain.chainId}, the order is for chain ${body.chainId}`);
    }
    let order: RelayOrder;
    const market = body.market.toLowerCase();
    if (body.kind === "spot") {
      const spot = this.chain.spot;
      if (spot === undefined) fail("UNKNOWN_MARKET", "no SpotMarket in this deployment");
      if (market !== spot!.address.toLowerCase())
        fail("UNKNOWN_MARKET", `the SpotMarket here is ${spot!.address}, not ${body.market}`);
      if (body.order === undefined) fail("BAD_REQUEST", "a spot order needs `order`");
      const m = spotOrderFromBody(body.order!);
      order = spotRelayOrder(
        spot!.address,
        spot!.hasher.digest(m as unknown as Record<string, unknown>),
        m,
        body.signature,
      );
    } else if (body.kind === "option") {
      const opt = this.chain.options;
      if (opt === undefined) fail("UNKNOWN_MARKET", "no OptionsMarket in this deployment");
      if (market !== opt!.address.toLowerCase())
        fail("UNKNOWN_MARKET", `the OptionsMarket here is ${opt!.address}, not ${body.market}`);
      if (body.offer === undefined) fail("BAD_REQUEST", "an option offer needs `offer`");
      const m = offerFromBody(body.offer!);
      order = offerRelayOrder(
        opt!.address,
        opt!.hasher.digest(m as unknown as Record<string, unknown>),
        m,
        body.signature,
      );
    } else {
      // futures orders slot in here (kind "futures", book "futures:<seriesId>") once the futures market signs orders
      return fail("UNSUPPORTED_KIND", `kind "${body.kind}" is not relayed yet (spot, option)`);
    }
    if (order.taker !== ZERO_ADDRESS) {
      fail("PRIVATE_ORDER", "the relay serves public orders only (taker must be the zero address)");
    }
    if (order.amount < this.cfg.minAmount || order.amount > UINT128_MAX) {
      fail("INVALID_AMOUNT", `amount must be between ${this.cfg.minAmount} and ${UINT128_MAX}`, {
        amount: order.amount.toString(),
      });
    }
    if (order.price === 0n || order.price > this.cfg.maxPriceWad) {
      fail("INVALID_PRICE", `price must be between 1 and ${this.cfg.maxPriceWad} (WAD)`, {
        price: order.price.toString(),
      });
    }
    if (order.nonce > UINT256_MAX) fail("INVALID_NONCE", "nonce exceeds uint256");
    if (order.seriesId !== undefined && order.seriesId > UINT256_MAX)
      fail("UNKNOWN_SERIES", "seriesId exceeds uint256");
    const now = BigInt(this.chain.head.timestamp);
    if (order.expiry > UINT64_MAX) fail("EXPIRY_TOO_FAR", "expiry exceeds uint64");
    if (order.expiry < now + BigInt(this.cfg.minTtlSec)) {
      fail(
        "EXPIRED",
        `the order expires at ${order.expiry}, less than ${this.cfg.minTtlSec} s after the head (${now})`,
      );
    }
    if (order.expiry > now + BigInt(this.cfg.maxTtlSec)) {
      fail("EXPIRY_TOO_FAR", `expiry more than ${this.cfg.maxTtlSec} s ahead of the head (${now})`);
    }
    return order;
  }

  /** EOA: the digest recovers to the maker (OpenZeppelin's rules). Else a contract maker: ERC-1271 in the batch. */
  private async checkSignature(o: RelayOrder): Promise<void> {
    const signer = recoverEoa(o.hash, o.signature);
    if (signer !== null && signer.toLowerCase() === o.maker.toLowerCase()) return;
    const mk = o.maker.toLowerCase();
    if (!this.contracts.has(mk)) {
      let isContract: boolean;
      try {
        isContract = await this.chain.isContract(o.maker);
      } catch (e) {
        throw new RelayHttpError("CHAIN_UNAVAILABLE", `cannot read the chain: ${(e as Error).message}`);
      }
      if (!isContract) {
        fail("INVALID_SIGNATURE", `the signature does not recover to the maker ${o.maker} for this chain and market`, {
          digest: o.hash,
          recovered: signer,
        });
      }
      this.contracts.add(mk);
    }
    // a contract maker: isValidSignature is read with the order's state in the batch (assess)
  }

  private async checkSeries(o: RelayOrder): Promise<void> {
    let s;
    try {
      s = await this.chain.seriesAt(o.seriesId!, this.chain.head.number);
    } catch (e) {
      throw new RelayHttpError("CHAIN_UNAVAILABLE", `cannot read the chain: ${(e as Error).message}`);
    }
    if (!s.exists) fail("UNKNOWN_SERIES", `no option series ${o.seriesId}`);
    if (s.settled || BigInt(this.chain.head.timestamp) >= s.expiry) {
      fail("SERIES_NOT_TRADING", `series ${o.seriesId} expired at ${s.expiry}`);
    }
    this.seriesExpiry.set(o.seriesId!.toString(), s.expiry);
  }

  /**
   * Starts a batch on the next turn of the event loop (so the requests of one turn share it), with at most
   * MAX_FLUSHES batches in flight: the node reads one batch's chain state while the relay commits another, and
   * requests that arrive meanwhile form bigger batches (one eth_call page covers ~30 orders).
   */
  private schedule(): void {
    if (this.scheduled || this.flushes >= Engine.MAX_FLUSHES || this.batch.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.flushes >= Engine.MAX_FLUSHES || this.batch.length === 0) return;
      const items = this.batch.splice(0, 300);
      this.flushes++;
      void this.flushBatch(items)
        .catch((e) => {
          const err =
            e instanceof RelayHttpError
              ? e
              : new RelayHttpError("CHAIN_UNAVAILABLE", `intake failed: ${(e as Error).message}`);
          for (const p of items) p.reject(err);
        })
        .finally(() => {
          this.flushes--;
          this.schedule();
        });
      this.schedule();
    });
  }

  private refusal(o: RelayOrder, a: Assessment): RelayHttpError | undefined {
    const d = { hash: o.hash, reason: a.reason };
    if (a.status === "filled") return new RelayHttpError("FILLED", `order ${o.hash} is already filled`, d);
    if (a.status === "expired")
      return new RelayHttpError(
        a.reason === "series expired" ? "SERIES_NOT_TRADING" : "EXPIRED",
        `order ${o.hash} has expired`,
        d,
      );
    if (a.status === "cancelled") {
      if (a.reason === "minNonce")
        return new RelayHttpError("NONCE_BELOW_MINIMUM", `nonce ${o.nonce} is below the maker's minimum nonce`, d);
      if (a.reason === "nonceUsed")
        return new RelayHttpError("NONCE_USED", `nonce ${o.nonce} is already used by another order of ${o.maker}`, d);
      if (a.reason === "signatureRevoked")
        return new RelayHttpError(
          "INVALID_SIGNATURE",
          `the wallet ${o.maker} does not accept the signature (ERC-1271)`,
          d,
        );
      return new RelayHttpError("CANCELLED", `order ${o.hash} is cancelled on chain`, d);
    }
    if (a.status === "unfunded") {
      return new RelayHttpError(
        "UNFUNDED",
        `the maker cannot ${o.side === "sell" ? "deliver" : "pay"}: ${a.reason}`,
        d,
      );
    }
    return undefined;
  }

  private async flushBatch(items: Pending[]): Promise<void> {
    const st = this.intakeStats;
    // read at "latest": the node's newest block when the batch arrives (a maker who approved a moment ago is never
    // refused for an older head); the BatchReader says which block that was
    let t = performance.now();
    const { assessments, block } = await this.chain.assess(
      items.map((p) => p.order),
      "latest",
      this.contracts,
      { lazyState: true },
    );
    const head = { number: block };
    st.assessMs += performance.now() - t;
    st.batches++;
    st.orders += items.length;
    const now = Date.now();
    const accepted: Array<{ p: Pending; row: OrdersTable }> = [];
    const perMaker = new Map<string, number>();
    let total = this.live.size;
    items.forEach((p, i) => {
      const a = assessments[i]!;
      const refused = this.refusal(p.order, a);
      if (refused !== undefined) return p.reject(refused);
      const mk = p.order.maker.toLowerCase();
      const count = (this.liveByMaker.get(mk)?.size ?? 0) + (perMaker.get(mk) ?? 0);
      if (count >= this.cfg.maxOrdersPerMaker) {
        return p.reject(
          new RelayHttpError(
            "BOOK_FULL",
            `maker ${p.order.maker} has ${count} live orders (at most ${this.cfg.maxOrdersPerMaker})`,
          ),
        );
      }
      if (total >= this.cfg.maxLiveOrders) {
        return p.reject(new RelayHttpError("BOOK_FULL", `the relay holds ${total} live orders (its limit)`));
      }
      perMaker.set(mk, (perMaker.get(mk) ?? 0) + 1);
      total++;
      accepted.push({
        p,
        row: Store.row(p.order, a.status, a.filled, a.fillable, a.reason, this.contracts.has(mk), head.number, now),
      });
    });
    if (accepted.length === 0) return;
    t = performance.now();
    const inserted = await this.store.write((tx) =>
      this.store.insertOrders(
        tx,
        accepted.map((x) => x.row),
      ),
    );
    st.dbMs += performance.now() - t;
    const known = accepted.filter((x) => !inserted.has(x.row.hash));
    if (known.length > 0) {
      const rows = new Map(
        (
          await this.store.read((db) =>
            this.store.existing(
              db,
              known.map((x) => x.row.hash),
            ),
          )
        ).map((r) => [r.hash, r]),
      );
      for (const { p, row } of known) {
        const r = rows.get(row.hash);
        if (r === undefined) p.reject(new RelayHttpError("INTERNAL", `order ${row.hash} vanished`));
        else p.resolve({ created: false, order: this.store.view(r) });
      }
    }
    for (const { p, row } of accepted) {
      if (!inserted.has(row.hash)) continue;
      const view = this.store.view(row);
      this.track(p.order, view);
      // a sync round already reading past the block we validated at could not know this maker: re-check it
      if (this.syncTarget > head.number) this.dirty.add(view.maker);
      this.hub.publish({ type: "order", order: view }, view.book, view.maker);
      p.resolve({ created: true, order: view });
    }
    this.publishBooks(head.number);
  }

  private publishBooks(block: number): void {
    for (const name of this.books.drainChanged()) {
      const snap = this.books.snapshot(name, block, 50, 0);
      this.hub.publish({ type: "book", book: name, block, bids: snap.bids, asks: snap.asks }, name);
    }
  }

  // ───────────────────────────── cancel notices

  async cancelNotice(hash: string, signature: string): Promise<RelayOrderView> {
    const row = await this.store.order(hash);
    if (row === undefined) fail("NOT_FOUND", `no order ${hash}`);
    const view = this.store.view(row!);
    const digest = TypedDataEncoder.hash(
      relayDomain(this.chain.chainId),
      { CancelNotice: [...CancelNoticeTypes.CancelNotice] },
      { orderHash: hash },
    );
    const signer = recoverEoa(digest, signature);
    if (signer === null || signer.toLowerCase() !== view.maker) {
      const isContract = Number(row!.is_contract) === 1 || this.contracts.has(view.maker);
      let ok = false;
      if (isContract) {
        try {
          ok = await this.chain.valid1271(view.maker, digest, signature, this.chain.head.number);
        } catch (e) {
          throw new RelayHttpError("CHAIN_UNAVAILABLE", `cannot read the chain: ${(e as Error).message}`);
        }
      }
      if (!ok) fail("INVALID_SIGNATURE", `the cancel notice is not signed by the maker ${view.maker}`, { digest });
    }
    if (!this.makerLimit.take(view.maker)) fail("RATE_LIMITED", `too many requests from maker ${view.maker}`);
    if (view.softCancelled) return view;
    const at = Date.now();
    const updated: RelayOrderView = { ...view, softCancelled: true };
    await this.store.write(async (tx) => {
      await this.store.updateOrders(tx, [
        {
          hash,
          status: view.status,
          filled: BigInt(view.filled),
          fillable: BigInt(view.fillable),
          reason: view.reason,
          updatedBlock: view.updatedBlock,
          softCancelled: true,
        },
      ]);
      await this.store.insertCancel(tx, {
        orderHash: hash,
        maker: view.maker,
        book: view.book,
        via: "notice",
        blockNumber: null,
        at,
      });
    });
    const l = this.live.get(hash);
    if (l !== undefined) this.track(l.order, updated);
    this.hub.publish({ type: "order", order: updated }, updated.book, updated.maker);
    this.publishBooks(this.chain.head.number);
    return updated;
  }

  // ───────────────────────────── the chain follower

  start(): void {
    const loop = async () => {
      if (this.stopped) return;
      try {
        await this.sync();
        this.lastSyncError = undefined;
      } catch (e) {
        this.lastSyncError = (e as Error).message;
        this.log.warn({ err: (e as Error).message }, "sync round failed; retrying");
      }
      if (!this.stopped) this.timer = setTimeout(() => void loop(), this.cfg.pollMs);
    };
    void loop();
  }

  /** One sync round (rounds never overlap): follows the chain up to the head, or rolls a reorg back. */
  sync(): Promise<SyncReport | undefined> {
    if (this.syncing !== undefined) return this.syncing;
    this.syncing = this.syncRound().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  /** Syncs until the relay has processed the node's head as of the call (tests and tools). */
  async syncToHead(): Promise<void> {
    // A round already in flight may have read the head before the caller's last transaction was mined: its end
    // would look like "at the head". Wait it out, so the rounds below read a head at least as new as the call.
    await this.syncing?.catch(() => undefined);
    for (let i = 0; i < 10_000; i++) {
      await this.sync();
      if (this.cursor !== undefined && this.cursor.number >= this.chain.head.number && this.dirty.size === 0) return;
    }
  }

  get syncedBlock(): number {
    return this.cursor?.number ?? 0;
  }

  private addresses(): string[] {
    const a: string[] = [];
    if (this.chain.spot !== undefined) a.push(this.chain.spot.address, this.chain.spot.ch, this.chain.spot.usdc);
    if (this.chain.options !== undefined) a.push(this.chain.options.address, this.chain.options.clearingHouse);
    return [...new Set(a.map((x) => x.toLowerCase()))];
  }

  private async syncRound(): Promise<SyncReport | undefined> {
    const head = await this.chain.refreshHead();
    const cursor = this.cursor;
    if (cursor === undefined) {
      // first start: orders are relayed from the head on (there are none before it)
      const c = { number: head.number, hash: head.hash };
      await this.store.write(async (tx) => {
        await this.store.recordBlocks(tx, [c], this.cfg.reorgWindow);
        await this.store.setCursor(tx, c);
      });
      this.cursor = c;
      this.syncTarget = c.number;
      return { from: c.number, to: c.number, logs: 0, updated: 0 };
    }
    // reorg? the block under the cursor must still be the one we processed
    let cursorOk: boolean;
    if (head.number === cursor.number) cursorOk = head.hash === cursor.hash;
    else if (head.number === cursor.number + 1) cursorOk = head.parentHash === cursor.hash;
    else if (head.number < cursor.number) cursorOk = false;
    else cursorOk = (await this.chain.block(cursor.number))?.hash === cursor.hash;
    if (!cursorOk) return this.rollback(cursor);
    if (head.number === cursor.number) {
      if (this.dirty.size === 0) return undefined;
      return this.apply(cursor.number + 1, head, []);
    }
    const to = Math.min(head.number, cursor.number + this.cfg.maxBlockRange);
    const toHead: Head | null = to === head.number ? head : await this.chain.block(to);
    if (toHead === null) return undefined;
    this.syncTarget = Math.max(this.syncTarget, to);
    const logs = (await this.chain.provider.send("eth_getLogs", [
      {
        fromBlock: "0x" + (cursor.number + 1).toString(16),
        toBlock: "0x" + to.toString(16),
        address: this.addresses(),
      },
    ])) as RawLog[];
    // logs of a block that is no longer the one we read as `to`: a reorg is under way, read again next round
    if (logs.some((l) => Number(l.blockNumber) === to && l.blockHash !== toHead.hash)) return undefined;
    return this.apply(cursor.number + 1, toHead, logs);
  }

  /** Applies blocks [from, to.number] whose logs are `logs`: one transaction, then the books and the stream. */
  private async apply(from: number, to: Head, logs: RawLog[]): Promise<SyncReport> {
    const hits = new Set<string>();
    const dirty = new Set<string>(this.dirty);
    this.dirty.clear();
    const fills: RelayFill[] = [];
    const blockHashes = new Map<number, string>([[to.number, to.hash]]);
    for (const l of logs) {
      blockHashes.set(Number(l.blockNumber), l.blockHash);
      for (let i = 1; i < l.topics.length; i++) {
        const t = l.topics[i]!;
        if (t.startsWith("0x000000000000000000000000")) {
          const a = "0x" + t.slice(26);
          if (this.liveByMaker.has(a)) dirty.add(a);
        }
      }
      const t0 = l.topics[0];
      const addr = l.address.toLowerCase();
      if (addr === this.chain.spot?.address.toLowerCase()) {
        if (t0 === TOPIC.orderFilled) {
          const ev = spotIface.parseLog(l as unknown as Log)!;
          hits.add(ev.args.orderHash as string);
          fills.push({
            txHash: l.transactionHash,
            logIndex: Number(l.logIndex),
            blockNumber: Number(l.blockNumber),
            orderHash: ev.args.orderHash as string,
            book: "spot",
            maker: (ev.args.maker as string).toLowerCase(),
            counterparty: (ev.args.counterparty as string).toLowerCase(),
            amount: (ev.args.amountCh as bigint).toString(),
            price: (ev.args.priceWad as bigint).toString(),
            filledAfter: (ev.args.filledAfterCh as bigint).toString(),
          });
        } else if (t0 === TOPIC.cancelled) {
          hits.add(l.topics[1]!);
        }
      } else if (addr === this.chain.options?.address.toLowerCase()) {
        if (t0 === TOPIC.offerFilled) {
          const ev = optIface.parseLog(l as unknown as Log)!;
          hits.add(ev.args.offerHash as string);
          fills.push({
            txHash: l.transactionHash,
            logIndex: Number(l.logIndex),
            blockNumber: Number(l.blockNumber),
            orderHash: ev.args.offerHash as string,
            book: `option:${ev.args.seriesId as bigint}`,
            maker: (ev.args.maker as string).toLowerCase(),
            counterparty: (ev.args.taker as string).toLowerCase(),
            amount: (ev.args.sizeCh as bigint).toString(),
            price: (ev.args.premiumWad as bigint).toString(),
            filledAfter: (ev.args.filledAfterCh as bigint).toString(),
          });
        } else if (t0 === TOPIC.offerCancelled) {
          hits.add(l.topics[1]!);
        }
      }
    }
    // contract makers: their wallets may stop accepting a signature without an event we follow
    for (const mk of this.contracts) if (this.liveByMaker.has(mk)) dirty.add(mk);
    // which live orders to look at: the hit ones, every order of a dirty maker, and the expired
    const check = new Map<string, Live>();
    for (const h of hits) {
      const l = this.live.get(h);
      if (l !== undefined) check.set(h, l);
    }
    for (const mk of dirty) for (const h of this.liveByMaker.get(mk) ?? []) check.set(h, this.live.get(h)!);
    const ts = BigInt(to.timestamp);
    const updates: OrderUpdate[] = [];
    const cancels: RelayCancel[] = [];
    const views: Array<{ order: RelayOrder; view: RelayOrderView }> = [];
    const expire = (l: Live, reason: string | null) => {
      updates.push({
        hash: l.view.hash,
        status: "expired",
        filled: BigInt(l.view.filled),
        fillable: 0n,
        reason,
        updatedBlock: to.number,
      });
      views.push({
        order: l.order,
        view: { ...l.view, status: "expired", fillable: "0", reason, updatedBlock: to.number },
      });
    };
    for (const l of this.live.values()) {
      if (check.has(l.view.hash)) continue;
      if (ts > l.order.expiry) expire(l, null);
      else if (l.order.seriesId !== undefined) {
        const e = this.seriesExpiry.get(l.order.seriesId.toString());
        if (e !== undefined && ts >= e) expire(l, "series expired");
      }
    }
    const list = [...check.values()];
    const { assessments } = await this.chain.assess(
      list.map((l) => l.order),
      { block: to.number, timestamp: to.timestamp },
      this.contracts,
    );
    list.forEach((l, i) => {
      const a = assessments[i]!;
      const v = l.view;
      if (
        a.status === v.status &&
        a.fillable.toString() === v.fillable &&
        a.filled.toString() === v.filled &&
        a.reason === v.reason
      ) {
        return;
      }
      updates.push({
        hash: v.hash,
        status: a.status,
        filled: a.filled,
        fillable: a.fillable,
        reason: a.reason,
        updatedBlock: to.number,
      });
      views.push({
        order: l.order,
        view: {
          ...v,
          status: a.status,
          filled: a.filled.toString(),
          fillable: a.fillable.toString(),
          reason: a.reason,
          updatedBlock: to.number,
        },
      });
      if (a.status === "cancelled") {
        cancels.push({
          orderHash: v.hash,
          maker: v.maker,
          book: v.book,
          via: a.reason === "minNonce" ? "minNonce" : "chain",
          blockNumber: to.number,
          at: Date.now(),
        });
      }
    });
    // fills of known orders already final (filled, cancelled after a partial fill) are recorded too
    const newCursor = { number: to.number, hash: to.hash };
    const recorded = [...blockHashes.entries()].map(([number, hash]) => ({ number, hash }));
    await this.store.write(async (tx) => {
      await this.store.updateOrders(tx, updates);
      await this.store.insertFills(tx, fills, blockHashes);
      for (const c of cancels) await this.store.insertCancel(tx, c);
      await this.store.recordBlocks(tx, recorded, this.cfg.reorgWindow);
      await this.store.setCursor(tx, newCursor);
    });
    this.cursor = newCursor;
    for (const { order, view } of views) {
      // a cancel notice that landed while this round read the chain stays
      if (this.live.get(view.hash)?.view.softCancelled === true) view.softCancelled = true;
      this.track(order, view);
      this.hub.publish({ type: "order", order: view }, view.book, view.maker);
    }
    for (const f of fills) this.hub.publish({ type: "fill", fill: f }, f.book, f.maker);
    this.publishBooks(to.number);
    this.hub.publish({ type: "block", number: to.number, hash: to.hash });
    if (updates.length > 0 || fills.length > 0) {
      this.log.debug(
        { from, to: to.number, logs: logs.length, updated: updates.length, fills: fills.length },
        "synced",
      );
    }
    return { from, to: to.number, logs: logs.length, updated: updates.length };
  }

  /**
   * The block under the cursor is gone: find the newest recorded block still on the chain (the fork point), forget
   * what the blocks above it brought (fills, cancels, block hashes), re-derive every order those blocks changed from
   * the chain at the fork point, and move the cursor back there; the next rounds replay the new branch.
   */
  private async rollback(cursor: Cursor): Promise<SyncReport> {
    const recent = await this.store.read((db) => this.store.recentBlocks(db));
    let fork: Head | null = null;
    for (const b of recent) {
      const c = await this.chain.block(b.number);
      if (c !== null && c.hash === b.hash) {
        fork = c;
        break;
      }
    }
    let deep = false;
    if (fork === null) {
      // deeper than the window: restart from the oldest block we know and re-check every live order
      deep = true;
      const oldest = recent.at(-1)?.number ?? cursor.number;
      fork = await this.chain.block(Math.max(0, oldest - 1));
      if (fork === null) throw new Error("rollback: cannot read the fork block");
    }
    const f = fork;
    const touched = await this.store.read((db) => this.store.ordersUpdatedAbove(db, f.number));
    const byHash = new Map<string, Live>();
    for (const r of touched) byHash.set(r.hash, { order: this.fromRow(r), view: this.store.view(r) });
    if (deep) for (const [h, l] of this.live) byHash.set(h, l);
    const list = [...byHash.values()];
    const { assessments } = await this.chain.assess(
      list.map((l) => l.order),
      { block: f.number, timestamp: f.timestamp },
      this.contracts,
    );
    const updates: OrderUpdate[] = [];
    const views: Array<{ order: RelayOrder; view: RelayOrderView }> = [];
    list.forEach((l, i) => {
      const a = assessments[i]!;
      updates.push({
        hash: l.view.hash,
        status: a.status,
        filled: a.filled,
        fillable: a.fillable,
        reason: a.reason,
        updatedBlock: f.number,
      });
      views.push({
        order: l.order,
        view: {
          ...l.view,
          status: a.status,
          filled: a.filled.toString(),
          fillable: a.fillable.toString(),
          reason: a.reason,
          updatedBlock: f.number,
        },
      });
    });
    const newCursor = { number: f.number, hash: f.hash };
    await this.store.write(async (tx) => {
      await this.store.rollbackAbove(tx, f.number);
      await this.store.updateOrders(tx, updates);
      await this.store.recordBlocks(tx, [newCursor], this.cfg.reorgWindow);
      await this.store.setCursor(tx, newCursor);
    });
    this.cursor = newCursor;
    this.syncTarget = f.number;
    for (const { order, view } of views) {
      this.track(order, view);
      this.hub.publish({ type: "order", order: view }, view.book, view.maker);
    }
    this.hub.publish({ type: "reorg", fromBlock: f.number + 1, toBlock: cursor.number });
    this.publishBooks(f.number);
    this.log.warn(
      { fork: f.number, dropped: cursor.number - f.number, rechecked: list.length, deep },
      "reorg rolled back",
    );
    return {
      from: f.number,
      to: f.number,
      logs: 0,
      updated: updates.length,
      reorg: { fork: f.number, dropped: cursor.number - f.number },
    };
  }

  // ───────────────────────────── reads

  async status(): Promise<RelayStatus> {
    const markets: Record<string, string> = {};
    if (this.chain.spot) markets.SpotMarket = this.chain.spot.address;
    if (this.chain.options) markets.OptionsMarket = this.chain.options.address;
    const head = this.chain.head.number;
    const synced = this.syncedBlock;
    return {
      chainId: this.chain.chainId.toString(),
      markets,
      head,
      syncedBlock: synced,
      blocksBehind: Math.max(0, head - synced),
      confirmations: this.cfg.confirmations,
      orders: await this.store.counts(),
      books: this.books.names(),
      database: this.store.database.label,
    };
  }

  isServed(v: RelayOrderView): boolean {
    return served(v) && this.books.has(v.hash, v.book);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    await this.syncing?.catch(() => undefined);
    while (this.flushes > 0 || this.batch.length > 0) await new Promise((r) => setTimeout(r, 5));
    this.hub.closeAll();
  }
}

interface RawLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
}
