/**
 * Bounty claims (issue 25, "getting paid"): the bounties a keeper earns that accrue on chain instead of being paid out
 * at once are claimed to its wallet on a schedule.
 *
 *  - PerpMarket: funding pokes credit `pokeBountyUsdc`, and executing or expiry-cancelling a delayed order credits
 *    the order's execution fee, both to `keeperBountyOf(keeper)` → `claimKeeperBounty()`;
 *  - FuturesMarket: fixes, finalisations and third-party settlements credit the keeper (`bountiesOwed(keeper)`) →
 *    `claimBounties(keeper)`;
 *  - ClearingHouse: liquidation bounties and options settlement bounties are credited to the keeper's margin account
 *    (`accountOf(keeper)`: its collateral and market count) → `withdraw(amount, keeper)`, only while the keeper
 *    holds no position there (a keeper that also trades keeps its margin);
 *  - TaskRegistry (issue 21 item 6): closeBidding, drawCouncil, finalize and redemption-failure reports credit 0.1 %
 *    of the task's deposit in the task's currency (`keeperCredits(keeper, currency)`) →
 *    `claimKeeperCredits(currency, keeper)`, one claim per currency (USDC against `minUsdc`; CH and DPS, 18 decimals,
 *    against `minUsdc` × 10^12, the same nominal amount).
 *
 * Every `intervalMs` (default 1 hour; 10 s on a local node) the job reads what is owed and claims each source holding
 * at least `minUsdc` (default 1 USDC). Ordinary work (gas ceiling). Key `bounties.claim:<source>:<amount>`: a lagging
 * scan repeats the key and the memo holds it back; after the claim the amount is 0. The last check time is kept in
 * the job's store, so a restart does not claim more often. The wallet's USDC is then the operator's to move.
 */
import { Contract, Interface } from "ethers";
import { ClearingHouse__factory } from "@chx/sdk";
import { ConfigError } from "../config.js";
import { JobUnavailable, type DeploymentInfo } from "../deployments.js";
import { mapLimit } from "../util.js";
import type { Action, Candidate, JobContext, JobFactory, KeeperJob } from "./types.js";

export interface BountiesJobOptions {
  /** How often owed bounties are checked and claimed (ms; default 3,600,000, local 10,000). */
  intervalMs?: number;
  /** Smallest amount worth a claim, USDC with 6 decimals as a decimal string (default "1000000" = 1 USDC). */
  minUsdc?: string;
  /** Which sources to claim from (default all: perps, futures, clearing, tasks). */
  sources?: Array<"perps" | "futures" | "clearing" | "tasks">;
}

const OPTION_KEYS = ["intervalMs", "minUsdc", "sources"];
export const CLAIM_ACTION = "bounties.claim";

const PERP = new Interface([
  "function keeperBountyOf(address keeper) view returns (uint256)",
  "function claimKeeperBounty() returns (uint256 amountUsdc)",
]);
const FUTURES = new Interface([
  "function bountiesOwed(address keeper) view returns (uint256 owedUsdc, uint256 totalOwedUsdc)",
  "function claimBounties(address to) returns (uint256 amountUsdc)",
]);

const TASKS = new Interface([
  "function keeperCredits(address keeper, uint8 currency) view returns (uint256)",
  "function claimKeeperCredits(uint8 currency, address to) returns (uint256 amount)",
]);
/** TaskRegistry currencies (ITaskRegistry.Currency): CH 0, USDC 1, DPS 2. */
const TASK_CURRENCIES = [0, 1, 2] as const;

interface Source {
  kind: "perps" | "futures" | "clearing" | "tasks";
  name: string;
  address: string;
  /** TaskRegistry only: the currency this claim is for. */
  currency?: number;
}

interface ClaimWork {
  source: Source;
  amountUsdc: bigint;
}

