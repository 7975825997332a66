import { parseUnits, type Signer } from "ethers";
import type { NetworkConnection } from "hardhat/types/network";
import { MockFuturesVault__factory } from "../../types/ethers-contracts/index.js";
import { OptionKind, Roles, type Protocol } from "@chx/sdk";
import type { BenchSuite } from "./lib.js";

/**
 * A perp order filled as the market fills them (issue 17 item 15): `signer` commits `sizeCh` with `limitWad`, the
 * chain's clock passes the order's price time, and `signer` executes it at the oracle round then in force.
 */
export async function perpFill(
  connection: NetworkConnection,
  p: Protocol,
  signer: Signer,
  sizeCh: bigint,
  limitWad: bigint,
): Promise<void> {
  const perp = p.perpMarket.connect(signer);
  await (await perp.commitOrder(sizeCh, limitWad)).wait();
  const account = await signer.getAddress();
  const { priceTime } = await perp.pendingOrder(account);
  const { time } = connection.networkHelpers;
  if (BigInt(await time.latest()) <= priceTime) await time.increaseTo(priceTime + 1n);
  await (await perp.executeOrder(account, await p.oracle.roundAt(priceTime))).wait();
}

/**
 * A futures trade against the vault the way it happens on chain (two-step order, docs/futures.md): commits `sizeCh` of
 * `seriesId` (0: closes the position), waits to the price time + 1 and executes at the round in force.
 */
export async function futuresFill(
  connection: NetworkConnection,
  p: Protocol,
  signer: Signer,
  seriesId: bigint,
  sizeCh: bigint,
  limitWad: bigint,
): Promise<void> {
  const futures = p.futures.connect(signer);
  if (sizeCh === 0n) await (await futures.closePosition(seriesId, limitWad)).wait();
  else await (await futures.commitOrder(seriesId, sizeCh, limitWad)).wait();
  const account = await signer.getAddress();
  const { priceTime } = await futures.pendingOrder(seriesId, account);
  const { time } = connection.networkHelpers;
  if (BigInt(await time.latest()) <= priceTime) await time.increaseTo(priceTime + 1n);
  await (await futures.executeOrder(account, seriesId, await p.oracle.roundAt(priceTime))).wait();
}

const usdc = (v: string): bigint => parseUnits(v, 6);
const wad = (v: string): bigint => parseUnits(v, 18);
const DAY = 86_400n;

/**
 * A 20-position account: a perp position, four futures series (their net ClearingHouse position is a row too) and
 * fourteen options series written, on the deployed protocol. Used by the bench (`AccountLens.portfolio:20positions`)
 * and the lens tests. Returns the account.
 */
