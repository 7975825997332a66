// Checks of the insurance, oracle, clearing and spot queries of docs/queries.md.
import { big, chainOpenInterest, expected, maxBy, pick, rowsOf, sameRows, spotOrderNonce } from "./_lib.mjs";

const fund = (t) => t.contract("InsuranceFund");
const house = (t) => t.contract("ClearingHouse");

/** The account the scenario liquidated (positions, waterfall, PnL). */
const liquidated = (t) => pick(t, "Liquidation");

export const queries = {
  InsuranceFund: {
    async check(d, t) {
      const [s] = d.insuranceFundStates;
      t.eq(s.totalAssetsUsdc, await fund(t).totalAssets(t.at), "totalAssets()");
      t.eq(s.totalShares, await fund(t).totalShares(t.at), "totalShares()");
      t.eq(s.sharePriceWad, await fund(t).previewWithdraw(10n ** 24n, t.at), "share price = previewWithdraw(1e24)");
      t.sorted(d.insuranceStakers, (x) => x.shares, "desc", "largest first");
      t.eq(d.insuranceStakers.length, rowsOf(t, "InsuranceStaker").length, "stakers");
    },
  },

  InsuranceHistory: {
    async check(d, t) {
      const rows = d.insuranceFundDayDatas;
      t.rows(rows, 1, "days");
      t.sorted(rows, (r) => r.date, "desc", "newest first");
      t.eq(rows[0].closeAssetsUsdc, await fund(t).totalAssets(t.at), "last day closes at totalAssets()");
      const [s] = rowsOf(t, "InsuranceFundState");
      t.eq(t.sum(rows, (r) => r.stakedUsdc), s.stakedUsdc, "Σ staked");
      t.every(rows, (r) => big(r.lowAssetsUsdc) <= big(r.closeAssetsUsdc) && big(r.closeAssetsUsdc) <= big(r.highAssetsUsdc), "low ≤ close ≤ high");
    },
  },

  InsuranceSharePrice: {
    async check(d, t) {
      const days = d.insuranceFundDayDatas;
      t.rows(days, 1, "days");
      t.sorted(days, (r) => r.date, "asc", "by date");
      t.eq(days.at(-1).sharePriceCloseWad, await fund(t).previewWithdraw(10n ** 24n, t.at), "close = previewWithdraw(1e24)");
      t.every(days, (r) => big(r.sharePriceLowWad) <= big(r.sharePriceCloseWad) && big(r.sharePriceCloseWad) <= big(r.sharePriceHighWad), "low ≤ close ≤ high");
      // the scenario exhausts the fund (share reset): the price moved off par within the history
      t.ok(days.some((r) => big(r.sharePriceLowWad) !== big(r.sharePriceHighWad) || big(r.sharePriceOpenWad) !== 10n ** 18n), "the price moved");
      t.rows(d.insuranceFundHourDatas, 1, "hours");
      t.sorted(d.insuranceFundHourDatas, (r) => r.date, "desc", "hours newest first");
    },
  },

  BadDebt: {
    variables: (t) => ({ shareEpoch: rowsOf(t, "InsuranceFundState")[0].shareEpoch }),
    async check(d, t) {
      t.rows(d.badDebt, 1, "bad debt presented to the fund");
      t.every(d.badDebt, (e) => big(e.amountUsdc) + big(e.uncoveredUsdc) === big(e.requestedUsdc), "covered + uncovered = requested");
      for (const s of d.pending) t.eq(s.requestShares, (await fund(t).withdrawRequest(s.id, t.at)).shares, `request of ${s.id}`);
      t.every(d.pending, (s) => big(s.requestShares) > 0n, "requestShares_gt");
      // the stale request the scenario's share reset voided is not listed
      t.ok(rowsOf(t, "InsuranceStaker", (s) => big(s.requestShares) > 0n && s.shareEpoch !== t.variables.shareEpoch).length > 0, "a voided request exists in the store");
    },
  },

  Oracle: {
    async check(d, t) {
      const [c] = d.oracleConfigs;
      const [minP, maxP] = await t.contract("ComputePriceOracle").priceBounds(t.at);
      t.eq(`${c.minPriceWad}/${c.maxPriceWad}`, `${minP}/${maxP}`, "priceBounds()");
      t.rows(d.oracleConfigChanges, 1, "configuration changes");
      t.sorted(d.oracleConfigChanges, (r) => r.timestamp, "asc", "in time order");
    },
  },

  Liquidations: {
    async check(d, t) {
      t.rows(d.liquidations, 1, "liquidations");
      for (const l of d.liquidations) {
        const steps = rowsOf(t, "DeficitStep", (s) => s.transactionHash === l.transactionHash);
        const layer = (n) => steps.filter((s) => s.layer === n).reduce((a, s) => a + big(s.amountUsdc), 0n);
        t.eq(`${l.guarantorUsdc}/${l.insuranceUsdc}/${l.socialisedUsdc}`, `${layer(1)}/${layer(2)}/${layer(3)}`, "layer amounts = the transaction's DeficitSteps");
        t.eq(l.deficitUsdc, big(l.guarantorUsdc) + big(l.insuranceUsdc) + big(l.socialisedUsdc), "deficit = Σ layers");
        t.ok(l.positionsClosed >= 1 && big(l.closedCh) > 0n, "the positions it closed");
      }
      // the scenario's liquidation walks every layer: the guarantor and the insurance fund in the liquidation, the
      // rest by auto-deleveraging (layer 4, its own transaction: executeAdl); nothing is socialised any more
      t.ok(d.liquidations.some((l) => big(l.guarantorUsdc) > 0n && big(l.insuranceUsdc) > 0n), "guarantor and insurance absorbed part");
      t.ok(rowsOf(t, "DeficitStep", (s) => s.layer === 4).length > 0, "the rest was deleveraged (ADL steps)");
    },
  },

  GuarantorLiquidations: {
    async check(d, t) {
      t.rows(d.guarantors, 1, "guarantors");
      t.sorted(d.guarantors, (g) => g.lossesPaidUsdc, "desc", "by losses paid");
      const pool = t.contract("GuarantorPool");
      for (const g of d.guarantors) {
        const info = await pool.guarantorInfo(g.id, t.at);
        t.eq(`${g.capitalUsdc}/${g.exposureUsdc}`, `${info.capitalUsdc}/${info.exposureUsdc}`, `guarantorInfo(${g.id})`);
        t.eq(g.liquidations.length, rowsOf(t, "Liquidation", (l) => l.guarantor === g.id).length, "its liquidations (derived)");
      }
      t.ok(d.guarantors.some((g) => g.liquidations.length && g.deficitSteps.length), "a guarantor with a liquidation and its steps");
    },
  },

  Waterfall: {
    variables: (t) => ({ tx: liquidated(t).transactionHash }),
    async check(d, t) {
      const want = expected(t, "DeficitStep", { where: (s) => s.transactionHash === t.variables.tx, key: (s) => s.logIndex });
      t.rows(d.deficitSteps, 2, "steps of the transaction (guarantor, insurance; ADL follows in its own)");
      t.eq(d.deficitSteps.map((s) => s.layerName).join(), want.map((s) => s.layerName).join(), "in log order");
      for (const m of d.clearingMarkets) {
        const [, pool] = await house(t).marketInfo(m.id, t.at);
        const [longOi, shortOi] = await chainOpenInterest(t, m.id);
        t.eq(`${m.poolUsdc}/${m.longOpenInterestCh}/${m.shortOpenInterestCh}`, `${pool}/${longOi}/${shortOi}`, `marketInfo(${m.id}), Σ positionOf()`);
      }
    },
  },

  MarginAccount: {
    variables: (t) => ({ account: liquidated(t).account }),
    async check(d, t) {
      const a = d.marginAccount;
      t.eq(a.collateralUsdc, await house(t).collateralOf(t.variables.account, t.at), "collateralOf()");
      t.rows(a.positions, 1, "positions (derived)");
      for (const p of a.positions) {
        const c = await house(t).positionOf(t.variables.account, p.market.id, t.at);
        t.eq(p.sizeCh, c.sizeCh, `size in ${p.market.id}`);
        t.eq(p.unrealisedPnlUsdc, (big(p.sizeCh) * big(p.markPriceWad)) / 10n ** 30n - big(p.openNotionalUsdc), "unrealised = size × mark − cost");
      }
      t.eq(a.unrealisedPnlUsdc, t.sum(a.positions, (p) => p.unrealisedPnlUsdc), "account unrealised = Σ positions");
    },
  },

  UncoveredCollateral: {
    async check(d, t) {
      const s = d.clearingStats;
      t.ok(s !== null, "a ClearingStats row (the scenario's liquidation took an account below zero)");
      t.eq(s?.uncoveredCollateralUsdc, await house(t).uncoveredCollateralUsdc(t.at), "uncoveredCollateralUsdc()");
      const want = expected(t, "MarginAccount", { where: (a) => big(a.collateralUsdc) < 0n, key: (a) => a.collateralUsdc });
      // the scenario's liquidated account keeps the deficit ADL could not cover (the keeper's short is far smaller)
      t.rows(d.marginAccounts, 1, "accounts below zero");
      sameRows(t, d.marginAccounts, want, "accounts below zero, most negative first");
      t.eq(s?.accountsInDeficit, want.length, "accountsInDeficit = the accounts below zero");
      t.eq(s?.uncoveredCollateralUsdc, -t.sum(d.marginAccounts, (a) => a.collateralUsdc), "total = Σ their deficits");
      for (const a of d.marginAccounts) t.eq(a.collateralUsdc, await house(t).collateralOf(a.id, t.at), `collateralOf(${a.id})`);
      // the chain's reports (round 47): the latest (block, then log index) is the total now
      const h = d.history;
      t.ok(h.length > 0, "UncoveredCollateralChanged reports indexed");
      t.sorted(h, (r) => r.blockNumber, "desc", "newest block first");
      const later = (r, m) => big(r.blockNumber) > big(m.blockNumber) || (r.blockNumber === m.blockNumber && big(r.logIndex) > big(m.logIndex));
      const latest = h.reduce((m, r) => (later(r, m) ? r : m));
      t.eq(latest.amountUsdc, await house(t).uncoveredCollateralUsdc(t.at), "latest report = uncoveredCollateralUsdc()");
    },
  },

  AccountPnl: {
    variables: (t) => {
      const a = maxBy(t, "MarginAccount", (x) => rowsOf(t, "PositionChange", (c) => c.account === x.id).length);
      return { account: a.id, marginAccount: a.id };
    },
    async check(d, t) {
      const a = t.replay.entity("MarginAccount", t.variables.account);
      const rows = d.positionChanges;
      t.rows(rows, 2, "position changes");
      t.sorted(rows, (r) => r.timestamp, "asc", "in time order");
      t.eq(t.sum(rows, (r) => r.realisedPnlUsdc), a.realisedPnlUsdc, "Σ realised = the account's");
      t.eq(rows.at(-1).accountRealisedPnlUsdc, a.realisedPnlUsdc, "last snapshot = the account's realised PnL");
      t.rows(d.marginAccountDayDatas, 1, "days");
      t.eq(d.marginAccountDayDatas.at(-1).collateralUsdc, await house(t).collateralOf(t.variables.account, t.at), "last day's collateral = collateralOf()");
      t.eq(t.sum(d.marginAccountDayDatas, (r) => r.realisedPnlUsdc), a.realisedPnlUsdc, "Σ daily realised");
    },
  },

  Risk: {
    async check(d, t) {
      t.rows(d.volatilityStates, 1, "volatility state");
      t.sorted(d.volatilityUpdates, (r) => r.timestamp, "desc", "newest first");
      t.rows(d.marketRiskParams_collection, 1, "risk parameters");
      t.rows(d.clearingConfigChanges, 1, "configuration changes");
    },
  },

  SpotCandles: {
    async check(d, t) {
      t.rows(d.spotCandleDays, 1, "candles");
      const [s] = rowsOf(t, "SpotMarketState");
      t.eq(t.sum(d.spotCandleDays, (c) => c.volumeCh), s.volumeCh, "Σ daily volume = market volume");
      t.every(d.spotCandleDays, (c) => big(c.lowPriceWad) <= big(c.closePriceWad) && big(c.closePriceWad) <= big(c.highPriceWad), "low ≤ close ≤ high");
    },
  },

  Spot: {
    async check(d, t) {
      const [s] = d.spotMarketStates;
      t.eq(s.pendingFeesUsdc, await t.contract("SpotMarket").pendingFeesUsdc(t.at), "pendingFeesUsdc()");
      t.rows(d.spotFills, 2, "fills");
      t.sorted(d.spotFills, (f) => f.timestamp, "desc", "newest first");
      t.rows(d.spotMatches, 1, "matches");
      t.eq(t.sum(d.spotFills, (f) => f.amountCh) - t.sum(d.spotMatches, (m) => m.amountCh), s.volumeCh, "volume = Σ fills − Σ matches");
    },
  },

  SpotMaker: {
    variables: (t) => {
      const maker = pick(t, "SpotOrder").maker;
      return { maker, trader: maker };
    },
    async check(d, t) {
      t.rows(d.spotOrders, 1, "orders");
      t.eq(d.spotOrders.length, rowsOf(t, "SpotOrder", (o) => o.maker === t.variables.maker).length, "the maker's orders");
      const spot = t.contract("SpotMarket");
      for (const o of d.spotOrders) {
        const state = await spot.orderState(t.variables.maker, await spotOrderNonce(t, o.id), o.id, t.at);
        t.eq(o.filledCh, state.filledCh, `orderState(${o.id})`);
      }
      t.ok(d.spotTrader === null || d.spotTrader.minNonce !== undefined, "seat row (null when the maker never took one)");
    },
  },
};
