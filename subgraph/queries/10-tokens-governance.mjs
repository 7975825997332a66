// Checks of the supply, holders and governance queries of docs/queries.md.
import { big, expected, pick, rowsOf, sameRows } from "./_lib.mjs";

const TOKENS = { DPS: "DPSToken", CH: "CHToken", GFL: "GFLToken" };

export const queries = {
  SupplyDashboard: {
    async check(d, t) {
      t.eq(d.tokens.map((x) => x.symbol).sort().join(","), "CH,DPS,GFL", "tokens");
      for (const tok of d.tokens) {
        const c = t.contract(TOKENS[tok.symbol]);
        t.eq(tok.totalSupply, await c.totalSupply(t.at), `${tok.symbol} totalSupply = totalSupply()`);
        if (tok.symbol === "DPS") {
          t.eq(tok.totalEmitted, await c.totalEmitted(t.at), "DPS totalEmitted = totalEmitted()");
          t.eq(tok.genesisSupply, big(tok.totalMinted) - big(tok.totalEmitted), "DPS genesis = minted − emitted");
        }
        t.eq(big(tok.totalMinted) - big(tok.totalBurned), tok.totalSupply, `${tok.symbol} minted − burned = supply`);
      }
    },
  },

  SupplyAtBlock: {
    variables: (t) => ({ block: t.checkpoints[1] }),
    async check(d, t) {
      const at = { blockTag: t.variables.block };
      t.eq(d._meta.block.number, t.variables.block, "_meta at the block");
      t.rows(d.tokens, 3, "tokens at the block");
      for (const tok of d.tokens) {
        const c = t.contract(TOKENS[tok.symbol]);
        t.eq(tok.totalSupply, await c.totalSupply(at), `${tok.symbol} totalSupply at block ${at.blockTag}`);
        if (tok.symbol === "DPS") t.eq(tok.totalEmitted, await c.totalEmitted(at), "DPS totalEmitted at the block");
      }
      // the state changed after that block: time travel must not answer with the latest values
      const now = await t.contract("DPSToken").totalSupply(t.at);
      t.ok(String(now) !== d.tokens.find((x) => x.symbol === "DPS").totalSupply, "DPS supply changed since the block");
    },
  },

  TokenDaily: {
    variables: () => ({ from: 0 }),
    async check(d, t) {
      const rows = d.tokenDayDatas;
      t.rows(rows, 2, "DPS days");
      t.every(rows, (r) => r.token.symbol === "DPS", "every row is DPS (nested token_ filter)");
      t.sorted(rows, (r) => r.date, "asc", "days ascending");
      t.eq(t.sum(rows, (r) => r.emitted), await t.contract("DPSToken").totalEmitted(t.at), "Σ emitted = totalEmitted()");
      t.eq(rows.at(-1).totalSupply, await t.contract("DPSToken").totalSupply(t.at), "last day closes at the supply");
      t.every(rows, (r) => big(r.supplyLow) <= big(r.totalSupply) && big(r.totalSupply) <= big(r.supplyHigh), "low ≤ close ≤ high");
    },
  },

  TokenHourly: {
    variables: () => ({ symbol: "DPS" }),
    async check(d, t) {
      const dps = t.address("DPSToken");
      const want = expected(t, "TokenHourData", { where: (r) => r.token === dps, key: (r) => r.periodStartUnix, dir: "desc", first: 48 });
      t.rows(d.tokenHourDatas, 2, "DPS hours");
      t.eq(d.tokenHourDatas.map((r) => r.periodStartUnix).join(), want.map((r) => r.periodStartUnix).join(), "hours, newest first");
    },
  },

  EmissionMints: {
    async check(d, t) {
      const all = rowsOf(t, "DPSEmission");
      t.eq(d.dpsemissions.length, Math.min(all.length, 100), "every emission mint (first: 100)");
      t.sorted(d.dpsemissions, (r) => r.timestamp, "desc", "newest first");
      t.eq(d.dpsemissions[0].totalEmitted, await t.contract("DPSToken").totalEmitted(t.at), "newest totalEmitted");
      t.eq(t.sum(d.dpsemissions, (r) => r.amount), d.dpsemissions[0].totalEmitted, "Σ amounts = totalEmitted");
    },
  },

  Burns: {
    variables: (t) => ({ account: pick(t, "DPSBurn").from }),
    async check(d, t) {
      t.rows(d.dpsburns, 1, "burns");
      t.every(d.dpsburns, (r) => r.from.id === t.variables.account, "only the account's burns");
      t.eq(d.dpsburns.length, rowsOf(t, "DPSBurn", (r) => r.from === t.variables.account).length, "all of them");
    },
  },

  TopDpsHolders: {
    async check(d, t) {
      const rows = d.tokenBalances;
      t.rows(rows, 3, "DPS holders");
      t.sorted(rows, (r) => r.balance, "desc", "largest first");
      for (const r of rows.slice(0, 5))
        t.eq(r.balance, await t.contract("DPSToken").balanceOf(r.account.id, t.at), `balanceOf(${r.account.id})`);
      const top = rows[0].account;
      t.eq(top.dpsVotes, await t.contract("DPSToken").getVotes(top.id, t.at), "top holder's votes = getVotes()");
    },
  },

  GflBalances: {
    async check(d, t) {
      t.rows(d.tokenBalances, 2, "GFL holders");
      t.sorted(d.tokenBalances, (r) => r.balance, "desc", "largest first");
      t.eq(t.sum(d.tokenBalances, (r) => r.balance), await t.contract("GFLToken").totalSupply(t.at), "Σ balances = GFL supply");
    },
  },

  GflRebalances: {
    variables: (t) => ({ provider: pick(t, "GFLRebalance").account }),
    async check(d, t) {
      const want = expected(t, "GFLRebalance", { where: (r) => r.account === t.variables.provider, key: (r) => r.timestamp });
      t.rows(d.gflrebalances, 1, "rebalances");
      t.eq(d.gflrebalances.map((r) => r.newBalance).join(), want.map((r) => r.newBalance).join(), "the provider's rebalances in time order");
      const last = d.gflrebalances.at(-1);
      t.eq(last.newBalance, await t.contract("GFLToken").balanceOf(t.variables.provider, t.at), "last balance = balanceOf()");
    },
  },

  Delegates: {
    async check(d, t) {
      t.rows(d.accounts, 2, "delegates with votes");
      t.sorted(d.accounts, (r) => r.dpsVotes, "desc", "largest first");
      for (const a of d.accounts) t.eq(a.dpsVotes, await t.contract("DPSToken").getVotes(a.id, t.at), `getVotes(${a.id})`);
      t.eq(d.delegateChanges.length, Math.min(rowsOf(t, "DelegateChange").length, 50), "delegate changes");
      t.sorted(d.delegateChanges, (r) => r.timestamp, "desc", "newest first");
    },
  },

  Proposals: {
    async check(d, t) {
      t.rows(d.proposals, 1, "proposals");
      const gov = t.contract("Governor");
      for (const p of d.proposals) {
        const [against, forVotes, abstain] = await gov.proposalVotes(p.id, t.at);
        t.eq(`${p.forVotes}/${p.againstVotes}/${p.abstainVotes}`, `${forVotes}/${against}/${abstain}`, `tallies of ${p.id}`);
        t.eq(p.votes.length, rowsOf(t, "Vote", (v) => v.proposal === p.id).length, "nested votes (derived list)");
        t.sorted(p.votes, (v) => v.weight, "desc", "votes by weight");
        t.eq(p.status, "Executed", "the scenario's proposal was executed");
      }
    },
  },

  TimelockQueue: {
    async check(d, t) {
      const tl = t.contract("Timelock");
      for (const o of d.waiting) t.ok(await tl.isOperationPending(o.id, t.at), `${o.id} pending on-chain`);
      t.rows(d.done, 1, "executed operations");
      for (const o of d.done) t.ok(await tl.isOperationDone(o.id, t.at), `${o.id} done on-chain`);
      t.every(d.done, (o) => o.calls.length > 0, "each operation lists its calls");
    },
  },

  Roles: {
    async check(d, t) {
      t.rows(d.roles, 5, "roles");
      t.sorted(d.roles, (r) => r.roleId, "asc", "by role id");
      const am = t.contract("AccessManager");
      for (const r of d.roles) {
        t.every(r.members, (m) => m.account, `members of ${r.roleId} (nested where)`);
        for (const m of r.members.slice(0, 3)) {
          const [member] = await am.hasRole(r.roleId, m.account.id, t.at);
          t.ok(member, `hasRole(${r.roleId}, ${m.account.id})`);
        }
        if (r.members.length < 100) t.eq(r.members.length, r.memberCount, `memberCount of ${r.roleId}`);
      }
    },
  },

  Pauses: {
    async check(d, t) {
      t.every(d.featurePauses, (p) => p.contract.name, "paused features name their contract");
      t.rows(d.featurePauses, 1, "a feature still paused (gfl.rebalance)");
      for (const p of d.featurePauses)
        t.ok(await t.contract(p.contract.name).isFeaturePaused(p.feature, t.at), `${p.contract.name} ${p.feature} paused`);
      t.rows(d.featurePauseEvents, 3, "pause history");
      t.sorted(d.featurePauseEvents, (r) => r.timestamp, "desc", "newest first");
    },
  },

  Upgrades: {
    async check(d, t) {
      t.rows(d.chxContracts, 20, "core contracts");
      t.sorted(d.chxContracts, (c) => c.name, "asc", "by name");
      for (const c of d.chxContracts) {
        t.ok(t.record.contracts[c.name], `${c.name} is a deployment name (the data source context)`);
        t.eq(c.upgrades.length, c.upgradeCount, `${c.name} upgrades`);
        t.eq(c.upgrades.at(-1)?.implementation, c.implementation, `${c.name} last upgrade = implementation`);
      }
    },
  },
};
