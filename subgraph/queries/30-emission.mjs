// Checks of the emission queries of docs/queries.md.
import { big, expected, maxBy, pick, rowsOf, sameRows } from "./_lib.mjs";

const em = (t) => t.contract("Emission");

export const queries = {
  EmissionTimeline: {
    async check(d, t) {
      const [s] = d.emissionStates;
      t.eq(s.currentEpoch, await em(t).currentEpoch(t.at), "currentEpoch()");
      t.eq(s.halvings, await em(t).halvings(t.at), "halvings()");
      const [pool, budget, minted] = await em(t).pools(t.at);
      t.eq(`${s.rewardPoolDps}/${s.keeperBudgetDps}/${s.totalMintedDps}`, `${pool}/${budget}/${minted}`, "pools()");
      t.eq(d.halvings.length, s.halvings, "one Halving per halving");
      t.sorted(d.halvings, (h) => h.halvings, "asc", "halvings in order");
      t.rows(d.emissionEpoches, 2, "closed epochs");
      t.every(d.emissionEpoches, (e) => e.closedAt !== null, "only closed epochs (where closed: true)");
      t.sorted(d.emissionEpoches, (e) => e.epoch, "desc", "newest first");
      for (const e of d.emissionEpoches)
        t.eq(e.rateWad, (await em(t).epochInfo(e.epoch, t.at)).rateWad, `epoch ${e.epoch} rate`);
    },
  },

  EmissionScheduleVsActual: {
    async check(d, t) {
      const closed = d.emissionEpoches;
      t.rows(closed, 2, "closed epochs");
      t.sorted(closed, (e) => e.epoch, "asc", "epoch order");
      let running = 0n;
      for (const e of closed) {
        running += big(e.rewardsDps);
        t.eq(e.scheduledTotalDps, running, `epoch ${e.epoch}: scheduled so far = Σ rewardsDps`);
        t.ok(big(e.accruedTotalDps) <= big(e.scheduledTotalDps), `epoch ${e.epoch}: accrued ≤ scheduled`);
      }
      const [s] = d.emissionStates;
      t.eq(s.totalEpochRewardsDps, running, "state total = Σ scheduled");
      const [, , minted] = await em(t).pools(t.at);
      t.eq(s.totalMintedDps, minted, "DPS minted by the module = pools().minted");
      t.ok(
        big(d.tokens[0].totalEmitted) >= big(s.totalMintedDps),
        "the token's totalEmitted covers the module's mints",
      );
    },
  },

  EmissionDaily: {
    variables: () => ({ from: 0 }),
    async check(d, t) {
      const rows = d.emissionDayDatas;
      t.rows(rows, 2, "emission days");
      t.sorted(rows, (r) => r.date, "asc", "by date");
      const [s] = rowsOf(t, "EmissionState");
      t.eq(
        t.sum(rows, (r) => r.claimedDps),
        s.totalClaimedDps,
        "Σ claimed = totalClaimedDps",
      );
      t.eq(
        t.sum(rows, (r) => r.epochsClosed),
        s.epochsClosed,
        "Σ epochs closed",
      );
      t.eq(rows.at(-1).totalMintedDps, (await em(t).pools(t.at))[2], "last day closes at pools().minted");
    },
  },

  CapacityDaily: {
    async check(d, t) {
      t.rows(d.capacityDayDatas, 2, "capacity days");
      t.sorted(d.capacityDayDatas, (r) => r.date, "asc", "by date");
      const [s] = rowsOf(t, "EmissionState");
      t.eq(d.capacityDayDatas.at(-1).totalGfl, s.totalGfl, "last day closes at the module's GFL");
      t.every(
        d.capacityDayDatas,
        (r) => big(r.totalGflLow) <= big(r.totalGfl) && big(r.totalGfl) <= big(r.totalGflHigh),
        "low ≤ close ≤ high",
      );
    },
  },

  EpochLeaderboard: {
    variables: (t) => ({
      epoch: maxBy(
        t,
        "EmissionEpoch",
        (e) => e.providerCount,
        (e) => e.closed,
      ).id,
    }),
    async check(d, t) {
      const want = expected(t, "ProviderEpoch", {
        where: (r) => r.epoch === t.variables.epoch,
        key: (r) => r.gfl,
        dir: "desc",
      });
      t.rows(d.providerEpoches, 2, "providers of the epoch");
      t.eq(
        d.providerEpoches.map((r) => `${r.provider.id}:${r.gfl}`).join(),
        want.map((r) => `${r.provider}:${r.gfl}`).join(),
        "largest GFL first",
      );
    },
  },

  RewardLeaderboard: {
    async check(d, t) {
      const want = expected(t, "EmissionProvider", { key: (r) => r.totalRewardDps, dir: "desc" });
      sameRows(t, d.emissionProviders, want, "by total reward");
      for (const p of d.emissionProviders.slice(0, 3))
        t.eq(p.gfl, await t.contract("GFLToken").balanceOf(p.id, t.at), `GFL of ${p.id}`);
    },
  },

  EmissionProviderHistory: {
    variables: (t) => ({ provider: maxBy(t, "EmissionProvider", (p) => p.totalRewardDps).id }),
    async check(d, t) {
      const p = d.emissionProvider;
      t.ok(p, "the provider");
      t.rows(p.epochs, 2, "its epochs");
      t.sorted(p.epochs, (e) => e.epoch.epoch, "asc", "ordered by the epoch's number (orderBy: epoch__epoch)");
      t.eq(p.claims.length, rowsOf(t, "RewardClaim", (c) => c.provider === t.variables.provider).length, "its claims");
      t.eq(
        t.sum(p.claims, (c) => c.amountDps),
        (await em(t).providerInfo(t.variables.provider, t.at)).claimedDps,
        "Σ claims = claimedDps",
      );
    },
  },

  CapacitySamples: {
    variables: (t) => {
      const s = pick(t, "CapacitySample");
      return { provider: s.provider, epoch: s.epoch };
    },
    async check(d, t) {
      const { provider, epoch } = t.variables;
      const want = expected(t, "CapacitySample", {
        where: (r) => r.provider === provider && r.epoch === epoch,
        key: (r) => r.timestamp,
      });
      t.rows(d.capacitySamples, 1, "samples");
      t.eq(
        d.capacitySamples.map((r) => r.timestamp).join(),
        want.map((r) => r.timestamp).join(),
        "the provider's samples of the epoch",
      );
    },
  },

  KeeperBounties: {
    async check(d, t) {
      t.rows(d.rebalanceBatches, 1, "rebalance batches");
      t.rows(d.epochCloses, 2, "epoch closes");
      t.sorted(d.epochCloses, (r) => r.timestamp, "desc", "newest first");
      const [s] = rowsOf(t, "EmissionState");
      t.rows(d.collectionBatches, 1, "collection batches");
      t.eq(
        t.sum(d.rebalanceBatches, (r) => r.bountyDps) +
          t.sum(d.collectionBatches, (r) => r.bountyDps) +
          t.sum(d.epochCloses, (r) => r.bountyDps),
        s.totalBountiesDps,
        "Σ bounties = totalBountiesDps",
      );
    },
  },

  EmissionChanges: {
    async check(d, t) {
      const [s] = rowsOf(t, "EmissionState");
      t.eq(
        t.sum(d.replenishments, (r) => r.dpsAmount),
        s.totalReplenishedDps,
        "Σ replenished = totalReplenishedDps",
      );
      t.rows(d.emissionParameterChanges, 1, "parameter changes");
      t.sorted(d.emissionParameterChanges, (r) => r.timestamp, "asc", "in time order");
      const [, , , replenished] = await em(t).pools(t.at);
      t.eq(s.totalReplenishedDps, replenished, "pools().replenished");
    },
  },
};
