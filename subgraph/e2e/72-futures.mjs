// OPS-03 checks for the FuturesMarket (and its delegate-called FuturesDelivery module, whose events come from the
// market's address). Fresh wallets (funded with ETH by the deployer): an LP, a guarantor, traders alice (long,
// elects delivery), bob (short, delivers), dave (short, fails delivery), erin (opens and closes before expiry) and a
// keeper. The LP deposits in the LiquidityVault and the deployer (KEEPER) allocates to the futures market (the
// deploy's wiring module added it to the vault); a series is listed, traded against the vault, alice elects, bob
// escrows his CH, erin's record closes empty, gus's unproven short is closed after his guarantor's demand; at expiry the keeper fixes the price (12 USDC), the guardian
// corrects it inside the dispute window, the keeper finalises; bob settles himself (delivered), dave is settled by
// the keeper after the deadline (slashed 110 %), alice receives the CH and dave's slash; the keeper claims its
// bounties. compare(): every series (seriesInfo), every position (positionOf), the market's counters
// (seriesCount), bounties (bountiesOwed), open interest Σ, deliveries and slashes with the getters at each block.
import { Contract, Wallet, parseEther } from "ethers";

const usdc = (n) => BigInt(Math.round(n * 1e6));
const has = (ctx) =>
  ["FuturesMarket", "LiquidityVault", "GuarantorPool", "CHIndexFeed"].every((n) => ctx.record.contracts[n]);
const ERC20 = [
  "function mint(address,uint256)",
  "function approve(address,uint256) returns (bool)",
  "function balanceOf(address) view returns (uint256)",
];
const HOUR = 3_600;
const DAY = 86_400;
// Filled in by the scenario, read by compare (same process).
export const futuresSeen = { keeper: undefined, wallets: {} };

async function setIndex(ctx, priceWad) {
  const feed = new Contract(
    ctx.record.contracts.CHIndexFeed.address,
    ["function decimals() view returns (uint8)", "function setAnswer(int256)"],
    ctx.signers[0],
  );
  await ctx.send(feed.setAnswer(priceWad / 10n ** (18n - BigInt(await feed.decimals()))));
}

async function now(ctx) {
  return BigInt((await ctx.provider.getBlock("latest")).timestamp);
}

/** Moves the clock to `t` (if ahead) and writes a fresh index round. */
async function jumpTo(ctx, t, priceWad) {
  const n = await now(ctx);
  if (t > n) await ctx.mine(Number(t - n));
  await setIndex(ctx, priceWad);
}

