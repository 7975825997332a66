// OPS-03 checks for positions, liquidations and every waterfall step, and spot fills. Signers: 17 a guarantor,
// 18 a trader, 19 the keeper; 8 (a compute provider holding CH) sells spot, 5 and 6 buy, 7 matches.
// Positions: a MockClearingMarket (the index is its counterparty; contracts/mocks, as the clearing tests use) is
// listed, the trader goes long, the CH index falls from 10 to 1 USDC and the keeper liquidates: the account's
// deficit walks the whole waterfall — the guarantor's capital, the InsuranceFund (sized so it is exhausted, which
// resets its shares) and auto-deleveraging of the keeper's opposite short (nothing is socialised). A second, healthy
// account keeps open interest.
// Spot: a taker fill of a signed sell order and a match of a crossing buy and sell (counted once).
// compare(): PnL pool per market (marketInfo) and open interest (Σ positionOf), every position (positionOf), collateral,
// guarantor capital, the insurance fund's assets, the socialised loss and accrued fees (totals), liquidation and
// waterfall-step counts against the receipts' events, and every spot order's fill (orderState) and pending fees.
import fs from "node:fs";
import { Contract, ContractFactory, MaxUint256, id } from "ethers";
import { domainOf, signOrder } from "@chx/sdk";
import { openInterestOf } from "../queries/_lib.mjs";

const usdc = (n) => BigInt(Math.round(n * 1e6));
const WAD = 10n ** 18n;
const has = (ctx) =>
  ["ClearingHouse", "GuarantorPool", "LiquidationEngine", "RiskEngine", "InsuranceFund", "CHIndexFeed"].every(
    (n) => ctx.record.contracts[n],
  );
const artifact = (p) => JSON.parse(fs.readFileSync(new URL(`../../artifacts/contracts/${p}`, import.meta.url)));
const ERC20 = [
  "function mint(address,uint256)",
  "function approve(address,uint256) returns (bool)",
  "function balanceOf(address) view returns (uint256)",
];
// Filled in by the scenario, read by compare (same process): the mock market and the events the chain emitted.
const seen = { market: undefined, liquidations: 0, steps: new Map(), orders: [] };

async function setIndex(ctx, priceWad) {
  const feed = new Contract(
    ctx.record.contracts.CHIndexFeed.address,
    ["function decimals() view returns (uint8)", "function setAnswer(int256)"],
    ctx.signers[0],
  );
  const dec = BigInt(await feed.decimals());
  await ctx.send(feed.setAnswer(priceWad / 10n ** (18n - dec)));
}

