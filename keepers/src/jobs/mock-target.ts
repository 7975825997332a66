/**
 * The framework's reference job, against contracts/mocks/MockKeeperTarget.sol: a caller-paged scan of on-chain
 * enumerable state (`dueItems(start, limit)`), one `execute(id)` per due item, bounty-aware, priority items first.
 * Real module jobs follow the same shape (liquidations: accounts below maintenance; expiries: due series; …).
 */
import { MockKeeperTarget__factory } from "@chx/sdk";
import { addressOf } from "../deployments.js";
import type { Candidate, JobFactory, KeeperJob } from "./types.js";

export interface MockTargetOptions {
  /** Deployment name of the target (default "MockKeeperTarget"). */
  contract?: string;
  /** Items per `dueItems` call (default 1,000: ~2.5M gas of view work per call; 5,000 exceeds a node's call gas cap). */
  pageSize?: number;
  /** Parallel page reads (default 4). */
  concurrency?: number;
  /** Items per transaction: 1 sends `execute(id)` each; more sends `executeBatch(ids)` (default 1, max 200). */
  batchSize?: number;
}

interface Item {
  id: bigint;
}

export function mockTargetJob(address: string, opts: MockTargetOptions): KeeperJob<Item> {
  const iface = MockKeeperTarget__factory.createInterface();
  const pageSize = opts.pageSize ?? 1_000;
  const concurrency = opts.concurrency ?? 4;
  return {
    name: "mock-target",
    summary: `execute due items of ${opts.contract ?? "MockKeeperTarget"} at ${address} (paged scan, ${pageSize}/call)`,
    alreadyDoneErrors: ["KeeperTargetAlreadyDone"],
    async scan(ctx) {
      const blockTag = ctx.safeBlock;
      const count = await ctx.client.read("itemCount", (p) =>
        MockKeeperTarget__factory.connect(address, p).itemCount({ blockTag }),
      );
      const starts: bigint[] = [];
      for (let s = 0n; s < count; s += BigInt(pageSize)) starts.push(s);
      const out: Candidate<Item>[] = [];
      for (let i = 0; i < starts.length; i += concurrency) {
        const pages = await Promise.all(
          starts
            .slice(i, i + concurrency)
            .map((start) =>
              ctx.client.read("dueItems", (p) =>
                MockKeeperTarget__factory.connect(address, p).dueItems(start, pageSize, { blockTag }),
              ),
            ),
        );
        for (const page of pages) {
          for (const d of page) {
            out.push({
              key: { action: "mock.execute", id: d.id.toString(), epoch: "-" },
              priority: d.priority,
              rewardWei: d.bountyWei,
              data: { id: d.id },
            });
          }
        }
      }
      return out;
    },
    async plan(_ctx, candidates) {
      const batch = Math.min(200, Math.max(1, opts.batchSize ?? 1));
      if (batch > 1) {
        // Priority and ordinary work in separate batches, so the gas policy can still tell them apart.
        const out = [];
        for (const priority of [true, false]) {
          const group = candidates.filter((c) => c.priority === priority);
          for (let i = 0; i < group.length; i += batch) {
            const chunk = group.slice(i, i + batch);
            const ids = chunk.map((c) => c.data.id);
            out.push({
              key: (chunk[0] as Candidate<Item>).key,
              keys: chunk.map((c) => c.key),
              priority,
              rewardWei: chunk.reduce((a, c) => a + (c.rewardWei ?? 0n), 0n),
              to: address,
              data: iface.encodeFunctionData("executeBatch", [ids]),
              description: `executeBatch of ${ids.length} item(s) from ${ids[0]}${priority ? " (priority)" : ""}`,
            });
          }
        }
        return out;
      }
      return candidates.map((c) => ({
        key: c.key,
        priority: c.priority,
        rewardWei: c.rewardWei,
        to: address,
        data: iface.encodeFunctionData("execute", [c.data.id]),
        description: `execute item ${c.data.id}${c.priority ? " (priority)" : ""}`,
      }));
    },
  };
}

export const mockTargetFactory: JobFactory = {
  name: "mock-target",
  description: "Reference job against MockKeeperTarget (tests, bench, demos on local networks).",
  covers: ["MockKeeperTarget"],
  create({ deployment, config }) {
    const opts = config.options as MockTargetOptions;
    return mockTargetJob(addressOf(deployment, opts.contract ?? "MockKeeperTarget"), opts);
  },
};