export async function scenario(ctx) {
  if (!has(ctx)) return;
  const { send, wad } = ctx;
  const deployer = ctx.signers[0];
  const d = ctx.as(deployer);
  const w = futuresSeen.wallets;
  for (const k of ["lp", "guarantor", "alice", "bob", "dave", "erin", "gus", "keeper"]) {
    w[k] = Wallet.createRandom().connect(ctx.provider);
    await send(deployer.sendTransaction({ to: w[k].address, value: parseEther("10") }));
  }
  futuresSeen.keeper = w.keeper.address.toLowerCase();
  const { lp, guarantor, alice, bob, dave, erin, gus, keeper } = w;
  const token = (s) => new Contract(ctx.record.contracts.USDC.address, ERC20, s);
  const futures = ctx.record.contracts.FuturesMarket.address;
  const house = ctx.record.contracts.ClearingHouse.address;
  const pool = ctx.record.contracts.GuarantorPool.address;
  await setIndex(ctx, wad(10));

  // LP capital in the vault, allocated to the futures market (VaultFlow from the delegate module)
  await send(token(lp).mint(lp.address, usdc(200_000)));
  await send(token(lp).approve(ctx.record.contracts.LiquidityVault.address, usdc(200_000)));
  await send(ctx.as(lp)("LiquidityVault").deposit(usdc(200_000), lp.address));
  await send(d("AccessManager").grantRole(ctx.Roles.KEEPER, deployer.address, 0));
  await send(d("LiquidityVault").allocate(futures, usdc(100_000)));

  // a guarantor; traders with collateral; the shorts hold CH to deliver
  const [minDps] = await d("GuarantorPool").params();
  await send(d("DPSToken").transfer(guarantor.address, minDps));
  const gp = ctx.as(guarantor)("GuarantorPool");
  await send(gp.registerGuarantor(false, usdc(1e9)));
  await send(ctx.as(guarantor)("DPSToken").approve(pool, minDps));
  await send(gp.stakeDps(minDps));
  await send(token(guarantor).mint(guarantor.address, usdc(100_000)));
  await send(token(guarantor).approve(pool, usdc(100_000)));
  await send(gp.depositCapital(guarantor.address, usdc(100_000)));
  await send(d("AccessManager").grantRole(ctx.Roles.CH_MINTER, deployer.address, 0));
  for (const t of [alice, bob, dave, erin, gus]) {
    await send(gp.admitCustomer(t.address, usdc(1e9)));
    await send(token(t).mint(t.address, usdc(20_000)));
    await send(token(t).approve(house, usdc(20_000)));
    await send(ctx.as(t)("ClearingHouse").deposit(usdc(20_000)));
    await send(d("CHToken").mint(t.address, wad(1_000)));
    await send(ctx.as(t)("CHToken").approve(futures, wad(1_000)));
  }

  // a series 3 days out; trades against the vault; erin opens and closes (her record closes empty)
  const expiry = (await now(ctx)) + BigInt(3 * DAY);
  await send(d("FuturesMarket").listSeries(expiry, 0));
  const [seriesId] = await d("FuturesMarket").seriesCount();
  const f = (s) => ctx.as(s)("FuturesMarket");
  // two-step orders (docs/futures.md): commit, then after the delay the keeper executes at the round in force
  const trade = async (t, size) => {
    await send(size === 0n ? f(t).closePosition(seriesId, 0) : f(t).commitOrder(seriesId, size, 0));
    await ctx.mine(Number((await d("FuturesMarket").params()).minOrderDelaySec) + 1);
    const { priceTime } = await d("FuturesMarket").pendingOrder(seriesId, t.address);
    const roundId = await d("ComputePriceOracle").roundAt(priceTime);
    await send(f(keeper).executeOrder(t.address, seriesId, roundId));
  };
  await trade(alice, wad(500));
  await trade(bob, -wad(300));
  await trade(dave, -wad(200));
  await trade(erin, wad(50));
  await trade(erin, 0n);
  await send(f(alice).electDelivery(seriesId, wad(500)));
  await send(f(bob).deliver(seriesId, wad(300)));
  await send(f(dave).deliver(seriesId, wad(50)));
  await send(f(dave).withdrawEscrow(seriesId, wad(50))); // dave takes his CH back: he will fail
  // gus shorts 100; his guarantor demands proof, he escrows nothing, and after the window the keeper closes the
  // unproven short (PositionReduced UnprovenShort: the vault takes it over, gus's record closes empty)
  await trade(gus, -wad(100));
  await send(f(guarantor).demandDeliveryProof(seriesId, gus.address));
  await ctx.checkpoint();
  await ctx.mine(DAY + 1);
  await setIndex(ctx, wad(10));
  await send(f(keeper).closeUnproven(seriesId, gus.address));
  await ctx.checkpoint();

  // expiry: fixed at 12, corrected by the guardian (the deployer holds GUARDIAN locally), finalised. The settlement
  // price is the index TWAP over the hour before expiry, so the 12 round is published before that hour (a round in
  // force there must be younger than the feed's heartbeat), then the clock moves to expiry.
  await jumpTo(ctx, expiry - BigInt(2 * HOUR), wad(12));
  await jumpTo(ctx, expiry, wad(12));
  await send(f(keeper).fixSettlementPrice(seriesId));
  await send(d("AccessManager").grantRole(ctx.Roles.GUARDIAN, deployer.address, 0));
  await send(f(deployer).disputeSettlementPrice(seriesId, wad("11.9")));
  await ctx.checkpoint();
  await jumpTo(ctx, expiry + BigInt(2 * HOUR), wad(12));
  await send(f(keeper).finalizeSettlement(seriesId));
  const { deliveryDeadline } = await d("FuturesMarket").seriesInfo(seriesId);

  // delivery: bob settles himself; after the deadline the keeper settles dave (slashed), then alice
  await send(f(bob).settlePosition(seriesId, bob.address));
  await ctx.checkpoint();
  await jumpTo(ctx, deliveryDeadline, wad(12));
  // one keeper batch: dave first (slashed), which frees alice (longs wait for every short)
  await send(f(keeper).settlePositions(seriesId, [dave.address, alice.address]));
  await send(f(keeper).claimBounties(keeper.address));
  await ctx.checkpoint();
}

const big = (x) => BigInt(x ?? 0);

