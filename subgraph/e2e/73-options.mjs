// OPS-03 checks for the OptionsMarket (and its delegate-called OptionsSettlement module, whose events come from the
// market's address). Fresh wallets: carol writes, erin and frank buy, a keeper. Two cash-settled index series
// expiring together: a put struck at 12 and a call struck at 14 (cap 2), and a futures call (strike 9, cap 2)
// exercised into a futures series at settlement. Carol writes 100 of each and sells through
// signed offers (EIP-712, signed with the SDK's signOffer): 40 + 20 puts to erin and frank, 50 calls to erin; frank's
// signed buy offer for calls is filled by carol, another is cancelled and frank raises his nonce floor; carol closes
// 10 puts against her shorts, erin transfers 5 calls to frank. At expiry the index is 10: the put pays 2 per CH (in
// the money), the call is worthless. The keeper fixes both prices (bounty from the fees), the guardian corrects the
// put's inside the dispute window; once final erin exercises her puts herself, the keeper settles both series in
// pages, anyone withdraws the fees. compare(): every series (series, seriesStatus, payoffPerCh), every position
// (positionOf: longs, shorts, collateral), offers (offerState), nonce floors (minNonce), pending fees (poolClaims),
// counters (seriesCount, liveSeries), collateral and payout sums with the getters at each checkpoint block.
import { Contract, Wallet, parseEther } from "ethers";
import { domainOf, signOffer } from "@chx/sdk";
import { futuresSeen } from "./72-futures.mjs";

