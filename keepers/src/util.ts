/** Small helpers shared by the runner and tests. */
import type { KeeperJob } from "./jobs/types.js";

/** Whether a decoded error name is one of the job's typed "already done" errors. */
export function isAlreadyDone(job: KeeperJob, name: string | undefined): boolean {
  if (name === undefined) return false;
  return job.alreadyDoneErrors.some((e) => (typeof e === "string" ? e === name : e.test(name)));
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