export function bountiesJob(sources: Source[], opts: BountiesJobOptions = {}, local = false): KeeperJob<ClaimWork> {
  for (const k of Object.keys(opts)) {
    if (!OPTION_KEYS.includes(k)) {
      throw new ConfigError(`Unknown option "jobs.bounties.${k}" (known: ${OPTION_KEYS.join(", ")}).`);
    }
  }
  const interval = opts.intervalMs ?? (local ? 10_000 : 3_600_000);
  if (typeof interval !== "number" || !Number.isInteger(interval) || interval < 0) {
    throw new ConfigError(`Config "jobs.bounties.intervalMs" must be a whole number of milliseconds.`);
  }
  if (opts.minUsdc !== undefined && !/^\d+$/.test(String(opts.minUsdc))) {
    throw new ConfigError(`Config "jobs.bounties.minUsdc" must be a decimal string of USDC units (6 decimals).`);
  }
  const min = BigInt(opts.minUsdc ?? "1000000");
  const wanted = new Set(opts.sources ?? ["perps", "futures", "clearing", "tasks"]);
  // A TaskRegistry is one source per currency (its credits are kept per currency).
  const active = sources
    .filter((s) => wanted.has(s.kind))
    .flatMap((s) =>
      s.kind === "tasks" ? TASK_CURRENCIES.map((currency) => ({ ...s, name: `${s.name}:${currency}`, currency })) : [s],
    );
  let lastCheckMem = 0;
  const unreadable = new Set<string>();
  return {
    name: "bounties",
    summary: `claim accrued bounties (≥ ${min} USDC units) every ${Math.round(interval / 1000)} s from ${active.map((s) => s.name).join(", ")}`,
    alreadyDoneErrors: [/NothingToClaim|NoBounty|AlreadyDone$/, "ClearingInsufficientCollateral"],
    async scan(ctx: JobContext): Promise<Candidate<ClaimWork>[]> {
      const last = Number(ctx.store?.get("lastCheck") ?? lastCheckMem);
      if (Date.now() - last < interval) return [];
      const blockTag = ctx.safeBlock;
      const owed = await mapLimit(active, 4, (s) =>
        readOwed(s).catch((e: unknown) => {
          // A source that cannot answer (not the contract its record says, paused…) is skipped, said once.
          if (!unreadable.has(s.name))
            ctx.log.warn(
              { source: s.name, err: String(e).slice(0, 200) },
              "bounties: cannot read what is owed; skipping this source",
            );
          unreadable.add(s.name);
          return 0n;
        }),
      );
      async function readOwed(s: Source): Promise<bigint> {
        if (s.kind === "perps") {
          return ctx.client.read("keeperBountyOf", (p) =>
            new Contract(s.address, PERP, p).getFunction("keeperBountyOf")(ctx.keeper, { blockTag }),
          ) as Promise<bigint>;
        }
        if (s.kind === "tasks") {
          return ctx.client.read("keeperCredits", (p) =>
            new Contract(s.address, TASKS, p).getFunction("keeperCredits")(ctx.keeper, s.currency ?? 1, { blockTag }),
          ) as Promise<bigint>;
        }
        if (s.kind === "futures") {
          const [mine] = (await ctx.client.read("bountiesOwed", (p) =>
            new Contract(s.address, FUTURES, p).getFunction("bountiesOwed")(ctx.keeper, { blockTag }),
          )) as [bigint, bigint];
          return mine;
        }
        const ch = (p: Parameters<typeof ClearingHouse__factory.connect>[1]) =>
          ClearingHouse__factory.connect(s.address, p);
        // One call: collateral and the number of markets the keeper holds a position in.
        const [collateral, marketCount] = await ctx.client.read("accountOf", (p) =>
          ch(p).accountOf(ctx.keeper, { blockTag }),
        );
        return marketCount === 0n && collateral > 0n ? collateral : 0n;
      }
      lastCheckMem = Date.now();
      ctx.store?.set("lastCheck", String(lastCheckMem));
      const out: Candidate<ClaimWork>[] = [];
      active.forEach((source, i) => {
        const amountUsdc = owed[i]!;
        // USDC has 6 decimals; a TaskRegistry's CH and DPS credits 18: the same nominal minimum.
        const floor = source.kind === "tasks" && source.currency !== 1 ? min * 10n ** 12n : min;
        if (amountUsdc < floor) return;
        out.push({
          key: { action: CLAIM_ACTION, id: source.name, epoch: amountUsdc.toString() },
          priority: false,
          data: { source, amountUsdc },
        });
      });
      return out;
    },
    async plan(ctx, candidates): Promise<Action[]> {
      const chIface = ClearingHouse__factory.createInterface();
      return candidates.map((c) => {
        const { source, amountUsdc } = c.data;
        const data =
          source.kind === "perps"
            ? PERP.encodeFunctionData("claimKeeperBounty")
            : source.kind === "futures"
              ? FUTURES.encodeFunctionData("claimBounties", [ctx.keeper])
              : source.kind === "tasks"
                ? TASKS.encodeFunctionData("claimKeeperCredits", [source.currency ?? 1, ctx.keeper])
                : chIface.encodeFunctionData("withdraw", [amountUsdc, ctx.keeper]);
        return {
          key: c.key,
          priority: false,
          to: source.address,
          data,
          description: `claim ${amountUsdc} ${source.kind === "tasks" && source.currency !== 1 ? "wei" : "USDC units"} of bounties from ${source.name} to the keeper's wallet`,
        };
      });
    },
  };
}

export function bountySources(d: DeploymentInfo): Source[] {
  const out: Source[] = [];
  for (const [name, c] of Object.entries(d.contracts)) {
    if (c.contract === "PerpMarket") out.push({ kind: "perps", name, address: c.address });
    else if (c.contract === "FuturesMarket") out.push({ kind: "futures", name, address: c.address });
    else if (c.contract === "ClearingHouse") out.push({ kind: "clearing", name, address: c.address });
    else if (c.contract === "TaskRegistry") out.push({ kind: "tasks", name, address: c.address });
  }
  return out;
}

export const bountiesFactory: JobFactory = {
  name: "bounties",
  description:
    "Claims accrued keeper bounties (PerpMarket, FuturesMarket, ClearingHouse margin, TaskRegistry credits) on a schedule.",
  create({ deployment, config }) {
    const sources = bountySources(deployment);
    if (sources.length === 0) {
      throw new JobUnavailable(`no PerpMarket, FuturesMarket, ClearingHouse or TaskRegistry in ${deployment.file}`);
    }
    const local = deployment.chainId === 31337 || deployment.chainId === 1337;
    return bountiesJob(sources, config.options as BountiesJobOptions, local);
  },
};
