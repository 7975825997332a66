/**
 * Buy an option from a signed offer and exercise it after expiry. A writer signs an offer to sell puts (it writes them
 * in the fill, posting collateral); the buyer fills it; after expiry anyone fixes the settlement price and, after the
 * dispute window, the holder is paid.
 */
import { domainOf, formatUsdc, OptionKind, parseCh, parseUsdc, signOffer, WAD, type OptionsOffer } from "@chx/sdk";
import { check, exampleEnv, faucetUsdc, run, setIndexPrice, timeTravel } from "./_env.js";

run("option", async () => {
  const env = await exampleEnv();
  const admin = env.as(0);
  const writer = env.account(5);
  const buyer = env.account(6);
  await setIndexPrice(env, 10n * WAD);
  for (const w of [writer, buyer]) {
    await faucetUsdc(env, w.address, "10000");
    const p = env.as(w === writer ? 5 : 6);
    await (await p.usdc.approve(await p.clearingHouse.getAddress(), parseUsdc("10000"))).wait();
    await (await p.clearingHouse.deposit(parseUsdc("10000"))).wait();
  }
  // a put struck at 9, expiring in a day (local: listed by governance, the deployer)
  const now = (await env.provider.getBlock("latest"))!.timestamp;
  const expiry = BigInt(now + 86_400);
  await (
    await admin.options.listSeries({
      kind: OptionKind.Put,
      onFutures: false,
      futuresSeriesId: 0,
      expiry,
      strikeWad: 9n * WAD,
      capWad: 0,
    })
  ).wait();
  const seriesId = await admin.options.seriesCount();

  const market = await admin.options.getAddress();
  const offer: OptionsOffer = {
    maker: writer.address,
    seriesId,
    isBuy: false, // the maker sells
    sizeCh: parseCh("10"),
    premiumWad: WAD / 5n, // 0.2 USDC per CH of option
    nonce: 1n,
    expiry,
    taker: "0x0000000000000000000000000000000000000000",
  };
  const signature = await signOffer(writer, await domainOf(writer, "OptionsMarket", market), offer);
  await (await env.as(6).options.fillOffer(offer, signature, parseCh("10"))).wait();
  check((await admin.options.positionOf(seriesId, buyer.address)).longCh === parseCh("10"), "the buyer holds 10 puts");

  await timeTravel(env, 86_400 + 1);
  await setIndexPrice(env, 8n * WAD); // the put ends 1 USDC in the money
  await (await env.as(7).options.fixSettlementPrice(seriesId)).wait();
  const window = (await admin.options.params()).disputeWindowSec;
  await timeTravel(env, Number(window) + 1);
  const before = await admin.clearingHouse.collateralOf(buyer.address);
  await (await env.as(6).options.exercise(seriesId, buyer.address)).wait();
  const paid = (await admin.clearingHouse.collateralOf(buyer.address)) - before;
  console.log(`exercised 10 puts: paid ${formatUsdc(paid)} USDC into the buyer's margin account`);
  check(paid > 0n && paid <= parseUsdc("10"), "the payoff is 10 × (9 − 8) USDC less the settlement bounty");
});
