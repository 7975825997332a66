/** Small helpers shared by the runner and tests. */
import type { KeeperJob } from "./jobs/types.js";

/** Whether a decoded error name is one of the job's typed "already done" errors. */
export function isAlreadyDone(job: KeeperJob, name: string | undefined): boolean {
  if (name === undefined) return false;
  return job.alreadyDoneErrors.some((e) => (typeof e === "string" ? e === name : e.test(name)));
}

/** Whether a decoded error name is one the job expects while its work waits (a stale oracle, …). */
export function isExpected(job: KeeperJob, name: string | undefined): boolean {
  if (name === undefined) return false;
  return (job.expectedErrors ?? []).some((e) => (typeof e === "string" ? e === name : e.test(name)));
}

export class TimeoutError extends Error {}

/** `p`, or a TimeoutError after `ms` (the work itself is not cancelled). */
export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** A circuit breaker: closed → open for a doubling cooldown after each failure → half-open (one try) → closed. */
export class Breaker {
  failures = 0;
  openUntil = 0;
  lastError: string | undefined;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  /** May the guarded work run now (closed, or the cooldown is over)? */
  allow(now = Date.now()): boolean {
    return now >= this.openUntil;
  }

  get open(): boolean {
    return Date.now() < this.openUntil;
  }

  /** Records a failure; returns the cooldown (ms). */
  failure(error: string): number {
    this.failures++;
    this.lastError = error;
    const cooldown = Math.min(this.maxMs, this.baseMs * 2 ** (this.failures - 1));
    this.openUntil = Date.now() + cooldown;
    return cooldown;
  }

  /** Records a success; returns how many failures it ends (0: it was closed). */
  success(): number {
    const was = this.failures;
    this.failures = 0;
    this.openUntil = 0;
    this.lastError = undefined;
    return was;
  }
}

/** Maps with at most `limit` calls in flight; results in input order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}
