/** Open and close a perpetual position: join a guarantor, deposit margin, trade with a slippage limit, close. */
import { formatCh, formatUsdc, formatWad, parseCh, parseUsdc, WAD } from "@chx/sdk";
import {
  check,
  exampleEnv,
  faucetUsdc,
  guarantorFor,
  run,
  setIndexPrice,
  timeTravel,
  type ExampleEnv,
} from "./_env.js";

/**
 * Perp orders are two-step (docs/perps.md): the commit fixes a price time a few seconds ahead; once the oracle round in
 * force at that time exists anyone (a keeper, or the trader) executes the order at that round's price.
 */
async function fillWhenDue(env: ExampleEnv, me: ReturnType<ExampleEnv["as"]>, account: string): Promise<void> {
  const order = await me.perpMarket.pendingOrder(account);
  const now = BigInt((await env.provider.getBlock("latest"))!.timestamp);
  if (now <= order.priceTime) await timeTravel(env, Number(order.priceTime - now) + 1);
  await (await me.perpMarket.executeOrder(account, await me.oracle.roundAt(order.priceTime))).wait();
}

run("perp", async () => {
  const env = await exampleEnv();
  const trader = env.account(4);
  const me = env.as(4);
  await setIndexPrice(env, 10n * WAD);
  await guarantorFor(env, 9, trader.address); // every account trades under a guarantor (docs/clearing.md)
  // the LP vault backs the perp: a local LP deposits (once)
  const lp = env.as(8);
  if ((await lp.liquidityVault.totalAssets()) === 0n) {
    await faucetUsdc(env, env.account(8).address, "500000");
    await (await lp.usdc.approve(await lp.liquidityVault.getAddress(), parseUsdc("500000"))).wait();
    await (await lp.liquidityVault.deposit(parseUsdc("500000"), env.account(8).address)).wait();
  }
  await faucetUsdc(env, trader.address, "1000");
  await (await me.usdc.approve(await me.clearingHouse.getAddress(), parseUsdc("1000"))).wait();
  await (await me.clearingHouse.deposit(parseUsdc("1000"))).wait();

  const size = parseCh("20"); // + long, − short
  const q = await me.perpMarket.quote(size);
  const limit = (q.fillPriceWad * 10_100n) / 10_000n; // accept 1 % slippage
  await (await me.perpMarket.commitOrder(size, limit)).wait();
  await fillWhenDue(env, me, trader.address);
  const s = await me.perpMarket.accountState(trader.address);
  console.log(
    `long ${formatCh(s.sizeCh)} CH at ~${formatWad(q.fillPriceWad)} USDC/CH (fee ${formatUsdc(q.fee.totalUsdc)} USDC)`,
  );
  check(s.sizeCh === size, "the position is open");

  const q2 = await me.perpMarket.quote(-size);
  await (await me.perpMarket.closePosition((q2.fillPriceWad * 9_900n) / 10_000n)).wait(); // commits the close
  await fillWhenDue(env, me, trader.address);
  check((await me.perpMarket.accountState(trader.address)).sizeCh === 0n, "the position is closed");
  console.log(`closed; collateral now ${formatUsdc(await me.clearingHouse.collateralOf(trader.address))} USDC`);
});