const usdc = (n) => BigInt(Math.round(n * 1e6));
const has = (ctx) => ["OptionsMarket", "ClearingHouse", "CHIndexFeed"].every((n) => ctx.record.contracts[n]);
const ERC20 = ["function mint(address,uint256)", "function approve(address,uint256) returns (bool)"];
const HOUR = 3_600;
const DAY = 86_400;
const ZERO = "0x0000000000000000000000000000000000000000";
// Filled in by the scenario, read by compare (same process).
export const optionsSeen = { offers: [], makers: [] };

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
  const w = {};
  for (const k of ["carol", "erin", "frank", "keeper"]) {
    w[k] = Wallet.createRandom().connect(ctx.provider);
    await send(deployer.sendTransaction({ to: w[k].address, value: parseEther("10") }));
  }
  const { carol, erin, frank, keeper } = w;
  const market = ctx.record.contracts.OptionsMarket.address;
  const house = ctx.record.contracts.ClearingHouse.address;
  const token = (s) => new Contract(ctx.record.contracts.USDC.address, ERC20, s);
  const domain = await domainOf(ctx.provider, "OptionsMarket", market);
  await setIndex(ctx, wad(10));
  for (const t of [carol, erin, frank]) {
    await send(token(t).mint(t.address, usdc(50_000)));
    await send(token(t).approve(house, usdc(50_000)));
    await send(ctx.as(t)("ClearingHouse").deposit(usdc(50_000)));
  }
  const o = (s) => ctx.as(s)("OptionsMarket");

  // two index series expiring together: a put at 12 and a call at 14 capped at 2
  const expiry = (await now(ctx)) + BigInt(2 * DAY);
  const list = async (kind, strike, cap) => {
    await send(
      d("OptionsMarket").listSeries({
        kind,
        onFutures: false,
        futuresSeriesId: 0,
        expiry,
        strikeWad: strike,
        capWad: cap,
      }),
    );
    return d("OptionsMarket").seriesCount();
  };
  const put = await list(1, wad(12), 0n);
  const call = await list(0, wad(14), wad(2));
  await send(o(carol).write(put, wad(100)));
  await send(o(carol).write(call, wad(100)));
  // a futures call (strike 9, cap 2) on a futures series expiring later: carol writes 20 and gives them to erin;
  // at settlement each holder–writer pair exercises into the futures series (or, if the futures trade is refused,
  // pays the intrinsic value in cash): FuturesExercised here, FuturesTraded on the FuturesMarket
  let futOpt;
  if (ctx.record.contracts.FuturesMarket) {
    await send(d("FuturesMarket").listSeries(expiry + BigInt(8 * DAY), 0));
    const [futuresSeriesId] = await d("FuturesMarket").seriesCount();
    await send(
      d("OptionsMarket").listSeries({
        kind: 0,
        onFutures: true,
        futuresSeriesId,
        expiry,
        strikeWad: wad(9),
        capWad: wad(2),
      }),
    );
    futOpt = await d("OptionsMarket").seriesCount();
    // futures positions need a guarantor: the futures part's guarantor admits the pair
    const g = futuresSeen.wallets.guarantor;
    if (g) for (const t of [carol, erin]) await send(ctx.as(g)("GuarantorPool").admitCustomer(t.address, usdc(1e9)));
    await send(o(carol).write(futOpt, wad(20)));
    await send(o(carol).transferLong(futOpt, erin.address, wad(20)));
  }

  const offer = async (maker, fields) => {
    const off = { maker: maker.address, isBuy: false, expiry: 2n ** 40n, taker: ZERO, ...fields };
    const sig = await signOffer(maker, domain, off);
    optionsSeen.offers.push(await d("OptionsMarket").offerHash(off));
    return { off, sig };
  };
  // carol sells puts (two takers) and calls through signed offers
  const sellPut = await offer(carol, { seriesId: put, sizeCh: wad(60), premiumWad: wad("2.5"), nonce: 1n });
  await send(o(erin).fillOffer(sellPut.off, sellPut.sig, wad(40)));
  await send(o(frank).fillOffer(sellPut.off, sellPut.sig, wad(20)));
  const sellCall = await offer(carol, { seriesId: call, sizeCh: wad(50), premiumWad: wad("0.3"), nonce: 2n });
  await send(o(erin).fillOffer(sellCall.off, sellCall.sig, wad(50)));
  // frank's buy offer for calls, filled by carol (from her longs); another one cancelled; his nonce floor raised
  const buyCall = await offer(frank, {
    seriesId: call,
    isBuy: true,
    sizeCh: wad(10),
    premiumWad: wad("0.2"),
    nonce: 1n,
  });
  await send(o(carol).fillOffer(buyCall.off, buyCall.sig, wad(10)));
  const cancelled = await offer(frank, { seriesId: put, isBuy: true, sizeCh: wad(5), premiumWad: wad(1), nonce: 2n });
  await send(o(frank).cancelOffer(cancelled.off));
  await send(o(frank).raiseMinNonce(5n));
  optionsSeen.makers.push(frank.address.toLowerCase(), carol.address.toLowerCase());
  // carol closes 10 puts against her shorts; erin gives 5 calls to frank
  await send(o(carol).close(put, wad(10)));
  await send(o(erin).transferLong(call, frank.address, wad(5)));
  await ctx.checkpoint();

  // expiry at 10: the put is 2 in the money, the call worthless; prices fixed, the put's corrected and back
  await jumpTo(ctx, expiry, wad(10));
  await send(o(keeper).fixSettlementPrice(put));
  await send(o(keeper).fixSettlementPrice(call));
  if (futOpt) await send(o(keeper).fixSettlementPrice(futOpt));
  await send(d("AccessManager").grantRole(ctx.Roles.GUARDIAN, deployer.address, 0));
  await send(o(deployer).correctSettlementPrice(put, wad("10.5")));
  await send(o(deployer).correctSettlementPrice(put, wad(10)));
  await ctx.checkpoint();

  // final: erin exercises her puts herself, the keeper settles the rest in pages, the fees go out
  await jumpTo(ctx, expiry + BigInt(2 * HOUR), wad(10));
  await send(o(erin).exercise(put, erin.address));
  await send(o(keeper).settleSeries(put, 1n));
  await ctx.checkpoint();
  await send(o(keeper).settleSeries(put, 10n));
  await send(o(keeper).settleSeries(call, 10n));
  if (futOpt) await send(o(keeper).settleSeries(futOpt, 10n));
  await send(o(keeper).withdrawFees());
  await ctx.checkpoint();
}

const big = (x) => BigInt(x ?? 0);
const STATUS = ["None", "Trading", "Trading", "Fixed", "Fixed", "Settled"]; // SeriesStatus → the indexed status

