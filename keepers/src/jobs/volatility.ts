/**
 * Volatility job (docs/clearing.md, SPEC section 7): calls the RiskEngine's permissionless `updateVolatility()` when
 * it is due (no update yet, or `minUpdateInterval` seconds after the last one), folding the index's return into the
 * EWMA variance the margin rates are built from. Ordinary work (gas ceiling, profit check): a late update only
 * folds a longer return into σ, so skipping it on a gas spike loses nothing.
 *
 * Scan (at head − confirmations): `volatility()` (lastUpdate) and `volatilityParams()` (minUpdateInterval), the
 * block's timestamp. Key: `volatility.update:-:<lastUpdate>` — the next update after a mined one has a new key.
 * Racing keepers: the loser reverts `RiskUpdateTooEarly`: already done.
 */
import { RiskEngine__factory } from "@chx/sdk";
import { ConfigError } from "../config.js";
import { addressOf, JobUnavailable } from "../deployments.js";
import type { Action, Candidate, JobContext, JobFactory, KeeperJob } from "./types.js";

export interface VolatilityJobOptions {
  /** RiskEngine deployment name (default "RiskEngine"). */
  contract?: string;
}

export const VOLATILITY_ACTION = "volatility.update";

export interface VolatilityWork {
  lastUpdate: bigint;
  dueAt: bigint;
}

export function volatilityJob(address: string, opts: VolatilityJobOptions = {}): KeeperJob<VolatilityWork> {
  for (const k of Object.keys(opts)) {
    if (k !== "contract") throw new ConfigError(`Unknown option "jobs.volatility.${k}" (known: contract).`);
  }
  const iface = RiskEngine__factory.createInterface();
  return {
    name: "volatility",
    summary: `update the EWMA volatility when due on ${opts.contract ?? "RiskEngine"} at ${address}`,
    alreadyDoneErrors: ["RiskUpdateTooEarly"],
    // A stale / out-of-bounds / sequencer-down oracle makes the update revert until the feed recovers: a warning
    // with back-off, not an error every tick (issue 25).
    expectedErrors: [/^Oracle/],
    async scan(ctx: JobContext): Promise<Candidate<VolatilityWork>[]> {
      const blockTag = ctx.safeBlock;
      const [[, , , lastUpdate], [, interval], ts] = await Promise.all([
        ctx.client.read("volatility", (p) => RiskEngine__factory.connect(address, p).volatility({ blockTag })),
        ctx.client.read("volatilityParams", (p) =>
          RiskEngine__factory.connect(address, p).volatilityParams({ blockTag }),
        ),
        ctx.safeBlock === ctx.head.number
          ? Promise.resolve(ctx.head.timestamp)
          : ctx.client.read("getBlock", (p) => p.getBlock(blockTag)).then((b) => b?.timestamp ?? ctx.head.timestamp),
      ]);
      const dueAt = lastUpdate === 0n ? 0n : lastUpdate + interval;
      if (BigInt(ts) < dueAt) return [];
      return [
        {
          key: { action: VOLATILITY_ACTION, id: "-", epoch: lastUpdate.toString() },
          priority: false,
          data: { lastUpdate, dueAt },
        },
      ];
    },
    async plan(_ctx, candidates): Promise<Action[]> {
      return candidates.map((c) => ({
        key: c.key,
        priority: false,
        rewardWei: c.rewardWei,
        to: address,
        data: iface.encodeFunctionData("updateVolatility"),
        description: `updateVolatility(): due since ${c.data.dueAt} (last update ${c.data.lastUpdate})`,
      }));
    },
  };
}

export const volatilityFactory: JobFactory = {
  name: "volatility",
  description: "RiskEngine: the permissionless EWMA volatility update when due.",
  covers: ["VolatilityChecker"],
  create({ deployment, config }) {
    const opts = config.options as VolatilityJobOptions;
    const contract = opts.contract ?? "RiskEngine";
    if (deployment.contracts[contract] === undefined)
      throw new JobUnavailable(`${contract} is not in ${deployment.file}`);
    return volatilityJob(addressOf(deployment, contract), opts);
  },
};
