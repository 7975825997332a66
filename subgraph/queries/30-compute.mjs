// Checks of the compute queries of docs/queries.md (providers, grades, tiers, liability, earnings).
import { big, expected, maxBy, pick, rowsOf, sameRows } from "./_lib.mjs";

const PERF = ["A", "B", "C", "D"];
const reg = (t) => t.contract("ProviderRegistry");

export const queries = {
  GradeThresholdsNow: {
    async check(d, t) {
      const g = d.gradeThresholds;
      const c = await t.contract("ComputeStandard").gradeThresholds(t.at);
      for (const k of ["perfAWad", "perfBWad", "perfCWad", "uptime1Wad", "energyXWad", "energyYWad"]) t.eq(g[k], c[k], `${k} = gradeThresholds()`);
      t.eq(d.computeStats.tierThresholdsDps.join(), (await reg(t).tierThresholds(t.at)).join(), "tierThresholds()");
    },
  },

  PerformanceANow: {
    variables: (t) => {
      const g = t.replay.entity("GradeThresholds", "0x677261646573");
      const s = t.replay.entity("ComputeStats", "0x636f6d70757465");
      return { perfA: g.perfAWad, tier1: s.tierThresholdsDps[0] };
    },
    async check(d, t) {
      // the filter on the input reproduces the registry's current grade for every provider, stored grade or not
      const all = rowsOf(t, "Provider");
      t.rows(all, 2, "providers");
      const inA = new Set(d.gradeA.map((p) => p.id));
      for (const p of all) {
        const i = await reg(t).providerInfo(p.id, t.at);
        t.eq(inA.has(p.id), PERF[Number(i.performanceGrade)] === "A", `${p.id} in grade A ⇔ providerInfo().performanceGrade == A`);
        t.eq(d.tiered.some((x) => x.id === p.id), Number(i.tier) >= 1, `${p.id} tier ≥ 1 ⇔ providerInfo().tier ≥ 1`);
      }
      t.sorted(d.gradeA, (p) => p.chPerHourWad, "desc", "by rate");
      t.sorted(d.tiered, (p) => p.stakedDps, "desc", "by stake");
    },
  },

  ReliabilityLeaderboard: {
    async check(d, t) {
      const want = expected(t, "Provider", { where: (p) => ["R1", "R2"].includes(p.reliabilityGrade), key: (p) => p.uptimeWad, dir: "desc", first: 50 });
      sameRows(t, d.providers, want, "R1/R2 providers by uptime");
      t.every(d.providers, (p) => ["R1", "R2"].includes(p.reliabilityGrade), "reliabilityGrade_in");
    },
  },

  ProviderList: {
    async check(d, t) {
      const count = await reg(t).providerCount(t.at);
      const page = (await reg(t).providersPage(0, count, t.at)).map((x) => x.toLowerCase());
      t.eq(d.providers.map((p) => p.id).join(), page.join(), "registration order = providersPage()");
    },
  },

  Liability: {
    async check(d, t) {
      const s = d.computeStats;
      t.rows(d.providers, 1, "providers with liability");
      t.every(d.providers, (p) => big(p.liabilityCh) > 0n, "liabilityCh_gt");
      t.sorted(d.providers, (p) => p.liabilityCh, "desc", "largest first");
      t.eq(t.sum(d.providers, (p) => p.liabilityCh), s.totalLiabilityCh, "Σ liabilities = totalLiabilityCh");
      for (const p of d.providers) t.eq(p.liabilityCh, await reg(t).liabilityOf(p.id, t.at), `liabilityOf(${p.id})`);
    },
  },

  ComputeDaily: {
    variables: () => ({ from: 0 }),
    async check(d, t) {
      const rows = d.computeDayDatas;
      t.rows(rows, 2, "days");
      t.sorted(rows, (r) => r.date, "asc", "by date");
      const s = t.replay.entity("ComputeStats", "0x636f6d70757465");
      t.eq(t.sum(rows, (r) => r.chMinted), s.totalMintedCh, "Σ minted");
      t.eq(t.sum(rows, (r) => r.newProviders), await reg(t).providerCount(t.at), "Σ new providers = providerCount()");
      t.eq(rows.at(-1).liabilityCh, s.totalLiabilityCh, "last day closes at the liability");
    },
  },

  ProviderDaily: {
    variables: (t) => ({ provider: maxBy(t, "Provider", (p) => p.heartbeatCount).id }),
    async check(d, t) {
      const want = expected(t, "ProviderDayData", { where: (r) => r.provider === t.variables.provider, key: (r) => r.date });
      t.rows(d.providerDayDatas, 1, "days");
      t.eq(d.providerDayDatas.map((r) => r.date).join(), want.map((r) => r.date).join(), "the provider's days");
      t.eq(t.sum(d.providerDayDatas, (r) => r.heartbeatCount), t.replay.entity("Provider", t.variables.provider).heartbeatCount, "Σ heartbeats");
    },
  },

  ProviderHistory: {
    variables: (t) => ({ id: maxBy(t, "Provider", (p) => p.slashCount).id }),
    async check(d, t) {
      const p = d.provider;
      const id = t.variables.id;
      t.rows(p.attestations, 1, "attestations");
      t.sorted(p.attestations, (a) => a.timestamp, "desc", "newest first");
      t.eq(p.stakeChanges.length, rowsOf(t, "StakeChange", (x) => x.provider === id).length, "stake changes");
      t.rows(p.slashes, 1, "slashes");
      t.eq(t.sum(p.slashes, (s) => s.slashedDps), (await reg(t).providerInfo(id, t.at)).slashedDps, "Σ slashes = providerInfo().slashedDps");
      t.eq(p.heartbeats.length, Math.min(24, rowsOf(t, "ProviderHeartbeat", (h) => h.provider === id).length), "heartbeats (first: 24)");
    },
  },

  ProviderEarnings: {
    async check(d, t) {
      const rows = d.providerEarnings_collection;
      t.rows(rows, 2, "providers with earnings");
      t.sorted(rows, (r) => r.rewardsAccruedDps, "desc", "by rewards");
      const em = t.contract("Emission");
      for (const r of rows) {
        const info = await em.providerInfo(r.id, t.at);
        t.eq(r.rewardsClaimedDps, info.claimedDps, `${r.id} claimed = Emission.providerInfo().claimedDps`);
        const pi = await reg(t).providerInfo(r.id, t.at).catch(() => null);
        if (pi?.registered) {
          t.eq(r.slashedDps, pi.slashedDps, `${r.id} slashed = providerInfo().slashedDps`);
          t.eq(r.deliveredCh, pi.deliveredCh, `${r.id} delivered = providerInfo().deliveredCh`);
        }
        t.eq(t.sum(r.days, (x) => x.rewardsAccruedDps), r.rewardsAccruedDps, `${r.id} Σ daily rewards`);
      }
      t.ok(rows.some((r) => big(r.executorPaidUsdc) + big(r.executorPaidDps) + big(r.executorPaidCh) > 0n), "some task pay");
      t.ok(rows.some((r) => r.deliveriesFailed > 0), "a failed delivery");
    },
  },

  FailedDeliveries: {
    async check(d, t) {
      t.rows(d.redemptionAssignments, 1, "failed assignments");
      for (const a of d.redemptionAssignments) {
        const c = await reg(t).assignment(a.assignmentId, t.at);
        t.eq(Number(c.status), 3, `assignment ${a.assignmentId} failed on-chain`);
      }
    },
  },

  References: {
    async check(d, t) {
      t.rows(d.workloadClasses, 1, "workload classes");
      const std = t.contract("ComputeStandard");
      for (const w of d.workloadClasses) {
        t.eq(w.latestVersion, await std.latestVersion(w.workloadClass, t.at), `latestVersion(${w.workloadClass})`);
        t.sorted(w.versions, (v) => v.version, "asc", "versions in order");
      }
      t.eq(d.gradeThresholds.perfAWad, (await std.gradeThresholds(t.at)).perfAWad, "perfA in force");
      t.rows(d.gradeThresholdsChanges, 2, "threshold changes (initialize and the scenario's)");
    },
  },

  Matcher: {
    async check(d, t) {
      const [m] = d.matcherConfigs;
      const w = await t.contract("ProviderMatcher").weights(t.at);
      t.eq(`${m.regionBps}/${m.priceBps}/${m.uptimeBps}`, `${w.region}/${w.price}/${w.uptime}`, "weights()");
      const [norm, page, pick] = await t.contract("ProviderMatcher").limits(t.at);
      t.eq(`${m.stakeNormDps}/${m.maxPage}/${m.maxPick}`, `${norm}/${page}/${pick}`, "limits()");
      t.every(d.computeConfigChanges, (c) => ["matcherWeights", "matcherLimits"].includes(c.kind), "kind_in");
      t.rows(d.computeConfigChanges, 1, "matcher changes");
    },
  },
};