async function positions(ctx) {
  const { send, wad } = ctx;
  const deployer = ctx.signers[0];
  const [g, trader, keeper] = await Promise.all([17, 18, 19].map((i) => ctx.provider.getSigner(i)));
  const d = ctx.as(deployer);
  const house = ctx.record.contracts.ClearingHouse.address;
  const pool = ctx.record.contracts.GuarantorPool.address;
  const token = (s) => new Contract(ctx.record.contracts.USDC.address, ERC20, s);

  await setIndex(ctx, wad(10)); // also refreshes the feed after the days the earlier parts mined
  const a = artifact("mocks/MockClearingMarket.sol/MockClearingMarket.json");
  const m = await new ContractFactory(a.abi, a.bytecode, deployer).deploy(
    house,
    ctx.record.contracts.ComputePriceOracle.address,
    ctx.record.contracts.USDC.address,
  );
  await m.waitForDeployment();
  const market = (await m.getAddress()).toLowerCase();
  seen.market = market;
  await send(d("ClearingHouse").registerMarket(market));
  // it stands in for a perp market: its pool is LP capital that absorbs socialised loss (issue 17 item 14)
  await send(d("ClearingHouse").setMarketLossAbsorber(market, true));
  await send(
    d("RiskEngine").setMarketParams(market, {
      imMultipleWad: wad(3),
      mmMultipleWad: wad("1.5"),
      imFloorWad: wad("0.1"),
      mmFloorWad: wad("0.05"),
    }),
  );
  await send(d("AccessManager").grantRole(ctx.Roles.MARKET, market, 0));
  await send(m.setFeeBps(10)); // 0.1 % of notional per trade
  await send(token(deployer).mint(deployer.address, usdc(5000)));
  await send(token(deployer).approve(market, usdc(5000)));
  await send(m.fund(usdc(5000)));

  // The guarantor's capital G is sized so the deficit exhausts it and the insurance fund: the trader's notional is
  // 9.5·G (under the 10× leverage cap), collateral ≈ 1.02·G, a 90 % fall loses 8.55·G, so the deficit ≈ 7.5·G
  // exceeds G + the fund's assets; the keeper's small short (200 USDC notional) fits in the cap beside it.
  const fundAssets = await d("InsuranceFund").totalAssets();
  const G = fundAssets / 5n + usdc(500);
  const [minDps] = await d("GuarantorPool").params();
  await send(d("DPSToken").transfer(g.address, minDps));
  const gp = ctx.as(g)("GuarantorPool");
  await send(gp.registerGuarantor(false, usdc(1e9)));
  await send(ctx.as(g)("DPSToken").approve(pool, minDps));
  await send(gp.stakeDps(minDps));
  await send(token(g).mint(g.address, G + usdc(1000)));
  await send(token(g).approve(pool, G));
  await send(gp.depositCapital(g.address, G));
  for (const [who, collateral] of [
    [trader, G + G / 50n + usdc(20)],
    [keeper, usdc(1000)],
  ]) {
    await send(gp.admitCustomer(who.address, usdc(1e9)));
    await send(token(who).mint(who.address, collateral));
    await send(token(who).approve(house, collateral));
    await send(ctx.as(who)("ClearingHouse").deposit(collateral));
  }
  // trader: long 0.95·G CH at 10 USDC (notional 9.5·G); keeper: a small short that survives the fall
  const size = (G * WAD * 95n) / 100n / 10n ** 6n;
  const mk = new Contract(market, a.abi, trader);
  await send(mk.trade(size));
  await send(new Contract(market, a.abi, keeper).trade(-wad(20)));
  await send(mk.trade(-(size / 10n))); // reduce by a tenth (realised PnL 0 at the same index, a fee)
  await ctx.checkpoint();

  await setIndex(ctx, wad(1));
  const r = await send(ctx.as(keeper)("LiquidationEngine").liquidate(trader.address));
  const ch = d("ClearingHouse").interface;
  const le = d("LiquidationEngine").interface;
  for (const l of r.logs) {
    let ev;
    try {
      ev = ch.parseLog(l) ?? le.parseLog(l);
    } catch {
      try {
        ev = le.parseLog(l);
      } catch {
        ev = null;
      }
    }
    if (ev?.name === "DeficitAbsorbed") {
      const layer = Number(ev.args.layer ?? ev.args[1]);
      seen.steps.set(layer, (seen.steps.get(layer) ?? 0) + 1);
    }
    if (ev?.name === "AccountLiquidated") seen.liquidations++;
  }
  // The fund is exhausted: the rest goes to auto-deleveraging (docs/clearing.md). The keeper's short is the opposite,
  // profitable position: nominated, the window waited out, the round executed (layer 4, PositionDeleveraged).
  await send(ctx.as(keeper)("LiquidationEngine").nominateAdl(trader.address, keeper.address));
  const window = await d("LiquidationEngine").adlWindow();
  await ctx.provider.send("evm_increaseTime", [Number(window)]);
  await setIndex(ctx, wad(1)); // a fresh round of the feed after the window
  const x = await send(ctx.as(keeper)("LiquidationEngine").executeAdl(trader.address));
  for (const l of x.logs) {
    let ev = null;
    try {
      ev = ch.parseLog(l);
    } catch {
      ev = null;
    }
    if (ev?.name === "DeficitAbsorbed") {
      const layer = Number(ev.args.layer ?? ev.args[1]);
      seen.steps.set(layer, (seen.steps.get(layer) ?? 0) + 1);
    }
  }
  await setIndex(ctx, wad(10));
  await ctx.checkpoint();
}