export async function twentyPositionAccount(
  connection: NetworkConnection,
  p: Protocol,
  admin: Signer,
  users: Signer[],
): Promise<{ account: Signer; guarantor: Signer; setPrice: (priceWad: bigint) => Promise<void> }> {
  const [g, trader, lp] = users;
  if (g === undefined || trader === undefined || lp === undefined) throw new Error("need three users");
  const feed = p.chIndexFeed;
  if (feed === undefined) throw new Error("no mock CH index feed");
  const scale = 10n ** (18n - (await feed.decimals()));
  const setPrice = async (priceWad: bigint) => {
    await (await feed.connect(admin).setAnswer(priceWad / scale)).wait();
  };
  await setPrice(wad("10"));
  const adminAddr = await admin.getAddress();
  const t = await trader.getAddress();
  const gAddr = await g.getAddress();
  // guarantor with capital, the trader admitted with collateral and CH
  const [minDps] = await p.guarantorPool.params();
  await (await p.dps.connect(admin).transfer(gAddr, minDps)).wait();
  await (await p.guarantorPool.connect(g).registerGuarantor(true, usdc("1000000"))).wait();
  await (await p.dps.connect(g).approve(await p.guarantorPool.getAddress(), minDps)).wait();
  await (await p.guarantorPool.connect(g).stakeDps(minDps)).wait();
  await (await p.usdc.connect(admin).mint(gAddr, usdc("1000000"))).wait();
  await (await p.usdc.connect(g).approve(await p.guarantorPool.getAddress(), usdc("1000000"))).wait();
  await (await p.guarantorPool.connect(g).depositCapital(gAddr, usdc("1000000"))).wait();
  await (await p.guarantorPool.connect(g).admitCustomer(t, usdc("1000000"))).wait();
  await (await p.usdc.connect(admin).mint(t, usdc("200000"))).wait();
  await (await p.usdc.connect(trader).approve(await p.clearingHouse.getAddress(), usdc("200000"))).wait();
  await (await p.clearingHouse.connect(trader).deposit(usdc("200000"))).wait();
  // perp: the LP vault backs it
  await (await p.accessManager.connect(admin).grantRole(Roles.KEEPER, adminAddr, 0)).wait();
  await (await p.usdc.connect(admin).mint(await lp.getAddress(), usdc("1000000"))).wait();
  await (await p.usdc.connect(lp).approve(await p.liquidityVault.getAddress(), usdc("1000000"))).wait();
  await (await p.liquidityVault.connect(lp).deposit(usdc("1000000"), await lp.getAddress())).wait();
  await (await p.liquidityVault.connect(admin).allocate(await p.perpMarket.getAddress(), usdc("500000"))).wait();
  await perpFill(connection, p, trader, wad("10"), wad("11"));
  // futures: a funded stand-in vault, four series, a long in each
  const f = await p.futures.getAddress();
  const vault = await new MockFuturesVault__factory(admin).deploy(await p.usdc.getAddress());
  await vault.waitForDeployment();
  await (await p.futures.connect(admin).setVault(await vault.getAddress())).wait();
  await (await p.usdc.connect(admin).mint(adminAddr, usdc("1000000"))).wait();
  await (await p.usdc.connect(admin).approve(await vault.getAddress(), usdc("1000000"))).wait();
  await (await vault.connect(admin).fund(f, usdc("1000000"))).wait();
  const now = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp);
  for (let i = 0n; i < 4n; i++) {
    await (await p.futures.connect(admin).listSeries(now + 60n * DAY + i * 3_600n, 0)).wait();
    const [id] = await p.futures.seriesCount();
    await futuresFill(connection, p, trader, id, wad("5"), wad("20"));
  }
  // options: fourteen cash-settled puts, one CH written in each
  for (let i = 0n; i < 14n; i++) {
    await (
      await p.options.connect(admin).listSeries({
        kind: OptionKind.Put,
        onFutures: false,
        futuresSeriesId: 0,
        expiry: now + 7n * DAY + i * 3_600n,
        strikeWad: wad("9"),
        capWad: 0,
      })
    ).wait();
    await (await p.options.connect(trader).write(await p.options.seriesCount(), wad("1"))).wait();
  }
  return { account: trader, guarantor: g, setPrice };
}

/** The AccountLens: `eth_call` gas of a portfolio of 20 positions (estimateGas of the call). */
export const lensBench: BenchSuite = {
  name: "lens",
  async run(ctx) {
    const p = ctx.protocol;
    const lens = p.accountLens;
    if (lens === undefined) throw new Error("AccountLens is not deployed");
    const { account } = await twentyPositionAccount(ctx.connection, p, ctx.deployer, ctx.users);
    const who = await account.getAddress();
    const pf = await lens.portfolio(who);
    if (pf.positions.length !== 20) throw new Error(`expected 20 positions, the lens shows ${pf.positions.length}`);
    const data = lens.interface.encodeFunctionData("portfolio", [who]);
    ctx.set(
      "AccountLens.portfolio:20positions",
      await ctx.connection.ethers.provider.estimateGas({ to: await lens.getAddress(), data }),
    );
    const data1 = lens.interface.encodeFunctionData("maxWithdrawable", [who]);
    ctx.set(
      "AccountLens.maxWithdrawable:20positions",
      await ctx.connection.ethers.provider.estimateGas({ to: await lens.getAddress(), data: data1 }),
    );
  },
};
