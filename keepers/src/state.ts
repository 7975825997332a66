/**
 * The keeper's memory between ticks: the idempotency memo (which keys have a transaction in flight or mined) and
 * the reorg detector (hashes of recently seen blocks). Both are advisory: the chain is always re-read, and a
 * memo entry whose transaction a reorg removed is dropped so the work is re-submitted (OPS-02).
 */
import type { Logger } from "pino";
import { blockHash } from "./chain/blocks.js";
import type { ChainClient } from "./chain/client.js";
import type { HeadInfo } from "./jobs/types.js";
import type { KeeperStore } from "./store.js";

interface MemoEntry {
  state: "pending" | "mined";
  txHash?: string;
  blockHash?: string;
  blockNumber?: number;
  at: number;
}

const MEMO_TTL_MS = 3_600_000;
const HASH_WINDOW = 128;

export class WorkMemo {
  private readonly entries = new Map<string, MemoEntry>();

  /** With a store, every change is written through and the memo a previous run left is loaded. */
  constructor(
    private readonly client: ChainClient,
    private readonly store?: KeeperStore,
  ) {
    for (const r of store?.memo() ?? []) {
      const { key, ...entry } = r;
      this.entries.set(key, entry);
    }
  }

  /** Forgets every key (the state database was emptied: KeeperStore.bindToChain). */
  reset(): void {
    this.entries.clear();
  }

  /** Keys held back (in flight or mined and still awaiting the scan), for tests and the status report. */
  get size(): number {
    return this.entries.size;
  }

  state(key: string): "pending" | "mined" | undefined {
    return this.entries.get(key)?.state;
  }

  pending(keys: string[]): void {
    const at = Date.now();
    for (const k of keys) this.entries.set(k, { state: "pending", at });
    this.store?.putMemo(keys.map((key) => ({ key, state: "pending", at })));
  }

  mined(keys: string[], txHash: string | undefined, blockHash: string | undefined, blockNumber?: number): void {
    const at = Date.now();
    for (const k of keys) this.entries.set(k, { state: "mined", txHash, blockHash, blockNumber, at });
    this.store?.putMemo(keys.map((key) => ({ key, state: "mined", txHash, blockHash, blockNumber, at })));
  }

  forget(keys: string[]): void {
    for (const k of keys) this.entries.delete(k);
    this.store?.deleteMemo(keys);
  }

  /**
   * Whether `key` may be acted on now: not while its transaction is in flight, nor while its mined transaction is
   * still on chain in the same block and the scan (which lags by `confirmations`) may not see it yet; yes again
   * once a reorg removed it, or once the scanned block `scannedBlock` includes it — then the work found is new work
   * under the same key (a recurring action such as an hourly funding poke, whose payload never changes).
   */
  async admit(key: string, log: Logger, scannedBlock?: number): Promise<boolean> {
    const m = this.entries.get(key);
    if (m === undefined) return true;
    if (m.state === "pending") return false;
    if (m.blockNumber !== undefined && scannedBlock !== undefined && scannedBlock >= m.blockNumber) {
      this.forget([key]); // the scanned state already includes our transaction: this is the next round
      return true;
    }
    if (m.txHash !== undefined) {
      const r = await this.client.read("getTransactionReceipt", (p) => p.getTransactionReceipt(m.txHash as string));
      if (r !== null && r.blockHash === m.blockHash) return false;
    }
    this.forget([key]);
    log.warn({ txHash: m.txHash }, "our mined transaction is gone (reorg): re-submitting");
    return true;
  }

  prune(): void {
    const cutoff = Date.now() - MEMO_TTL_MS;
    for (const [k, m] of this.entries) if (m.state === "mined" && m.at < cutoff) this.entries.delete(k);
    this.store?.pruneMemo(cutoff);
  }
}

export class ReorgDetector {
  private readonly hashes = new Map<number, string>();

  constructor(private readonly client: ChainClient) {}

  /** Remembers a block (tick heads and the blocks our transactions landed in). */
  remember(n: number, hash: string): void {
    this.hashes.set(n, hash);
    for (const k of this.hashes.keys()) if (k < n - HASH_WINDOW) this.hashes.delete(k);
  }

  /**
   * True when a block we remember has another hash now: the highest remembered block at or below the new head is
   * compared with the chain's. A head below blocks we saw is NOT a reorg by itself — a restarted or lagging node
   * serves an older head of the same chain — only when the blocks it still has differ (or it has none we know:
   * the chain was replaced, e.g. a reset test node). Remembers the new head either way.
   */
  async check(head: HeadInfo): Promise<{ reorg: boolean; behind: boolean }> {
    let reorg = false;
    const known = [...this.hashes.keys()];
    const behind = known.length > 0 && Math.max(...known) > head.number;
    if (known.length > 0) {
      const below = known.filter((n) => n <= head.number);
      if (below.length === 0) reorg = true;
      else {
        const h = Math.max(...below);
        reorg = (await blockHash(this.client, head, h)) !== this.hashes.get(h);
      }
    }
    if (reorg) this.hashes.clear();
    if (!behind || reorg) this.remember(head.number, head.hash);
    return { reorg, behind: behind && !reorg };
  }
}
