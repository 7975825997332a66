// OPS-03 checks of the analytics entities (no scenario of its own: the earlier parts produce the activity). At every
// checkpoint: PnL snapshots add up to the accounts' realised PnL and their positions' marks; per-market daily data
// add up to the markets' totals and close at their state; each liquidation's waterfall amounts equal its
// transaction's DeficitSteps; the insurance share price equals the fund's own conversion (previewWithdraw); provider
// earnings equal the module totals they summarise; the emission schedule-vs-actual fields equal the running sums.
const WAD_WAD_TO_USDC = 10n ** 30n;
const big = (x) => BigInt(x ?? 0);
const sum = (rows, key) => rows.reduce((s, x) => s + big(typeof key === "function" ? key(x) : x[key]), 0n);
const byDate = (rows) => [...rows].sort((a, b) => a.date - b.date);

export async function compare(ctx) {
  const { replay, tag, check, eq, at, contract } = ctx;

  // ---- per-account PnL
  const changes = replay.entities("PositionChange");
  const positions = replay.entities("Position");
  const pnl = [];
  for (const a of replay.entities("MarginAccount")) {
    const mine = changes.filter((c) => c.account === a.id);
    if (sum(mine, "realisedPnlUsdc") !== big(a.realisedPnlUsdc)) pnl.push(`${a.id} realised`);
    const own = positions.filter((p) => p.marginAccount === a.id);
    if (sum(own, "unrealisedPnlUsdc") !== big(a.unrealisedPnlUsdc)) pnl.push(`${a.id} unrealised`);
    const days = byDate(replay.entities("MarginAccountDayData").filter((d) => d.marginAccount === a.id));
    if (sum(days, "realisedPnlUsdc") !== big(a.realisedPnlUsdc)) pnl.push(`${a.id} Σ daily realised`);
    if (days.length && big(days.at(-1).realisedPnlTotalUsdc) !== big(a.realisedPnlUsdc)) pnl.push(`${a.id} day close`);
  }
  for (const p of positions) {
    const mark = (big(p.sizeCh) * big(p.markPriceWad)) / WAD_WAD_TO_USDC - big(p.openNotionalUsdc);
    if (mark !== big(p.unrealisedPnlUsdc)) pnl.push(`${p.id} unrealised ${p.unrealisedPnlUsdc} ≠ ${mark}`);
    const last = changes
      .filter((c) => c.position === p.id)
      .sort((x, y) => Number(big(x.blockNumber) - big(y.blockNumber)) || Number(big(x.logIndex) - big(y.logIndex)))
      .at(-1);
    if (last && big(last.positionRealisedPnlUsdc) !== big(p.realisedPnlUsdc)) pnl.push(`${p.id} snapshot realised`);
  }
  check(`analytics: PnL snapshots and account days add up ${tag}`, pnl.length === 0, pnl.join("; "));

  // ---- per-market daily data
  const mk = [];
  for (const m of replay.entities("ClearingMarket")) {
    const days = byDate(replay.entities("ClearingMarketDayData").filter((d) => d.market === m.id));
    if (days.length === 0) continue;
    for (const [d, t] of [
      ["volumeCh", "volumeCh"],
      ["feesUsdc", "feesUsdc"],
      ["liquidatedCh", "liquidatedCh"],
      ["socialisedUsdc", "socialisedUsdc"],
      ["tradeCount", "tradeCount"],
    ])
      if (sum(days, d) !== big(m[t])) mk.push(`${m.id} Σ${d} ${sum(days, d)} ≠ ${m[t]}`);
    const close = days.at(-1);
    for (const k of ["longOpenInterestCh", "shortOpenInterestCh", "poolUsdc"])
      if (big(close[k]) !== big(m[k])) mk.push(`${m.id} close ${k}`);
    for (const d of days)
      if (big(d.openInterestHighCh) < big(d.longOpenInterestCh) + big(d.shortOpenInterestCh))
        mk.push(`${m.id} ${d.date} OI high`);
  }
  check(`analytics: per-market daily volume, fees, OI and pool ${tag}`, mk.length === 0, mk.join("; "));

  // ---- liquidations with their waterfall
  const steps = replay.entities("DeficitStep");
  const lq = [];
  for (const l of replay.entities("Liquidation")) {
    const tx = steps.filter((s) => s.transactionHash === l.transactionHash && s.account === l.account);
    const layer = (n) => sum(tx.filter((s) => s.layer === n), "amountUsdc");
    if (big(l.guarantorUsdc) !== layer(1)) lq.push(`${l.id} guarantor`);
    if (big(l.insuranceUsdc) !== layer(2)) lq.push(`${l.id} insurance`);
    if (big(l.socialisedUsdc) !== layer(3)) lq.push(`${l.id} socialised`);
    const closed = changes.filter((c) => c.liquidation && c.transactionHash === l.transactionHash);
    if (l.positionsClosed !== closed.length) lq.push(`${l.id} positions ${l.positionsClosed} ≠ ${closed.length}`);
  }
  if (replay.entities("LiquidationDraft").length) lq.push("a liquidation draft was left behind");
  check(`analytics: liquidations carry their waterfall amounts ${tag}`, lq.length === 0, lq.join("; "));

  // ---- insurance fund share price
  if (ctx.record.contracts.InsuranceFund) {
    const f = replay.entity("InsuranceFundState", ctx.address("InsuranceFund"));
    if (f) {
      eq(`analytics: insurance share price = previewWithdraw(1e24) ${tag}`, f.sharePriceWad, await contract("InsuranceFund").previewWithdraw(10n ** 24n, at));
      const days = byDate(replay.entities("InsuranceFundDayData"));
      if (days.length) eq(`analytics: insurance share price day close ${tag}`, days.at(-1).sharePriceCloseWad, f.sharePriceWad);
    }
  }

  // ---- provider earnings
  const earn = [];
  const tasks = replay.entities("Task");
  const fees = replay.entities("TaskCouncilFeeClaim");
  const receipts = replay.entities("StreamReceipt");
  const streams = new Map(replay.entities("Stream").map((s) => [s.id, s]));
  const assignments = replay.entities("RedemptionAssignment");
  const outcomes = replay.entities("TaskOutcome");
  const suffix = { CH: "Ch", USDC: "Usdc", DPS: "Dps" };
  for (const e of replay.entities("ProviderEarnings")) {
    const em = replay.entity("EmissionProvider", e.id);
    const reg = replay.entity("Provider", e.id);
    const want = {
      rewardsAccruedDps: em?.totalRewardDps ?? 0,
      rewardsClaimedDps: em?.claimedDps ?? 0,
      slashedDps: reg?.slashedDps ?? 0,
      slashCount: reg?.slashCount ?? 0,
      compensationPaidDps: reg?.compensationPaidDps ?? 0,
      deliveredCh: reg?.deliveredCh ?? 0,
      deliveriesConfirmed: assignments.filter((a) => a.provider === e.id && a.status === "delivered").length,
      deliveriesFailed: assignments.filter((a) => a.provider === e.id && a.status === "failed").length,
      tasksCompleted: outcomes.filter((o) => o.provider === e.id && o.completed).length,
      tasksFailed: outcomes.filter((o) => o.provider === e.id && !o.completed).length,
    };
    for (const [c, s] of Object.entries(suffix)) {
      want[`executorPaid${s}`] = sum(tasks.filter((t) => t.executor === e.id && t.currency === c), "executorPaid");
      want[`councilFees${s}`] = sum(fees.filter((f) => f.member === e.id && tasks.find((t) => t.id === f.task)?.currency === c), "fee");
      want[`streamPaid${s}`] = sum(receipts.filter((r) => r.provider === e.id && streams.get(r.stream)?.currency === c), "amount");
    }
    for (const [k, v] of Object.entries(want)) if (big(e[k]) !== big(v)) earn.push(`${e.id} ${k} ${e[k]} ≠ ${v}`);
    const days = replay.entities("ProviderEarningsDayData").filter((d) => d.earnings === e.id);
    for (const k of Object.keys(want)) if (sum(days, k) !== big(e[k])) earn.push(`${e.id} Σ daily ${k}`);
  }
  check(`analytics: provider earnings and delivery outcomes ${tag}`, earn.length === 0, earn.join("; "));

  // ---- emission schedule vs actual
  if (ctx.record.contracts.Emission) {
    const epochs = replay.entities("EmissionEpoch").filter((e) => e.closed).sort((a, b) => a.epoch - b.epoch);
    const sched = [];
    let running = 0n;
    for (const e of epochs) {
      running += big(e.rewardsDps);
      if (big(e.scheduledTotalDps) !== running) sched.push(`epoch ${e.epoch} scheduled ${e.scheduledTotalDps} ≠ ${running}`);
    }
    const s = replay.entity("EmissionState", ctx.address("Emission"));
    if (s && epochs.length && big(s.totalEpochRewardsDps) !== running) sched.push("state total");
    check(`analytics: emission schedule vs actual running sums ${tag}`, sched.length === 0, sched.join("; "));
  }
}