export async function compare(ctx) {
  if (!has(ctx)) return;
  const { replay, at, tag, eq, check } = ctx;
  const om = ctx.contract("OptionsMarket");
  const m = replay.entity("OptionsMarketState", ctx.address("OptionsMarket"));
  eq(`options series count ${tag}`, m?.seriesCount, await om.seriesCount(at));
  if (!m) return;
  eq(`options live series ${tag}`, m.liveSeries, await om.liveSeries(at));
  const [fees] = await om.poolClaims(at);
  eq(`options pending fees ${tag}`, m.pendingFeesUsdc, fees);
  const positions = replay.entities("OptionPosition");
  let sumOi = 0n;
  let sumPayout = 0n;
  for (const s of replay.entities("OptionSeries")) {
    const id = s.seriesId;
    const c = await om.series(id, at);
    const L = `options series ${id} (${s.kind})`;
    eq(`${L} open interest ${tag}`, s.openInterestCh, c.openInterestCh);
    eq(`${L} collateral posted ${tag}`, s.postedUsdc, c.postedUsdc);
    eq(`${L} paid out ${tag}`, s.paidUsdc, c.paidUsdc);
    eq(`${L} collateral released ${tag}`, s.releasedUsdc, c.releasedUsdc);
    eq(`${L} strike ${tag}`, s.strikeWad, c.strikeWad);
    eq(`${L} cap ${tag}`, s.capWad, c.capWad);
    eq(`${L} settlement price ${tag}`, s.settlementPriceWad, c.settlementPriceWad);
    if (s.settlementPriceWad != null)
      eq(`${L} payoff per CH ${tag}`, s.payoffPerChWad, await om.payoffPerCh(id, c.settlementPriceWad, at));
    const status = STATUS[Number(await om.seriesStatus(id, at))];
    check(`${L} status ${tag}`, s.status === status, `subgraph ${s.status} ≠ chain ${status}`);
    if (s.status === "Settled") {
      eq(`${L} accounts ${tag}`, s.accountCount, c.accountCount);
      eq(`${L} settlement cursor ${tag}`, s.settlementCursor, c.cursor);
    }
    const mine = positions.filter((p) => p.series === s.id);
    const collateral = mine.reduce((a, p) => a + big(p.collateralUsdc), 0n);
    // MKT-07: what is still held for the writers is what was posted less what was paid and released (while the
    // series trades; during settlement holders are paid before their writers are released)
    if (c.priceFixedAt === 0n)
      eq(
        `${L} Σ position collateral = posted − paid − released ${tag}`,
        collateral,
        c.postedUsdc - c.paidUsdc - c.releasedUsdc,
      );
    if (c.settled) eq(`${L} Σ position collateral after settlement ${tag}`, collateral, 0n);
    eq(
      `${L} Σ position payouts = paid ${tag}`,
      mine.reduce((a, p) => a + big(p.payoutUsdc), 0n),
      c.paidUsdc,
    );
    eq(
      `${L} Σ shorts = open interest ${tag}`,
      mine.reduce((a, p) => a + big(p.shortCh), 0n),
      c.openInterestCh,
    );
    sumOi += big(s.openInterestCh);
    sumPayout += big(s.paidUsdc);
  }
  eq(`options market open interest = Σ series ${tag}`, m.openInterestCh, sumOi);
  eq(`options market payouts = Σ series paid ${tag}`, m.payoutUsdc, sumPayout);
  for (const p of positions) {
    const s = replay.entities("OptionSeries").find((x) => x.id === p.series);
    const account = "0x" + p.id.slice(2 + 40 + 8);
    const c = await om.positionOf(s.seriesId, account, at);
    const L = `options position ${s.seriesId}/${account.slice(0, 10)}`;
    eq(`${L} long ${tag}`, p.longCh, c.longCh);
    eq(`${L} short ${tag}`, p.shortCh, c.shortCh);
    eq(`${L} collateral ${tag}`, p.collateralUsdc, c.collateralUsdc);
  }
  for (const hash of optionsSeen.offers) {
    const x = replay.entity("OptionOffer", hash.toLowerCase());
    const [filled, cancelled] = await om.offerState(hash, at);
    eq(`options offer ${hash.slice(0, 10)} filled ${tag}`, x?.filledCh, filled);
    check(
      `options offer ${hash.slice(0, 10)} cancelled ${tag}`,
      (x?.cancelled ?? false) === cancelled,
      `${x?.cancelled} ≠ ${cancelled}`,
    );
  }
  for (const maker of optionsSeen.makers)
    eq(
      `options min nonce ${maker.slice(0, 10)} ${tag}`,
      replay.entity("OptionMaker", maker)?.minNonce,
      await om.minNonce(maker, at),
    );
  const days = replay.entities("OptionsDayData");
  eq(
    `options Σ daily payouts ${tag}`,
    days.reduce((a, x) => a + big(x.payoutUsdc), 0n),
    m.payoutUsdc,
  );
  eq(
    `options Σ daily trades ${tag}`,
    days.reduce((a, x) => a + big(x.tradeCount), 0n),
    m.tradeCount,
  );
  eq(
    `options Σ daily written ${tag}`,
    days.reduce((a, x) => a + big(x.writtenCh), 0n),
    m.writtenCh,
  );
}
