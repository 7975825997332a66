import { task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";
import { SIGNER_HELP } from "./help.js";

export const taskTasks = [
  task("chx:task:submit", "Submit a batch task and escrow its maximum payment (approves the TaskRegistry first)")
    .addOption({ name: "currency", description: "CH, USDC or DPS", defaultValue: "USDC" })
    .addOption({
      name: "max",
      description: "Maximum payment (deposit), in the currency's units (required)",
      defaultValue: "",
    })
    .addOption({ name: "council", description: "Council size n", type: ArgumentType.INT, defaultValue: 3 })
    .addOption({
      name: "quorum",
      description: "Agreeing votes needed (> n/2)",
      type: ArgumentType.INT,
      defaultValue: 2,
    })
    .addOption({
      name: "checkpoints",
      description: "Result-hash commits expected",
      type: ArgumentType.INT,
      defaultValue: 1,
    })
    .addOption({ name: "window", description: "Bid window, seconds", type: ArgumentType.INT, defaultValue: 3600 })
    .addOption({
      name: "maxBids",
      description: "Best of the first N bids (0: window only)",
      type: ArgumentType.INT,
      defaultValue: 0,
    })
    .addOption({ name: "hours", description: "Deadline, hours from now", type: ArgumentType.FLOAT, defaultValue: 24 })
    .addOption({ name: "workload", description: "Workload class", type: ArgumentType.INT, defaultValue: 1 })
    .addOption({ name: "capacity", description: "Capacity needed, PFLOPS", defaultValue: "0.1" })
    .addOption({ name: "uri", description: "Prescription URI (D, M, I, f, e documents)", defaultValue: "" })
    .addOption({
      name: "payment",
      description: "Payment function f(I'): flat (the bid), metered (bid × W / declared) or proportional",
      defaultValue: "flat",
    })
    .addOption({
      name: "declared",
      description: "metered: declared work, milli-CH; proportional: items of I (> 0 for both)",
      defaultValue: "0",
    })
    .addOption({
      name: "minShare",
      description: "proportional: least share of I fulfilled to be paid at all, bps (0..10000)",
      type: ArgumentType.INT,
      defaultValue: 0,
    })
    .addOption({
      name: "mode",
      description:
        "Response mode: 0 final result only, 1 each checkpoint due by its milestone (-1: 1 when checkpoints > 1)",
      type: ArgumentType.INT,
      defaultValue: -1,
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/task/submit.js"))
    .build(),
  task("chx:task:bid", "Bid on a task as a provider")
    .addOption({ name: "id", description: "Task id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "price", description: "Price, in the task currency's units (required)", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/task/bid.js"))
    .build(),
  task("chx:task:commit", "Commit a checkpoint result hash as the executor (closes bidding / draws the council if due)")
    .addOption({ name: "id", description: "Task id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({
      name: "checkpoint",
      description: "Checkpoint index (0-based)",
      type: ArgumentType.INT,
      defaultValue: 0,
    })
    .addOption({ name: "result", description: "Result hash (0x…) or a string to hash", defaultValue: "" })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/task/commit.js"))
    .build(),
  task(
    "chx:task:vote",
    "Council member's answer, commit–reveal: commits your salted result in the commit window, reveals it after",
  )
    .addOption({ name: "id", description: "Task id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "result", description: "Your result hash (0x…) or a string to hash", defaultValue: "" })
    .addOption({
      name: "salt",
      description: "Secret salt (0x…) or a string to hash; the same for both calls",
      defaultValue: "",
    })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/task/vote.js"))
    .build(),
  task("chx:task:finalize", "Finalise a task with a quorum (or expire it after a missed deadline)")
    .addOption({ name: "id", description: "Task id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addOption({ name: "signer", description: SIGNER_HELP, defaultValue: "0" })
    .setAction(() => import("./actions/task/finalize.js"))
    .build(),
  task("chx:task:status", "Show a task: status, executor, price, council, votes, escrow")
    .addOption({ name: "id", description: "Task id (required)", type: ArgumentType.BIGINT, defaultValue: 0n })
    .addFlag({ name: "json", description: "Print the result as JSON (for scripts)" })
    .setAction(() => import("./actions/task/status.js"))
    .build(),
];
