/**
 * Task deadlines and council finalisation (docs/tasks.md, docs/keepers.md): every permissionless TaskRegistry action
 * that moves a task on — `closeBidding` after the halting rule, `expire` after a missed deadline, `drawCouncil` once
 * the seed block is mined, `openDispute` when the reveal window ended without a quorum on one result (or none can
 * reach it), `finalize` on a quorum, `reportRedemptionFailure` after a CH redemption's delivery deadline.
 *
 * Windows (issue 21 item 1): the council commits salted results in the first half of the verification window
 * (`commitEnds`) and reveals in the second (`votingEnds`); the lens only proposes `finalize` / `openDispute` from the
 * reveals, so the job needs no timer of its own. Members reveal themselves; the keeper never commits or reveals.
 *
 * Pay (issue 21 item 6): closeBidding (the selecting or cancelling call, not the seal), drawCouncil (a draw, not a
 * seed re-commit), finalize and reportRedemptionFailure pay the caller 0.1 % of the task's deposit in the task's
 * currency (`KeeperBountyPaid`; none when the keeper is the task's client or executor). The keeper's profit
 * bookkeeping (keepers/src/profit.ts) reads it from the receipt and reports it per job (metrics
 * `keeper_bounties{job="tasks",asset}` and the action's result line).
 *
 * Scan: `TaskKeeperLens.dueTasks(from, page)` (contracts/periphery/TaskKeeperLens.sol) at head − confirmations, in
 * pages from a cursor: the lowest task id that may still need work (every task below it is final), kept in memory
 * and moved up after each full scan (a restart or a chain that went backwards starts again from task 1). The
 * registry's own `checker()` only looks at the newest 64 tasks and returns one action at a time (it had to fit the
 * registry under EIP-170); the lens covers every task.
 *
 * Keys: `tasks.<action>:<taskId>:<epoch>` with epoch "-" (expire, openDispute), the round (finalize),
 * `<round>.<seed block>` (drawCouncil: a re-committed seed block is new work), "seal" then the seed block
 * (closeBidding: it seals the bids first, then selects the executor once the seed block is mined) or the assignment
 * id (redemption).
 * Priority (never skipped on a gas spike): the deadline and settlement work — expire, closeBidding, finalize,
 * openDispute, reportRedemptionFailure — which releases escrow or enforces a deadline. `drawCouncil` is ordinary by
 * default (450k gas of matcher work; a late draw only re-commits the seed block); the `ordinary` option changes the
 * split. Racing keepers: the loser's call reverts `TaskAlreadyDone` (a final task), `TaskWrongStatus` (the task
 * moved on: bidding closed, dispute opened), `TaskCouncilNotDrawable` (drawn) or `TaskNoOpenRedemption` (reported):
 * all "already done" for this job (OPS-01).
 */
import { AbiCoder, concat } from "ethers";
import { TaskKeeperLens__factory } from "@chx/sdk";
import { ConfigError } from "../config.js";
import { addressOf, JobUnavailable } from "../deployments.js";
import { mapLimit } from "../util.js";
import type { Action, Candidate, JobContext, JobFactory, KeeperJob } from "./types.js";

/** ITaskKeeperLens.Action, in declaration order. */
export const TASK_ACTIONS = [
  "none",
  "closeBidding",
  "expire",
  "drawCouncil",
  "openDispute",
  "finalize",
  "reportRedemptionFailure",
  "timeoutDispute",
] as const;
export type TaskActionName = (typeof TASK_ACTIONS)[number];

export interface TasksJobOptions {
  /** TaskRegistry deployment name (default "TaskRegistry"). */
  contract?: string;
  /** TaskKeeperLens deployment name (default "TaskKeeperLens"). */
  lens?: string;
  /** Task ids per `dueTasks` call (default 200; 1 to 500). */
  pageSize?: number;
  /** Parallel page reads after the first (default 4; 1 to 16). */
  concurrency?: number;
  /** Actions sent as ordinary work (gas ceiling, profit check); the rest are priority (default ["drawCouncil"]). */
  ordinary?: string[];
}

const OPTION_KEYS = ["contract", "lens", "pageSize", "concurrency", "ordinary"];

export interface TaskWork {
  taskId: bigint;
  action: TaskActionName;
  selector: string;
  status: number;
  round: number;
  marker: bigint;
}

const STATUS = [
  "None",
  "Bidding",
  "Running",
  "Verifying",
  "Disputed",
  "Accepted",
  "Rejected",
  "Expired",
  "Cancelled",
  "Unresolved",
];

function intOption(name: string, v: unknown, dflt: number, lo: number, hi: number): number {
  const x = v ?? dflt;
  if (typeof x !== "number" || !Number.isInteger(x) || x < lo || x > hi) {
    throw new ConfigError(`Config "jobs.tasks.${name}" must be an integer from ${lo} to ${hi} (got ${String(v)}).`);
  }
  return x;
}

