/**
 * One nonce manager per signer: hands out consecutive nonces so a tick can pipeline many transactions, and
 * resyncs from the chain (`pending` count) whenever it is idle or a node answered with a nonce error — after a
 * reorg, a dropped transaction or another process using the same key. It never hands out a nonce a transaction in
 * flight still holds (`holdBy`): after a reorg it restarts below them (`realign`).
 */
import type { ChainClient } from "./client.js";

export class NonceManager {
  private next: number | undefined;
  private inFlight = 0;
  /** Lowest nonce `take` may hand out (above every adopted nonce). */
  private floor = 0;
  private lock: Promise<unknown> = Promise.resolve();
  /** Whether a transaction in flight holds this nonce (the Sender's flights). */
  private held: (nonce: number) => boolean = () => false;

  constructor(
    private readonly client: ChainClient,
    readonly address: string,
  ) {}

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => undefined);
    return run;
  }

  private async chainPending(): Promise<number> {
    return this.client.read("getTransactionCount", (p) => p.getTransactionCount(this.address, "pending"));
  }

  /** Reserves the next nonce (call `release` when its transaction is settled, mined or abandoned). */
  take(): Promise<number> {
    return this.serial(async () => {
      if (this.next === undefined) this.next = Math.max(await this.chainPending(), this.floor);
      while (this.held(this.next)) this.next++;
      this.inFlight++;
      return this.next++;
    });
  }

  /** Tells the manager which nonces transactions in flight hold: `take` skips them. */
  holdBy(held: (nonce: number) => boolean): void {
    this.held = held;
  }

  /**
   * Counts a nonce a previous run left in flight (adopted at start-up) as in flight, and never hands it out again:
   * the next fresh nonce is above it even if the node dropped that transaction.
   */
  adopt(nonce: number): void {
    this.inFlight++;
    this.floor = Math.max(this.floor, nonce + 1);
    if (this.next !== undefined && this.next < this.floor) this.next = this.floor;
  }

  release(): void {
    if (this.inFlight > 0) this.inFlight--;
  }

  /** Forgets the local counter; the next `take` reads the chain again. */
  invalidate(): void {
    this.next = undefined;
  }

  /**
   * When nothing is in flight, realigns with the chain. Returns the (old, new) pair when they differed, e.g.
   * after a reorg rolled our transactions back.
   */
  resyncIfIdle(): Promise<{ from: number; to: number } | undefined> {
    return this.serial(async () => {
      if (this.inFlight > 0) return undefined;
      const chain = await this.chainPending();
      this.floor = 0; // nothing in flight: the chain's count is the truth again
      const before = this.next;
      this.next = chain;
      return before !== undefined && before !== chain ? { from: before, to: chain } : undefined;
    });
  }

  /**
   * After a reorg (the Sender gave up the transactions the reorg removed): the next nonce is the chain's `pending`
   * count again even with transactions in flight, so the work found again fills the freed nonces from the lowest
   * (those still in flight are skipped). Returns the (old, new) pair when they differed.
   */
  realign(): Promise<{ from: number; to: number } | undefined> {
    return this.serial(async () => {
      const chain = await this.chainPending();
      this.floor = 0; // adopted nonces still in flight are held; the others are free again
      const before = this.next;
      this.next = chain;
      return before !== undefined && before !== chain ? { from: before, to: chain } : undefined;
    });
  }

  get pendingCount(): number {
    return this.inFlight;
  }
}