export async function compare(ctx) {
  if (!has(ctx)) return;
  const { replay, at, tag, eq, check } = ctx;
  const fm = ctx.contract("FuturesMarket");
  const m = replay.entity("FuturesMarketState", ctx.address("FuturesMarket"));
  const series = replay.entities("FuturesSeries");
  const [count, live] = await fm.seriesCount(at);
  eq(`futures series count ${tag}`, m?.seriesCount, count);
  if (!m) return;
  eq(`futures live series ${tag}`, m.liveSeries, live);
  let sumLong = 0n;
  let sumShort = 0n;
  for (const s of series) {
    const id = s.seriesId;
    const c = await fm.seriesInfo(id, at);
    const L = `futures series ${id}`;
    eq(`${L} long open interest ${tag}`, s.longOiCh, c.longOiCh);
    eq(`${L} short open interest ${tag}`, s.shortOiCh, c.shortOiCh);
    eq(`${L} open positions ${tag}`, s.openPositions, c.openPositions);
    eq(`${L} elected ${tag}`, s.electedCh, c.electedCh);
    eq(`${L} oi cap ${tag}`, s.oiCapCh, c.oiCapCh);
    eq(`${L} expiry ${tag}`, s.expiry, c.expiry);
    // the settlement price: proposed (and disputed) until final, then final
    eq(
      `${L} settlement price ${tag}`,
      s.status === "Trading" ? 0n : (s.settlementPriceWad ?? s.proposedPriceWad),
      c.settlementPriceWad,
    );
    eq(`${L} finalAt ${tag}`, s.finalAt, c.finalAt);
    eq(`${L} assignable short ${tag}`, s.assignableShortCh, c.assignableShortCh);
    eq(`${L} delivery deadline ${tag}`, s.deliveryDeadline, c.deliveryDeadline);
    eq(`${L} delivered ${tag}`, s.deliveredCh, c.deliveredCh);
    eq(`${L} received ${tag}`, s.receivedCh, c.receivedCh);
    eq(`${L} slashed ${tag}`, s.slashedUsdc, c.slashedUsdc);
    eq(`${L} compensated ${tag}`, s.compensatedUsdc, c.compensatedUsdc);
    const status =
      c.finalAt === 0n
        ? "Trading"
        : c.deliveryDeadline === 0n
          ? "Proposed"
          : c.openPositions === 0n
            ? "Settled"
            : "Final";
    check(`${L} status ${tag}`, s.status === status, `subgraph ${s.status} ≠ chain ${status}`);
    sumLong += big(s.longOiCh);
    sumShort += big(s.shortOiCh);
    // deliveries and slashes: the immutable rows add up to the series' totals
    const dels = replay.entities("FuturesDelivery").filter((x) => x.series === s.id);
    eq(
      `${L} Σ deliveries = delivered ${tag}`,
      dels.reduce((a, x) => a + big(x.deliveredCh), 0n),
      c.deliveredCh,
    );
    eq(
      `${L} Σ delivery slashes = slashed ${tag}`,
      dels.reduce((a, x) => a + big(x.slashedUsdc), 0n),
      c.slashedUsdc,
    );
    eq(`${L} failed deliveries ${tag}`, s.failedDeliveries, dels.filter((x) => x.failed).length);
    const rcv = replay.entities("FuturesDeliveryReceipt").filter((x) => x.series === s.id);
    eq(
      `${L} Σ receipts = received ${tag}`,
      rcv.reduce((a, x) => a + big(x.receivedCh), 0n),
      c.receivedCh,
    );
  }
  eq(`futures market long open interest = Σ series ${tag}`, m.longOiCh, sumLong);
  eq(`futures market short open interest = Σ series ${tag}`, m.shortOiCh, sumShort);
  for (const p of replay.entities("FuturesPosition")) {
    const s = series.find((x) => x.id === p.series);
    const account = "0x" + p.id.slice(2 + 40 + 8);
    const c = await fm.positionOf(s.seriesId, account, at);
    const L = `futures position ${s.seriesId}/${account.slice(0, 10)}`;
    eq(`${L} size ${tag}`, p.sizeCh, c.sizeCh);
    eq(`${L} entry price ${tag}`, p.sizeCh === "0" ? 0n : p.entryPriceWad, c.entryPriceWad);
    eq(`${L} elected ${tag}`, p.electedCh, c.electedCh);
    eq(`${L} escrow ${tag}`, p.escrowCh, c.escrowCh);
    check(`${L} open ${tag}`, p.open === c.open, `subgraph ${p.open} ≠ chain ${c.open}`);
  }
  const k = futuresSeen.keeper;
  if (k) {
    const [owed, total] = await fm.bountiesOwed(k, at);
    eq(`futures bounties owed (total) ${tag}`, big(m.bountiesCreditedUsdc) - big(m.bountiesClaimedUsdc), total);
    const credited = replay
      .entities("FuturesEvent")
      .filter((e) => e.account === k && (e.kind === "bounty" || e.kind === "bountiesClaimed"))
      .reduce((a, e) => a + (e.kind === "bounty" ? big(e.amount) : -big(e.amount)), 0n);
    eq(`futures keeper bounties owed ${tag}`, credited, owed);
  }
  const [pending, feesHeld] = await fm.pendingOrders(at);
  eq(`futures pending orders ${tag}`, big(m.pendingOrders), pending);
  eq(`futures order fees held ${tag}`, big(m.orderFeesHeldUsdc), feesHeld);
  const days = replay.entities("FuturesDayData");
  eq(
    `futures Σ daily trades ${tag}`,
    days.reduce((a, x) => a + big(x.tradeCount), 0n),
    m.tradeCount,
  );
  eq(
    `futures Σ daily delivered ${tag}`,
    days.reduce((a, x) => a + big(x.deliveredCh), 0n),
    m.deliveredCh,
  );
  eq(
    `futures Σ daily failed deliveries ${tag}`,
    days.reduce((a, x) => a + big(x.failedDeliveries), 0n),
    m.failedDeliveries,
  );
}
