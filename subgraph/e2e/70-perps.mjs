// OPS-03 checks for the perpetuals and their LP vault. Every signer 0-19 belongs to an earlier part, so this part
// makes fresh wallets (funded with ETH by the deployer): an LP, a guarantor and two traders. The LP deposits, the
// deployer (given KEEPER) allocates capital to the PerpMarket, trader A orders long 100 CH, trader B short 40 (delayed
// orders: committed, executed by the deployer after the delay), an hour later the funding is poked, A reduces by 30
// and B's funding is settled; the LP moves part of its shares to A; a last order of B expires and is cancelled.
// compare(): the market (marketState: funding index and rate, last accrual, open interest, burn reserve, keeper
// bounties owed), every perp position (accountState: size, funding snapshot, pending funding; positionOf: cost
// basis), the vault's shares, idle USDC and each LP's balance with the getters.
import { Contract, Wallet, parseEther } from "ethers";

const usdc = (n) => BigInt(Math.round(n * 1e6));
const has = (ctx) => ctx.record.contracts.PerpMarket && ctx.record.contracts.LiquidityVault;
const ERC20 = [
  "function mint(address,uint256)",
  "function approve(address,uint256) returns (bool)",
  "function balanceOf(address) view returns (uint256)",
];
const wallets = {};

export async function scenario(ctx) {
  if (!has(ctx)) return;
  const { send, wad, mine } = ctx;
  const deployer = ctx.signers[0];
  const d = ctx.as(deployer);
  for (const k of ["lp", "guarantor", "a", "b"]) {
    wallets[k] = Wallet.createRandom().connect(ctx.provider);
    await send(deployer.sendTransaction({ to: wallets[k].address, value: parseEther("10") }));
  }
  const { lp, guarantor, a, b } = wallets;
  const token = (s) => new Contract(ctx.record.contracts.USDC.address, ERC20, s);
  const vault = ctx.record.contracts.LiquidityVault.address;
  const house = ctx.record.contracts.ClearingHouse.address;
  const pool = ctx.record.contracts.GuarantorPool.address;
  const perp = ctx.record.contracts.PerpMarket.address;

  // the index: a fresh round at 10 USDC (earlier parts mined days, the feed would be stale)
  const feed = new Contract(
    ctx.record.contracts.CHIndexFeed.address,
    ["function decimals() view returns (uint8)", "function setAnswer(int256)"],
    deployer,
  );
  await send(feed.setAnswer(wad(10) / 10n ** (18n - BigInt(await feed.decimals()))));

  // LP capital, allocated by the keeper
  await send(token(lp).mint(lp.address, usdc(50_000)));
  await send(token(lp).approve(vault, usdc(50_000)));
  await send(ctx.as(lp)("LiquidityVault").deposit(usdc(50_000), lp.address));
  await send(d("AccessManager").grantRole(ctx.Roles.KEEPER, deployer.address, 0));
  await send(d("LiquidityVault").allocate(perp, usdc(40_000)));

  // a guarantor and two traders with collateral
  const [minDps] = await d("GuarantorPool").params();
  await send(d("DPSToken").transfer(guarantor.address, minDps));
  const gp = ctx.as(guarantor)("GuarantorPool");
  await send(gp.registerGuarantor(false, usdc(1e9)));
  await send(ctx.as(guarantor)("DPSToken").approve(pool, minDps));
  await send(gp.stakeDps(minDps));
  await send(token(guarantor).mint(guarantor.address, usdc(20_000)));
  await send(token(guarantor).approve(pool, usdc(20_000)));
  await send(gp.depositCapital(guarantor.address, usdc(20_000)));
  for (const t of [a, b]) {
    await send(gp.admitCustomer(t.address, usdc(1e9)));
    await send(token(t).mint(t.address, usdc(2_000)));
    await send(token(t).approve(house, usdc(2_000)));
    await send(ctx.as(t)("ClearingHouse").deposit(usdc(2_000)));
  }
  // orders fill at the index in force after their delay; the deployer executes them (and earns the fee)
  const execute = async (traders) => {
    await mine(Number((await d("PerpMarket").params()).minOrderDelaySec) + 1);
    for (const t of traders) {
      const { priceTime } = await d("PerpMarket").pendingOrder(t.address);
      await send(d("PerpMarket").executeOrder(t.address, await d("ComputePriceOracle").roundAt(priceTime)));
    }
  };
  await send(ctx.as(a)("PerpMarket").commitOrder(wad(100), wad(11)));
  await send(ctx.as(b)("PerpMarket").commitOrder(-wad(40), wad(9)));
  await ctx.checkpoint();
  await execute([a, b]);
  await ctx.checkpoint();

  await mine(3_601);
  await send(feed.setAnswer(wad("10.2") / 10n ** (18n - BigInt(await feed.decimals()))));
  await send(ctx.as(deployer)("PerpMarket").pokeFunding());
  await send(ctx.as(a)("PerpMarket").commitOrder(-wad(30), wad(9)));
  await execute([a]);
  await send(ctx.as(deployer)("PerpMarket").settleFunding(b.address));
  await mine(86_401); // the LP's lock ends
  await send(feed.setAnswer(wad("10.2") / 10n ** (18n - BigInt(await feed.decimals()))));
  await send(
    ctx
      .as(lp)("LiquidityVault")
      .transfer(a.address, (await d("LiquidityVault").balanceOf(lp.address)) / 10n),
  );
  await send(ctx.as(lp)("LiquidityVault").withdraw(usdc(1_000), lp.address, lp.address));
  await ctx.checkpoint();
  // an order nobody executes: after its expiry the deployer cancels it for the fee
  await send(ctx.as(b)("PerpMarket").commitOrder(wad(1), 0));
  await mine(Number((await d("PerpMarket").params()).maxOrderDelaySec) + 1);
  await send(feed.setAnswer(wad("10.2") / 10n ** (18n - BigInt(await feed.decimals()))));
  await send(d("PerpMarket").cancelOrder(b.address));
  await ctx.checkpoint();
}

