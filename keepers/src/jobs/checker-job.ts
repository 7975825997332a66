/**
 * Generic job for ANY contract exposing the Gelato-style `checker()` view (contracts/interfaces/keepers/IKeeperCompatible.sol):
 * when `canExec`, the keeper sends `execPayload` to that contract. Each module's checker works with no keeper code;
 * a module only needs its typed `<Component>AlreadyDone(...)` error (matched by name) for racing keepers.
 *
 * Options: { "targets": [{ "contract": "Emission", "priority": true, "alreadyDone": ["EmissionEpochAlreadyClosed"] }] }
 */
import { keccak256 } from "ethers";
import { IKeeperChecker__factory } from "@chx/sdk";
import { addressOf, JobUnavailable } from "../deployments.js";
import { mapLimit } from "../util.js";
import type { Candidate, JobFactory, KeeperJob } from "./types.js";

/** checker() reads in flight at once per tick (a config may list many targets). */
const CHECKER_CONCURRENCY = 8;

export interface CheckerTarget {
  /** Deployment name (deployments/<network>.json). */
  contract: string;
  /** Liveness / bad-debt work: never skipped on a gas spike (default false). */
  priority?: boolean;
  /** Extra error names meaning "already done" (every `…AlreadyDone` error counts anyway). */
  alreadyDone?: string[];
  /** Expected bounty per call in wei, for the profitability check (default: unknown, ceiling only). */
  rewardWei?: string;
}

interface Work {
  address: string;
  contract: string;
  payload: string;
}

export function checkerJob(targets: Array<CheckerTarget & { address: string }>, name = "checker"): KeeperJob<Work> {
  const extra = targets.flatMap((t) => t.alreadyDone ?? []);
  return {
    name,
    summary: `poll checker() of ${targets.map((t) => `${t.contract}${t.priority ? " (priority)" : ""}`).join(", ")} and send execPayload`,
    alreadyDoneErrors: [/AlreadyDone$/, ...extra],
    async scan(ctx) {
      const out: Candidate<Work>[] = [];
      const blockTag = ctx.safeBlock;
      // Every target's checker() at once (the same block): the tick waits for the slowest, not for their sum; the
      // candidates keep the targets' order.
      const answers = await mapLimit(targets, CHECKER_CONCURRENCY, (t) =>
        ctx.client.read("checker", (p) => IKeeperChecker__factory.connect(t.address, p).checker({ blockTag })),
      );
      for (const [i, t] of targets.entries()) {
        const [canExec, payload] = answers[i]!;
        if (!canExec || payload === "0x") continue;
        out.push({
          key: { action: `${name}:${t.contract}`, id: keccak256(payload).slice(0, 18), epoch: "-" },
          priority: t.priority ?? false,
          rewardWei: t.rewardWei === undefined ? undefined : BigInt(t.rewardWei),
          data: { address: t.address, contract: t.contract, payload },
        });
      }
      return out;
    },
    async plan(_ctx, candidates) {
      return candidates.map((c) => ({
        key: c.key,
        priority: c.priority,
        rewardWei: c.rewardWei,
        to: c.data.address,
        data: c.data.payload,
        description: `${c.data.contract} checker payload ${c.data.payload.slice(0, 10)}`,
      }));
    },
  };
}

export const checkerFactory: JobFactory = {
  name: "checker",
  description: "Drives every configured contract that implements IKeeperChecker.checker().",
  create({ deployment, config }) {
    const raw = config.options.targets;
    if (!Array.isArray(raw) || raw.length === 0)
      throw new JobUnavailable(`no "targets" configured for the checker job`);
    const targets = (raw as CheckerTarget[]).map((t) => ({ ...t, address: addressOf(deployment, t.contract) }));
    return checkerJob(targets);
  },
};
