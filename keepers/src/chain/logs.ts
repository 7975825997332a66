/**
 * `eth_getLogs` in ranges that fit real RPCs: public endpoints cap a query's block range or its result count
 * ("query returned more than 10000 results", "block range is too large", "Log response size exceeded", -32005) or
 * time out on a busy range. The scanner starts at `initialRange` blocks, halves the range and retries the same
 * window on such an answer (down to one block), and doubles it again after `growAfter` pages in a row went
 * through (up to `maxRange`). Each page is handed to the caller in block order with its last block, so the caller
 * checkpoints progress page by page (a restart resumes from the checkpoint, not from the deploy block).
 */
import type { Log } from "ethers";
import type { ChainClient } from "./client.js";
import { errorTexts } from "./errors.js";

const RANGE_ERROR =
  /more than \d+ results|too many (results|logs)|result(s)? (size|limit)|response size|block range|range (is )?too (large|wide|big)|exceed(s|ed)? (the )?max(imum)?|limit exceeded|query timeout|timed? ?out|-32005|-32602.*range/i;

/** Whether a getLogs failure means "ask for less" (range or result caps, a timeout on a busy range). */
export function isRangeError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (code === "TIMEOUT") return true;
  return RANGE_ERROR.test(errorTexts(e));
}

export interface LogScannerOptions {
  initialRange?: number;
  maxRange?: number;
  minRange?: number;
  /** Successful pages in a row before the range doubles again. */
  growAfter?: number;
}

export class LogScanner {
  range: number;
  readonly maxRange: number;
  readonly minRange: number;
  private readonly growAfter: number;
  private streak = 0;
  /** Times the range was halved / doubled (metrics, tests). */
  splits = 0;
  grows = 0;

  constructor(o: LogScannerOptions = {}) {
    this.maxRange = o.maxRange ?? 10_000;
    this.minRange = o.minRange ?? 1;
    this.range = Math.min(this.maxRange, Math.max(this.minRange, o.initialRange ?? 2_000));
    this.growAfter = o.growAfter ?? 4;
  }

  /**
   * Reads the logs of `filter` from `from` to `to` (inclusive) page by page; `onPage(logs, lastBlock)` runs after
   * each page (logs sorted by block and index). Throws when even a `minRange` window fails.
   */
  async scan(
    client: ChainClient,
    filter: { address: string | string[]; topics: Array<string | string[] | null> },
    from: number,
    to: number,
    onPage: (logs: Log[], lastBlock: number) => void | Promise<void>,
  ): Promise<void> {
    let start = from;
    while (start <= to) {
      const end = Math.min(to, start + this.range - 1);
      let logs: Log[];
      try {
        logs = await client.read(
          "getLogs",
          (p) => p.getLogs({ address: filter.address, topics: filter.topics, fromBlock: start, toBlock: end }),
          { passThrough: isRangeError },
        );
      } catch (e) {
        if (!isRangeError(e) || this.range <= this.minRange) throw e;
        this.range = Math.max(this.minRange, Math.floor(this.range / 2));
        this.streak = 0;
        this.splits++;
        continue; // the same window, smaller
      }
      const sorted = [...logs].sort((a, b) => a.blockNumber - b.blockNumber || a.index - b.index);
      await onPage(sorted, end);
      start = end + 1;
      if (++this.streak >= this.growAfter && this.range < this.maxRange) {
        this.range = Math.min(this.maxRange, this.range * 2);
        this.streak = 0;
        this.grows++;
      }
    }
  }
}
