// Checks of the market queries of docs/queries.md (perpetuals, LP vault, futures, options, per-market daily data).
import { big, chainOpenInterest, expected, maxBy, pick, rowsOf, sameRows } from "./_lib.mjs";

const perpAddress = (t) => t.address("PerpMarket");

export const queries = {
  MarketsDaily: {
    variables: () => ({ from: 0 }),
    async check(d, t) {
      const rows = d.clearingMarketDayDatas;
      t.rows(rows, 3, "market days");
      t.sorted(rows, (r) => r.date, "desc", "newest first");
      const house = t.contract("ClearingHouse");
      for (const m of rowsOf(t, "ClearingMarket")) {
        const mine = rows.filter((r) => r.market.id === m.id);
        if (!mine.length) continue;
        t.eq(t.sum(mine, (r) => r.volumeCh), m.volumeCh, `${m.id} Σ daily volume`);
        const [, poolUsdc] = await house.marketInfo(m.id, t.at);
        const [longOi, shortOi] = await chainOpenInterest(t, m.id);
        const close = mine[0];
        t.eq(`${close.longOpenInterestCh}/${close.shortOpenInterestCh}`, `${longOi}/${shortOi}`, `${m.id} close OI = Σ positionOf()`);
        if (m.id === perpAddress(t).toLowerCase()) {
          const st = await t.contract("PerpMarket").marketState(t.at);
          t.eq(`${longOi}/${shortOi}`, `${st.longOiCh}/${st.shortOiCh}`, "perp OI = PerpMarket.marketState()");
        }
        t.eq(close.poolUsdc, poolUsdc, `${m.id} close pool = marketInfo()`);
      }
      t.ok(rows.some((r) => big(r.settledUsdc) !== 0n), "funding/premium settlements appear");
    },
  },

  Funding: {
    variables: (t) => ({ market: perpAddress(t) }),
    async check(d, t) {
      const rows = d.fundingUpdates;
      t.rows(rows, 3, "funding updates");
      t.sorted(rows, (r) => r.timestamp, "desc", "newest first");
      t.ok(new Set(rows.map((r) => r.kind)).size >= 2, "trades and pokes");
      const newest = expected(t, "FundingUpdate", { where: (r) => r.market === t.variables.market, key: (r) => r.timestamp, dir: "desc", first: 1 })[0];
      t.eq(`${rows[0].fundingIndexWad}/${rows[0].fundingRateWad}`, `${newest.fundingIndexWad}/${newest.fundingRateWad}`, "the newest update");
      // FundingSettled moves the index without a rate: the market's rate is the newest update's
      t.eq(rows[0].fundingRateWad, t.replay.entity("PerpMarket", t.variables.market).fundingRateWad, "= the market's rate");
    },
  },

  PerpDaily: {
    variables: (t) => ({ market: perpAddress(t) }),
    async check(d, t) {
      const rows = d.perpMarketDayDatas;
      t.rows(rows, 1, "days");
      const m = t.replay.entity("PerpMarket", perpAddress(t));
      t.eq(t.sum(rows, (r) => r.tradeCount), m.tradeCount, "Σ daily trades");
      const s = await t.contract("PerpMarket").marketState(t.at);
      t.eq(`${rows[0].longOiCh}/${rows[0].shortOiCh}`, `${s.longOiCh}/${s.shortOiCh}`, "last day closes at marketState() OI");
      t.every(rows, (r) => big(r.fundingRateLowWad) <= big(r.fundingRateCloseWad) && big(r.fundingRateCloseWad) <= big(r.fundingRateHighWad), "rate low ≤ close ≤ high");
    },
  },

  PerpMarket: {
    async check(d, t) {
      const [m] = d.perpMarkets;
      const s = await t.contract("PerpMarket").marketState(t.at);
      t.eq(`${m.longOiCh}/${m.shortOiCh}`, `${s.longOiCh}/${s.shortOiCh}`, "open interest");
      t.eq(m.burnReserveUsdc, s.burnReserveUsdc, "burn reserve");
      t.every(d.perpPositions, (p) => big(p.sizeCh) !== 0n, "open positions only (sizeCh_not)");
      for (const p of d.perpPositions)
        t.eq(p.sizeCh, (await t.contract("PerpMarket").accountState(p.account.id, t.at)).sizeCh, `size of ${p.account.id}`);
      t.eq(d.perpTrades.length, Math.min(50, rowsOf(t, "PerpTrade").length), "trades");
      t.sorted(d.perpTrades, (r) => r.timestamp, "desc", "newest first");
    },
  },

  Vault: {
    async check(d, t) {
      const [v] = d.liquidityVaultStates;
      const vault = t.contract("LiquidityVault");
      t.eq(v.totalShares, await vault.totalSupply(t.at), "shares = totalSupply()");
      t.eq(v.idleUsdc, await vault.idleUsdc(t.at), "idle USDC");
      t.rows(d.vaultLPs, 1, "LPs");
      t.sorted(d.vaultLPs, (r) => r.shares, "desc", "largest first");
      for (const lp of d.vaultLPs) t.eq(lp.shares, await vault.balanceOf(lp.account.id, t.at), `shares of ${lp.account.id}`);
      t.rows(d.vaultDayDatas, 1, "days");
      t.every(d.vaultDayDatas, (r) => big(r.sharePriceLowWad) <= big(r.sharePriceCloseWad) && big(r.sharePriceCloseWad) <= big(r.sharePriceHighWad), "price low ≤ close ≤ high");
    },
  },

  Futures: {
    async check(d, t) {
      const fm = t.contract("FuturesMarket");
      t.rows(d.futuresSeries_collection, 2, "series");
      t.sorted(d.futuresSeries_collection, (s) => s.expiry, "desc", "latest expiry first");
      for (const s of d.futuresSeries_collection) {
        const c = await fm.seriesInfo(s.seriesId, t.at);
        t.eq(`${s.longOiCh}/${s.shortOiCh}/${s.deliveredCh}/${s.slashedUsdc}`, `${c.longOiCh}/${c.shortOiCh}/${c.deliveredCh}/${c.slashedUsdc}`, `series ${s.seriesId} = seriesInfo()`);
      }
      t.rows(d.futuresDeliveries, 1, "failed deliveries");
      t.every(d.futuresDeliveries, (x) => big(x.deliveredCh) < big(x.assignedCh), "failed = delivered < assigned");
      t.rows(d.futuresSettlementPrices, 2, "settlement prices (proposed, disputed, final)");
    },
  },

  FuturesOpen: {
    variables: (t) => ({ series: maxBy(t, "FuturesSeries", (s) => s.slashedUsdc).id }),
    async check(d, t) {
      const sid = t.variables.series;
      const want = expected(t, "FuturesPosition", { where: (p) => p.series === sid && p.open });
      sameRows(t, d.futuresPositions, want, "open positions", "account", (p) => p.account);
      t.rows(d.slashed, 1, "slashed shorts");
      t.every(d.slashed, (p) => big(p.slashedUsdc) > 0n, "slashedUsdc_gt");
      t.eq(d.futuresReductions.length, rowsOf(t, "FuturesReduction", (r) => r.series === sid).length, "reductions");
      const c = await t.contract("FuturesMarket").seriesInfo(t.replay.entity("FuturesSeries", sid).seriesId, t.at);
      t.eq(d.futuresPositions.length, c.openPositions, "= seriesInfo().openPositions");
    },
  },

  Options: {
    async check(d, t) {
      const om = t.contract("OptionsMarket");
      t.rows(d.optionSeries_collection, 3, "series");
      t.sorted(d.optionSeries_collection, (s) => s.expiry, "asc", "by expiry");
      for (const s of d.optionSeries_collection) {
        const c = await om.series(s.seriesId, t.at);
        t.eq(s.openInterestCh, c.openInterestCh, `series ${s.seriesId} open interest = series()`);
      }
      t.every(d.optionEvents, (e) => ["written", "exercised", "settled"].includes(e.kind), "kind_in");
      t.eq(d.optionEvents.length, rowsOf(t, "OptionEvent", (e) => ["written", "exercised", "settled"].includes(e.kind)).length, "all of those events");
      t.rows(d.optionTrades, 1, "trades");
    },
  },

  OptionsBook: {
    variables: (t) => {
      const pos = pick(t, "OptionPosition", (p) => big(p.shortCh) > 0n || big(p.longCh) > 0n || big(p.writtenCh) > 0n);
      const maker = pick(t, "OptionMaker");
      return { account: pos.account, maker: maker.id, makerId: maker.id };
    },
    async check(d, t) {
      const om = t.contract("OptionsMarket");
      t.rows(d.optionPositions, 1, "positions");
      for (const p of d.optionPositions) {
        const c = await om.positionOf(p.series.seriesId, t.variables.account, t.at);
        t.eq(`${p.longCh}/${p.shortCh}/${p.collateralUsdc}`, `${c.longCh}/${c.shortCh}/${c.collateralUsdc}`, `position in series ${p.series.seriesId}`);
      }
      t.every(d.optionOffers, (o) => o.id, "offers");
      t.eq(d.optionOffers.length, rowsOf(t, "OptionOffer", (o) => o.maker === t.variables.maker).length, "the maker's offers");
      t.eq(d.optionMaker.minNonce, await om.minNonce(t.variables.maker, t.at), "minNonce()");
    },
  },
};