async function spot(ctx) {
  const { send, wad } = ctx;
  if (!ctx.record.contracts.SpotMarket) return;
  const [deployer, buyer, buyer2, matcher, seller] = [0, 5, 6, 7, 8].map((i) => ctx.signers[i]);
  const spotAddr = ctx.record.contracts.SpotMarket.address;
  const usdcToken = (s) => new Contract(ctx.record.contracts.USDC.address, ERC20, s);
  for (const b of [buyer, buyer2]) {
    await send(usdcToken(deployer).mint(b.address, usdc(1000)));
    await send(usdcToken(b).approve(spotAddr, MaxUint256));
  }
  await send(ctx.as(seller)("CHToken").approve(spotAddr, MaxUint256));
  const domain = await domainOf(ctx.provider, "SpotMarket", spotAddr);
  const zero = "0x0000000000000000000000000000000000000000";
  const order = (maker, isBuy, amount, price, nonce) => ({
    maker: maker.address,
    isBuy,
    amountCh: amount,
    priceWad: price,
    nonce: BigInt(nonce) + (BigInt(id("e2e-spot")) % 1_000_000n),
    expiry: 2n ** 40n,
    taker: zero,
  });
  const ask = order(seller, false, wad(10), wad("2.5"), 1);
  const askSig = await signOrder(seller, domain, ask);
  await send(ctx.as(buyer)("SpotMarket").fillOrder(ask, askSig, wad(4)));
  const bid = order(buyer2, true, wad(3), wad(3), 2);
  const sell = order(seller, false, wad(5), wad("2.6"), 3);
  await send(
    ctx
      .as(matcher)("SpotMarket")
      .matchOrders(
        bid,
        await signOrder(buyer2, domain, bid),
        sell,
        await signOrder(seller, domain, sell),
        wad(3),
      ),
  );
  const spotC = ctx.as(deployer)("SpotMarket");
  // order state is keyed on chain by (maker, nonce); the digest selects the order (docs/spot.md)
  for (const o of [ask, bid, sell])
    seen.orders.push({ hash: (await spotC.orderDigest(o)).toLowerCase(), maker: o.maker, nonce: o.nonce });
  await ctx.checkpoint();
}

export async function scenario(ctx) {
  if (has(ctx)) await positions(ctx);
  await spot(ctx);
}

const big = (x) => BigInt(x ?? 0);

