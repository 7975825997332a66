import { MaxUint256, parseUnits } from "ethers";
import type { BenchSuite } from "./lib.js";
import { Roles, signDeal, signOrder, domainOf, type SpotOrder } from "@chx/sdk";

const WAD = 10n ** 18n;
const CH = 10n ** 18n;
const ZERO = "0x0000000000000000000000000000000000000000";

/**
 * Spot market gas. Steady state: traders already hold CH and USDC, approvals are unlimited, the market already
 * holds pending fees and the TWAP is initialised (a warm-up fill), and each maker's nonce word is in use — the
 * state of a market that is trading. A fresh order (first fill) pays the order-state slot; a second fill does not.
 */
export const spotBench: BenchSuite = {
  name: "spot",
  async run(ctx) {
    const { spot, ch, usdc, dps, accessManager } = ctx.protocol;
    const [maker, taker, matcher, buyer] = ctx.users;
    if (maker === undefined || taker === undefined || matcher === undefined || buyer === undefined) {
      throw new Error("bench needs four users");
    }
    await (await accessManager.grantRole(Roles.CH_MINTER, ctx.deployer.address, 0)).wait();
    const market = await spot.getAddress();
    for (const u of [maker, taker, matcher, buyer]) {
      await (await ch.mint(u.address, parseUnits("1000000", 18))).wait();
      await (await usdc.mint(u.address, parseUnits("100000000", 6))).wait();
      await (await dps.transfer(u.address, parseUnits("100000", 18))).wait();
      await (await ch.connect(u).approve(market, MaxUint256)).wait();
      await (await usdc.connect(u).approve(market, MaxUint256)).wait();
      await (await dps.connect(u).approve(market, MaxUint256)).wait();
    }
    const domain = await domainOf(ctx.connection.ethers.provider, "SpotMarket", market);
    let nonce = 0n;
    const order = (isBuy: boolean, priceWad: bigint, signer = maker): SpotOrder => ({
      maker: signer.address,
      isBuy,
      amountCh: 100n * CH,
      priceWad,
      nonce: ++nonce,
      expiry: 2n ** 40n,
      taker: ZERO,
    });

    // warm-up: pending fees > 0, TWAP initialised, the maker's nonce word in use
    const warm = order(false, 2n * WAD);
    await (await spot.connect(taker).fillOrder(warm, await signOrder(maker, domain, warm), CH)).wait();

    const sell = order(false, 2n * WAD);
    const sellSig = await signOrder(maker, domain, sell);
    await ctx.measure("SpotMarket.fillOrder", spot.connect(taker).fillOrder(sell, sellSig, 10n * CH));
    await ctx.measure("SpotMarket.fillOrder:partial", spot.connect(taker).fillOrder(sell, sellSig, 10n * CH));
    const buy = order(true, 2n * WAD);
    await ctx.measure(
      "SpotMarket.fillOrder:buy",
      spot.connect(taker).fillOrder(buy, await signOrder(maker, domain, buy), 10n * CH),
    );

    const mBuy = order(true, 3n * WAD);
    const mSell = order(false, 2n * WAD, taker);
    await ctx.measure(
      "SpotMarket.matchOrders",
      spot
        .connect(matcher)
        .matchOrders(mBuy, await signOrder(maker, domain, mBuy), mSell, await signOrder(taker, domain, mSell), 5n * CH),
    );

    const deal = {
      seller: maker.address,
      buyer: buyer.address,
      amountCh: 50n * CH,
      priceWad: 2n * WAD,
      nonce: 1n,
      expiry: 2n ** 40n,
    };
    await ctx.measure(
      "SpotMarket.settleDeal:twoSignatures",
      spot.connect(matcher).settleDeal(deal, await signDeal(maker, domain, deal), await signDeal(buyer, domain, deal)),
    );
    const deal2 = { ...deal, nonce: 2n };
    await ctx.measure(
      "SpotMarket.settleDeal:buyerCalls",
      spot.connect(buyer).settleDeal(deal2, await signDeal(maker, domain, deal2), "0x"),
    );

    const c = order(false, 2n * WAD);
    await ctx.measure("SpotMarket.cancelOrder", spot.connect(maker).cancelOrder(c));
    await ctx.measure("SpotMarket.raiseMinNonce", spot.connect(maker).raiseMinNonce(1_000n));
    await ctx.measure("SpotMarket.stakeSeat", spot.connect(taker).stakeSeat(parseUnits("1000", 18)));
    await ctx.measure("SpotMarket.requestUnstake", spot.connect(taker).requestUnstake(parseUnits("400", 18)));
    await ctx.measure("SpotMarket.distributeFees", spot.connect(matcher).distributeFees());
  },
};