function epochOf(w: TaskWork): string {
  switch (w.action) {
    case "closeBidding":
      // two calls per task: the seal (marker 0), then the selection once the seed block (marker) is mined
      return w.marker === 0n ? "seal" : String(w.marker);
    case "drawCouncil":
      return `${w.round}.${w.marker}`;
    case "finalize":
      return String(w.round);
    case "reportRedemptionFailure":
    case "timeoutDispute":
      // a bisection's lapsed move: the marker counts the moves made (each lapse is a new piece of work)
      return String(w.marker);
    default:
      return "-";
  }
}

export function tasksJob(
  registry: string,
  lens: string,
  opts: TasksJobOptions = {},
): KeeperJob<TaskWork> & { readonly cursor: () => bigint } {
  for (const k of Object.keys(opts)) {
    if (!OPTION_KEYS.includes(k)) {
      throw new ConfigError(`Unknown option "jobs.tasks.${k}" (known: ${OPTION_KEYS.join(", ")}).`);
    }
  }
  const pageSize = intOption("pageSize", opts.pageSize, 200, 1, 500);
  const concurrency = intOption("concurrency", opts.concurrency, 4, 1, 16);
  const ordinary = new Set(opts.ordinary ?? ["drawCouncil"]);
  for (const a of ordinary) {
    if (!TASK_ACTIONS.includes(a as TaskActionName) || a === "none") {
      throw new ConfigError(
        `Config "jobs.tasks.ordinary" lists "${a}", which is not a task action (${TASK_ACTIONS.slice(1).join(", ")}).`,
      );
    }
  }
  const coder = AbiCoder.defaultAbiCoder();
  let cursor = 1n;
  let lastSafe = -1;

  type Page = Awaited<ReturnType<ReturnType<typeof TaskKeeperLens__factory.connect>["dueTasks"]>>;
  const read = (ctx: JobContext, from: bigint): Promise<Page> =>
    ctx.client.read("dueTasks", (p) =>
      TaskKeeperLens__factory.connect(lens, p).dueTasks(from, pageSize, { blockTag: ctx.safeBlock }),
    );

  return {
    name: "tasks",
    summary: `close bidding, expire missed deadlines, draw councils, open disputes and finalise quorums on TaskRegistry ${registry} (scan: TaskKeeperLens ${lens}, ${pageSize} tasks/call; ${[...ordinary].join(", ") || "nothing"} ordinary, the rest priority; bounty 0.1 % of a task's deposit per paid step)`,
    alreadyDoneErrors: [
      "TaskAlreadyDone",
      "TaskWrongStatus",
      "TaskCouncilNotDrawable",
      "TaskNoOpenRedemption",
      "TaskSeedPending",
      "TaskBisectionPhase",
    ],
    cursor: () => cursor,
    async scan(ctx) {
      if (ctx.safeBlock < lastSafe) {
        ctx.log.warn({ safeBlock: ctx.safeBlock, lastSafe }, "chain behind the task scan: starting again from task 1");
        cursor = 1n;
      }
      lastSafe = ctx.safeBlock;
      const first = await read(ctx, cursor);
      const count = first.taskCount;
      const starts: bigint[] = [];
      for (let s = first.nextId; s <= count; s += BigInt(pageSize)) starts.push(s);
      const pages = [first, ...(await mapLimit(starts, concurrency, (s) => read(ctx, s)))];
      let open = count + 1n;
      const out: Candidate<TaskWork>[] = [];
      for (const pg of pages) {
        if (pg.firstOpenId < pg.nextId && pg.firstOpenId < open) open = pg.firstOpenId;
        for (const d of pg.due) {
          const action = TASK_ACTIONS[Number(d.action)] ?? "none";
          if (action === "none") continue;
          const w: TaskWork = {
            taskId: d.taskId,
            action,
            selector: d.selector,
            status: Number(d.status),
            round: Number(d.round),
            marker: d.marker,
          };
          out.push({
            key: { action: `tasks.${action}`, id: String(d.taskId), epoch: epochOf(w) },
            priority: !ordinary.has(action),
            data: w,
          });
        }
      }
      // Every task below `open` is final: the next scan starts there (new tasks are appended above it).
      cursor = open;
      return out;
    },
    async plan(_ctx, candidates): Promise<Action[]> {
      return candidates.map((c) => ({
        key: c.key,
        priority: c.priority,
        to: registry,
        data: concat([c.data.selector, coder.encode(["uint256"], [c.data.taskId])]),
        description: `${c.data.action}(task ${c.data.taskId}) [${STATUS[c.data.status] ?? c.data.status}, round ${c.data.round}]${c.priority ? " (priority)" : ""}`,
      }));
    },
  };
}

export const tasksFactory: JobFactory = {
  name: "tasks",
  description:
    "TaskRegistry: close bidding, expire deadlines, draw councils, open disputes, finalise (TaskKeeperLens scan).",
  covers: ["TaskRegistry"],
  create({ deployment, config }) {
    const opts = config.options as TasksJobOptions;
    const reg = opts.contract ?? "TaskRegistry";
    const lens = opts.lens ?? "TaskKeeperLens";
    for (const n of [reg, lens]) {
      if (deployment.contracts[n] === undefined) throw new JobUnavailable(`${n} is not in ${deployment.file}`);
    }
    return tasksJob(addressOf(deployment, reg), addressOf(deployment, lens), opts);
  },
};