export async function compare(ctx) {
  const { replay, at, tag, check, eq } = ctx;
  if (has(ctx)) {
    const house = ctx.contract("ClearingHouse");
    const bad = [];
    // Every market: registration, PnL pool (marketInfo), and long and short open interest = Σ of the chain's
    // positions over the indexed ones (the ClearingHouse keeps no OI copy since round 47; a missed position shows).
    for (const mk of replay.entities("ClearingMarket")) {
      const [registered, poolUsdc] = await house.marketInfo(mk.id, at);
      const mine = replay.entities("Position").filter((r) => r.market === mk.id);
      const [longOi, shortOi] = await openInterestOf(house, mine, mk.id, at);
      if (mk.registered !== registered) bad.push(`${mk.id} registered`);
      if (big(mk.poolUsdc) !== poolUsdc) bad.push(`${mk.id} pool ${mk.poolUsdc} ≠ ${poolUsdc}`);
      if (big(mk.longOpenInterestCh) !== longOi) bad.push(`${mk.id} long OI ${mk.longOpenInterestCh} ≠ ${longOi}`);
      if (big(mk.shortOpenInterestCh) !== shortOi) bad.push(`${mk.id} short OI ${mk.shortOpenInterestCh} ≠ ${shortOi}`);
    }
    // Every position's size; the open notional where the events carry it (not after a liquidation, see docs).
    for (const p of replay.entities("Position")) {
      const c = await house.positionOf(p.marginAccount, p.market, at);
      if (big(p.sizeCh) !== c.sizeCh) bad.push(`${p.id} size ${p.sizeCh} ≠ ${c.sizeCh}`);
      if (big(p.liquidatedCh) === 0n && big(p.openNotionalUsdc) !== c.openNotionalUsdc)
        bad.push(`${p.id} open notional ${p.openNotionalUsdc} ≠ ${c.openNotionalUsdc}`);
    }
    const markets = replay.entities("ClearingMarket");
    const socialised = markets.reduce((s, m) => s + big(m.socialisedUsdc), 0n);
    const [feesUsdc, socialisedLoss] = await house.totals(at);
    if (socialised !== socialisedLoss) bad.push(`Σ socialised ${socialised} ≠ totals ${socialisedLoss}`);
    const flushed = replay
      .entities("ClearingEvent")
      .filter((e) => e.kind === "feesFlushed")
      .reduce((s, e) => s + big(e.amountUsdc), 0n);
    const fees = markets.reduce((s, m) => s + big(m.feesUsdc), 0n);
    if (fees - flushed !== feesUsdc) bad.push(`Σ market fees − flushed ${fees - flushed} ≠ totals ${feesUsdc}`);
    const fund = replay.entities("InsuranceFundState")[0];
    if (fund)
      eq(
        `insurance fund totalAssets ${tag}`,
        fund.totalAssetsUsdc,
        await ctx.contract("InsuranceFund").totalAssets(at),
      );
    // Liquidations and waterfall steps as the chain emitted them (only once the liquidation block is replayed).
    const liqs = replay.entities("Liquidation");
    const steps = replay.entities("DeficitStep");
    if (seen.liquidations && liqs.length) {
      if (liqs.length !== seen.liquidations) bad.push(`liquidations ${liqs.length} ≠ ${seen.liquidations}`);
      for (const [layer, n] of seen.steps) {
        const got = steps.filter((s) => Number(s.layer) === layer).length;
        if (got !== n) bad.push(`waterfall layer ${layer}: ${got} steps ≠ ${n}`);
      }
      for (const layer of [1, 2, 4])
        if (!steps.some((s) => Number(s.layer) === layer)) bad.push(`waterfall layer ${layer} never reached`);
      const acct = replay.entity("MarginAccount", liqs[0].account);
      if (!acct || Number(acct.liquidationCount) !== liqs.length)
        bad.push(`account liquidationCount ${acct?.liquidationCount}`);
      if (!liqs[0].guarantor) bad.push("the liquidation is not attributed to the account's guarantor");
    }
    check(`positions, open interest, pools, waterfall and totals ${tag}`, bad.length === 0, bad.join("; "));
  }
  if (ctx.record.contracts.SpotMarket && seen.orders.length) {
    const spotC = ctx.contract("SpotMarket");
    const bad = [];
    for (const o of replay.entities("SpotOrder")) {
      const key = seen.orders.find((k) => k.hash === String(o.id).toLowerCase());
      if (!key) {
        bad.push(`order ${o.id} not placed by this scenario`);
        continue;
      }
      const s = await spotC.orderState(key.maker, key.nonce, o.id, at);
      if (big(o.filledCh) !== s.filledCh) bad.push(`order ${o.id} filled ${o.filledCh} ≠ ${s.filledCh}`);
      if (o.cancelled !== s.cancelled) bad.push(`order ${o.id} cancelled`);
    }
    const state = replay.entities("SpotMarketState")[0];
    if (state) {
      eq(`spot pending fees ${tag}`, state.pendingFeesUsdc, await spotC.pendingFeesUsdc(at));
      const fills = replay.entities("SpotFill");
      const matches = replay.entities("SpotMatch");
      const volume =
        fills.reduce((s, f) => s + big(f.amountCh), 0n) - matches.reduce((s, m) => s + big(m.amountCh), 0n);
      if (volume !== big(state.volumeCh)) bad.push(`volume ${state.volumeCh} ≠ Σ fills − Σ matches ${volume}`);
      if (fills.length - matches.length !== Number(state.tradeCount)) bad.push(`tradeCount ${state.tradeCount}`);
    }
    check(`spot orders and fills match orderState/pendingFeesUsdc ${tag}`, bad.length === 0, bad.join("; "));
  }
}
