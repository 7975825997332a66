// Checks of the task and stream queries of docs/queries.md.
import { big, maxBy, pick, rowsOf } from "./_lib.mjs";

const reg = (t) => t.contract("TaskRegistry");
const CURRENCIES = ["CH", "USDC", "DPS"];

export const queries = {
  TaskDaily: {
    async check(d, t) {
      const rows = d.taskDayDatas;
      t.rows(rows, 1, "days");
      t.sorted(rows, (r) => r.date, "desc", "newest first");
      const [s] = rowsOf(t, "TaskRegistryState");
      t.eq(t.sum(rows, (r) => r.tasksSubmitted), await reg(t).taskCount(t.at), "Σ submitted = taskCount()");
      t.eq(t.sum(rows, (r) => r.tasksAccepted), s.accepted, "Σ accepted");
      t.eq(t.sum(rows, (r) => r.chRedeemed), s.chRedeemed, "Σ CH redeemed");
    },
  },

  TaskTotals: {
    async check(d, t) {
      const [s] = d.taskRegistryStates;
      t.eq(s.taskCount, await reg(t).taskCount(t.at), "taskCount()");
      t.eq(d.taskCurrencyStats_collection.length, 3, "one row per currency");
      for (const c of d.taskCurrencyStats_collection)
        t.eq(c.escrow, await reg(t).totalEscrow(CURRENCIES.indexOf(c.currency), t.at), `totalEscrow(${c.currency})`);
    },
  },

  Task: {
    variables: (t) => ({ id: pick(t, "Task", (x) => x.disputedBy != null).id }),
    async check(d, t) {
      const task = d.task;
      const c = await reg(t).getTask(big(t.replay.entity("Task", t.variables.id).taskId), t.at);
      t.eq(task.price, c.price, "price = getTask()");
      t.rows(task.bids, 1, "bids");
      t.sorted(task.bids, (b) => b.price, "asc", "cheapest first");
      t.rows(task.councils, 2, "both council rounds");
      t.sorted(task.councils, (x) => x.round, "asc", "rounds in order");
      t.eq(task.members.length, rowsOf(t, "TaskCouncilMember", (m) => m.task === t.variables.id).length, "members");
      t.ok(task.disputedBy, "disputed");
    },
  },

  DisputedTasks: {
    async check(d, t) {
      t.rows(d.tasks, 1, "disputed tasks");
      t.every(d.tasks, (x) => x.disputedBy !== null, "disputedBy_not: null");
      t.eq(d.tasks.length, rowsOf(t, "Task", (x) => x.disputedBy != null).length, "all of them");
      t.ok(d.tasks.some((x) => x.slashes.length > 0), "a council member slashed");
    },
  },

  TaskAppeals: {
    async check(d, t) {
      // the OPS-03 scenario has no client appeal: the rows, when there are any, must be consistent
      t.eq(d.tasks.length, rowsOf(t, "Task", (x) => String(x.appealed) === "true").length, "all appealed tasks");
      t.every(d.tasks, (x) => x.bisection && x.bisection.isAppeal, "an appeal's bisection");
      t.every(d.tasks, (x) => x.appealOutcome !== "Overturned" || x.status === "Rejected", "overturned → Rejected");
      t.sorted(d.tasks, (x) => x.appealedAt, "desc", "newest first");
    },
  },

  Council: {
    variables: (t) => ({ provider: maxBy(t, "Account", (a) => rowsOf(t, "TaskCouncilMember", (m) => m.member === a.id).length).id }),
    async check(d, t) {
      const rows = d.taskCouncilMembers;
      t.rows(rows, 2, "council seats");
      t.eq(rows.length, rowsOf(t, "TaskCouncilMember", (m) => m.member === t.variables.provider).length, "the provider's seats");
      t.eq(t.sum(rows, (r) => r.feeClaimed), rowsOf(t, "TaskCouncilFeeClaim", (f) => f.member === t.variables.provider).reduce((a, f) => a + big(f.fee), 0n), "fees = Σ its fee claims");
    },
  },

  Executors: {
    async check(d, t) {
      t.rows(d.tasks, 2, "accepted tasks");
      t.every(d.tasks, (x) => x.executor, "each has an executor");
      t.eq(d.tasks.length, rowsOf(t, "Task", (x) => x.status === "Accepted").length, "all accepted tasks");
      const earnings = new Map(rowsOf(t, "ProviderEarnings").map((e) => [e.id, e]));
      const byExec = new Map();
      for (const x of d.tasks) {
        const k = `${x.executor.id}|${x.currency}`;
        byExec.set(k, (byExec.get(k) ?? 0n) + big(x.executorPaid));
      }
      for (const [k, v] of byExec) {
        const [exec, cur] = k.split("|");
        const field = `executorPaid${cur === "CH" ? "Ch" : cur === "USDC" ? "Usdc" : "Dps"}`;
        t.eq(earnings.get(exec)?.[field] ?? 0, v, `${exec} ${cur} pay = ProviderEarnings.${field}`);
      }
    },
  },

  Stream: {
    variables: (t) => ({ id: maxBy(t, "Stream", (s) => s.receiptCount).id }),
    async check(d, t) {
      const s = d.stream;
      const c = await t.contract("StreamTasks").getStream(big(t.replay.entity("Stream", t.variables.id).streamId), t.at);
      t.eq(`${s.deposit}/${s.subscribers}`, `${c.deposit}/${c.subscribers}`, "getStream()");
      t.rows(s.receipts, 1, "receipts");
      t.sorted(s.receipts, (r) => r.timestamp, "desc", "newest first");
      t.eq(t.sum(s.receipts, (r) => r.amount), s.paid, "Σ receipts = paid");
      t.rows(s.subscriptions, 1, "subscriptions");
    },
  },
};
