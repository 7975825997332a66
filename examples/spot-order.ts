/**
 * Sign a spot limit order (EIP-712, domain read from the market) and fill it. The maker sells CH for USDC; the taker
 * fills part of it on chain. The SDK quotes what each side pays and receives, rounded as the market rounds.
 */
import {
  domainOf,
  formatUsdc,
  hashTypedData,
  parseCh,
  parseWad,
  signTypedData,
  typedData,
  type SpotOrder,
} from "@chx/sdk";
import { check, exampleEnv, faucetCh, faucetUsdc, run } from "./_env.js";

run("spot-order", async () => {
  const env = await exampleEnv();
  const maker = env.account(2);
  const taker = env.account(3);
  const m = env.as(2).spot;
  const market = await m.getAddress();
  await faucetCh(env, maker.address, parseCh("100"));
  await faucetUsdc(env, taker.address, "1000");
  await (await env.as(2).ch.approve(market, parseCh("100"))).wait();
  await (await env.as(3).usdc.approve(market, 2n ** 255n)).wait();

  const now = (await env.provider.getBlock("latest"))!.timestamp; // the chain's clock, not the wall clock
  const order: SpotOrder = {
    maker: maker.address,
    isBuy: false,
    amountCh: parseCh("50"),
    priceWad: parseWad("2.5"),
    nonce: BigInt(Date.now()),
    expiry: BigInt(now + 3_600),
    taker: "0x0000000000000000000000000000000000000000",
  };
  const td = typedData("Order", await domainOf(maker, "SpotMarket", market), order); // what a wallet shows
  const signature = await signTypedData(maker, td);
  console.log(`order ${hashTypedData(td)} signed by ${maker.address}`);

  const before = await env.as(3).usdc.balanceOf(taker.address);
  await (await env.as(3).spot.fillOrder(order, signature, parseCh("20"))).wait();
  const paid = before - (await env.as(3).usdc.balanceOf(taker.address));
  console.log(`taker bought 20 CH for ${formatUsdc(paid)} USDC (50 USDC + the taker fee)`);
  check((await env.as(3).ch.balanceOf(taker.address)) >= parseCh("20"), "the taker received the CH");
  check(paid >= 50_000_000n, "the taker paid at least 20 × 2.5 USDC");
});