const big = (x) => BigInt(x ?? 0);

export async function compare(ctx) {
  if (!has(ctx)) return;
  const { replay, at, tag, check } = ctx;
  const perp = ctx.contract("PerpMarket");
  const vault = ctx.contract("LiquidityVault");
  const house = ctx.contract("ClearingHouse");
  const bad = [];
  const m = replay.entity("PerpMarket", ctx.address("PerpMarket"));
  if (m) {
    const s = await perp.marketState(at);
    const pairs = [
      ["fundingIndexWad", m.fundingIndexWad, s.fundingIndexWad],
      // the rate only where an event carried it (FundingSettled does not: reported as a missing event value)
      [
        "fundingRateWad",
        m.fundingRateWad,
        big(m.fundingRateAsOf) === big(m.lastFundingTime) ? s.fundingRateWad : m.fundingRateWad,
      ],
      ["lastFundingTime", m.lastFundingTime, s.lastFundingTime],
      ["longOiCh", m.longOiCh, s.longOiCh],
      ["shortOiCh", m.shortOiCh, s.shortOiCh],
      ["burnReserveUsdc", m.burnReserveUsdc, s.burnReserveUsdc],
      ["keeper bounties owed", big(m.keeperBountiesUsdc) - big(m.keeperClaimedUsdc), s.keeperOwedUsdc],
      ["pending orders", m.pendingOrders, s.pendingOrders],
      ["order fees held", m.orderFeesHeldUsdc, s.orderFeesUsdc],
    ];
    for (const [f, x, y] of pairs) if (big(x) !== big(y)) bad.push(`market ${f} ${x} ≠ ${y}`);
    const p = await perp.params(at);
    if (big(m.takerFeeBps) !== big(p.takerFeeBps) || big(m.skewScaleCh) !== big(p.skewScaleCh)) bad.push("params");
  }
  for (const pos of replay.entities("PerpPosition")) {
    const s = await perp.accountState(pos.account, at);
    if (big(pos.sizeCh) !== s.sizeCh) bad.push(`${pos.account} size ${pos.sizeCh} ≠ ${s.sizeCh}`);
    if (big(pos.fundingSnapshotWad) !== s.fundingSnapshotWad)
      bad.push(`${pos.account} funding snapshot ${pos.fundingSnapshotWad} ≠ ${s.fundingSnapshotWad}`);
    if (big(pos.pendingFundingUsdc) !== s.pendingFundingUsdc) bad.push(`${pos.account} pending funding`);
    const c = await house.positionOf(pos.account, ctx.address("PerpMarket"), at);
    if (big(pos.liquidatedCh) === 0n && big(pos.openNotionalUsdc) !== c.openNotionalUsdc)
      bad.push(`${pos.account} cost basis ${pos.openNotionalUsdc} ≠ ${c.openNotionalUsdc}`);
  }
  const v = replay.entity("LiquidityVaultState", ctx.address("LiquidityVault"));
  if (v) {
    if (big(v.totalShares) !== (await vault.totalSupply(at))) bad.push(`vault shares ${v.totalShares}`);
    if (big(v.idleUsdc) !== (await vault.idleUsdc(at))) bad.push(`vault idle ${v.idleUsdc}`);
    let sum = 0n;
    for (const lp of replay.entities("VaultLP")) {
      const account = "0x" + lp.id.slice(42);
      const onChain = await vault.balanceOf(account, at);
      if (big(lp.shares) !== onChain) bad.push(`LP ${account} shares ${lp.shares} ≠ ${onChain}`);
      sum += big(lp.shares);
    }
    if (sum !== big(v.totalShares)) bad.push(`Σ LP shares ${sum} ≠ ${v.totalShares}`);
  }
  const days = replay.entities("PerpMarketDayData");
  if (m && days.reduce((s, x) => s + Number(x.tradeCount), 0) !== Number(m.tradeCount)) bad.push("Σ daily trades");
  check(
    `perps market, positions and vault match marketState/accountState/positionOf/vault ${tag}`,
    bad.length === 0,
    bad.join("; "),
  );
}
