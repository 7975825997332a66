/**
 * Keeper latency harness (issue 9): blocks from the event that makes work due (for liquidations: the price
 * update that makes 100 of 1,000 accounts liquidatable) to the block where the last of it is done, with a real
 * keeper loop against a real node that mines a block every `blockMs` (automine off: many transactions per block,
 * as on a real chain).
 *
 * A scenario plugs in the protocol side. The mock scenario below proves the harness; the liquidation scenario is
 * the hook for the LiquidationEngine: implement `LatencyScenario` in keepers/bench/liquidation.ts (set up 1,000
 * margin accounts, `shock()` = the oracle price update, `handledBlocks()` = blocks of the Liquidated events) and
 * add it to `scenarios` in keepers/bench/keepers.ts.
 */
import type { DeploymentInfo } from "../src/deployments.js";
import type { JobFactory } from "../src/jobs/types.js";
import type { Keeper, TickReport } from "../src/keeper.js";
import { makeKeeper, node } from "../test/harness.js";
import { addItems, deployTarget, now } from "../test/harness.js";

export interface LatencyScenario {
  name: string;
  /** How many items the shock makes due (100). */
  affected: number;
  /** Deploys and prepares the accounts; returns what the keeper needs. */
  setup(): Promise<{ deployment: DeploymentInfo; factories?: JobFactory[]; jobs: Record<string, unknown> }>;
  /** Applies the shock in one block and returns that block's number. */
  shock(): Promise<number>;
  /** Block numbers at which affected items have been handled so far. */
  handledBlocks(): Promise<number[]>;
  /** Resolves when the keeper is warmed up (a keeper runs long before a shock); default: after its first tick. */
  warm?(keeper: Keeper): Promise<void>;
}

export interface LatencyResult {
  blocks: number;
  ms: number;
  handled: number;
  blockMs: number;
  /** Phase timings of the ticks that acted. */
  ticks: unknown[];
}

export async function measureLatency(s: LatencyScenario, blockMs = 1_000, keeperIndex = 1): Promise<LatencyResult> {
  const { deployment, factories, jobs } = await s.setup();
  const keeper = makeKeeper({
    deployment,
    accountIndex: keeperIndex,
    factories,
    config: { jobs, pollIntervalMs: 100, replaceAfterMs: 4 * blockMs, maxInFlight: 256 },
  });
  const n = node();
  await n.rpc("evm_setAutomine", [false]);
  await n.rpc("evm_setIntervalMining", [blockMs]);
  const origTick = keeper.tick.bind(keeper);
  const reports: TickReport[] = [];
  let ticked: () => void = () => undefined;
  const firstTick = new Promise<void>((r) => (ticked = r));
  keeper.tick = async (o) => {
    const r = await origTick(o);
    reports.push(r);
    ticked();
    return r;
  };
  const loop = keeper.run();
  try {
    await firstTick;
    await s.warm?.(keeper);
    const t0 = Date.now();
    const shockBlock = await s.shock();
    const phases = () =>
      reports
        .filter((r) => r.head >= shockBlock)
        .slice(0, 6)
        .map((r) => ({ head: r.head, results: r.results.length, ...r.phasesMs }));
    const deadline = t0 + 60_000;
    for (;;) {
      const handled = await s.handledBlocks();
      if (handled.length >= s.affected) {
        return {
          blocks: Math.max(...handled) - shockBlock,
          ms: Date.now() - t0,
          handled: handled.length,
          blockMs,
          ticks: phases(),
        };
      }
      if (Date.now() > deadline) throw new Error(`${s.name}: only ${handled.length}/${s.affected} handled after 60 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await keeper.stop(10_000);
    await loop.catch(() => undefined);
    await n.rpc("evm_setIntervalMining", [0]);
    await n.rpc("evm_setAutomine", [true]);
  }
}

/** The mock scenario: 1,000 items, 100 of which fall due at the shock (a timestamp jump standing in for a price move). */
export function mockScenario(total = 1_000, affected = 100, batchSize = 1): LatencyScenario {
  let target: Awaited<ReturnType<typeof deployTarget>>["target"] | undefined;
  let dueAt = 0;
  return {
    name: `mock:${affected}-of-${total}${batchSize > 1 ? `:batch${batchSize}` : ":single"}`,
    affected,
    async setup() {
      const d = await deployTarget("latency");
      target = d.target;
      dueAt = (await now()) + 100_000;
      // in batches of 500: one transaction must stay under the EIP-7825 cap of 16,777,216 gas
      for (let left = total - affected; left > 0; left -= 500) {
        await addItems(d.target, Math.min(500, left), { dueIn: 10_000_000 });
      }
      await (await d.target.addItems(affected, dueAt, true, 10n ** 15n)).wait();
      return { deployment: d.deployment, jobs: { "mock-target": { gasCeilingGwei: 1_000, batchSize } } };
    },
    async shock() {
      await node().rpc("evm_setNextBlockTimestamp", [dueAt]);
      await node().rpc("evm_mine", []);
      return (await node().provider.getBlockNumber()) as number;
    },
    async handledBlocks() {
      if (target === undefined) return [];
      const logs = await target.queryFilter(target.filters.ItemExecuted(), 0, "latest");
      return logs.map((l) => l.blockNumber);
    },
  };
}
